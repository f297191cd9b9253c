"""The MCTS tree as JSON: a finished tree from an engine (read), or our export with each node's pick.

``{"mcts_tree": 1, "players": 2, "ties": "first", "c": 2.0, "rule": "puct", "root": NODE}`` where
NODE is ``{"move": "e2e4", "visits": 10, "total": 3.5, "player": 1, "prior": 0.1, "chance": false,
"terminal": false, "outcome": x or [x, y], "children": [NODE, ...]}``: ``move`` is null for the root;
``value`` (a mean) may stand instead of ``total`` (the total is then ``value * visits``); totals are
from the view of the player who moved into the node; children in the engine's order; 0 visits
allowed. Every key but ``visits`` (and ``move`` below the root) is optional. Our export adds
``"selected": move`` on every node with children. Errors name the line of the node at fault.
"""

from __future__ import annotations

import json
import math
import sys
from array import array
from collections.abc import Iterator
from typing import Any, TextIO

from ..selection.registry import RULES, settings_problem
from ..playouts import TIES
from ..tree import CHANCE, NO_PARENT, NO_PLAYOUT, ROOT, TERMINAL, Tree
from .common import MAX_MOVES, MAX_PLAYERS, MAX_PLAYOUTS, ParseError
from .log import is_compact, narrow_ids

HEADER_KEYS = ("mcts_tree", "players", "ties", "c", "rule", "settings", "root")
NODE_KEYS = (
    "move", "visits", "total", "value", "player", "prior", "chance", "terminal", "outcome", "children", "selected",
)


def looks_like_tree(text: str) -> bool:
    """Whether ``text`` is a JSON object that names ``mcts_tree`` near its start."""
    head = text.lstrip()[:200]
    return head.startswith("{") and '"mcts_tree"' in head


class _NodeProblem(Exception):
    """A bad node: where it is (child indices from the root; None: the header) and what is wrong."""

    def __init__(self, where: tuple[int, ...] | None, message: str):
        super().__init__(message)
        self.where, self.message = where, message


def parse_tree_json(text: str, *, max_nodes: int = MAX_PLAYOUTS) -> tuple[Tree, float | None, str | None, dict]:
    """Read a tree dump.

    Returns:
        The tree, the header's C (None if absent), its rule name (None if absent) and that rule's
        settings besides C.

    Raises:
        ParseError: malformed JSON, or the first bad node, naming its line and key.
    """
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 2 * MAX_MOVES + 200))  # a node per level of nesting
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise ParseError(error.lineno, f"not valid JSON: {error.msg} (column {error.colno})") from None
    except RecursionError:
        raise ParseError(1, f"the tree is nested too deeply: at most {MAX_MOVES:,} levels") from None
    finally:
        sys.setrecursionlimit(limit)
    if not isinstance(document, dict) or document.get("mcts_tree") != 1:
        raise ParseError(1, 'a tree dump is a JSON object starting {"mcts_tree": 1, ...}')
    try:
        return _read(document, max_nodes)
    except _NodeProblem as problem:
        raise ParseError(_line_of(text, problem.where), problem.message) from None


def _read(document: dict, max_nodes: int) -> tuple[Tree, float | None, str | None, dict]:
    unknown = [key for key in document if key not in HEADER_KEYS]
    if unknown:
        raise _NodeProblem(None, f'unknown key "{unknown[0]}" in the header; known keys: {", ".join(HEADER_KEYS)}')
    players = document.get("players", 1)
    if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= MAX_PLAYERS:
        raise _NodeProblem(None, f'key "players": expected a whole number from 1 to {MAX_PLAYERS}, got {players!r}')
    ties = document.get("ties", "smaller")
    if ties not in TIES:
        raise _NodeProblem(None, f'key "ties": expected "smaller" or "first", got {ties!r}')
    c = document.get("c")
    if c is not None:
        c = _number(c, None, "c")
        if c < 0:
            raise _NodeProblem(None, f'key "c": C must be a finite number >= 0, got {c!r}')
    rule = document.get("rule")
    if rule is not None and rule not in RULES:
        raise _NodeProblem(None, f'key "rule": expected one of {", ".join(RULES)}, got {rule!r}')
    settings = document.get("settings", {})
    if not isinstance(settings, dict) or (settings and rule is None):
        raise _NodeProblem(None, 'key "settings": expected an object of the "rule"\'s settings')
    problem = settings_problem(rule, settings) if settings else None
    if problem is not None:
        raise _NodeProblem(None, f'key "settings": {problem}')
    root = document.get("root")
    if not isinstance(root, dict):
        raise _NodeProblem(None, 'key "root": expected the root node, an object {"visits": ..., "children": [...]}')
    return _Columns(players, ties).read(root, max_nodes), c, rule, settings


