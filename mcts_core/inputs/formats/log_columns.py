"""Large JSON Lines logs through pyarrow's JSON reader: the same playouts as the line reader, faster.

Only plain logs qualify (a header on the first line, then simulations with exactly ``path`` and
``score`` or ``returns``); anything else returns None and the line reader decides, which also
words every error (:mod:`mcts_core.inputs.formats.log`).
"""

from __future__ import annotations

from array import array

from ...model.playouts import Playouts, is_compact
from ...simultaneous.joint import JointMoves, SimultaneousLog, joint_name
from ...common.input_rules import MAX_MOVES, ParseError
from .header import parse_header


def read_log_columns(text: str, max_records: int) -> tuple[Playouts, SimultaneousLog | None] | None:
    """Plain simulation logs through pyarrow's JSON reader; None when the line reader must decide.

    Accepts only a header on the first line and records with exactly ``path`` (all strings, or all
    joint moves of one string per player) and ``score`` or ``returns`` (finite numbers, one per
    player), each line one ``{...}`` record (no blank lines, no CR, no space around). It never raises.
    """
    header_end = text.find("\n")
    if header_end < 0:
        return None  # one line: the line reader
    try:
        header = parse_header(text[:header_end], 1)
    except ParseError:
        return None
    try:
        import numpy as np
        import pyarrow as pa
        import pyarrow.compute as pc
        import pyarrow.json as pj
    except ImportError:  # pragma: no cover - pyarrow comes with streamlit
        return None
    encoded = text.encode("utf-8")
    body_start = len(text[: header_end + 1].encode("utf-8"))
    count = _count_object_lines(np, encoded, body_start)
    if count is None or count > max_records:
        return None
    body_buffer = pa.py_buffer(encoded)[body_start:]
    # Joint moves show in the first records; a log whose first records have empty paths is read
    # again as joint when a later path holds lists (a scan of the whole text cost 0.2 s at 1M).
    joint = "[[" in text[header_end + 1 : header_end + 4097]
    table = _read_records(pa, pj, body_buffer, joint)
    if isinstance(table, str) and not joint and "changed from string to array" in table:
        joint = True
        table = _read_records(pa, pj, body_buffer, joint)
    if isinstance(table, str):
        return None
    if joint and header.players < 2:
        return None  # the line reader says what is wrong with a joint move in a one-player log
    if table.num_rows != count:
        return None
    path = table.column("path").combine_chunks()
    score = table.column("score").combine_chunks()
    returns_column = table.column("returns").combine_chunks()
    if path.null_count:
        return None
    elements = path.flatten()
    players = header.players
    if joint:
        if elements.null_count:
            return None
        if len(elements):
            sizes = pc.min_max(pc.list_value_length(elements))
            if sizes["min"].as_py() != players or sizes["max"].as_py() != players:
                return None  # a joint move of the wrong length: the line reader names its line
        flat = elements.flatten()
    else:
        flat = elements
    if flat.null_count:
        return None
    longest = 0
    if len(flat):
        lengths = pc.min_max(pc.binary_length(flat))
        if lengths["min"].as_py() == 0:
            return None  # an empty move: the line reader words the error
        longest = lengths["max"].as_py()
    offsets = np.asarray(path.offsets)
    if len(offsets) > 1 and int(np.diff(offsets).max(initial=0)) > MAX_MOVES:
        return None
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
    names, ids = _one_byte_moves(np, flat) if longest == 1 else _dictionary_moves(np, pc, flat)
    simultaneous = None
    if joint:
        if len(names) ** players >= 1 << 62:
            return None
        own = ids.reshape(-1, players)
        key = own[:, players - 1].astype(np.int64 if len(names) ** players >= 1 << 31 else np.int32)
        for player in range(players - 2, -1, -1):
            key *= len(names)
            key += own[:, player]
        _, first, ids = _first_appearance(np, key, len(names) ** players)  # numbered by first appearance
        joint_of = tuple(tuple(int(o) for o in own[index]) for index in first)
        moves = tuple(joint_name([names[o] for o in own_ids]) for own_ids in joint_of)
        simultaneous = header.simultaneous(JointMoves(names, joint_of))
    else:
        if header.simultaneous_rule:
            return None  # the line reader refuses the rule
        moves = names
    id_type = "B" if len(moves) <= 1 << 8 else "H" if len(moves) <= 1 << 16 else "i"
    first_line = 2
    rule, settings = header.sequential_rule()
    playouts = Playouts(
        moves=moves,
        starts=array("q", offsets.astype(np.int64).tobytes()),
        move_ids=array(id_type, ids.astype({"B": np.uint8, "H": np.uint16, "i": np.int32}[id_type]).tobytes()),
        returns=array("d", values.astype(np.float64).tobytes()),
        lines=range(first_line, first_line + count),
        c=header.c,
        players=players,
        ties=header.ties,
        compact=is_compact(moves),
        rule=rule,
        settings=settings,
    )
    return playouts, simultaneous


