"""Writing a tree as a JSON tree dump (the format :mod:`mcts_core.inputs.formats.tree_json` reads), with
each node's pick: one node per line, without recursion (trees can be deep)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, TextIO

from ...model.tree import ROOT, Tree

def write_tree_json(
    tree: Tree, out: TextIO, *, c: float | None = None, rule: str | None = None, settings=None, selected=None,
    decoupled=None, header_extra: dict | None = None, flips=None,
) -> None:
    """Write ``tree`` as a tree dump, one node per line, without recursion (trees can be deep).

    Args:
        tree: the tree.
        out: where to write.
        c: the header's C.
        rule: the header's rule name.
        settings: the rule's settings besides C (per-move values as objects).
        selected: ``node -> chosen child`` (or None) to write each node's ``"selected"`` move.
        decoupled: a :class:`~mcts_core.simultaneous.decoupled_tree.DecoupledTree` of ``tree``: its
            simultaneous nodes are written with ``"simultaneous": true`` and ``"decoupled"``, their
            children's moves as arrays, and (with ``selected`` and ``c``) the joint move the rule
            picks there as ``"selected"``.
        header_extra: more header keys (``"algorithm"``, ``"game"``).
        flips: ``node -> {child: count}`` (:func:`mcts_core.analysis.visits_to_flip`) to write each
            child's ``"visits_to_flip"`` (null: never), absent for a child the mapping leaves out.
    """
    header: dict[str, Any] = {"mcts_tree": 1, "players": tree.players, "ties": tree.ties}
    if c is not None:
        header["c"] = c
    if rule is not None:
        header["rule"] = rule
    if settings:
        header["settings"] = {name: dict(value) if hasattr(value, "items") else value for name, value in settings.items()}
    if header_extra:
        header.update(header_extra)
    joint_choice = None
    if decoupled is not None and selected is not None and c is not None:
        joint_choice = _joint_chooser(decoupled, rule, c, settings)
    out.write(json.dumps(header)[:-1] + ', "root":\n')
    for piece in _node_pieces(tree, selected, decoupled, joint_choice, flips):
        out.write(piece)
    out.write("}\n")


def _joint_chooser(decoupled, rule: str | None, c: float, settings):
    """``node -> the joint move the rule picks`` at simultaneous nodes (None where it cannot say)."""
    from ...selection import DEFAULT_RULE
    from ...simultaneous.rules import JointScoring
    from ...simultaneous.joint_selection import select_joint

    scoring = JointScoring(rule or DEFAULT_RULE, c, dict(settings or {}))

    def choose(node: int):
        try:
            return select_joint(decoupled, node, scoring)
        except ValueError:  # regret matching on a dump: no simulations to replay
            return None

    return choose


def _node_pieces(tree: Tree, selected, decoupled=None, joint_choice=None, flips=None) -> Iterator[str]:
    """The root NODE as JSON text, piece by piece, in depth-first order."""
    stack: list[tuple[int, int]] = [(ROOT, 0)]  # (node, how many of its children are written)
    flip_of: dict[int, int | None] = {}  # the counts of the children of the nodes on the stack
    while stack:
        node, done = stack.pop()
        kids = tree.children[node]
        if done == 0:
            fields = _node_fields(tree, node, selected)
            if node in flip_of:
                fields["visits_to_flip"] = flip_of.pop(node)
            if flips is not None and len(kids):
                flip_of.update(flips(node))
            if decoupled is not None:
                _simultaneous_fields(decoupled, node, fields, joint_choice)
            yield "  " * tree.depth[node] + json.dumps(fields, ensure_ascii=False)[:-1]
            if not len(kids):
                yield "}"
                continue
            yield ', "children": [\n'
        elif done < len(kids):
            yield ",\n"
        if done == len(kids):
            yield "]}"
            continue
        stack.append((node, done + 1))
        stack.append((kids[done], 0))


def _simultaneous_fields(decoupled, node: int, fields: dict, joint_choice) -> None:
    """A joint move as an array; a simultaneous node's flag, own-move lists and joint pick."""
    joint = decoupled.joint_move(node)
    if joint is not None:
        fields["move"] = list(joint)
    if not decoupled.is_simultaneous(node):
        return
    fields["simultaneous"] = True
    fields["decoupled"] = [
        [{"move": m.move, "visits": m.visits, "total": m.total} for m in decoupled.own_moves(node, player)]
        for player in range(decoupled.players)
    ]
    fields.pop("selected", None)
    if joint_choice is not None:
        choice = joint_choice(node)
        if choice is not None:
            fields["selected"] = list(choice)


def _node_fields(tree: Tree, node: int, selected) -> dict:
    fields: dict[str, Any] = {"move": tree.move[node] if node else None, "visits": tree.visits[node]}
    fields["total"] = tree.total[node]
    fields["player"] = tree.player[node]
    prior, outcome = tree.prior_of(node), tree.outcome_of(node)
    if prior is not None:
        fields["prior"] = prior
    if tree.is_chance(node):
        fields["chance"] = True
    if tree.is_terminal(node):
        fields["terminal"] = True
    if outcome is not None:
        fields["outcome"] = outcome if tree.players == 1 else _outcome_list(tree, node, outcome)
    if selected is not None:
        choice = selected(node)
        if choice is not None:
            fields["selected"] = tree.move[choice]
    return fields


def _outcome_list(tree: Tree, node: int, outcome: float) -> Any:
    """A 2-player outcome as player 0's number (the other is its negation); more players: unknown."""
    return outcome if tree.mover(node) == 0 else -outcome
