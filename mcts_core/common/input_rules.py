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
        ParseError: naming the line of the first byte that is not UTF-8.
    """
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise ParseError(line, "the text is not valid UTF-8") from None
