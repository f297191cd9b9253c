"""A large text a block of whole lines at a time: for the line-by-line readers, and for pyarrow's.

A list of every line costs about 60 bytes per line on top of the text (a 2,000,000-line input:
120 MB), so the line-by-line readers walk the text in blocks of about a megabyte, each cut just
after a newline, and keep only one block's lines at a time (:func:`numbered_lines`); pyarrow's
readers get the encoded text in pieces cut the same way (:func:`arrow_pieces`), so only one piece's
columns exist at a time.
"""

from __future__ import annotations

from collections.abc import Iterator

BLOCK = 1 << 20  # characters split at a time


def numbered_lines(text: str) -> Iterator[tuple[int, str]]:
    """``(1-based line number, line)`` for each line of ``text``, exactly as ``text.splitlines()``."""
    number, start, size = 1, 0, len(text)
    while start < size:
        # A block ends just after a newline (so never inside a CRLF): its lines are whole lines,
        # and a line break at its end adds no empty line.
        end = text.find("\n", start + BLOCK)
        end = size if end < 0 else end + 1
        for line in text[start:end].splitlines():
            yield number, line
            number += 1
        start = end


def line_pieces(data: bytes, start: int, size: int) -> Iterator[tuple[int, int]]:
    """``(begin, end)`` of consecutive pieces of ``data`` from ``start`` on, each at least ``size``
    bytes and ending just after a newline (the last one: at the end of ``data``)."""
    length = len(data)
    while start < length:
        end = data.find(b"\n", start + size - 1)
        end = length if end < 0 else end + 1
        yield start, end
        start = end


def arrow_pieces(pa, data: bytes, start: int, size: int) -> Iterator:
    """The :func:`line_pieces` of ``data``, each copied into a buffer of pyarrow's own memory.

    Not buffers over the Python bytes (``pa.py_buffer``): pyarrow frees a read's input on one of its
    own threads, sometimes after the read returned, and freeing a buffer over a Python object takes
    the GIL; at the process's exit that aborted it ("terminate called without an active
    exception": 1 run in about 100 here, its core showed a CSV reader freed on an Arrow thread).
    """
    source = memoryview(data)
    for begin, end in line_pieces(data, start, size):
        piece = pa.allocate_buffer(end - begin)
        memoryview(piece).cast("B")[:] = source[begin:end]
        yield piece
