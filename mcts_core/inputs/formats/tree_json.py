"""The MCTS tree as JSON: a finished tree from an engine (read), or our export with each node's pick.

``{"mcts_tree": 1, "players": 2, "ties": "first", "c": 2.0, "rule": "puct", "root": NODE}`` where
NODE is ``{"move": "e2e4", "visits": 10, "total": 3.5, "player": 1, "prior": 0.1, "chance": false,
"terminal": false, "outcome": x or [x, y], "children": [NODE, ...]}``: ``move`` is null for the root;
``value`` (a mean) may stand instead of ``total`` (the total is then ``value * visits``); totals are
from the view of the player who moved into the node; children in the engine's order; 0 visits
allowed. Every key but ``visits`` (and ``move`` below the root) is optional; a node without
``player`` has the player after its parent's (player 0 at the root). Our export adds
``"selected": move`` on every node with children and ``"visits_to_flip"`` on every child but
the selected one (both read and ignored). Errors name the line of the node at fault.

Simultaneous moves: a decoupled node carries ``"simultaneous": true`` and ``"decoupled"``, one list
per player of that player's own moves at the node, ``[{"move": "R", "visits": 7, "total": 2.0},
...]`` (``value``, a mean, may stand for ``total``; totals from that player's view); its
children's ``move`` is an array with one move per player, ``["R", "P"]``, and their ``total`` is
from the view of the node's ``player``. A simultaneous node with children needs ``decoupled``;
own moves its joint children use but its lists leave out get 0 visits. The header may say
``"algorithm"`` and ``"game"`` as a log's does, and its ``rule`` may be ``regret_matching`` or
``exp3``. :func:`read_tree_dump` gives the :class:`~mcts_core.simultaneous.decoupled_tree.DecoupledTree`
too; :func:`mcts_core.inputs.formats.tree_json_writer.write_tree_json` writes it when given one.
"""

from __future__ import annotations

import json
import math
import sys
from array import array
from typing import Any

from ...model.build import next_player
from ...model.playouts import is_compact, narrow_ids
from ...selection.registry import SIMULTANEOUS_RULES
from ...simultaneous.joint import JointMoves, SimultaneousLog, joint_name
from ...model.tree import CHANCE, NO_PARENT, NO_PLAYOUT, TERMINAL, Tree
from ...common.input_rules import MAX_MOVES, MAX_PLAYOUTS, ParseError
from ...common.json_input import key_text, load_json, long_integer, shown
from ...common.numbers import is_finite_number
from .header import HeaderProblem, header_values

HEADER_KEYS = ("mcts_tree", "players", "ties", "c", "rule", "settings", "algorithm", "game", "root")
NODE_KEYS = (
    "move", "visits", "total", "value", "player", "prior", "chance", "terminal", "outcome", "children", "selected",
    "visits_to_flip", "simultaneous", "decoupled",
)
OWN_MOVE_KEYS = ("move", "visits", "total", "value")
# Levels of JSON nesting read beyond the caller's recursion depth: two per tree level (a node and
# its children's list), and room for the header. The pure-Python scanner that finds an error's
# line spends up to this many frames per level.
JSON_LEVELS = 2 * MAX_MOVES + 200
PYTHON_FRAMES_PER_LEVEL = 5


def looks_like_tree(text: str) -> bool:
    """Whether ``text`` is a JSON object that names ``mcts_tree`` near its start."""
    head = text.lstrip()[:200]
    return head.startswith("{") and '"mcts_tree"' in head


class _NodeProblem(Exception):
    """A bad node: where it is (child indices from the root; None: the header) and what is wrong."""

    def __init__(self, where: tuple[int, ...] | None, message: str):
        super().__init__(message)
        self.where, self.message = where, message


def read_tree_dump(text: str, *, max_nodes: int = MAX_PLAYOUTS):
    """Read a tree dump.

    Returns:
        The tree (a simultaneous dump's joint tree), the header's C (None if absent), its rule name
        (None if absent), that rule's settings besides C, then ``(decoupled tree, what the header
        says about the search)`` when it has simultaneous nodes, else None.

    Raises:
        ParseError: malformed JSON, or the first bad node, naming its line and key.
    """
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(limit + JSON_LEVELS)
    try:
        document = load_json(text, too_deep=f"the tree is nested too deeply: at most {MAX_MOVES:,} levels")
    finally:
        sys.setrecursionlimit(limit)
    if not isinstance(document, dict) or document.get("mcts_tree") != 1:
        raise ParseError(1, 'a tree dump is a JSON object starting {"mcts_tree": 1, ...}')
    try:
        return _read(document, max_nodes)
    except _NodeProblem as problem:
        raise ParseError(_line_of(text, problem.where), problem.message) from None


