"""The best C read off the points around the best measured one, with an interval that holds on lopsided curves.

The quadratic of :mod:`.best_c` assumes the score falls off alike on both sides of the peak in log C;
fitted over a wide grid to a curve that falls faster on one side, its peak is pulled to the flatter
side and its interval misses the true best C (bench/RESULTS.md, issue 52: 18% coverage on the
`skewed` curve). Here the fit is local and allowed to lean:

- Window: the C values inside the model-free range of :mod:`.best_set` (the set of C values not
  significantly below the best measured one, with the grid's C on each side of it), at least 3.
- Curve: logistic(b0 + b1 t + b2 t^2 + b3 t^3) over the window, t = log C scaled to [-1, 1]; a
  quadratic with 4 points or fewer (a cubic needs a degree of freedom left to measure the scatter).
  Its variance is the dispersion of :func:`.best_c.dispersion_and_misfit` (the pairs' own, widened
  to the Pearson chi-square when the points stray more).
- Best C: where the fitted curve is highest over the window. Its 95 % interval: the C values around
  it where the slope, b1 + 2 b2 t + 3 b3 t^2, is not significantly different from 0 (Fieller's test
  at each t, the connected stretch holding the peak), kept inside the model-free range. An end of
  the window reached by that stretch is the range's end there: 0 or inf where the range is open.
- Settled: both ends of the interval and of the model-free range closed. Otherwise the data cannot
  tell the best C yet; :func:`next_grid` says what to play next.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .best_c import FitError, ScorePoint, powers, dispersion_and_misfit, fit_logistic_polynomial
from .best_set import BestSet, best_set
from .elo import Z_95

CUBIC_POINTS = 5  # the fewest points a cubic is fitted to (one degree of freedom left)
SLOPE_STEPS = 2000  # the slope test's t values over the window: steps of 0.001 in t
NEXT_POINTS = 5  # C values in the grid :func:`next_grid` suggests
WIDEN = 4.0  # an open end's next grid reaches this factor past the grid's end


@dataclass(frozen=True)
class LocalPeak:
    """The local fit's best C and its interval.

    Attributes:
        best: where the local curve is highest.
        low, high: its 95 % interval (0 or inf on a side the data leave open).
        degree: the local curve's degree (3, or 2 with 4 points or fewer).
        window: the first and last C fitted.
        misfit: the local fit's lack-of-fit p-value (nan with no degree of freedom left).
        best_set: the model-free set the window came from.
    """

    best: float
    low: float
    high: float
    degree: int
    window: tuple[float, float]
    misfit: float
    best_set: BestSet

    @property
    def settled(self) -> bool:
        """Both ends of the interval and of the model-free range are closed: the data tell where the best C is
        (a closed interval inside an open range leans on the curve's shape past the grid's end)."""
        return self.low > 0.0 and self.high < math.inf and self.best_set.low > 0.0 and self.best_set.high < math.inf


def local_peak(points: Sequence[ScorePoint], *, z: float = Z_95) -> LocalPeak:
    """The best C from the local fit around the best measured C (see the module docstring).

    Raises:
        FitError: fewer than 3 C values above 0 with games, or scores no curve can follow.
    """
    found = best_set(points) if any(point.games > 0 for point in points) else None
    positive = sorted((point for point in points if point.c > 0 and point.games > 0), key=lambda point: point.c)
    if found is None or len(positive) < 3:
        raise FitError(f"fitting the best C needs at least 3 C values above 0 with games (log C has no 0), "
                       f"got {len(positive)}")
    window = [point for point in positive if found.low <= point.c <= found.high]
    nearest = sorted((point for point in positive if point not in window),
                     key=lambda point: abs(math.log(point.c / found.best)) if found.best > 0 else point.c)
    window = sorted(window + nearest[: max(3 - len(window), 0)], key=lambda point: point.c)
    degree = 3 if len(window) >= CUBIC_POINTS else 2
    logs = [math.log(point.c) for point in window]
    centre, half_range = (logs[0] + logs[-1]) / 2, (logs[-1] - logs[0]) / 2
    ts = [(u - centre) / half_range for u in logs]
    beta, unscaled = fit_logistic_polynomial(ts, [p.score for p in window], [p.games for p in window], degree)
    dispersion, misfit = dispersion_and_misfit(window, ts, beta)
    grid_ts = [-1.0 + 2.0 * i / SLOPE_STEPS for i in range(SLOPE_STEPS + 1)]
    peak = max(range(len(grid_ts)), key=lambda i: sum(b * x for b, x in zip(beta, powers(grid_ts[i], degree))))
    flat = [_slope_not_significant(beta, unscaled, dispersion, t, z) for t in grid_ts]
    first = last = peak
    while first > 0 and flat[first - 1]:
        first -= 1
    while last < SLOPE_STEPS and flat[last + 1]:
        last += 1

    def c_of(t: float) -> float:
        return math.exp(centre + half_range * t)

    low = found.low if first == 0 else max(c_of(grid_ts[first]), found.low)
    high = found.high if last == SLOPE_STEPS else min(c_of(grid_ts[last]), found.high)
    return LocalPeak(c_of(grid_ts[peak]), low, high, degree, (window[0].c, window[-1].c), misfit, found)


def _slope_not_significant(beta: Sequence[float], unscaled, dispersion: float, t: float, z: float) -> bool:
    """(slope at t)^2 <= z^2 Var(slope at t): the slope's gradient in the coefficients is k t^(k - 1)."""
    gradient = [k * t ** (k - 1) if k else 0.0 for k in range(len(beta))]
    slope = sum(b * g for b, g in zip(beta, gradient))
    variance = dispersion * sum(gradient[i] * unscaled[i][j] * gradient[j]
                                for i in range(len(beta)) for j in range(len(beta)))
    return slope * slope <= z * z * variance


def next_grid(best: float, interval: tuple[float, float], grid: Sequence[float]) -> tuple[float, ...]:
    """What to play next when the best C is not found: :data:`NEXT_POINTS` C values evenly spaced in log C
    over the interval, each to 2 significant digits. An open end is the grid's end there, widened
    :data:`WIDEN` times (its lowest C above 0 divided, its highest multiplied) when the best measured C
    ``best`` is that end (the peak may lie past it)."""
    positive = [c for c in grid if c > 0]
    first, last = min(positive), max(positive)
    low, high = interval
    low = low if low > 0 else first / WIDEN if best <= first else first
    high = high if high < math.inf else last * WIDEN if best >= last else last
    step = (math.log(high) - math.log(low)) / (NEXT_POINTS - 1)
    return tuple(dict.fromkeys(float(f"{math.exp(math.log(low) + step * i):.2g}") for i in range(NEXT_POINTS)))
