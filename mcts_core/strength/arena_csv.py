"""Arena CSV read back into rows: the two-player columns a fit needs, from ``arena``'s output or another tool's.

The header names the columns in any order; :data:`FIT_INPUT_COLUMNS` must be among them, others are
kept as they are. Every cell a fit reads is checked: counts are whole numbers >= 0 that add up
(wins + draws + losses = games, the pentanomial's bins = pairs, 2 pairs <= games), C a finite number
>= 0, the score (wins + draws / 2) / games, simulations a whole number >= 1. A wrong cell is a
:class:`ParseError` naming its line and column.
"""

from __future__ import annotations

import csv
import io
import math

from ..common.input_rules import ParseError
from .rows import ArenaRow

FIT_INPUT_COLUMNS = ("c", "games", "wins", "draws", "losses", "score", "pairs", "ll", "ld", "dd_wl", "wd", "ww",
                     "simulations")
COUNT_COLUMNS = ("games", "wins", "draws", "losses", "pairs", "ll", "ld", "dd_wl", "wd", "ww", "simulations")
SCORE_TOLERANCE = 5e-4  # a score printed to 3 decimals still matches its counts


def read_arena_csv(text: str) -> tuple[list[str], list[list[str]], list[ArenaRow]]:
    """The header, each row's cells as read, and each row as an :class:`ArenaRow` (two players).

    Raises:
        ParseError: no header, a column missing, a row with another number of cells than the header, or a
            cell that is not what its column holds (the line and the column named).
    """
    reader = csv.reader(io.StringIO(text))
    header = next(reader, None)
    if not header or header == [""]:
        raise ParseError(1, "no CSV header: the first line names the columns (arena's output starts with it)")
    header = [name.strip() for name in header]
    missing = [name for name in FIT_INPUT_COLUMNS if name not in header]
    if missing:
        raise ParseError(1, f"the header lacks the column{'s' if len(missing) > 1 else ''} {', '.join(missing)} "
                         f"(a fit reads {', '.join(FIT_INPUT_COLUMNS)})")
    where = {name: header.index(name) for name in FIT_INPUT_COLUMNS}
    cells, rows = [], []
    for line in reader:
        if not line or line == [""]:
            continue
        number = reader.line_num
        if len(line) != len(header):
            raise ParseError(number, f"{len(line)} cells where the header names {len(header)} columns")
        rows.append(_row(number, {name: line[index].strip() for name, index in where.items()}))
        cells.append(line)
    if not rows:
        raise ParseError(1, "no rows after the header")
    return header, cells, rows


def _row(line: int, cell: dict[str, str]) -> ArenaRow:
    counts = {name: _count(line, name, cell[name]) for name in COUNT_COLUMNS}
    c = _number(line, "c", cell["c"])
    if not (math.isfinite(c) and c >= 0):
        raise ParseError(line, f"column c: C is a finite number >= 0, got {cell['c']!r}")
    if counts["simulations"] < 1:
        raise ParseError(line, f"column simulations: at least 1, got {counts['simulations']}")
    if counts["wins"] + counts["draws"] + counts["losses"] != counts["games"]:
        raise ParseError(line, f"column games: {counts['games']} is not wins + draws + losses "
                         f"({counts['wins']} + {counts['draws']} + {counts['losses']})")
    bins = [counts[name] for name in ("ll", "ld", "dd_wl", "wd", "ww")]
    if sum(bins) != counts["pairs"]:
        raise ParseError(line, f"column pairs: {counts['pairs']} is not ll + ld + dd_wl + wd + ww ({sum(bins)})")
    if 2 * counts["pairs"] > counts["games"]:
        raise ParseError(line, f"column pairs: {counts['pairs']} pairs need {2 * counts['pairs']} games, "
                         f"the row has {counts['games']}")
    score = _number(line, "score", cell["score"])
    expected = (counts["wins"] + counts["draws"] / 2) / counts["games"] if counts["games"] else math.nan
    if counts["games"] and not abs(score - expected) <= SCORE_TOLERANCE:
        raise ParseError(line, f"column score: {cell['score']} is not (wins + draws / 2) / games ({expected:.6g})")
    return ArenaRow(c=c, players=2, score=expected, **counts)


def _count(line: int, column: str, text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise ParseError(line, f"column {column}: a whole number >= 0, got {text!r}")
    return value


def _number(line: int, column: str, text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise ParseError(line, f"column {column}: a number, got {text!r}") from None