def _read(document: dict, max_nodes: int):
    unknown = [key for key in document if key not in HEADER_KEYS]
    if unknown:
        raise _NodeProblem(None, f'unknown key "{key_text(unknown[0])}" in the header; known keys: {", ".join(HEADER_KEYS)}')
    try:
        header = header_values(document)
    except HeaderProblem as problem:
        raise _NodeProblem(None, str(problem)) from None
    players, ties, c, rule, settings = header.players, header.ties, header.c, header.rule, header.settings
    algorithm, game = header.algorithm, header.game
    root = document.get("root")
    if not isinstance(root, dict):
        raise _NodeProblem(None, 'key "root": expected the root node, an object {"visits": ..., "children": [...]}')
    columns = _Columns(players, ties)
    tree = columns.read(root, max_nodes)
    simultaneous = None
    if columns.joint_seen:
        decoupled = columns.decoupled(tree)
        sim_rule, sim_settings = (rule, settings) if rule in SIMULTANEOUS_RULES else (None, None)
        meta = SimultaneousLog(decoupled.joint, (), sim_rule, sim_settings, algorithm, game)
        simultaneous = (decoupled, meta)
    elif rule in SIMULTANEOUS_RULES:
        raise _NodeProblem(None, f'key "rule": {rule} selects at simultaneous nodes, and this tree has none')
    return tree, c, rule, settings, simultaneous


def tree_of_nodes(root: dict, *, players: int, ties: str, max_nodes: int = MAX_PLAYOUTS) -> Tree:
    """The tree of a root node written as a dump's nodes (the module docstring's NODE), for readers
    that build that shape themselves (an engine's analysis).

    Raises:
        ValueError: the first bad node's problem.
    """
    try:
        return _Columns(players, ties).read(root, max_nodes)
    except _NodeProblem as problem:
        raise ValueError(problem.message) from None


