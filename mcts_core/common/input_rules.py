"""What every input format shares: the error type, the size limits, decoding bytes."""

from __future__ import annotations

MAX_PLAYOUTS = 2_000_000  # playouts, or records of a JSON log, or nodes of a tree dump
MAX_MOVES = 1_000  # moves in one playout
MAX_PLAYERS = 16


class ParseError(ValueError):
    """Bad input: ``line`` is the 1-based input line, ``message`` says what is wrong."""

    def __init__(self, line: int, message: str):
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


def decode_text(data: bytes) -> str:
    """Decode uploaded or piped bytes as UTF-8 (a BOM is allowed).

    Raises:
        ParseError: naming the line and column of the first byte that is not UTF-8.
    """
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise not_utf8(error) from None


def not_utf8(error: UnicodeDecodeError, first_line: int = 1) -> ParseError:
    """The one sentence for bytes that are not UTF-8, e.g. ``line 3: the input is not UTF-8 text (byte
    0x80 at column 5)``: the first bad byte, its line (counted from ``first_line``) and its column
    (characters, as an editor counts them)."""
    data, start = error.object, error.start  # the bytes decoded (after any BOM), the first bad one
    line_start = data.rfind(b"\n", 0, start) + 1
    column = len(data[line_start:start].decode("utf-8", "replace")) + 1
    line = first_line + data.count(b"\n", 0, start)
    return ParseError(line, f"the input is not UTF-8 text (byte 0x{data[start]:02x} at column {column})")
