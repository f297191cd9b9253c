"""Per-move values (PUCT priors, progressive-bias heuristics) as text.

Format, one move per line::

    # priors for the root's children
    a 0.6
    b 0.3

Each line is ``move value``: a move is a printable word without spaces (a character in puzzle
text, a name like ``e4`` in a JSON log); the value is a finite float (``1e-3`` and ``-2`` are fine,
``nan``, ``inf`` and ``1_000`` are not). A move may appear only once. Blank lines, CRLF line ends
and lines starting with ``#`` are ignored. A value belongs to the move wherever it occurs in the
tree (the explorer has no game state to tell positions apart; a log's per-node priors do);
rules give unlisted moves 0, or uniform priors when there are none at all.

The same values can ride along in playout input as annotated comment lines, which the playout
parser ignores like any other ``#`` line::

    3 0.1
    #prior a 0.6
    #heuristic b -2
    baa 30

An annotation line is ``#<keyword> move value`` with no space between ``#`` and the keyword (so an
ordinary comment such as ``# prior work`` stays a comment); :func:`annotated_values` collects one
keyword's lines. Bad lines raise :class:`~mcts_core.common.input_rules.ParseError` with the 1-based line number
of the text given.
"""

from __future__ import annotations

from ...common.input_rules import ParseError
from .lines import numbered_lines
from .text import parse_finite

KEYWORDS = ("prior", "heuristic")  # the annotations the app reads from playout input


def parse_move_values(text: str) -> dict[str, float]:
    """Parse ``move value`` lines.

    Args:
        text: the text box's content (may be empty).

    Returns:
        Move -> value, in input order (empty for empty text).

    Raises:
        ParseError: on the first bad line, naming it.
    """
    return _collect(
        (number, line.split())
        for number, line in enumerate(text.splitlines(), start=1)
        if line.strip() and not line.lstrip().startswith("#")
    )


def annotated_values(text: str, keyword: str) -> dict[str, float]:
    """Collect the ``#<keyword> move value`` lines of playout input.

    Args:
        text: the whole playout input.
        keyword: e.g. ``"prior"`` or ``"heuristic"`` (see :data:`KEYWORDS`).

    Returns:
        Move -> value from those lines, in input order (empty if there are none).

    Raises:
        ParseError: on the first bad annotation line, with its line number in ``text``.
    """
    tag = "#" + keyword
    if tag not in text:  # the usual case, found without splitting a large input into lines
        return {}
    return _collect(
        (number, fields[1:])
        for number, fields in ((n, line.split()) for n, line in numbered_lines(text))
        if fields and fields[0] == tag
    )


def _collect(numbered) -> dict[str, float]:
    """Move -> value from ``(line number, [move, value])`` pairs, checking every line."""
    values: dict[str, float] = {}
    first_line: dict[str, int] = {}
    for number, fields in numbered:
        if len(fields) != 2:
            shown = " ".join(fields)[:60]
            raise ParseError(number, f"expected 2 fields `move value`, got {len(fields)}: {shown!r}")
        move, text = fields
        if not move.isprintable():
            raise ParseError(number, f"move {move[:20]!r} is not printable")
        value = parse_finite(text, number, "value")
        if move in values:
            first = first_line[move]
            raise ParseError(number, f"move {move!r} is listed twice (first on line {first})")
        values[move] = value
        first_line[move] = number
    return values
