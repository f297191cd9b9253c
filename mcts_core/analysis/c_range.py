"""The C slider's range: from 0 to a few times the scores' spread, narrowed to where the path changes."""

from __future__ import annotations

import math
from collections.abc import Sequence

LARGEST_C = 1e300  # a slider needs finite ends; beyond this C only matters for scores near the float limit
SMALLEST_RANGE = 1e-6  # a slider narrower than this has steps too small to be floats apart
KEY_STEPS = 100  # an arrow key moves C by at most 1/KEY_STEPS of the slider's range


def nice_ceiling(x: float) -> float:
    """The smallest of 1, 2, 5 x 10^k that is >= x (x > 0); :data:`LARGEST_C` at most."""
    if not x < LARGEST_C:
        return LARGEST_C
    power = 10.0 ** math.floor(math.log10(x))
    for factor in (1, 2, 5, 10):
        if factor * power >= x:
            return min(factor * power, LARGEST_C)
    return min(10 * power, LARGEST_C)  # unreachable: 10 * power >= x always


def nice_floor(x: float) -> float:
    """The largest of 1, 2, 5 x 10^k that is <= x (x > 0), written as its decimal (0.05, not 0.05000000000000001)."""
    exponent = math.floor(math.log10(x))
    for factor in (5, 2, 1):
        nice = float(f"{factor}e{exponent}")
        if nice <= x * (1 + 1e-12):  # log10 and the product may miss an exact 1-2-5 value by an ulp
            return nice
    return float(f"5e{exponent - 1}")  # log10 rounded up past x: the 1-2-5 value below


def key_step(max_c: float) -> float:
    """How far an arrow key moves C on a slider over [0, max_c]: the largest 1-2-5 value at most 1/100
    of the range (0.05 on [0, 5]; the slider's ends are 1-2-5 values, so exactly 1/100 there, and
    never under 1/250), so C lands on round values and crosses the range in 100 presses, or 10 big
    steps of ten (Page Up/Down, Shift+arrow)."""
    return nice_floor(max_c / KEY_STEPS)


def suggest_c_range(scores: Sequence[float], c: float = 0.0, *, spread_factor: float = 3.0) -> tuple[float, float]:
    """Slider maximum and step for C.

    The exploration term is C times a factor of order 1, so C is comparable to the scores when it is
    comparable to their spread; a few spreads covers every interesting choice. The range always
    includes ``c`` (a header's or a typed C). Any finite scores work: near the float limit the
    spread itself overflows, and the range stops at :data:`LARGEST_C`.

    Returns:
        ``(max_c, step)`` with step = max_c / 1000.
    """
    low, high = (min(scores), max(scores)) if scores else (0.0, 0.0)
    spread = high - low if math.isfinite(high - low) else math.inf
    if spread == 0.0:
        spread = max(abs(high), 1.0)
    max_c = max(nice_ceiling(max(spread * spread_factor, c, SMALLEST_RANGE)), c)  # c beyond LARGEST_C: up to c
    return max_c, max_c / 1000


def fit_to_breakpoints(max_c: float, last_breakpoint: float | None, c: float, *, margin: float = 1.5) -> tuple[float, float]:
    """Narrow a slider range to where the selected path changes.

    With the last breakpoint of the path below ``max_c`` known, the slider ends at a nice number
    ``margin`` times beyond it (never beyond ``max_c``, always including ``c``), so the values that
    change the path take most of the slider. Without a breakpoint the range stays.

    Returns:
        ``(max_c, step)`` with step = max_c / 1000.
    """
    if last_breakpoint is not None and last_breakpoint > 0:
        max_c = min(max_c, nice_ceiling(max(margin * last_breakpoint, SMALLEST_RANGE)))
    max_c = max(max_c, nice_ceiling(c) if c > 0 else 0.0, c)
    return max_c, max_c / 1000