class _Columns:
    """The tree's columns, filled node by node in depth-first order (parents before children)."""

    def __init__(self, players: int, ties: str):
        self.players, self.ties = players, ties
        self.ids: dict[str, int] = {}
        self.parent, self.move_id, self.depth = array("i"), array("i"), array("i")
        self.visits, self.total, self.total_sq = array("q"), array("d"), array("d")
        self.player, self.flags = array("b"), array("B")
        self.prior, self.outcome = array("d"), array("d")
        self.kids: list[list[int]] = []

    def read(self, root: dict, max_nodes: int) -> Tree:
        stack: list[tuple[dict, int, tuple[int, ...]]] = [(root, NO_PARENT, ())]
        while stack:
            node, parent, where = stack.pop()
            if len(self.parent) >= max_nodes:
                raise _NodeProblem(where, f"too many nodes: at most {max_nodes:,} are supported")
            number = self._node(node, parent, where)
            children = node.get("children", [])
            if not isinstance(children, list):
                raise _NodeProblem(where, 'key "children": expected a list of nodes')
            if children and len(where) >= MAX_MOVES:
                raise _NodeProblem(where, f"the tree is deeper than {MAX_MOVES:,} moves")
            for index in range(len(children) - 1, -1, -1):  # pushed in reverse: popped in order
                child = children[index]
                if not isinstance(child, dict):
                    raise _NodeProblem(where, f'key "children": child {index + 1} is not an object')
                stack.append((child, number, (*where, index)))
        return self._tree()

    def _node(self, node: dict, parent: int, where: tuple[int, ...]) -> int:
        unknown = [key for key in node if key not in NODE_KEYS]
        if unknown:
            raise _NodeProblem(where, f'unknown key "{unknown[0]}" in a node; known keys: {", ".join(NODE_KEYS)}')
        number = len(self.parent)
        move = node.get("move")
        if parent == NO_PARENT:
            if move is not None:
                raise _NodeProblem(where, 'key "move": the root has no move (null)')
            move_id, depth = 0, 0
        else:
            if not isinstance(move, str) or not move:
                raise _NodeProblem(where, f'key "move": expected a non-empty string, got {move!r}')
            move_id = self.ids.setdefault(move, len(self.ids))
            if any(self.move_id[kid] == move_id for kid in self.kids[parent]):
                raise _NodeProblem(where, f'key "move": {move!r} is already a child of this node')
            depth = self.depth[parent] + 1
            self.kids[parent].append(number)
        visits = node.get("visits")
        if isinstance(visits, bool) or not isinstance(visits, int) or visits < 0:
            raise _NodeProblem(where, f'key "visits": expected a whole number >= 0, got {visits!r}')
        if "total" in node and "value" in node:
            raise _NodeProblem(where, 'give "total" or "value" (a mean), not both')
        if "value" in node:
            total = _number(node["value"], where, "value") * visits
        else:
            total = _number(node.get("total", 0.0), where, "total")
        player = node.get("player", depth % self.players)
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.players:
            raise _NodeProblem(where, f'key "player": expected a player from 0 to {self.players - 1}, got {player!r}')
        flags = (CHANCE if _flag(node, "chance", where) else 0) | (TERMINAL if _flag(node, "terminal", where) else 0)
        prior = math.nan
        if node.get("prior") is not None:
            prior = _number(node["prior"], where, "prior")
            if prior < 0:
                raise _NodeProblem(where, f'key "prior": a prior must be >= 0, got {prior!r}')
        outcome = math.nan
        if node.get("outcome") is not None:
            mover = self.player[parent] if parent != NO_PARENT else player
            outcome = self._per_player(node["outcome"], where, "outcome")[mover]
        self.parent.append(parent)
        self.move_id.append(move_id)
        self.depth.append(depth)
        self.visits.append(visits)
        self.total.append(total)
        self.total_sq.append(math.nan)  # a dump has no squared sums
        self.player.append(player)
        self.flags.append(flags)
        self.prior.append(prior)
        self.outcome.append(outcome)
        self.kids.append([])
        return number

    def _per_player(self, value: Any, where: tuple[int, ...], key: str) -> tuple[float, ...]:
        if isinstance(value, list):
            if len(value) != self.players:
                raise _NodeProblem(where, f'key "{key}": expected {self.players} numbers (one per player)')
            return tuple(_number(item, where, key) for item in value)
        x = _number(value, where, key)
        if self.players > 2:
            raise _NodeProblem(where, f'key "{key}": with {self.players} players give a list, one per player')
        return (x,) if self.players == 1 else (x, -x)

    def _tree(self) -> Tree:
        start, flat = array("i", [0]), array("i")
        for kids in self.kids:
            flat.extend(kids)
            start.append(len(flat))
        moves = tuple(self.ids)
        count = len(self.parent)
        has = lambda column: any(not math.isnan(x) for x in column)  # noqa: E731
        return Tree(
            moves=moves,
            parent=self.parent,
            move_id=narrow_ids(self.move_id, len(moves)),
            depth=self.depth,
            visits=self.visits,
            total=self.total,
            total_sq=self.total_sq,
            created_by=array("i", [NO_PLAYOUT]) * count,
            child_start=start,
            child_list=flat,
            reached=array("i"),
            player=self.player,
            flags=self.flags,
            prior=self.prior if has(self.prior) else None,
            outcome=self.outcome if has(self.outcome) else None,
            players=self.players,
            ties=self.ties,
            compact=is_compact(moves),
        )


