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
from .lines import arrow_pieces


# pyarrow reads the log in pieces of whole lines (lines.arrow_pieces), each with its own threads on
# blocks within it: only one piece's columns exist at a time (the whole log as one table held about
# 3 times the log at the peak; bench/RESULTS.md).
PIECE_BYTES = 4 << 20
BLOCK_BYTES = 1 << 20


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
    body = (encoded, body_start)
    # Joint moves show in the first records; a log whose first records have empty paths is read
    # again as joint when a later path holds lists (a scan of the whole text cost 0.2 s at 1M).
    joint = "[[" in text[header_end + 1 : header_end + 4097]
    if joint and header.players < 2:
        return None  # the line reader says what is wrong with a joint move in a one-player log
    columns = _Columns(np, pc, header.players, joint)
    problem = columns.read(pa, pj, body)
    if problem is not None and not joint and "changed from string to array" in problem:
        if header.players < 2:
            return None
        columns = _Columns(np, pc, header.players, True)
        problem = columns.read(pa, pj, body)
    if problem is not None or columns.rows != count:
        return None
    return columns.playouts(header)


class _Columns:
    """The simulations' columns, filled one block of records at a time.

    Moves are numbered by first appearance over the whole log, as the line reader numbers them:
    each block's distinct moves, in their order of first appearance in the block, get the next
    numbers the log has not given yet.
    """

    def __init__(self, np, pc, players: int, joint: bool):
        self.np, self.pc, self.players, self.joint = np, pc, players, joint
        self.rows = 0
        self.starts = array("q", [0])
        self.returns = array("d")
        self.kind: str | None = None  # every record has "score", or every record has "returns"
        self.names: dict[str, int] = {}  # move (a player's own move, for joint logs) -> number
        self.joint_ids: dict[tuple[int, ...], int] = {}  # a joint move's own moves -> its number
        self.blocks: list = []  # each block's move numbers (numpy), joined at the end

    def read(self, pa, pj, body) -> str | None:
        """Read every piece of ``body`` (the encoded log, where its records start); None when all fit,
        else why not (pyarrow's message, or a short reason)."""
        encoded, start = body
        element = pa.list_(pa.string()) if self.joint else pa.string()
        schema = pa.schema([("path", pa.list_(element)), ("score", pa.float64()), ("returns", pa.list_(pa.float64()))])
        read_options = pj.ReadOptions(block_size=BLOCK_BYTES)
        parse_options = pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior="error")
        try:
            for piece in arrow_pieces(pa, encoded, start, PIECE_BYTES):
                table = pj.read_json(piece, read_options=read_options, parse_options=parse_options)
                for batch in table.to_batches():
                    if not self._block(batch):
                        return "a record the line reader must read"
                del table
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError, ValueError) as error:
            return str(error)
        return None

    def _block(self, batch) -> bool:
        """Add a block of records; False when one of them needs the line reader."""
        np, pc, players = self.np, self.pc, self.players
        path, score, returns = batch.column(0), batch.column(1), batch.column(2)
        if path.null_count or not len(path):
            return not path.null_count
        elements = path.flatten()
        if self.joint:
            if elements.null_count:
                return False
            if len(elements):
                sizes = pc.min_max(pc.list_value_length(elements))
                if sizes["min"].as_py() != players or sizes["max"].as_py() != players:
                    return False  # a joint move of the wrong length: the line reader names its line
            flat = elements.flatten()
        else:
            flat = elements
        if flat.null_count:
            return False
        longest = 0
        if len(flat):
            lengths = pc.min_max(pc.binary_length(flat))
            if lengths["min"].as_py() == 0:
                return False  # an empty move: the line reader words the error
            longest = lengths["max"].as_py()
        offsets = np.asarray(path.offsets).astype(np.int64)
        if int(np.diff(offsets).max(initial=0)) > MAX_MOVES:
            return False
        if returns.null_count == len(returns):
            kind = "score"  # every record has "score" (if any lacks it, the line reader says so)
        elif score.null_count == len(score):
            kind = "returns"
        else:
            return False
        if self.kind not in (None, kind):
            return False  # "score" in some records, "returns" in others
        self.kind = kind
        if kind == "score":
            if score.null_count or players > 2:
                return False
            scores = np.asarray(score, dtype=np.float64)
            values = scores if players == 1 else np.column_stack([scores, -scores]).ravel()
        else:
            if returns.null_count:
                return False
            if not (np.diff(np.asarray(returns.offsets)) == players).all() or returns.flatten().null_count:
                return False
            values = np.asarray(returns.flatten(), dtype=np.float64)
        if not np.isfinite(values).all():
            return False
        ids = self._one_byte_ids(flat) if longest == 1 else self._dictionary_ids(flat)
        count = len(self.names)
        if self.joint:
            ids = self._joint_ids(ids.reshape(-1, players))
            if ids is None:
                return False
            count = len(self.joint_ids)
        self.blocks.append(ids.astype(np.uint8 if count <= 1 << 8 else np.uint16 if count <= 1 << 16 else np.int32))
        self.starts.frombytes((offsets[1:] - offsets[0] + self.starts[-1]).tobytes())
        self.returns.frombytes(values.astype(np.float64).tobytes())
        self.rows += len(path)
        return True

    def _number(self, in_order) -> list[int]:
        """The numbers of a block's distinct moves, given in their order of first appearance."""
        names = self.names
        return [names.setdefault(name, len(names)) for name in in_order]

    def _dictionary_ids(self, flat):
        """Every move's number (via the block's dictionary of distinct moves)."""
        np = self.np
        encoded = self.pc.dictionary_encode(flat)
        numbers = np.array(self._number(encoded.dictionary.to_pylist()), dtype=np.int64)
        return numbers[np.asarray(encoded.indices)]

    def _one_byte_ids(self, flat):
        """As :meth:`_dictionary_ids` when every move is one byte (so ASCII), from the bytes
        themselves: about 50 ms instead of 300 ms for 25 million moves."""
        np = self.np
        offsets = np.frombuffer(flat.buffers()[1], dtype=np.int32)
        start = int(offsets[flat.offset])
        codes = np.frombuffer(flat.buffers()[2], dtype=np.uint8)[start : start + len(flat)]
        data = codes.tobytes()
        present = np.flatnonzero(np.bincount(codes, minlength=256)).tolist()
        in_order = sorted(present, key=lambda code: data.find(bytes((code,))))  # memchr: first appearances
        number = np.zeros(256, dtype=np.int64)
        number[in_order] = self._number(chr(code) for code in in_order)
        return number[codes]

    def _joint_ids(self, own):
        """The numbers of a block's joint moves (rows of own-move numbers, one per player), by first
        appearance over the log; None when there would be too many to number."""
        np, players = self.np, self.players
        base = len(self.names)
        if base ** players >= 1 << 62:
            return None
        key = own[:, players - 1].copy()
        for player in range(players - 2, -1, -1):
            key *= base
            key += own[:, player]
        keys, first, inverse = np.unique(key, return_index=True, return_inverse=True)
        joint_ids = self.joint_ids
        numbers = np.empty(len(keys), dtype=np.int64)
        for index in np.argsort(first, kind="stable").tolist():  # this block's keys by first appearance
            own_moves = tuple(int(o) for o in own[first[index]])
            numbers[index] = joint_ids.setdefault(own_moves, len(joint_ids))
        return numbers[inverse.reshape(-1)]

    def playouts(self, header) -> tuple[Playouts, SimultaneousLog | None]:
        np = self.np
        names = tuple(self.names)
        simultaneous = None
        if self.joint:
            joint_of = tuple(self.joint_ids)
            moves = tuple(joint_name([names[o] for o in own_ids]) for own_ids in joint_of)
            simultaneous = header.simultaneous(JointMoves(names, joint_of))
        else:
            if header.simultaneous_rule:
                return None  # the line reader refuses the rule
            moves = names
        id_type = "B" if len(moves) <= 1 << 8 else "H" if len(moves) <= 1 << 16 else "i"
        move_ids = array(id_type, [0]) * sum(len(block) for block in self.blocks)
        out = np.frombuffer(move_ids, dtype={"B": np.uint8, "H": np.uint16, "i": np.int32}[id_type]) if len(move_ids) else None
        at, blocks = 0, self.blocks
        self.blocks = []
        for index, block in enumerate(blocks):
            out[at : at + len(block)] = block
            at += len(block)
            blocks[index] = None  # each block goes once copied
        first_line = 2
        rule, settings = header.sequential_rule()
        playouts = Playouts(
            moves=moves,
            starts=self.starts,
            move_ids=move_ids,
            returns=self.returns,
            lines=range(first_line, first_line + self.rows),
            c=header.c,
            players=self.players,
            ties=header.ties,
            compact=is_compact(moves),
            rule=rule,
            settings=settings,
        )
        return playouts, simultaneous


LINE_CHUNK = 1 << 22  # bytes scanned at a time: the scan's temporary arrays stay small


def _count_object_lines(np, encoded: bytes, start: int) -> int | None:
    """How many lines the body (from byte ``start``) has if each is one ``{...}`` with no CR in it
    (a final newline optional); None otherwise. With the reader's row count equal to this, every
    line holds exactly one record, as the line reader sees it."""
    data = np.frombuffer(encoded, dtype=np.uint8)
    if start >= len(data):
        return None
    last = len(data) - 1
    final_newline = int(data[last] == 10)
    if data[start] != ord("{") or data[last - final_newline] != ord("}"):
        return None
    count = 1 - final_newline  # the last line, unless the body ends with its newline
    for begin in range(start, len(data), LINE_CHUNK):
        chunk = data[begin : begin + LINE_CHUNK]
        if (chunk == 13).any():
            return None
        ends = np.flatnonzero(chunk == 10) + begin
        inner = ends[ends < last]  # each line but the last ends in "}" and the next starts with "{"
        if (data[ends - 1] != ord("}")).any() or (data[inner + 1] != ord("{")).any():
            return None
        count += len(ends)
    return int(count)
