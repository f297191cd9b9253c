"""Puzzle text -> playouts: the one text parser shared by the CLI and the app.

Accepted input:

* the puzzle format: a header line ``N C`` followed by exactly N lines ``moves score``;
* a header-less list of ``moves score`` lines (C then comes from elsewhere).

CRLF line ends, blank lines and lines starting with ``#`` are ignored, except the directives
``#players 2`` (each score is player 0's return; the other player's is its negation) and
``#ties first`` (exact ties go to the first child created, not the smaller move). A move is one
printable, non-space character; scores and C are finite numbers
(:func:`~mcts_core.common.numbers.parse_number`) and C >= 0. Anything else raises :class:`ParseError`
with the 1-based line number and a sentence a person understands.
"""

from __future__ import annotations

import math
import re
from array import array
from collections.abc import Sequence

from ...common.numbers import C_RULE, is_valid_c, parse_number
from ...model.playouts import TIES, Playouts
from ...common.input_rules import MAX_MOVES, MAX_PLAYOUTS, ParseError
from .lines import numbered_lines
from .text_columns import ASCII_MOVES

# A header is "<integer> <number>". A one-move playout whose move is a digit ("3 0.1") looks the
# same; the puzzle format always has a header, so the header reading wins and a wrong N is reported
# with a hint.
_HEADER_N = re.compile(r"[+-]?[0-9]+")
DIRECTIVES = ("#players", "#ties")
# Above this many characters of moves, numpy turns them into move ids faster than a Python loop.
_NUMPY_MOVES = 200_000
# Above this many bytes, well-formed text is read into columns by numpy and pyarrow (text_columns.py)
# instead of being split into a Python string per field.
COLUMNAR_BYTES = 1 << 20


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
    """The general path: line by line; it also finds and words every error.

    Two passes over the lines, neither keeping a Python object per line (on a large input they
    would take many times its size): the first reads the directives and finds the header and the
    number of playout lines, the second reads the playouts into columns.
    """
    directives: dict = {}
    first_line, first_fields, count, limit_lines = 0, None, 0, []
    for number, line in numbered_lines(text):
        stripped = line.lstrip()
        if not stripped:
            continue
        if stripped[0] == "#":  # a comment or a directive (str.split cuts where lstrip stops)
            fields = line.split()
            if fields[0] in DIRECTIVES:
                _directive(fields, number, directives)
            continue
        if first_fields is None:
            first_line, first_fields = number, line.split()
        if max_playouts <= count <= max_playouts + 1:
            limit_lines.append(number)  # the first playout past the limit, without a header and with one
        count += 1
    players, ties = directives.get("#players", (1, 0))[0], directives.get("#ties", ("smaller", 0))[0]
    if first_fields is None:
        raise ParseError(1, "no playouts found: expected lines like `baa 30` (moves, then score)")

    c, header = None, len(first_fields) == 2 and _HEADER_N.fullmatch(first_fields[0]) is not None
    present = count - header
    if header:
        c = _parse_c(first_fields[1], first_line)
        _check_declared_count(int(first_fields[0]), present, first_line, max_playouts)
    if present > max_playouts:
        raise ParseError(
            limit_lines[header],
            f"too many playouts: at most {max_playouts:,} are supported",
        )

    moves = MoveColumn()
    scores = array("d")
    lines = array("q")
    for number, line in numbered_lines(text):
        fields = line.split()
        if not fields or fields[0].startswith("#") or (header and number == first_line):
            continue
        word, score = _parse_playout(fields, number)
        moves.add(word)
        scores.append(score)
        lines.append(number)
    return moves.playouts(scores, lines, c, players=players, ties=ties)


def _directive(fields: list[str], number: int, seen: dict) -> None:
    """Read ``#players N`` or ``#ties first|smaller`` into ``seen`` (value, line)."""
    name = fields[0]
    if name in seen:
        raise ParseError(number, f"{name} is given twice (first on line {seen[name][1]})")
    if len(fields) != 2:
        raise ParseError(number, f"expected `{name} <value>`, got {' '.join(fields)[:60]!r}")
    value = fields[1]
    if name == "#players":
        if value not in ("1", "2"):
            raise ParseError(
                number, f"#players must be 1 or 2 in a text log (one score per playout), got {value[:20]!r}"
            )
        seen[name] = (int(value), number)
    else:
        if value not in TIES:
            raise ParseError(number, f"#ties must be `smaller` or `first`, got {value[:20]!r}")
        seen[name] = (value, number)


