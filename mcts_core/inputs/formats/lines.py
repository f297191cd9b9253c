"""A text's lines one block at a time: what ``str.splitlines`` gives, without a list of them all.

A list of every line costs about 60 bytes per line on top of the text (a 2,000,000-line input:
120 MB), so the line-by-line readers walk the text in blocks of about a megabyte, each cut just
after a newline, and keep only one block's lines at a time.
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
