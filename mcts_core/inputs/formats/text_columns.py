"""Well-formed puzzle text straight into columns, without a Python object per field.

For the fast path of :mod:`mcts_core.inputs.formats.text` on large inputs: the caller has checked that the
text is ASCII and that every line is ``word SPACE score`` ending in a newline (no quotes have a
meaning here: quoting is off). pyarrow's CSV reader splits the lines in C++: the words come as one
byte buffer with offsets (a move is a byte, and its id is the byte's value, as
:func:`~mcts_core.inputs.formats.text.playouts_of` numbers ASCII moves), the scores through pyarrow's
string-to-double conversion, which is correctly rounded like Python's ``float`` and refuses what it
refuses on these characters (tests compare the two). Anything this reader cannot vouch for returns
None, and the line-by-line parser decides.
"""

from __future__ import annotations

import re
from array import array

from ...model.playouts import Playouts
from ...common.input_rules import MAX_MOVES
from .lines import arrow_pieces

_HEADER_N = re.compile(rb"[+-]?[0-9]+")
ASCII_MOVES = tuple(map(chr, range(128)))  # ASCII moves are numbered by their byte value
# pyarrow reads the text in pieces of whole lines (lines.arrow_pieces), each with its own threads on
# blocks within it: only one piece's columns exist at a time (one table of the whole text and its
# combined copy held twice the text; bench/RESULTS.md).
PIECE_BYTES = 4 << 20
BLOCK_BYTES = 1 << 20


def parse_plain_columns(raw: bytes, count: int, max_playouts: int) -> Playouts | None:
    """The Playouts of ``count`` well-formed lines (see the module docstring), or None."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.csv as csv

    from ...common.numbers import is_valid_c, parse_number

    first_line = raw[: raw.index(b"\n")]
    head_word, _, head_value = first_line.partition(b" ")
    c, skip = None, 0
    if _HEADER_N.fullmatch(head_word):
        c = parse_number(head_value.decode("ascii"))
        if c is None or not is_valid_c(c) or not 0 < int(head_word) == count - 1:
            return None
        skip = 1
    present = count - skip
    if present > max_playouts:
        return None
    starts = array("q", [0]) * (present + 1)
    returns = array("d", [0.0]) * present
    start_view = np.frombuffer(starts, dtype=np.int64)
    return_view = np.frombuffer(returns, dtype=np.float64)
    move_ids = array("B")
    rows = 0
    parse_options = csv.ParseOptions(
        delimiter=" ", quote_char=False, double_quote=False, escape_char=False, ignore_empty_lines=False
    )
    convert_options = csv.ConvertOptions(
        column_types={"word": pa.binary(), "score": pa.float64()},
        null_values=[],
        strings_can_be_null=False,
        quoted_strings_can_be_null=False,
    )
    try:
        for index, piece in enumerate(arrow_pieces(pa, raw, 0, PIECE_BYTES)):
            table = csv.read_csv(
                piece,
                read_options=csv.ReadOptions(column_names=["word", "score"], skip_rows=0 if index else skip,
                                             block_size=BLOCK_BYTES),
                parse_options=parse_options,
                convert_options=convert_options,
            )
            for words, scores in zip(table.column(0).chunks, table.column(1).chunks):
                size = len(words)
                if words.null_count or scores.null_count or rows + size > present:
                    return None
                if not size:
                    continue
                offsets = np.frombuffer(words.buffers()[1], dtype=np.int32)[words.offset : words.offset + size + 1]
                lengths = np.diff(offsets)
                if lengths.min() < 1 or lengths.max() > MAX_MOVES:
                    return None
                values = np.frombuffer(scores.buffers()[1], dtype=np.float64)[scores.offset : scores.offset + size]
                if not np.isfinite(values).all():
                    return None
                start_view[rows + 1 : rows + size + 1] = offsets[1:] - offsets[0] + start_view[rows]
                return_view[rows : rows + size] = values
                move_ids.frombytes(memoryview(words.buffers()[2])[offsets[0] : offsets[-1]])
                rows += size
            del table
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    if rows != present:
        return None
    return Playouts(
        moves=ASCII_MOVES,
        starts=starts,
        move_ids=move_ids,
        returns=returns,
        lines=range(skip + 1, skip + 1 + present),
        c=c,
        compact=True,
    )
