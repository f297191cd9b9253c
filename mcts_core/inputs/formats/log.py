"""The JSON Lines MCTS log: a header line, then one JSON object per line (simulations and node facts).

Header: ``{"mcts_log": 1, "players": 2, "ties": "first", "c": 1.4, "rule": "puct", "settings":
{"normalise": "minmax"}}``, every key but ``mcts_log`` optional (``rule`` and its ``settings`` go
beyond the shared format: they say how the search selected). Records:

* a simulation, ``{"path": [moves], "score": x}`` or ``{"path": [moves], "returns": [x, y]}``:
  ``score`` is player 0's return (with 2 players the other gets ``-score``); ``"path": []`` stopped
  at the root;
* a node's facts, ``{"node": [moves], "player": p, "children": [moves], "priors": {move: p},
  "chance": bool, "terminal": bool, "outcome": x or [x, y]}``, every key but ``node`` optional;
  ``outcome`` is a proven value (like ``score``/``returns``). Facts may stand anywhere in the log,
  before, among or after the simulations: the tree applies them all first
  (:mod:`mcts_core.model.build`).

Simultaneous moves (decoupled UCT, Smitsimax): a path element may be a **joint move**, an array
with one move per player, ``["R", "P"]``; a node's facts may say ``"simultaneous": true`` and list
each player's own moves there in the engine's order, ``"moves": [["R", "P", "S"], ["R", "P", "S"]]``
(``moves`` goes beyond the shared format, as do the header's ``"algorithm"``, ``"duct"`` or
``"smitsimax"``, and ``"game"``, the OpenSpiel game string searched). A node's moves are all joint
or all sequential (a chance node below a simultaneous one is fine). Such a log reads into the
joint :class:`~mcts_core.model.playouts.Playouts` (every joint move one move, named ``R|P``, so every
sequential reader, builder and page takes it unchanged) plus a
:class:`~mcts_core.simultaneous.joint.SimultaneousLog` (:func:`read_log`). The header's rule may
then also be ``regret_matching`` or ``exp3``.

Moves are non-empty strings. Blank lines are ignored. An object may not repeat a key. Anything else raises
:class:`~mcts_core.common.input_rules.ParseError` naming the line and the key. Large logs of plain
simulations are read by pyarrow's JSON reader; anything it cannot vouch for is read line by line,
which also words every error.
"""

from __future__ import annotations

import json
import re
from array import array
from collections.abc import Sequence
from typing import Any

from ...model.playouts import Fact, Playouts, is_compact, narrow_ids
from ...simultaneous.joint import JointMoves, SimultaneousFact, SimultaneousLog, joint_name
from ...common.input_rules import MAX_MOVES, MAX_PLAYOUTS, ParseError
from ...common.json_input import key_text, shown
from ...common.numbers import is_finite_number
from .header import LogHeader, check_keys, log_object, parse_header

SIMULATION_KEYS = ("path", "score", "returns")
FACT_KEYS = ("node", "player", "children", "priors", "chance", "terminal", "outcome", "simultaneous", "moves")
NON_SPACE = re.compile(r"\S")
LINE_END = re.compile("[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")  # where str.splitlines ends a line
ARROW_THRESHOLD = 50_000  # bytes: below this the line-by-line reader is as fast and imports nothing


def looks_like_log(text: str) -> bool:
    """Whether ``text`` starts (after blank lines) with a JSON object naming ``mcts_log``."""
    match = NON_SPACE.search(text)
    if match is None or text[match.start()] != "{":
        return False
    # The first line only (str.splitlines' line ends): splitting a 150 MB log took 0.2 s.
    end = LINE_END.search(text, match.start())
    return '"mcts_log"' in text[match.start() : end.start() if end else len(text)]