def _dictionary_moves(np, pc, flat) -> tuple[tuple[str, ...], object]:
    """Move names numbered by first appearance, and every move's number."""
    encoded = pc.dictionary_encode(flat)
    return tuple(encoded.dictionary.to_pylist()), np.asarray(encoded.indices)


def _one_byte_moves(np, flat) -> tuple[tuple[str, ...], object]:
    """As :func:`_dictionary_moves` when every move is one byte (so ASCII), from the bytes
    themselves: about 50 ms instead of 300 ms for 25 million moves."""
    offsets = np.frombuffer(flat.buffers()[1], dtype=np.int32)
    start = int(offsets[flat.offset])
    codes = np.frombuffer(flat.buffers()[2], dtype=np.uint8)[start : start + len(flat)]
    data = codes.tobytes()
    present = np.flatnonzero(np.bincount(codes, minlength=256)).tolist()
    in_order = sorted(present, key=lambda code: data.find(bytes((code,))))  # memchr: first appearances
    number = np.zeros(256, dtype=np.uint8)
    number[in_order] = np.arange(len(in_order))
    return tuple(chr(code) for code in in_order), number[codes]


LINE_CHUNK = 1 << 24  # bytes scanned at a time: the scan's temporary arrays stay small


def _count_object_lines(np, encoded: bytes, start: int) -> int | None:
    """How many lines the body (from byte ``start``) has if each is one ``{...}`` with no CR in it
    (a final newline optional); None otherwise. With the reader's row count equal to this, every
    line holds exactly one record, as the line reader sees it."""
    data = np.frombuffer(encoded, dtype=np.uint8)
    if start >= len(data):
        return None
    newlines = []
    for begin in range(start, len(data), LINE_CHUNK):
        chunk = data[begin:begin + LINE_CHUNK]
        if (chunk == 13).any():
            return None
        newlines.append(np.flatnonzero(chunk == 10) + begin)
    ends = np.concatenate(newlines)
    last = len(data) - 1
    firsts = np.concatenate(([start], ends[ends < last] + 1))  # each line's first byte
    lasts = ends - 1 if data[last] == 10 else np.concatenate((ends - 1, [last]))  # each line's last byte
    if (lasts < firsts).any() or (data[firsts] != ord("{")).any() or (data[lasts] != ord("}")).any():
        return None
    return len(firsts)


def _read_records(pa, pj, body, joint: bool):
    """The simulations as a table (path, score, returns), or pyarrow's message if a record does not fit."""
    element = pa.list_(pa.string()) if joint else pa.string()
    schema = pa.schema([("path", pa.list_(element)), ("score", pa.float64()), ("returns", pa.list_(pa.float64()))])
    try:
        return pj.read_json(
            body,
            read_options=pj.ReadOptions(block_size=1 << 24),
            parse_options=pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior="error"),
        )
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError, ValueError) as error:
        return str(error)


DENSE_JOINT_KEYS = 1 << 22  # joint-move keys numbered through a direct-address table up to this many


def _first_appearance(np, key, space: int):
    """Distinct keys numbered by first appearance, as the line reader numbers moves: (keys in that
    order, the index of each one's first appearance, every key's number)."""
    if space <= DENSE_JOINT_KEYS:
        present = np.flatnonzero(np.bincount(key, minlength=space))
        first = np.full(space, -1, dtype=np.int64)
        missing, start, size = len(present), 0, 1 << 12
        while missing:  # chunks of doubling size: each key's first index, without sorting the whole array
            chunk = key[start:start + size]
            found, index = np.unique(chunk, return_index=True)
            new = first[found] < 0
            first[found[new]] = start + index[new]
            missing -= int(new.sum())
            start += size
            size *= 2
        order = np.argsort(first[present], kind="stable")
        keys = present[order]
        number = np.empty(space, dtype=np.int64)
        number[keys] = np.arange(len(keys))
        return keys, first[keys], number[key]
    keys, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty(len(keys), dtype=np.int64)
    rank[order] = np.arange(len(keys))
    return keys[order], first[order], rank[inverse.reshape(-1)]
