"""The best C as the CLI and the page report it: the quadratic over the grid (the curve drawn), the local fit
(the best C to trust, :mod:`.local_peak`), the model-free set (:mod:`.best_set`) and the verdicts.

- The quadratic's shape is wrong ("misfit") when its lack-of-fit test says so (p < 0.05) or its peak
  lies outside the local fit's interval (it was pulled to the flatter side of a lopsided curve).
- Best C: the local fit's with its interval, when both are closed on both sides ("found"). When the
  quadratic's shape is wrong the curve is lopsided enough for the points to show it, and the local
  cubic is biased too (bench/RESULTS.md, issue 52: 72-80% coverage at 1,000 games per C): the interval
  is then the model-free range and the data cannot tell yet. Otherwise too the best C is nan in the
  CSV, and :meth:`BestCAnswer.next_c` says what to play next.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .best_c import FIT_COLUMNS, BestC, FitError, describe, fit_best_c, fit_cells, points_from_rows
from .local_peak import LocalPeak, local_peak, next_grid
from .rows import ArenaRow

MISFIT_P = 0.05
FOUND, CANNOT_TELL = "found", "cannot tell yet"
FITS, MISFIT = "fits", "misfit"

# The columns ``arena --fit`` and ``fit`` write, the quadratic's first (a contract: columns are added, never
# renamed): the quadratic's lack-of-fit p-value and shape verdict; the local fit's best C (nan when it cannot
# tell), its 95 % interval (0 or inf where open), its verdict and the C values to play next (space-separated,
# empty when found); whether the row's C is in the model-free set, and that set's range.
ANSWER_COLUMNS = (*FIT_COLUMNS, "fit_misfit", "fit_shape", "best_c", "best_low", "best_high", "best_verdict",
                  "next_c", "set_member", "set_low", "set_high")


@dataclass(frozen=True)
class BestCAnswer:
    """One budget's answer.

    Attributes:
        fit: the quadratic over the grid, or why there is none.
        peak: the local fit, or why there is none.
        grid: the budget's C values with games.
    """

    fit: BestC | FitError
    peak: LocalPeak | FitError
    grid: tuple[float, ...]

    @property
    def found(self) -> bool:
        return isinstance(self.peak, LocalPeak) and self.peak.settled and self.shape != MISFIT

    @property
    def best(self) -> float:
        """The best C found; nan when the data cannot tell yet."""
        return self.peak.best if self.found else math.nan

    @property
    def near_best(self) -> tuple[float, ...]:
        """The C values not significantly below the best measured one (none without a local fit)."""
        return self.peak.best_set.members if isinstance(self.peak, LocalPeak) else ()

    @property
    def interval(self) -> tuple[float, float]:
        """The best C's 95 % interval: the local fit's, or the model-free range when the quadratic's shape is
        wrong; (nan, nan) without a local fit."""
        if not isinstance(self.peak, LocalPeak):
            return math.nan, math.nan
        if self.shape == MISFIT:
            return self.peak.best_set.low, self.peak.best_set.high
        return self.peak.low, self.peak.high

    @property
    def verdict(self) -> str:
        return FOUND if self.found else CANNOT_TELL

    @property
    def shape(self) -> str:
        """The quadratic's shape verdict: :data:`MISFIT`, :data:`FITS`, or "" when untested (no fit, or 3 C values)."""
        if not isinstance(self.fit, BestC):
            return ""
        outside = (isinstance(self.peak, LocalPeak) and self.fit.interior
                   and not self.peak.low <= self.fit.best <= self.peak.high)
        if self.fit.misfit < MISFIT_P or outside:
            return MISFIT
        return "" if math.isnan(self.fit.misfit) else FITS

    def next_c(self) -> tuple[float, ...]:
        """The C values to play next when the best C is not found (none when found or when there is no fit)."""
        if self.found or not isinstance(self.peak, LocalPeak):
            return ()
        return next_grid(self.peak.best_set.best, self.interval, self.grid)


def answers_by_budget(rows: Sequence[ArenaRow]) -> dict[int, BestCAnswer]:
    """Each budget's answer over its rows (two players), in the rows' order of budgets."""
    answers = {}
    for simulations in dict.fromkeys(row.simulations for row in rows):
        points = points_from_rows([row for row in rows if row.simulations == simulations])
        answers[simulations] = BestCAnswer(_or_error(fit_best_c, points), _or_error(local_peak, points),
                                           tuple(point.c for point in points))
    return answers


def _or_error(fit, points):
    try:
        return fit(points)
    except FitError as error:
        return error


def answer_cells(answer: BestCAnswer | None, c: float) -> list:
    """A row's :data:`ANSWER_COLUMNS` (nan where there is no fit)."""
    if answer is None:
        return [math.nan] * len(FIT_COLUMNS) + [math.nan, "", math.nan, math.nan, math.nan, CANNOT_TELL, "",
                                                 math.nan, math.nan, math.nan]
    misfit = answer.fit.misfit if isinstance(answer.fit, BestC) else math.nan
    cells = [*fit_cells(answer.fit if isinstance(answer.fit, BestC) else None, c), misfit, answer.shape]
    peak = answer.peak
    if not isinstance(peak, LocalPeak):
        return [*cells, math.nan, math.nan, math.nan, CANNOT_TELL, "", math.nan, math.nan, math.nan]
    found = peak.best_set
    return [*cells, answer.best, *answer.interval, answer.verdict,
            " ".join(f"{value:g}" for value in answer.next_c()), int(c in found.members), found.low, found.high]


def describe_answer(answer: BestCAnswer) -> str:
    """The answer in words: the best C found with its interval, or that the data cannot tell yet and what to
    play next; the C values that cannot be told from the best measured one; the quadratic's verdict."""
    peak = answer.peak
    if not isinstance(peak, LocalPeak):
        return f"no best C: {peak}"
    found = peak.best_set
    low, high = answer.interval
    if answer.found:
        text = f"best C {peak.best:.3g} (95% interval {low:.3g} to {high:.3g}, from the points around it)"
    else:
        text = (f"cannot tell the best C yet: it lies between {_end(low)} and {_end(high)}; play next "
                f"C = {', '.join(f'{value:g}' for value in answer.next_c())}")
    text += (f". Not significantly below the best measured C ({found.best:g}): "
             f"{', '.join(f'{value:g}' for value in found.members)}")
    if isinstance(answer.fit, BestC):
        if answer.shape == MISFIT:
            text += (". The score is lopsided around its peak: the quadratic over the whole grid does not fit it "
                     "(its curve is drawn, not trusted)")
        text += f". The quadratic over the whole grid: {describe(answer.fit)}"
    return text


def _end(value: float) -> str:
    return "0" if value == 0 else "infinity" if value == math.inf else f"{value:.3g}"