def read_log(text: str, *, max_records: int = MAX_PLAYOUTS) -> tuple[Playouts, SimultaneousLog | None]:
    """Read a JSON Lines MCTS log: its playouts, and what its simultaneous moves add (None without any).

    Raises:
        ParseError: the first bad line, with the key at fault.
    """
    if len(text) >= ARROW_THRESHOLD:
        from .log_columns import read_log_columns  # numpy and pyarrow, for large logs only

        fast = read_log_columns(text, max_records)
        if fast is not None:
            return fast
    lines = text.splitlines()
    header_at = next((i for i, line in enumerate(lines) if line.strip()), None)
    if header_at is None:
        raise ParseError(1, "the log is empty: expected a header line like {\"mcts_log\": 1}")
    header = parse_header(lines[header_at], header_at + 1)
    reader = _Reader(header, max_records)
    playouts = reader.read(lines, header_at + 1)
    return playouts, reader.simultaneous


class _Reader:
    """The line-by-line reader: every record checked, every error worded."""

    def __init__(self, header: LogHeader, max_records: int):
        self.header = header
        self.max_records = max_records
        self.ids: dict[str | tuple[str, ...], int] = {}  # a sequential move, or a joint move's own moves
        self.own_ids: dict[str, int] = {}
        self.starts = array("q", [0])
        self.move_ids = array("i")
        self.returns = array("d")
        self.lines = array("q")
        self.facts: list[Fact] = []
        self.simultaneous_facts: list[SimultaneousFact] = []
        self.fact_kinds: list[tuple[int, int, int]] = []  # (index into facts, kind the fact gives its node, line)
        self.keys: list[str | tuple[str, ...]] = []  # self.ids' keys by id
        self.joint_seen = False
        self.simultaneous: SimultaneousLog | None = None  # after read(): what simultaneous moves add

    def read(self, lines: Sequence[str], first: int) -> Playouts:
        records = 0
        for index in range(first, len(lines)):
            line = lines[index]
            if not line.strip():
                continue
            number = index + 1
            records += 1
            if records > self.max_records:
                raise ParseError(number, f"too many records: at most {self.max_records:,} are supported")
            record = log_object(line, number)
            if "path" in record and "node" in record:
                raise ParseError(number, 'a record is a simulation ("path") or a node\'s facts ("node"), not both')
            if "path" in record:
                self._simulation(record, number)
            elif "node" in record:
                self._fact(record, number)
            else:
                raise ParseError(
                    number, 'a record needs "path" (a simulation) or "node" (facts about a node); '
                    f"got keys {', '.join(key_text(key) for key in sorted(record)) or 'none'}",
                )
        simultaneous = self.joint_seen or bool(self.simultaneous_facts)
        if not simultaneous and self.header.simultaneous_rule:
            raise ParseError(
                self.header.line, f'key "rule": {self.header.rule} selects at simultaneous nodes, and this log '
                "has none (no joint move and no \"simultaneous\": true fact)",
            )
        if simultaneous:
            _check_node_kinds(self)
            self.simultaneous = self._simultaneous()
        return self._playouts()

    def _playouts(self) -> Playouts:
        moves = tuple(key if isinstance(key, str) else joint_name(key) for key in self.ids)
        rule, settings = self.header.sequential_rule()
        return Playouts(
            moves=moves,
            starts=self.starts,
            move_ids=narrow_ids(self.move_ids, len(moves)),
            returns=self.returns,
            lines=self.lines,
            c=self.header.c,
            players=self.header.players,
            ties=self.header.ties,
            facts=tuple(self.facts),
            compact=is_compact(moves),
            rule=rule,
            settings=settings,
        )

    def _simultaneous(self) -> SimultaneousLog:
        own = self.own_ids
        joint_of = tuple(None if isinstance(key, str) else tuple(own[m] for m in key) for key in self.ids)
        return self.header.simultaneous(JointMoves(tuple(own), joint_of), tuple(self.simultaneous_facts))

    def _intern(self, move: str | tuple[str, ...]) -> int:
        found = self.ids.get(move)
        if found is None:
            found = self.ids[move] = len(self.ids)
            self.keys.append(move)
            if not isinstance(move, str):
                self.joint_seen = True
                for own in move:
                    self._own(own)
        return found

    def _own(self, move: str) -> int:
        found = self.own_ids.get(move)
        if found is None:
            found = self.own_ids[move] = len(self.own_ids)
        return found

    def _moves(self, value: Any, number: int, key: str) -> list[int]:
        if not isinstance(value, list):
            raise ParseError(number, f'key "{key}": expected a list of moves like ["e2e4", "e7e5"], got {shown(value)}')
        if len(value) > MAX_MOVES:
            raise ParseError(number, f'key "{key}": {len(value):,} moves; at most {MAX_MOVES:,} are supported')
        ids = []
        for position, move in enumerate(value):
            if isinstance(move, list):
                ids.append(self._intern(self._joint(move, number, key, position)))
                continue
            if not isinstance(move, str) or not move:
                what = "an empty string" if move == "" else shown(move)
                raise ParseError(number, f'key "{key}": move {position + 1} must be a non-empty string, got {what}')
            ids.append(self._intern(move))
        return ids

    def _joint(self, move: list, number: int, key: str, position: int) -> tuple[str, ...]:
        """A joint move, one move per player, checked."""
        players = self.header.players
        if len(move) != players:
            hint = ' (say how many players there are: "players" in the header)' if players == 1 else ""
            raise ParseError(
                number, f'key "{key}": move {position + 1} is a joint move of {len(move)} moves, but with '
                f"{players} player{'s' if players > 1 else ''} a joint move has one move per player{hint}",
            )
        for player, own in enumerate(move):
            if not isinstance(own, str) or not own:
                what = "an empty string" if own == "" else shown(own)
                raise ParseError(
                    number, f'key "{key}": move {position + 1}, player {player}\'s move must be a non-empty string, got {what}'
                )
        return tuple(move)

    def _per_player(self, value: Any, number: int, key: str) -> tuple[float, ...]:
        """Each player's value: a list with one per player, or a number for player 0 (with 2
        players the other gets its negation)."""
        players = self.header.players
        if isinstance(value, list):
            if len(value) != players:
                raise ParseError(
                    number,
                    f'key "{key}": expected {players} number{"s" if players > 1 else ""} '
                    f"(one per player), got {shown(value)}",
                )
            return tuple(_number(item, number, key) for item in value)
        x = _number(value, number, key)
        if players == 1:
            return (x,)
        if players == 2:
            return (x, -x)
        raise ParseError(number, f'key "{key}": with {players} players give a list, one value per player')

    def _simulation(self, record: dict, number: int) -> None:
        check_keys(record, SIMULATION_KEYS, number, "a simulation")
        moves = self._moves(record["path"], number, "path")
        if ("score" in record) == ("returns" in record):
            raise ParseError(
                number, 'a simulation needs "score" (player 0\'s return) or "returns" (one per player), not both'
                if "score" in record else 'a simulation needs "score" (player 0\'s return) or "returns" (one per player)'
            )
        if "score" in record:
            if isinstance(record["score"], list):
                raise ParseError(number, f'key "score": expected a number (use "returns" for a list), got {shown(record["score"])}')
            returns = self._per_player(record["score"], number, "score")
        else:
            if not isinstance(record["returns"], list):
                raise ParseError(number, f'key "returns": expected a list, one number per player, got {shown(record["returns"])}')
            returns = self._per_player(record["returns"], number, "returns")
        self.move_ids.extend(moves)
        self.starts.append(len(self.move_ids))
        self.returns.extend(returns)
        self.lines.append(number)

    def _fact(self, record: dict, number: int) -> None:
        check_keys(record, FACT_KEYS, number, "a node's facts")
        path = tuple(self._moves(record["node"], number, "node"))
        player = record.get("player")
        if player is not None and (
            isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.header.players
        ):
            raise ParseError(
                number, f'key "player": expected a player from 0 to {self.header.players - 1}, got {shown(player)}'
            )
        children = None
        if "children" in record:
            children = tuple(self._moves(record["children"], number, "children"))
            if len(set(children)) < len(children):
                raise ParseError(number, 'key "children": a move is listed twice')
        simultaneous = _flag(record, "simultaneous", number)
        own_moves = self._own_moves(record, number) if "moves" in record else None
        if own_moves is not None and simultaneous is False:
            raise ParseError(number, 'key "moves": each player\'s own moves belong to a simultaneous node, and this '
                             'fact says "simultaneous": false')
        if own_moves is not None:
            simultaneous = True
        kind = _SIMULTANEOUS if simultaneous else _SEQUENTIAL if simultaneous is False else _UNKNOWN
        if simultaneous and record.get("priors"):
            raise ParseError(number, 'key "priors": priors per child are not supported at a simultaneous node; '
                             'give PUCT priors per own move in the rule\'s settings')
        priors = self._priors(record.get("priors"), children, number)
        chance = _flag(record, "chance", number)
        if chance and simultaneous:
            raise ParseError(number, 'key "chance": a node is a chance node or a simultaneous one, not both')
        if chance:
            kind = _SEQUENTIAL
        if children:
            joint = self.ids_joint(children)
            if joint is not None:
                given = _SIMULTANEOUS if joint else _SEQUENTIAL
                if kind not in (_UNKNOWN, given):
                    raise ParseError(
                        number, 'key "children": ' + ("joint moves (one per player) at a node this fact calls sequential"
                                                      if joint else "sequential moves at a node this fact calls simultaneous"),
                    )
                kind = given
            else:
                raise ParseError(number, 'key "children": joint moves (one per player) and sequential moves at one '
                                 "node; a node's moves are all joint or all sequential")
        terminal = _flag(record, "terminal", number)
        outcome = self._per_player(record["outcome"], number, "outcome") if "outcome" in record else None
        after = len(self.starts) - 1
        if kind != _UNKNOWN:
            self.fact_kinds.append((len(self.facts), kind, number))
        self.facts.append(Fact(after, path, number, player, children, priors, chance, terminal, outcome))
        if simultaneous is not None:
            self.simultaneous_facts.append(SimultaneousFact(after, path, number, simultaneous, own_moves))

    def ids_joint(self, ids: Sequence[int]) -> bool | None:
        """True when every move is joint, False when none is, None when they are mixed."""
        kinds = {isinstance(self.keys[m], tuple) for m in ids}
        return None if len(kinds) > 1 else kinds.pop()

    def _own_moves(self, record: dict, number: int) -> tuple[tuple[int, ...], ...]:
        """A fact's ``moves``: one list per player of that player's own moves, in the engine's order."""
        value = record["moves"]
        players = self.header.players
        if not isinstance(value, list) or not all(isinstance(item, list) for item in value):
            raise ParseError(number, f'key "moves": expected one list of own moves per player, like [["R", "P"], '
                             f'["R", "P"]], got {shown(value)}')
        if len(value) != players:
            extra = (f"; list {players + 1} would be player {players}'s, but the players are 0 to {players - 1}"
                     if len(value) > players else "")
            raise ParseError(number, f'key "moves": expected {players} lists (one per player), got {len(value)}{extra}')
        result = []
        for player, moves in enumerate(value):
            for move in moves:
                if not isinstance(move, str) or not move:
                    what = "an empty string" if move == "" else shown(move)
                    raise ParseError(number, f'key "moves": player {player}\'s moves must be non-empty strings, got {what}')
            if len(set(moves)) < len(moves):
                raise ParseError(number, f'key "moves": player {player} has a move listed twice')
            result.append(tuple(self._own(move) for move in moves))
        return tuple(result)

    def _priors(self, value: Any, children: tuple[int, ...] | None, number: int) -> dict[int, float]:
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise ParseError(number, f'key "priors": expected an object like {{"a": 0.5}}, got {shown(value)}')
        priors = {}
        for move, prior in value.items():
            if not move:
                raise ParseError(number, 'key "priors": a move must be a non-empty string')
            p = _number(prior, number, f"priors/{key_text(move)}")
            if p < 0:
                raise ParseError(number, f'key "priors/{key_text(move)}": a prior must be >= 0, got {shown(p)}')
            move_id = self._intern(move)
            if children is not None and move_id not in children:
                raise ParseError(number, f'key "priors": move {shown(move)} is not among the node\'s "children"')
            priors[move_id] = p
        return priors