def playouts_of(
    words: Sequence[str],
    scores: Sequence[float],
    lines: Sequence[int],
    c: float | None,
    *,
    players: int = 1,
    ties: str = "smaller",
) -> Playouts:
    """Playouts from words of one-character moves and player 0's scores, as columns.

    An ASCII move's id is its byte value (``moves`` is the ASCII table); other moves are numbered
    by their order among the distinct characters. With 2 players the other player's return is the
    score's negation.
    """
    moves = MoveColumn()
    for word in words:
        moves.add(word)
    return moves.playouts(array("d", scores), lines, c, players=players, ties=ties)


class MoveColumn:
    """Words of one-character moves gathered into one move-id column, a block of words at a time.

    Words are joined into blocks as they come, so a large input keeps no Python string per word
    (about 60 bytes each); the ids are made block by block once every distinct move is known.
    """

    BLOCK_WORDS = 4096

    def __init__(self):
        self.blocks: list[str] = []
        self.pending: list[str] = []
        self.starts = array("q", [0])
        self.total = 0

    def add(self, word: str) -> None:
        """The next playout's moves."""
        self.pending.append(word)
        self.total += len(word)
        self.starts.append(self.total)
        if len(self.pending) >= self.BLOCK_WORDS:
            self.blocks.append("".join(self.pending))
            self.pending = []

    def playouts(self, scores: array, lines: Sequence[int], c: float | None, *, players: int, ties: str) -> Playouts:
        """The Playouts of the words added, with player 0's ``scores`` (with 2 players the other's
        return is the score's negation)."""
        self.blocks.append("".join(self.pending))
        self.pending = []
        moves, move_ids = self._ids()
        returns = scores
        if players == 2:
            returns = array("d", [0.0]) * (2 * len(scores))
            returns[0::2] = scores
            returns[1::2] = array("d", (-score for score in scores))
        return Playouts(moves, self.starts, move_ids, returns, lines, c, players=players, ties=ties, compact=True)

    def _ids(self) -> tuple[tuple[str, ...], array]:
        """The moves by id and every move's id; the blocks are consumed (each goes once converted)."""
        blocks = self.blocks
        if all(block.isascii() for block in blocks):
            ids = array("B")
            for block in blocks:
                ids.frombytes(block.encode("ascii"))
            self.blocks = []
            return ASCII_MOVES, ids
        if self.total >= _NUMPY_MOVES:
            return self._ids_with_numpy()
        moves = tuple(sorted(set().union(*blocks)))
        number = {move: index for index, move in enumerate(moves)}
        self.blocks = []
        return moves, array(id_type(len(moves)), [number[move] for block in blocks for move in block])

    def _ids_with_numpy(self) -> tuple[tuple[str, ...], array]:
        """As :meth:`_ids` for a large input with moves beyond ASCII: each block's characters as
        code points, numbered through a table over every code point."""
        import numpy as np

        present = np.zeros(0x110000, dtype=bool)
        for block in self.blocks:
            present[np.frombuffer(block.encode("utf-32-le"), dtype=np.uint32)] = True
        codes = np.flatnonzero(present)
        moves = tuple(map(chr, codes.tolist()))
        code = id_type(len(moves))
        ids = array(code, [0]) * self.total
        out = np.frombuffer(ids, dtype=_NUMPY_IDS[code])
        number = np.zeros(0x110000, dtype=_NUMPY_IDS[code])
        number[codes] = np.arange(len(moves))
        at, blocks = 0, self.blocks
        self.blocks = []
        for index, block in enumerate(blocks):
            out[at : at + len(block)] = number[np.frombuffer(block.encode("utf-32-le"), dtype=np.uint32)]
            at += len(block)
            blocks[index] = None  # each block goes once converted
        return moves, ids


_NUMPY_IDS = {"B": "uint8", "H": "uint16", "i": "int32"}


def id_type(count: int) -> str:
    """The smallest ``array`` type code that numbers ``count`` distinct moves."""
    return "B" if count <= 1 << 8 else "H" if count <= 1 << 16 else "i"


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
    if len(raw) >= COLUMNAR_BYTES:
        from .text_columns import parse_plain_columns

        return parse_plain_columns(raw, count, max_playouts)
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
    return playouts_of(words, scores, range(first, first + present), c)


def format_playouts(playouts: Playouts, *, c: float | None = None) -> str:
    """Write playouts back as puzzle text (with a header when a C is known)."""
    c = playouts.c if c is None else c
    header = [f"{len(playouts)} {c!r}"] if c is not None else []
    body = [f"{playouts.word(i)} {playouts.score(i)!r}" for i in range(len(playouts))]
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
