"""Large JSON Lines logs through pyarrow's JSON reader: the same playouts as the line reader, faster.

Only plain logs qualify (a header on the first line, then simulations with exactly ``path`` and
``score`` or ``returns``); anything else returns None and the line reader decides, which also
words every error (:mod:`mcts_core.formats.log`).
"""

from __future__ import annotations

from array import array

from ..playouts import Playouts
from ..simultaneous.joint import JointMoves, SimultaneousLog, joint_name
from .common import MAX_MOVES, ParseError
from .log import NON_SPACE, is_compact, parse_header

def read_log_columns(text: str, max_records: int) -> tuple[Playouts, SimultaneousLog | None] | None:
    """Plain simulation logs through pyarrow's JSON reader; None when the line reader must decide.

    Accepts only a header on the first line and records with exactly ``path`` (all strings, or all
    joint moves of one string per player) and ``score`` or ``returns`` (finite numbers, one per
    player), no blank or CRLF lines. It never raises.
    """
    header_end = text.find("\n")
    if header_end < 0 or "\r" in text or '"node"' in text:
        return None  # one line, CRLF, or facts: the line reader
    try:
        header = parse_header(text[:header_end], 1)
    except ParseError:
        return None
    start = header_end + 1  # the body, read in place: copying hundreds of megabytes costs more than the checks
    count = text.count("\n", start) + (0 if text.endswith("\n") else 1)
    if NON_SPACE.search(text, start) is None or count > max_records or text.startswith("\n", start) \
            or "\n\n" in text:
        return None
    try:
        import numpy as np
        import pyarrow as pa
        import pyarrow.compute as pc
        import pyarrow.json as pj
    except ImportError:  # pragma: no cover - pyarrow comes with streamlit
        return None
    raw = pa.py_buffer(text.encode("utf-8"))
    body_buffer = raw[len(text[: header_end + 1].encode("utf-8")) :]
    head = text[start:start + 4096]
    joint = "[[" in head or '"path": [[' in text or '"path":[[' in text
    if joint and header.players < 2:
        return None  # the line reader says what is wrong with a joint move in a one-player log
    element = pa.list_(pa.string()) if joint else pa.string()
    schema = pa.schema([("path", pa.list_(element)), ("score", pa.float64()), ("returns", pa.list_(pa.float64()))])
    try:
        table = pj.read_json(
            body_buffer,
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
    if flat.null_count or (len(flat) and pc.min(pc.binary_length(flat)).as_py() == 0):
        return None  # an empty move: the line reader words the error
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
    encoded = pc.dictionary_encode(flat)
    names = tuple(encoded.dictionary.to_pylist())
    ids = np.asarray(encoded.indices)
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
