"""Puzzle text <-> playout records: the one parser shared by the CLI and the app.

Accepted input:

* the puzzle format: a header line ``N C`` followed by exactly N lines ``moves score``;
* a header-less list of ``moves score`` lines (C then comes from elsewhere).

CRLF line ends, blank lines and lines starting with ``#`` are ignored. A move is one printable,
non-space character; scores and C are finite numbers (:func:`~mcts_core.numbers.parse_number`)
and C >= 0. Anything else raises
:class:`ParseError` with the 1-based line number and a sentence a person understands.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ..numbers import C_RULE, is_valid_c, parse_number

MAX_PLAYOUTS = 2_000_000
MAX_MOVES = 1_000

# A header is "<integer> <number>". A one-move playout whose move is a digit ("3 0.1") looks the
# same; the puzzle format always has a header, so the header reading wins and a wrong N is reported
# with a hint.
_HEADER_N = re.compile(r"[+-]?[0-9]+")


class ParseError(ValueError):
    """Bad input: ``line`` is the 1-based input line, ``message`` says what is wrong."""

    def __init__(self, line: int, message: str):
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


@dataclass(frozen=True, slots=True)
class Playouts:
    """Parsed input: the playouts in input order and the header's C (None when there is no header).

    ``words[i]`` and ``scores[i]`` are playout i; ``lines[i]`` is its 1-based input line.
    """

    words: tuple[str, ...]
    scores: tuple[float, ...]
    lines: tuple[int, ...]
    c: float | None = None

    def __len__(self) -> int:
        return len(self.words)


def parse_playouts(text: str, *, max_playouts: int = MAX_PLAYOUTS) -> Playouts:
    """Parse puzzle input or a header-less playout list.

    Args:
        text: the whole input.
        max_playouts: refuse inputs with more playout lines than this.

    Returns:
        The playouts and the header's C (None if header-less).

    Raises:
        ParseError: on the first bad line, naming it.
    """
    fast = _parse_plain(text, max_playouts)
    if fast is not None:
        return fast
    return _parse_lines(text, max_playouts)


def _parse_lines(text: str, max_playouts: int) -> Playouts:
    """The general path: line by line; it also finds and words every error."""
    numbered = [
        (number, line.split())
        for number, line in enumerate(text.splitlines(), start=1)
        if line.strip() and not line.lstrip().startswith("#")
    ]
    if not numbered:
        raise ParseError(1, "no playouts found: expected lines like `baa 30` (moves, then score)")

    c = None
    first_line, first_fields = numbered[0]
    if len(first_fields) == 2 and _HEADER_N.fullmatch(first_fields[0]):
        declared = int(first_fields[0])
        c = _parse_c(first_fields[1], first_line)
        body = numbered[1:]
        _check_declared_count(declared, len(body), first_line, max_playouts)
    else:
        body = numbered
    if len(body) > max_playouts:
        raise ParseError(
            body[max_playouts][0],
            f"too many playouts: at most {max_playouts:,} are supported",
        )

    words: list[str] = []
    scores: list[float] = []
    lines: list[int] = []
    for number, fields in body:
        word, score = _parse_playout(fields, number)
        words.append(word)
        scores.append(score)
        lines.append(number)
    return Playouts(tuple(words), tuple(scores), tuple(lines), c)


# Every byte but the two separators, and every byte but printable ASCII and the newline.
_NOT_SEPARATOR = bytes(set(range(256)) - {0x20, 0x0A})
_PRINTABLE_OR_NEWLINE = bytes(range(0x20, 0x7F)) + b"\n"


def _parse_plain(text: str, max_playouts: int) -> Playouts | None:
    """Fast path for the common, well-formed input; None whenever the general path must decide.

    It accepts only ASCII text whose every line is exactly ``field SPACE field`` (LF or CRLF ends,
    no blank or comment lines, no ``_``), which it checks with a few whole-text C calls instead of
    a Python loop over lines. It returns the same Playouts as the general path or None; it never
    raises, so errors (messages and line numbers) always come from the general path.
    """
    if not text.isascii() or "#" in text or "_" in text:
        return None
    if "\r" in text:
        text = text.replace("\r\n", "\n")
        if "\r" in text:
            return None
    if not text.endswith("\n"):
        text += "\n"
    raw = text.encode("ascii")
    if raw.translate(None, _PRINTABLE_OR_NEWLINE):
        return None  # a control character or a tab somewhere
    count = raw.count(b"\n")
    # One space then one newline, line after line: every line holds exactly one space.
    if raw.translate(None, _NOT_SEPARATOR) != b" \n" * count:
        return None
    fields = text.split()
    if len(fields) != 2 * count:
        return None  # a line starts or ends with its space
    # Now fields 2i and 2i+1 are line i + 1's two fields.
    c = None
    first = 1
    if _HEADER_N.fullmatch(fields[0]):
        c = parse_number(fields[1])
        declared = int(fields[0])
        if c is None or not is_valid_c(c) or not 0 < declared == count - 1:
            return None
        first = 2
    words = fields[2 * first - 2 :: 2]
    present = len(words)
    if present > max_playouts or max(map(len, words)) > MAX_MOVES:
        return None
    try:
        scores = list(map(float, fields[2 * first - 1 :: 2]))
    except ValueError:
        return None
    if not math.isfinite(sum(scores)) and not all(map(math.isfinite, scores)):
        return None
    return Playouts(tuple(words), tuple(scores), tuple(range(first, first + present)), c)


def format_playouts(playouts: Playouts, *, c: float | None = None) -> str:
    """Write playouts back as puzzle text (with a header when a C is known)."""
    c = playouts.c if c is None else c
    header = [f"{len(playouts)} {c!r}"] if c is not None else []
    body = [f"{word} {score!r}" for word, score in zip(playouts.words, playouts.scores)]
    return "\n".join(header + body) + "\n"


def _parse_c(field: str, line: int) -> float:
    value = parse_number(field)
    if value is None or not is_valid_c(value):
        raise ParseError(line, f"{C_RULE}, got {field[:40]!r}")
    return value


def _check_declared_count(declared: int, present: int, line: int, max_playouts: int) -> None:
    if declared < 0:
        raise ParseError(line, f"the number of playouts N must not be negative, got {declared}")
    if declared == 0:
        raise ParseError(line, "the header says N = 0 playouts; at least one is needed")
    if declared > max_playouts:
        raise ParseError(line, f"N = {declared:,} is too large: at most {max_playouts:,} are supported")
    if declared != present:
        raise ParseError(
            line,
            f"the header says N = {declared} playouts but {present} playout lines follow"
            " (fix N; if this line is a playout, not a header, put a header `N C` above it)",
        )


def _parse_playout(fields: list[str], line: int) -> tuple[str, float]:
    if len(fields) != 2:
        raise ParseError(
            line, f"expected 2 fields `moves score`, got {len(fields)}: {' '.join(fields)[:60]!r}"
        )
    word, score_text = fields
    if not word.isprintable():
        bad = next(ch for ch in word if not ch.isprintable())
        raise ParseError(line, f"move {bad!r} is not a printable character")
    if len(word) > MAX_MOVES:
        raise ParseError(line, f"playout has {len(word):,} moves; at most {MAX_MOVES:,} are supported")
    return word, parse_finite(score_text, line, "score")


def parse_finite(text: str, line: int, name: str) -> float:
    """A finite float from ``text``, else a ParseError saying what ``name`` must be."""
    value = parse_number(text)
    if value is None:
        raise ParseError(line, f"{name} must be a number, got {text[:40]!r}")
    if not math.isfinite(value):
        raise ParseError(line, f"{name} must be finite, got {text[:40]!r}")
    return value


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
