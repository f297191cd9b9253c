"""A C slider range that fits the scores: from 0 to a few times their spread, in fine steps."""

from __future__ import annotations

import math
from collections.abc import Sequence


def nice_ceiling(x: float) -> float:
    """The smallest of 1, 2, 5 x 10^k that is >= x (x > 0)."""
    power = 10.0 ** math.floor(math.log10(x))
    for factor in (1, 2, 5, 10):
        if factor * power >= x:
            return factor * power
    return 10 * power  # unreachable: 10 * power >= x always


def suggest_c_range(scores: Sequence[float], c: float = 0.0, *, spread_factor: float = 3.0) -> tuple[float, float]:
    """Slider maximum and step for C.

    The exploration term is C times a factor of order 1, so C is comparable to the scores when it is
    comparable to their spread; a few spreads covers every interesting choice. The range always
    includes ``c`` (a header's or a typed C).

    Returns:
        ``(max_c, step)`` with step = max_c / 1000.
    """
    spread = max(scores) - min(scores) if scores else 0.0
    if spread == 0.0:
        spread = max(abs(max(scores, default=0.0)), 1.0)
    max_c = nice_ceiling(max(spread * spread_factor, c, 1e-6))
    return max_c, max_c / 1000