_UNKNOWN, _SEQUENTIAL, _SIMULTANEOUS = 0, 1, 2


def _check_node_kinds(reader: _Reader) -> None:
    """Every node's moves are all joint or all sequential, over every record in input order.

    Walks every simulation's whole path and every fact's node through a trie of the paths (not
    the puzzle's tree: a move a record names past the node it creates still counts), and raises
    at the first record that gives a node the other kind of move than an earlier record did.
    """
    keys = reader.keys
    joint = [not isinstance(key, str) for key in keys]
    child: dict[tuple[int, int], int] = {}
    kind = [_UNKNOWN]
    since = [0]
    paths: list[tuple[int, ...]] = [()]

    def walk(moves: Sequence[int], number: int, key: str) -> int:
        node = 0
        for position, move in enumerate(moves):
            given = _SIMULTANEOUS if joint[move] else _SEQUENTIAL
            if kind[node] == _UNKNOWN:
                kind[node], since[node] = given, number
            elif kind[node] != given:
                raise ParseError(number, _mixed(reader, keys, paths[node], kind[node], since[node], key,
                                                f"move {position + 1} here is {_move_words(keys[move])}"))
            found = child.get((node, move))
            if found is None:
                found = child[(node, move)] = len(kind)
                kind.append(_UNKNOWN)
                since.append(0)
                paths.append((*paths[node], move))
            node = found
        return node

    facts = reader.facts
    fact_kinds = {index: (given, number) for index, given, number in reader.fact_kinds}
    next_fact = 0
    starts, ids, lines = reader.starts, reader.move_ids, reader.lines
    count = len(starts) - 1
    for p in range(count + 1):
        while next_fact < len(facts) and facts[next_fact].after <= p:
            fact = facts[next_fact]
            node = walk(fact.path, fact.line, "node")
            given = fact_kinds.get(next_fact, (_UNKNOWN, 0))[0]
            if given != _UNKNOWN:
                if kind[node] == _UNKNOWN:
                    kind[node], since[node] = given, fact.line
                elif kind[node] != given:
                    what = '"simultaneous": true' if given == _SIMULTANEOUS else "sequential moves"
                    raise ParseError(fact.line, _mixed(reader, keys, paths[node], kind[node], since[node],
                                                       "simultaneous" if given == _SIMULTANEOUS else "children",
                                                       f"this fact gives it {what}"))
            next_fact += 1
        if p < count:
            walk(ids[starts[p]:starts[p + 1]], lines[p], "path")


def _mixed(reader: _Reader, keys: list, path: tuple[int, ...], had: int, since: int, key: str, now: str) -> str:
    node = json.dumps([key_ if isinstance(key_, str) else list(key_) for key_ in (keys[m] for m in path)],
                      ensure_ascii=False)
    node = node if len(node) <= 80 else node[:77] + "..."
    what = "joint moves (one per player)" if had == _SIMULTANEOUS else "sequential moves"
    return (f'key "{key}": node {node} has {what} (line {since}), but {now}; a node\'s moves are all joint or all '
            "sequential")


def _move_words(key) -> str:
    if isinstance(key, str):
        return f"the sequential move {shown(key)}"
    return f"the joint move {shown(list(key))}"


def _number(value: Any, number: int, key: str) -> float:
    """A finite float from a JSON number (not a bool, a string or null)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ParseError(number, f'key "{key}": expected a number, got {shown(value)}')
    if not is_finite_number(value):
        raise ParseError(number, f'key "{key}": must be a finite number, got {shown(value)}')
    return float(value)


def _flag(record: dict, key: str, number: int) -> bool | None:
    value = record.get(key)
    if value is not None and not isinstance(value, bool):
        raise ParseError(number, f'key "{key}": expected true or false, got {shown(value)}')
    return value
