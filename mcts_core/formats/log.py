"""The JSON Lines MCTS log: a header line, then one JSON object per line (simulations and node facts).

Header: ``{"mcts_log": 1, "players": 2, "ties": "first", "c": 1.4, "rule": "puct", "settings":
{"normalise": "minmax"}}``, every key but ``mcts_log`` optional (``rule`` and its ``settings`` go
beyond the shared format: they say how the search selected). Records:

* a simulation, ``{"path": [moves], "score": x}`` or ``{"path": [moves], "returns": [x, y]}``:
  ``score`` is player 0's return (with 2 players the other gets ``-score``); ``"path": []`` stopped
  at the root;
* a node's facts, ``{"node": [moves], "player": p, "children": [moves], "priors": {move: p},
  "chance": bool, "terminal": bool, "outcome": x or [x, y]}``, every key but ``node`` optional;
  ``outcome`` is a proven value (like ``score``/``returns``).

Moves are non-empty strings. Blank lines are ignored. Anything else raises
:class:`~mcts_core.formats.common.ParseError` naming the line and the key. Large logs of plain
simulations are read by pyarrow's JSON reader; anything it cannot vouch for is read line by line,
which also words every error.
"""

from __future__ import annotations

import json
import math
from array import array
from collections.abc import Sequence
from typing import Any

from ..selection.registry import RULES, settings_problem
from ..playouts import TIES, Fact, Playouts
from .common import MAX_MOVES, MAX_PLAYERS, MAX_PLAYOUTS, ParseError

HEADER_KEYS = ("mcts_log", "players", "ties", "c", "rule", "settings")
SIMULATION_KEYS = ("path", "score", "returns")
FACT_KEYS = ("node", "player", "children", "priors", "chance", "terminal", "outcome")
ARROW_THRESHOLD = 50_000  # bytes: below this the line-by-line reader is as fast and imports nothing


def looks_like_log(text: str) -> bool:
    """Whether ``text`` starts (after blank lines) with a JSON object naming ``mcts_log``."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    return first.lstrip().startswith("{") and '"mcts_log"' in first


def parse_log(text: str, *, max_records: int = MAX_PLAYOUTS) -> Playouts:
    """Read a JSON Lines MCTS log.

    Raises:
        ParseError: the first bad line, with the key at fault.
    """
    if len(text) >= ARROW_THRESHOLD:
        fast = _read_with_arrow(text, max_records)
        if fast is not None:
            return fast
    lines = text.splitlines()
    header_at = next((i for i, line in enumerate(lines) if line.strip()), None)
    if header_at is None:
        raise ParseError(1, "the log is empty: expected a header line like {\"mcts_log\": 1}")
    header = _header(lines[header_at], header_at + 1)
    return _Reader(header, max_records).read(lines, header_at + 1)


class _Header:
    """The header's settings."""

    def __init__(self, players: int, ties: str, c: float | None, rule: str | None, settings: dict):
        self.players, self.ties, self.c, self.rule, self.settings = players, ties, c, rule, settings


def _header(line: str, number: int) -> _Header:
    record = _object(line, number)
    if record.get("mcts_log") != 1:
        raise ParseError(number, 'the first line must be the header {"mcts_log": 1, ...}')
    _check_keys(record, HEADER_KEYS, number, "the header")
    players = record.get("players", 1)
    if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= MAX_PLAYERS:
        raise ParseError(number, f'key "players": expected a whole number from 1 to {MAX_PLAYERS}, got {players!r}')
    ties = record.get("ties", "smaller")
    if ties not in TIES:
        raise ParseError(number, f'key "ties": expected "smaller" or "first", got {_shown(ties)}')
    c = record.get("c")
    if c is not None:
        c = _number(c, number, "c")
        if c < 0:
            raise ParseError(number, f'key "c": C must be a finite number >= 0, got {c!r}')
    rule = record.get("rule")
    if rule is not None and rule not in RULES:
        raise ParseError(number, f'key "rule": expected one of {", ".join(RULES)}, got {_shown(rule)}')
    settings = record.get("settings", {})
    if not isinstance(settings, dict):
        raise ParseError(number, f'key "settings": expected an object like {{"normalise": "minmax"}}, got {_shown(settings)}')
    if settings and rule is None:
        raise ParseError(number, 'key "settings": give the "rule" they belong to')
    problem = settings_problem(rule, settings) if settings else None
    if problem is not None:
        raise ParseError(number, f'key "settings": {problem}')
    return _Header(players, ties, c, rule, settings)