class _Columns:
    """The tree's columns, filled node by node in depth-first order (parents before children)."""

    def __init__(self, players: int, ties: str):
        self.players, self.ties = players, ties
        self.ids: dict[str | tuple[str, ...], int] = {}  # a sequential move, or a joint move's own moves
        self.parent, self.move_id, self.depth = array("i"), array("i"), array("i")
        self.visits, self.total, self.total_sq = array("q"), array("d"), array("d")
        self.player, self.flags = array("b"), array("B")
        self.prior, self.outcome = array("d"), array("d")
        self.kids: dict[int, list[int]] = {}  # the nodes that have children (most are leaves): their children
        # Simultaneous nodes: own-move names, each node's kind of children, its "decoupled" lists.
        self.own_ids: dict[str, int] = {}
        self.joint_seen = False
        self.simultaneous: dict[int, list[list[tuple[int, int, float]]]] = {}  # node -> per player (own, visits, total)
        self.child_kind: dict[int, bool] = {}  # node -> its children are joint

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
            raise _NodeProblem(where, f'unknown key "{key_text(unknown[0])}" in a node; known keys: {", ".join(NODE_KEYS)}')
        number = len(self.parent)
        move = node.get("move")
        if parent == NO_PARENT:
            if move is not None:
                raise _NodeProblem(where, 'key "move": the root has no move (null)')
            move_id, depth = 0, 0
        else:
            key = self._move_key(move, parent, where)
            move_id = self.ids.setdefault(key, len(self.ids))
            kids = self.kids.setdefault(parent, [])
            if any(self.move_id[kid] == move_id for kid in kids):
                raise _NodeProblem(where, f'key "move": {shown(move)} is already a child of this node')
            depth = self.depth[parent] + 1
            kids.append(number)
        visits = _visits(node.get("visits"), where, 'key "visits":')
        if parent != NO_PARENT and visits > self.visits[parent]:
            raise _NodeProblem(where, f'key "visits": {visits:,} is more than its parent\'s {self.visits[parent]:,}; '
                               "a child's visits are some of its parent's")
        if "total" in node and "value" in node:
            raise _NodeProblem(where, 'give "total" or "value" (a mean), not both')
        if "value" in node:
            total = _total_of_mean(node["value"], visits, where, "value")
        else:
            total = _number(node.get("total", 0.0), where, "total")
        # Undeclared: the player after the parent's (the log's rule), player 0 at the root.
        player = node.get("player", 0 if parent == NO_PARENT else next_player(self.player[parent], self.players))
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.players:
            raise _NodeProblem(where, f'key "player": expected a player from 0 to {self.players - 1}, got {shown(player)}')
        flags = (CHANCE if _flag(node, "chance", where) else 0) | (TERMINAL if _flag(node, "terminal", where) else 0)
        prior = math.nan
        if node.get("prior") is not None:
            prior = _number(node["prior"], where, "prior")
            if prior < 0:
                raise _NodeProblem(where, f'key "prior": a prior must be >= 0, got {shown(prior)}')
        outcome = math.nan
        if node.get("outcome") is not None:
            mover = self.player[parent] if parent != NO_PARENT else player
            outcome = self._per_player(node["outcome"], where, "outcome")[mover]
        self._decoupled(node, number, where)
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
        return number

    def _move_key(self, move: Any, parent: int, where: tuple[int, ...]) -> str | tuple[str, ...]:
        """A child's move: a name, or a joint move (one name per player) under a simultaneous node."""
        joint = isinstance(move, list)
        if joint:
            if len(move) != self.players:
                raise _NodeProblem(where, f'key "move": a joint move has one move per player ({self.players}), '
                                   f"got {len(move)}: {shown(move)}")
            for player, own in enumerate(move):
                if not isinstance(own, str) or not own:
                    raise _NodeProblem(where, f'key "move": player {player}\'s move must be a non-empty string, got {shown(own)}')
        elif not isinstance(move, str) or not move:
            raise _NodeProblem(where, f'key "move": expected a non-empty string (or a joint move, one per player), '
                               f"got {shown(move)}")
        if joint and parent not in self.simultaneous:
            raise _NodeProblem(where, f'key "move": the joint move {shown(move)} is under a node that is not simultaneous; '
                               'mark the node "simultaneous": true and give its "decoupled" statistics')
        kind = self.child_kind.setdefault(parent, joint)
        if parent in self.simultaneous and not joint:
            raise _NodeProblem(where, f'key "move": {shown(move)} is a sequential move under a simultaneous node; its '
                               "children's moves are joint, one move per player")
        if kind != joint:
            raise _NodeProblem(where, 'key "move": joint moves (one per player) and sequential moves under one node; '
                               "a node's moves are all joint or all sequential")
        if not joint:
            return move
        self.joint_seen = True
        for own in move:
            self.own_ids.setdefault(own, len(self.own_ids))
        return tuple(move)

    def _decoupled(self, node: dict, number: int, where: tuple[int, ...]) -> None:
        """A node's ``simultaneous`` flag and ``decoupled`` lists, checked."""
        simultaneous = _flag(node, "simultaneous", where)
        lists = node.get("decoupled")
        if lists is not None and not simultaneous:
            raise _NodeProblem(where, 'key "decoupled": only a simultaneous node ("simultaneous": true) has '
                               "per-player statistics")
        if not simultaneous:
            return
        if _flag(node, "chance", where):
            raise _NodeProblem(where, 'key "chance": a node is a chance node or a simultaneous one, not both')
        self.joint_seen = True
        if lists is None:
            if node.get("children"):
                raise _NodeProblem(where, 'key "decoupled": a simultaneous node with children needs each player\'s '
                                   'own-move statistics, [[{"move": "R", "visits": 7, "total": 2.0}, ...], ...]')
            lists = [[] for _ in range(self.players)]
        if not isinstance(lists, list) or not all(isinstance(item, list) for item in lists):
            raise _NodeProblem(where, 'key "decoupled": expected one list per player of {"move", "visits", "total"}')
        if len(lists) != self.players:
            extra = (f"; list {self.players + 1} would be player {self.players}'s, but the players are 0 to "
                     f"{self.players - 1}" if len(lists) > self.players else "")
            raise _NodeProblem(where, f'key "decoupled": expected {self.players} lists (one per player), '
                               f"got {len(lists)}{extra}")
        players = []
        for player, entries in enumerate(lists):
            seen, own_moves = set(), []
            for entry in entries:
                if not isinstance(entry, dict):
                    raise _NodeProblem(where, f'key "decoupled": player {player}\'s entries must be objects like '
                                       '{"move": "R", "visits": 7, "total": 2.0}')
                unknown = [key for key in entry if key not in OWN_MOVE_KEYS]
                if unknown:
                    raise _NodeProblem(where, f'key "decoupled": unknown key "{key_text(unknown[0])}" in player {player}\'s '
                                       f'entry; known keys: {", ".join(OWN_MOVE_KEYS)}')
                move = entry.get("move")
                if not isinstance(move, str) or not move:
                    raise _NodeProblem(where, f'key "decoupled": player {player}\'s "move" must be a non-empty '
                                       f"string, got {shown(move)}")
                if move in seen:
                    raise _NodeProblem(where, f'key "decoupled": player {player} lists {shown(move)} twice')
                seen.add(move)
                visits = _visits(entry.get("visits"), where, f'key "decoupled": player {player}\'s {shown(move)} needs "visits",')
                if "total" in entry and "value" in entry:
                    raise _NodeProblem(where, f'key "decoupled": player {player}\'s {shown(move)}: give "total" or '
                                       '"value", not both')
                if "value" in entry:
                    total = _total_of_mean(entry["value"], visits, where, "decoupled/value")
                else:
                    total = _number(entry.get("total", 0.0), where, "decoupled/total")
                own_moves.append((self.own_ids.setdefault(move, len(self.own_ids)), visits, total))
            players.append(own_moves)
        self.simultaneous[number] = players

    def decoupled(self, tree: Tree):
        """The decoupled tree: the joint tree with the dump's own-move statistics at simultaneous nodes."""
        from ...simultaneous.decoupled_tree import DecoupledTree

        keys = list(self.ids)
        joint_of = tuple(None if isinstance(key, str) else tuple(self.own_ids[m] for m in key) for key in keys)
        players = self.players
        flags = array("B", bytes(len(tree)))
        start, moves = array("q", [0]), array("i")
        visits, total, total_sq = array("q"), array("d"), array("d")
        for node in range(len(tree)):
            lists = self.simultaneous.get(node)
            if lists is None and self.child_kind.get(node):
                lists = [[] for _ in range(players)]  # joint children without the flag: still simultaneous
            if lists is not None:
                flags[node] = 1
            for player in range(players):
                if lists is not None:
                    listed = {own for own, _, _ in lists[player]}
                    rows = list(lists[player])
                    for kid in tree.children[node]:  # own moves the joint children use but the lists leave out
                        own = joint_of[tree.move_id[kid]][player]
                        if own not in listed:
                            listed.add(own)
                            rows.append((own, 0, 0.0))
                    for own, n, t in rows:
                        moves.append(own)
                        visits.append(n)
                        total.append(t)
                        total_sq.append(math.nan)  # a dump has no squared sums
                start.append(len(moves))
        return DecoupledTree(tree, JointMoves(tuple(self.own_ids), joint_of), flags, start, moves, visits, total,
                             total_sq, None, 0)

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
        start, flat, kids = array("i", [0]), array("i"), self.kids
        for node in range(len(self.parent)):
            flat.extend(kids.get(node, ()))
            start.append(len(flat))
        moves = tuple(key if isinstance(key, str) else joint_name(key) for key in self.ids)
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
        raise _NodeProblem(where, f'key "{key}": expected a number, got {shown(value)}')
    if not is_finite_number(value):
        raise _NodeProblem(where, f'key "{key}": must be a finite number, got {shown(value)}')
    return float(value)


