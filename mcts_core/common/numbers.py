"""Numbers typed or read by a person: one rule for what counts as a number, one for what C may be."""

from __future__ import annotations

import math
from typing import Any

C_RULE = "C must be a finite number >= 0"


def parse_number(text: str) -> float | None:
    """The float ``text`` spells, or None.

    Python's ``float`` syntax, except that ``_`` digit separators (``1_000``) are refused: a log
    or a typed value never means them, so they are treated as a typo everywhere.
    """
    if "_" in text:
        return None
    try:
        return float(text)
    except ValueError:
        return None


def is_finite_number(value: Any) -> bool:
    """Whether ``value`` is a number (not a bool) that a float holds finitely: an int beyond a
    float's range is not (``math.isfinite`` raises OverflowError on it)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def is_valid_c(c: float) -> bool:
    """Whether ``c`` can be an exploration constant: a finite number >= 0."""
    return is_finite_number(c) and c >= 0


def parse_c(text: str) -> float:
    """The exploration constant ``text`` spells (surrounding spaces ignored).

    Raises:
        ValueError: ``C must be a finite number >= 0, got '<text>'``.
    """
    value = parse_number(text.strip())
    if value is None or not is_valid_c(value):
        raise ValueError(f"{C_RULE}, got {text.strip()[:40]!r}")
    return value