class _Reader:
    """The line-by-line reader: every record checked, every error worded."""

    def __init__(self, header: _Header, max_records: int):
        self.header = header
        self.max_records = max_records
        self.ids: dict[str, int] = {}
        self.starts = array("q", [0])
        self.move_ids = array("i")
        self.returns = array("d")
        self.lines = array("q")
        self.facts: list[Fact] = []

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
            record = _object(line, number)
            if "path" in record and "node" in record:
                raise ParseError(number, 'a record is a simulation ("path") or a node\'s facts ("node"), not both')
            if "path" in record:
                self._simulation(record, number)
            elif "node" in record:
                self._fact(record, number)
            else:
                raise ParseError(
                    number, 'a record needs "path" (a simulation) or "node" (facts about a node); '
                    f"got keys {', '.join(sorted(record)) or 'none'}",
                )
        return self._playouts()

    def _playouts(self) -> Playouts:
        moves = tuple(self.ids)
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
            rule=self.header.rule,
            settings=self.header.settings,
        )

    def _intern(self, move: str) -> int:
        found = self.ids.get(move)
        if found is None:
            found = self.ids[move] = len(self.ids)
        return found

    def _moves(self, value: Any, number: int, key: str) -> list[int]:
        if not isinstance(value, list):
            raise ParseError(number, f'key "{key}": expected a list of moves like ["e2e4", "e7e5"], got {_shown(value)}')
        if len(value) > MAX_MOVES:
            raise ParseError(number, f'key "{key}": {len(value):,} moves; at most {MAX_MOVES:,} are supported')
        for position, move in enumerate(value):
            if not isinstance(move, str) or not move:
                what = "an empty string" if move == "" else _shown(move)
                raise ParseError(number, f'key "{key}": move {position + 1} must be a non-empty string, got {what}')
        return [self._intern(move) for move in value]

    def _per_player(self, value: Any, number: int, key: str) -> tuple[float, ...]:
        """Each player's value: a list with one per player, or a number for player 0 (with 2
        players the other gets its negation)."""
        players = self.header.players
        if isinstance(value, list):
            if len(value) != players:
                raise ParseError(
                    number,
                    f'key "{key}": expected {players} number{"s" if players > 1 else ""} '
                    f"(one per player), got {_shown(value)}",
                )
            return tuple(_number(item, number, key) for item in value)
        x = _number(value, number, key)
        if players == 1:
            return (x,)
        if players == 2:
            return (x, -x)
        raise ParseError(number, f'key "{key}": with {players} players give a list, one value per player')

    def _simulation(self, record: dict, number: int) -> None:
        _check_keys(record, SIMULATION_KEYS, number, "a simulation")
        moves = self._moves(record["path"], number, "path")
        if ("score" in record) == ("returns" in record):
            raise ParseError(
                number, 'a simulation needs "score" (player 0\'s return) or "returns" (one per player), not both'
                if "score" in record else 'a simulation needs "score" (player 0\'s return) or "returns" (one per player)'
            )
        if "score" in record:
            if isinstance(record["score"], list):
                raise ParseError(number, f'key "score": expected a number (use "returns" for a list), got {_shown(record["score"])}')
            returns = self._per_player(record["score"], number, "score")
        else:
            if not isinstance(record["returns"], list):
                raise ParseError(number, f'key "returns": expected a list, one number per player, got {_shown(record["returns"])}')
            returns = self._per_player(record["returns"], number, "returns")
        self.move_ids.extend(moves)
        self.starts.append(len(self.move_ids))
        self.returns.extend(returns)
        self.lines.append(number)

    def _fact(self, record: dict, number: int) -> None:
        _check_keys(record, FACT_KEYS, number, "a node's facts")
        path = tuple(self._moves(record["node"], number, "node"))
        player = record.get("player")
        if player is not None and (
            isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.header.players
        ):
            raise ParseError(
                number, f'key "player": expected a player from 0 to {self.header.players - 1}, got {_shown(player)}'
            )
        children = None
        if "children" in record:
            children = tuple(self._moves(record["children"], number, "children"))
            if len(set(children)) < len(children):
                raise ParseError(number, 'key "children": a move is listed twice')
        priors = self._priors(record.get("priors"), children, number)
        chance = _flag(record, "chance", number)
        terminal = _flag(record, "terminal", number)
        outcome = self._per_player(record["outcome"], number, "outcome") if "outcome" in record else None
        after = len(self.starts) - 1
        self.facts.append(Fact(after, path, number, player, children, priors, chance, terminal, outcome))

    def _priors(self, value: Any, children: tuple[int, ...] | None, number: int) -> dict[int, float]:
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise ParseError(number, f'key "priors": expected an object like {{"a": 0.5}}, got {_shown(value)}')
        priors = {}
        for move, prior in value.items():
            if not move:
                raise ParseError(number, 'key "priors": a move must be a non-empty string')
            p = _number(prior, number, f"priors/{move}")
            if p < 0:
                raise ParseError(number, f'key "priors/{move}": a prior must be >= 0, got {p!r}')
            move_id = self._intern(move)
            if children is not None and move_id not in children:
                raise ParseError(number, f'key "priors": move {move!r} is not among the node\'s "children"')
            priors[move_id] = p
        return priors


def _object(line: str, number: int) -> dict:
    try:
        record = json.loads(line)
    except json.JSONDecodeError as error:
        raise ParseError(number, f"not valid JSON: {error.msg} (column {error.colno})") from None
    except RecursionError:
        raise ParseError(number, "not valid JSON: nested too deeply") from None
    if not isinstance(record, dict):
        raise ParseError(number, f"expected a JSON object {{...}}, got {_shown(record)}")
    return record