def _visits(value: Any, where: tuple[int, ...], label: str) -> int:
    """A visit count: a whole number from 0 to the largest a 64-bit count holds."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 1 << 63:
        raise _NodeProblem(where, f"{label} expected a whole number from 0 to {(1 << 63) - 1:,}, got {shown(value)}")
    return value


def _total_of_mean(value: Any, visits: int, where: tuple[int, ...], key: str) -> float:
    """The total a mean ``value`` over ``visits`` stands for, finite."""
    total = _number(value, where, key) * visits
    if not math.isfinite(total):
        raise _NodeProblem(where, f'key "{key}": {shown(value)} times {visits:,} visits is not a finite total')
    return total


def _flag(node: dict, key: str, where: tuple[int, ...]) -> bool:
    value = node.get(key, False)
    if not isinstance(value, bool):
        raise _NodeProblem(where, f'key "{key}": expected true or false, got {shown(value)}')
    return value


def _line_of(text: str, where: tuple[int, ...] | None) -> int:
    """The line where the node at ``where`` (child indices from the root) starts in ``text``;
    for the header (None), the line of the document's first brace.

    Only called for an error: it parses the text again with the pure-Python scanner, which can
    report where each object starts.
    """
    starts: dict[int, int] = {}
    decoder = json.JSONDecoder(parse_int=long_integer)  # as load_json read it

    def parse_object(string_and_end, *rest):
        result, end = json.decoder.JSONObject(string_and_end, *rest)
        starts[id(result)] = string_and_end[1] - 1  # the position of its "{"
        return result, end

    decoder.parse_object = parse_object
    decoder.scan_once = json.scanner.py_make_scanner(decoder)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(limit + PYTHON_FRAMES_PER_LEVEL * JSON_LEVELS)  # the Python scanner nests deeper
    try:
        document = decoder.decode(text)
    except RecursionError:  # deeper than json.loads went: cannot happen, but never worth a traceback
        return 1
    finally:
        sys.setrecursionlimit(limit)
    node = document
    if where is not None:
        node = document["root"]
        for index in where:
            node = node["children"][index]
    return text.count("\n", 0, starts.get(id(node), 0)) + 1
