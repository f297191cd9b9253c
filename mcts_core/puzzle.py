"""The puzzle end to end: text in, selected move sequence out."""

from __future__ import annotations

from .common.input_rules import ParseError
from .inputs.formats.text import parse_playouts
from .inputs.loading import TEXT, bounded_tree
from .inputs.memory_bound import check_reading
from .selection import Scoring, select_path


def solve(text: str, *, c: float | None = None) -> str:
    """Solve the CodinGame "Monte Carlo Tree Search exercise" for puzzle input ``text``.

    Args:
        text: header ``N C`` and N lines ``moves score`` (or header-less lines when ``c`` is given).
        c: overrides the header's C; required for header-less input.

    Returns:
        The moves UCB1 selection follows from the root to a leaf.

    Raises:
        ParseError: bad input, no C at all, or more memory than the bound allows (said before it is read).
    """
    reading = check_reading(text, TEXT)
    playouts = parse_playouts(text)
    if c is None:
        c = playouts.c
    if c is None:
        raise ParseError(1, "no header `N C` and no C given: add a header line like `3 0.1`")
    return select_path(bounded_tree(reading, playouts), Scoring(c=c))