def _number(value: Any, where: tuple[int, ...] | None, key: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _NodeProblem(where, f'key "{key}": expected a number, got {value!r}')
    try:
        result = float(value)
    except OverflowError:
        result = math.inf
    if not math.isfinite(result):
        raise _NodeProblem(where, f'key "{key}": must be a finite number, got {value!r}')
    return result


def _flag(node: dict, key: str, where: tuple[int, ...]) -> bool:
    value = node.get(key, False)
    if not isinstance(value, bool):
        raise _NodeProblem(where, f'key "{key}": expected true or false, got {value!r}')
    return value


def _line_of(text: str, where: tuple[int, ...] | None) -> int:
    """The line where the node at ``where`` (child indices from the root) starts in ``text``;
    for the header (None), the line of the document's first brace.

    Only called for an error: it parses the text again with the pure-Python scanner, which can
    report where each object starts.
    """
    starts: dict[int, int] = {}
    decoder = json.JSONDecoder()

    def parse_object(string_and_end, *rest):
        result, end = json.decoder.JSONObject(string_and_end, *rest)
        starts[id(result)] = string_and_end[1] - 1  # the position of its "{"
        return result, end

    decoder.parse_object = parse_object
    decoder.scan_once = json.scanner.py_make_scanner(decoder)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * MAX_MOVES + 400))  # the Python scanner nests deeper
    try:
        document = decoder.decode(text)
    finally:
        sys.setrecursionlimit(limit)
    node = document
    if where is not None:
        node = document["root"]
        for index in where:
            node = node["children"][index]
    return text.count("\n", 0, starts.get(id(node), 0)) + 1


def write_tree_json(
    tree: Tree, out: TextIO, *, c: float | None = None, rule: str | None = None, settings=None, selected=None
) -> None:
    """Write ``tree`` as a tree dump, one node per line, without recursion (trees can be deep).

    Args:
        tree: the tree.
        out: where to write.
        c: the header's C.
        rule: the header's rule name.
        settings: the rule's settings besides C (per-move values as objects).
        selected: ``node -> chosen child`` (or None) to write each node's ``"selected"`` move.
    """
    header: dict[str, Any] = {"mcts_tree": 1, "players": tree.players, "ties": tree.ties}
    if c is not None:
        header["c"] = c
    if rule is not None:
        header["rule"] = rule
    if settings:
        header["settings"] = {name: dict(value) if hasattr(value, "items") else value for name, value in settings.items()}
    out.write(json.dumps(header)[:-1] + ', "root":\n')
    for piece in _node_pieces(tree, selected):
        out.write(piece)
    out.write("}\n")


def _node_pieces(tree: Tree, selected) -> Iterator[str]:
    """The root NODE as JSON text, piece by piece, in depth-first order."""
    stack: list[tuple[int, int]] = [(ROOT, 0)]  # (node, how many of its children are written)
    while stack:
        node, done = stack.pop()
        kids = tree.children[node]
        if done == 0:
            yield "  " * tree.depth[node] + json.dumps(_node_fields(tree, node, selected), ensure_ascii=False)[:-1]
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