def _check_keys(record: dict, allowed: Sequence[str], number: int, what: str) -> None:
    unknown = [key for key in record if key not in allowed]
    if unknown:
        raise ParseError(
            number, f'unknown key "{unknown[0]}" in {what}; known keys: {", ".join(allowed)}'
        )


def _number(value: Any, number: int, key: str) -> float:
    """A finite float from a JSON number (not a bool, a string or null)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ParseError(number, f'key "{key}": expected a number, got {_shown(value)}')
    try:
        result = float(value)
    except OverflowError:
        result = math.inf
    if not math.isfinite(result):
        raise ParseError(number, f'key "{key}": must be a finite number, got {_shown(value)}')
    return result


def _flag(record: dict, key: str, number: int) -> bool | None:
    value = record.get(key)
    if value is not None and not isinstance(value, bool):
        raise ParseError(number, f'key "{key}": expected true or false, got {_shown(value)}')
    return value


def _shown(value: Any) -> str:
    """A value as JSON, cut to a readable length."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def is_compact(moves: Sequence[str]) -> bool:
    """Whether paths of these moves can be written without spaces: every move one visible character."""
    return all(len(move) == 1 and not move.isspace() for move in moves)


def narrow_ids(ids: array, count: int) -> array:
    """Move ids in the smallest array type that holds ``count`` distinct moves."""
    code = "B" if count <= 1 << 8 else "H" if count <= 1 << 16 else "i"
    return ids if ids.typecode == code else array(code, ids)


def _read_with_arrow(text: str, max_records: int) -> Playouts | None:
    """Plain simulation logs through pyarrow's JSON reader; None when the line reader must decide.

    Accepts only a header on the first line and records with exactly ``path`` (strings) and
    ``score`` or ``returns`` (finite numbers, one per player), no blank or CRLF lines. It never
    raises.
    """
    header_end = text.find("\n")
    if header_end < 0 or "\r" in text or '"node"' in text:
        return None  # one line, CRLF, or facts: the line reader
    try:
        header = _header(text[:header_end], 1)
    except ParseError:
        return None
    body = text[header_end + 1 :]
    count = body.count("\n") + (0 if body.endswith("\n") else 1)
    if not body.strip() or count > max_records or body.startswith("\n") or "\n\n" in body:
        return None
    try:
        import numpy as np
        import pyarrow as pa
        import pyarrow.compute as pc
        import pyarrow.json as pj
    except ImportError:  # pragma: no cover - pyarrow comes with streamlit
        return None
    schema = pa.schema([("path", pa.list_(pa.string())), ("score", pa.float64()), ("returns", pa.list_(pa.float64()))])
    try:
        raw = pa.py_buffer(text.encode("utf-8"))
        table = pj.read_json(
            raw[len(text[: header_end + 1].encode("utf-8")) :],
            read_options=pj.ReadOptions(block_size=1 << 24),
            parse_options=pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior="error"),
        )
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError, ValueError):
        return None
    if table.num_rows != count:
        return None
    path = table.column("path").combine_chunks()
    score = table.column("score").combine_chunks()
    returns_column = table.column("returns").combine_chunks()
    if path.null_count:
        return None
    flat = path.flatten()
    flat_offsets = np.frombuffer(flat.buffers()[1], dtype=np.int32)[flat.offset : flat.offset + len(flat) + 1]
    if flat.null_count or (len(flat) and np.diff(flat_offsets).min() == 0):
        return None  # an empty move: the line reader words the error
    offsets = np.asarray(path.offsets)
    if len(offsets) > 1 and int(np.diff(offsets).max(initial=0)) > MAX_MOVES:
        return None
    players = header.players
    if returns_column.null_count == len(returns_column):  # every record has "score"
        if score.null_count or players > 2:
            return None
        scores = np.asarray(score, dtype=np.float64)
        values = scores if players == 1 else np.column_stack([scores, -scores]).ravel()
    elif score.null_count == len(score):  # every record has "returns"
        if returns_column.null_count:
            return None
        lengths = np.diff(np.asarray(returns_column.offsets))
        if not (lengths == players).all() or returns_column.flatten().null_count:
            return None
        values = np.asarray(returns_column.flatten(), dtype=np.float64)
    else:
        return None
    if not np.isfinite(values).all():
        return None
    encoded = pc.dictionary_encode(flat)
    moves = tuple(encoded.dictionary.to_pylist())
    ids = np.asarray(encoded.indices)
    id_type = "B" if len(moves) <= 1 << 8 else "H" if len(moves) <= 1 << 16 else "i"
    first_line = 2
    return Playouts(
        moves=moves,
        starts=array("q", offsets.astype(np.int64).tobytes()),
        move_ids=array(id_type, ids.astype({"B": np.uint8, "H": np.uint16, "i": np.int32}[id_type]).tobytes()),
        returns=array("d", values.astype(np.float64).tobytes()),
        lines=range(first_line, first_line + count),
        c=header.c,
        players=players,
        ties=header.ties,
        compact=is_compact(moves),
        rule=header.rule,
        settings=header.settings,
    )
