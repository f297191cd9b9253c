"""What a decoupled tree's selection shows: the selected path as moves, where the players draw,
the path each Smitsimax tree follows, and the C a rule starts at for an input."""

from __future__ import annotations

from ..model.tree import ROOT, Tree
from ..selection import DEFAULT_RULE, selected_nodes
from .decoupled_tree import DecoupledTree
from .joint_selection import score_own_moves, selected_path
from .rules import SIMULTANEOUS_RULES, JointScoring

GAMMA = 0.1  # regret matching's and EXP3's γ when the input states none that fits (γ <= 1)


def selected_moves(dtree: DecoupledTree, scoring: JointScoring) -> list:
    """The selected path's moves, root first: a joint move as a list of the players' moves, a
    sequential one as its name (JSON-ready). Empty when the root is a leaf.

    Raises:
        ValueError: the rule cannot score this tree (regret matching on a tree dump).
    """
    return [
        list(step.joint) if step.joint is not None else dtree.tree.move[step.child]
        for step in selected_path(dtree, scoring)
        if step.child is not None or step.joint is not None
    ]


def players_draw(dtree: DecoupledTree, node: int, scoring: JointScoring) -> bool:
    """True when some player draws its move at ``node`` rather than taking the best (σ, or below a
    sample threshold): a pick shown there is only the most likely move."""
    return scoring.regret_based or any(
        scores[0].random for scores in (score_own_moves(dtree, node, p, scoring) for p in range(dtree.players)) if scores
    )


def smitsimax_path(tree: Tree, scoring: JointScoring) -> list[int]:
    """The path a player's Smitsimax tree follows: the rule's, or the most visited children under
    regret matching and EXP3 (they score only simultaneous moves)."""
    if not scoring.regret_based:
        return selected_nodes(tree, scoring.sequential)
    path = [ROOT]
    while len(tree.children[path[-1]]):
        path.append(tree.ranked_children(path[-1])[0])
    return path


def starting_c(rule: str, stated_c: float | None) -> tuple[float, float]:
    """(C, γ) to start at for an input searched with ``rule`` that states ``stated_c``: the stated
    value where it belongs (γ only up to 1), else the rule's default C (the default rule's for a regret rule) and
    :data:`GAMMA`."""
    regret = rule in SIMULTANEOUS_RULES
    c = stated_c if stated_c is not None and not regret else JointScoring.of(DEFAULT_RULE if regret else rule).c
    gamma = stated_c if regret and stated_c is not None and stated_c <= 1 else GAMMA
    return c, gamma
