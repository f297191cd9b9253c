"""The best C with its confidence: a quadratic in log C fitted to the scores through a logistic link.

The model (a quadratic logistic regression, as CLOP and QRS-Tune fit engine parameters): the score
at C is 1 / (1 + exp(-(b0 + b1 t + b2 t^2))), t = log C scaled to [-1, 1] over the grid. It is
fitted to each C's score (wins + draws / 2 over games), weighted by its games, by maximum
likelihood (a binomial GLM, iteratively reweighted least squares). Games come in pairs with seats
swapped and draws halve a game's spread, so the variance is the binomial one times a dispersion phi
measured from the pairs themselves (the pentanomial's variance per game against mu (1 - mu)),
widened to the Pearson chi-square of the fit when the points scatter around the curve more than
their own noise allows (the quadratic does not fit them).

- Best C: where the fitted score peaks, when the curve is concave and peaks inside the grid. Its 95 %
  interval is Fieller's: the t where the curve's slope b1 + 2 b2 t is not significantly different
  from 0, (b1 + 2 b2 t)^2 <= z^2 Var(b1 + 2 b2 t). It is exact for a ratio of normal estimates
  where the delta method is not (the peak is -b1 / (2 b2), and b2 is often uncertain): it grows
  asymmetric as the curve flattens and unbounded when the curvature is not significant, where the
  delta method's symmetric interval would still look bounded (bench/RESULTS.md: coverage of both).
  When the curve is not concave or peaks outside the grid there is no interior optimum: the best C
  is the grid's end where the fitted score is higher, with no interval.
- Conservative best: the C in the grid's range whose fitted score's lower 95 % bound is highest,
  the C least likely to be much worse than it looks.
- Lack of fit: Pearson's chi-square over the pairs' own variance, on (C values - 3) degrees of
  freedom. The quadratic assumes the score falls off alike on both sides of the peak in log C; a
  small p-value says the points disagree, and the peak is then pulled towards the flatter side.

Needs at least 3 C values above 0 (log 0 does not exist: C = 0 is left out) with games. Standard
library only. CLOP: Coulom (2011), https://www.remi-coulom.fr/CLOP/; Fieller (1954),
https://doi.org/10.1111/j.2517-6161.1954.tb00159.x.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..common.linear import gauss_jordan
from .elo import Z_95

if TYPE_CHECKING:
    from .rows import ArenaRow

MIN_POINTS = 3
CURVE_POINTS = 241  # the drawn curve, and the search for the conservative best, over the grid's range
MAX_EXPONENT = 709.0  # e^709 is near the largest float: a C beyond it is inf
RUNAWAY_LOGIT = 30.0  # a fitted score within 1e-13 of 0 or 1: the likelihood has no maximum there


class FitError(ValueError):
    """The scores cannot be fitted (too few C values, or scores a curve cannot follow); one sentence."""


@dataclass(frozen=True)
class ScorePoint:
    """One C's results: its mean score per game, its games, and the variance of one game's score
    as its pairs show it (2 x the variance of a pair's mean score: below mu (1 - mu) with draws)."""

    c: float
    score: float
    games: int
    game_variance: float


@dataclass(frozen=True)
class ScoreCurve:
    """The fitted score: logistic(b0 + b1 t + b2 t^2) with t = (ln C - centre) / half_range, and the
    coefficients' covariance (dispersion included); ``grid`` is the fitted C values' range."""

    centre: float
    half_range: float
    coefficients: tuple[float, float, float]
    covariance: tuple[tuple[float, float, float], ...]
    grid: tuple[float, float]

    def t_of(self, c: float) -> float:
        return (math.log(c) - self.centre) / self.half_range

    def c_of(self, t: float) -> float:
        """C of a scaled log C (0 and inf for the open ends)."""
        exponent = self.centre + self.half_range * t
        return math.inf if exponent > MAX_EXPONENT else math.exp(exponent)  # e^-inf is 0.0; a Fieller root far out is inf

    def logit(self, t: float) -> float:
        return sum(b * x for b, x in zip(self.coefficients, powers(t)))

    def score_at(self, c: float, *, z: float = Z_95) -> tuple[float, float, float]:
        """The fitted score at C with its pointwise 95 % band: ``(score, low, high)``."""
        t = self.t_of(c)
        spread = z * math.sqrt(max(_quadratic_form(self.covariance, powers(t)), 0.0))
        eta = self.logit(t)
        return _logistic(eta), _logistic(eta - spread), _logistic(eta + spread)

    def points(self, count: int = CURVE_POINTS) -> list[tuple[float, float, float, float]]:
        """``(c, score, low, high)`` at C values evenly spaced in log C over the grid's range."""
        first, last = (math.log(c) for c in self.grid)
        return [(c, *self.score_at(c)) for c in (math.exp(first + (last - first) * i / (count - 1))
                                                  for i in range(count))]


@dataclass(frozen=True)
class BestC:
    """What the fitted curve says about the best C.

    Attributes:
        best: the fitted peak's C when ``interior``, else the grid's end with the higher fitted score.
        low, high: the peak's 95 % interval (0 or inf on a side the data leave open); nan when not
            ``interior``.
        interior: the fitted curve is concave and peaks inside the grid.
        conservative: the C whose fitted score's lower 95 % bound is highest (within the grid's range).
        conservative_low: that lower bound (a score).
        dispersion: phi, the variance against the binomial one (below 1: draws and paired games).
        misfit: the chance of points straying from the curve as far as these do if the curve's shape
            were right (the lack-of-fit test: Pearson's chi-square over the pairs' own variance, on
            the C values less 3 degrees of freedom); small (below 0.05) says the quadratic does not
            fit and its peak is off; nan with 3 C values (the quadratic passes through them).
        curve: the fitted score curve.
    """

    best: float
    low: float
    high: float
    interior: bool
    conservative: float
    conservative_low: float
    dispersion: float
    misfit: float
    curve: ScoreCurve


# The CSV columns of ``arena --fit``: the fitted score at the row's C with its 95 % band, then its
# budget's best C, that C's 95 % interval (nan without an interior optimum) and the conservative C.
FIT_COLUMNS = ("fit_score", "fit_low", "fit_high", "fit_best_c", "fit_best_low", "fit_best_high", "fit_safe_c")


def check_fit(game: str, players: int, c_values: Sequence[float]) -> None:
    """Settings a fit can come from, checked before any game.

    Raises:
        ValueError: not two players, or fewer than 3 C values above 0 (one sentence).
    """
    if players != 2:
        raise ValueError(f"the fit follows the score of two-player games; {game} has {players} "
                         f"player{'s' if players > 1 else ''}")
    if len({c for c in c_values if c > 0}) < MIN_POINTS:
        raise ValueError(f"fitting the best C needs at least {MIN_POINTS} C values above 0 (log C has no 0)")


def fit_cells(fit: BestC | FitError | None, c: float) -> list[float]:
    """A row's :data:`FIT_COLUMNS` (nan where there is no fit, or at C = 0)."""
    if not isinstance(fit, BestC):
        return [math.nan] * len(FIT_COLUMNS)
    at_c = fit.curve.score_at(c) if c > 0 else (math.nan,) * 3
    return [*at_c, fit.best, fit.low, fit.high, fit.conservative]


def points_from_rows(rows: Sequence[ArenaRow]) -> list[ScorePoint]:
    """The two-player rows as score points (the variance per game from each row's pairs)."""
    points = []
    for row in rows:
        if row.pairs:
            counts = (row.ll, row.ld, row.dd_wl, row.wd, row.ww)
            pair_means = [k / 4 for k in range(5)]
            variance = sum(n * (x - row.score) ** 2 for n, x in zip(counts, pair_means)) / row.pairs
            points.append(ScorePoint(row.c, row.score, row.games, 2 * variance))
        elif row.games:  # no complete pair: the games' own W/D/L variance
            variance = (row.wins * (1 - row.score) ** 2 + row.draws * (0.5 - row.score) ** 2
                        + row.losses * row.score ** 2) / row.games
            points.append(ScorePoint(row.c, row.score, row.games, variance))
    return points


def fit_best_c(points: Sequence[ScorePoint], *, z: float = Z_95) -> BestC:
    """Fits the score against log C and finds the best C, its 95 % interval and a conservative best.

    Args:
        points: one per C (C = 0 and C values without games are left out).
        z: the normal quantile of the intervals (95 % two-sided by default).

    Raises:
        FitError: fewer than 3 C values above 0 with games, or scores no curve can follow.
    """
    used = sorted((point for point in points if point.c > 0 and point.games > 0), key=lambda point: point.c)
    if len({point.c for point in used}) < MIN_POINTS:
        raise FitError(f"fitting the best C needs at least {MIN_POINTS} C values above 0 with games "
                       f"(log C has no 0), got {len({point.c for point in used})}")
    logs = [math.log(point.c) for point in used]
    centre, half_range = (logs[0] + logs[-1]) / 2, (logs[-1] - logs[0]) / 2
    ts = [(u - centre) / half_range for u in logs]
    beta, unscaled = fit_logistic_polynomial(ts, [point.score for point in used], [point.games for point in used])
    dispersion, misfit = dispersion_and_misfit(used, ts, beta)
    covariance = tuple(tuple(dispersion * value for value in row) for row in unscaled)
    curve = ScoreCurve(centre, half_range, tuple(beta), covariance, (used[0].c, used[-1].c))
    _, b1, b2 = beta
    interior = b2 < 0 and -1.0 <= -b1 / (2 * b2) <= 1.0
    if interior:
        peak = -b1 / (2 * b2)
        best = curve.c_of(peak)
        low, high = (curve.c_of(t) for t in _fieller(b1, b2, covariance, peak, z))
    else:  # no peak inside the grid: the end the fitted score is higher at
        best = used[0].c if curve.logit(-1.0) >= curve.logit(1.0) else used[-1].c
        low = high = math.nan
    conservative, _, conservative_low, _ = max(curve.points(), key=lambda point: point[2])
    return BestC(best, low, high, interior, conservative, conservative_low, dispersion, misfit, curve)


def describe(fit: BestC) -> str:
    """The fit in words, for the CLI and the page: the best C with its interval, the conservative C,
    and a warning when the quadratic misses the points. An interval's end beyond the grid is said to
    lie beyond it: the quadratic is not evidence there (the CSV keeps the number)."""
    first, last = fit.curve.grid
    if not fit.interior:
        low_end = fit.best == first
        text = (f"no interior optimum: the fitted score is highest at the grid's {'lowest' if low_end else 'highest'} "
                f"C, {fit.best:.3g} (widen the grid {'below' if low_end else 'above'} it)")
    elif fit.low < first and fit.high > last:
        text = f"best C {fit.best:.3g}, its 95% interval wider than the grid (the curve's bend is not clear yet: play more games)"
    elif fit.high > last:
        text = f"best C {fit.best:.3g} (95% interval from {fit.low:.3g} to beyond the grid's {last:.3g}: play more games)"
    elif fit.low < first:
        text = f"best C {fit.best:.3g} (95% interval from below the grid's {first:.3g} to {fit.high:.3g}: play more games)"
    else:
        text = f"best C {fit.best:.3g} (95% interval {fit.low:.3g} to {fit.high:.3g})"
    text += (f"; conservative C {fit.conservative:.3g} (its score is at least {fit.conservative_low:.3f} "
             "with 95% confidence)")
    if fit.misfit < 0.05:
        text += (f"; the quadratic misses the points (lack of fit p = {fit.misfit:.2g}), so its peak is off: "
                 "narrow the grid around it")
    return text


def powers(t: float, degree: int = 2) -> tuple[float, ...]:
    """1, t, t^2, ... t^degree (each the one before times t)."""
    powers = [1.0]
    for _ in range(degree):
        powers.append(powers[-1] * t)
    return tuple(powers)


def _logistic(eta: float) -> float:
    return 1.0 / (1.0 + math.exp(-eta)) if eta > -700.0 else 0.0


def _softplus(x: float) -> float:
    """log(1 + e^x) without overflow."""
    return x + math.log1p(math.exp(-x)) if x > 0 else math.log1p(math.exp(x))


def _quadratic_form(matrix: Sequence[Sequence[float]], x: Sequence[float]) -> float:
    return sum(x[i] * matrix[i][j] * x[j] for i in range(len(x)) for j in range(len(x)))


def _solve(matrix: list[list[float]], right: list[float]) -> list[float]:
    inverse = _inverse(matrix)
    return [sum(inverse[i][j] * right[j] for j in range(len(right))) for i in range(len(right))]


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """The inverse of a square matrix (:func:`~mcts_core.common.linear.gauss_jordan`); FitError when singular."""
    size = len(matrix)
    scale = max(abs(value) for row in matrix for value in row) or 1.0
    inverse = gauss_jordan([list(map(float, row)) + [float(i == j) for j in range(size)] for i, row in enumerate(matrix)],
                           lambda pivot: abs(pivot) <= 1e-13 * scale)
    if inverse is None:
        raise FitError(f"the C values do not determine a curve (fewer than {size} distinct ones with games)")
    return inverse


def fit_logistic_polynomial(ts: Sequence[float], scores: Sequence[float], games: Sequence[int], degree: int = 2):
    """Maximum-likelihood (b0, b1, ... b_degree) of the binomial GLM with a logit link on the powers of t,
    and (X'WX)^-1 there.

    Newton's method (the same as IRLS for a logit link) from a least-squares fit of the empirical
    logits, halving any step that lowers the likelihood. FitError when the likelihood has no
    maximum: a score curve that a logistic quadratic reaches only at infinite coefficients.
    """
    if all(y == scores[0] for y in scores) and scores[0] in (0.0, 1.0):
        raise FitError(_NO_PEAK)
    xs = [powers(t, degree) for t in ts]
    size = degree + 1

    def log_likelihood(beta):  # sum n (y log p + (1 - y) log(1 - p)), kept finite for large |eta|
        total = 0.0
        for x, y, n in zip(xs, scores, games):
            eta = sum(b * xi for b, xi in zip(beta, x))
            total -= n * (y * _softplus(-eta) + (1.0 - y) * _softplus(eta))
        return total

    def information_and_gradient(beta):
        information, gradient = [[0.0] * size for _ in range(size)], [0.0] * size
        for x, y, n in zip(xs, scores, games):
            p = _logistic(sum(b * xi for b, xi in zip(beta, x)))
            for i in range(size):
                gradient[i] += n * (y - p) * x[i]
                for j in range(size):
                    information[i][j] += n * p * (1.0 - p) * x[i] * x[j]
        return information, gradient

    logits = [math.log((n * y + 0.5) / (n * (1.0 - y) + 0.5)) for y, n in zip(scores, games)]  # 0 and 1 pulled in
    beta = _solve([[sum(n * x[i] * x[j] for x, n in zip(xs, games)) for j in range(size)] for i in range(size)],
                  [sum(n * x[i] * logit for x, n, logit in zip(xs, games, logits)) for i in range(size)])
    current = log_likelihood(beta)
    for _ in range(100):
        try:
            step = _solve(*information_and_gradient(beta))
        except FitError:  # every fitted score at 0 or 1: no information left
            raise FitError(_NO_PEAK) from None
        for _ in range(50):
            candidate = [b + s for b, s in zip(beta, step)]
            value = log_likelihood(candidate)
            if value >= current - 1e-12 * abs(current):
                break
            step = [s / 2 for s in step]
        beta, current = candidate, value
        if max(map(abs, step)) < 1e-10:
            break
    else:
        raise FitError(_NO_PEAK)
    if max(abs(sum(b * xi for b, xi in zip(beta, x))) for x in xs) > RUNAWAY_LOGIT:
        raise FitError(_NO_PEAK)
    return beta, _inverse(information_and_gradient(beta)[0])


_NO_PEAK = ("the scores leave the fit nothing to follow: they are at or next to 0 or 1 at every C "
            "(a stronger opponent or fewer simulations spreads them)")


def dispersion_and_misfit(points: Sequence[ScorePoint], ts: Sequence[float],
                          beta: Sequence[float]) -> tuple[float, float]:
    """phi and the lack-of-fit test's p-value for the fitted logistic polynomial ``beta``.

    phi is the pairs' own variance against the binomial one, or the fit's Pearson chi-square per
    degree of freedom when that is larger (the points stray from the curve beyond their noise). The
    p-value is that of the Pearson chi-square over the pairs' own phi, on len(points) - len(beta)
    degrees of freedom (nan with none)."""
    binomial = sum(point.games * point.score * (1 - point.score) for point in points)
    within = sum(point.games * point.game_variance for point in points) / binomial if binomial > 0 else 1.0
    freedom = len(points) - len(beta)
    if freedom <= 0:
        return within, math.nan
    pearson = 0.0
    for point, t in zip(points, ts):
        p = _logistic(sum(b * x for b, x in zip(beta, powers(t, len(beta) - 1))))
        pearson += point.games * (point.score - p) ** 2 / (p * (1 - p))
    misfit = chi_square_tail(pearson / within, freedom) if within > 0 else (1.0 if pearson == 0 else 0.0)
    return max(within, pearson / freedom), misfit


def chi_square_tail(x: float, freedom: int) -> float:
    """P(X >= x) for X chi-square with a whole number of degrees of freedom (the closed forms:
    a Poisson sum for even ones, erfc plus a series for odd ones)."""
    if x <= 0:
        return 1.0
    half = x / 2
    if freedom % 2 == 0:
        term, total = 1.0, 1.0
        for k in range(1, freedom // 2):
            term *= half / k
            total += term
        return math.exp(-half) * total
    total = math.erfc(math.sqrt(half))
    term = math.sqrt(half) * math.exp(-half) * 2 / math.sqrt(math.pi)  # the k = 1 term: 2 sqrt(h / pi) e^-h
    for k in range(1, (freedom + 1) // 2):
        total += term
        term *= half / (k + 0.5)
    return min(total, 1.0)


def _fieller(b1: float, b2: float, covariance, peak: float, z: float) -> tuple[float, float]:
    """Fieller's 95 % set of the peak t = -b1 / (2 b2): the t where |b1 + 2 b2 t| <= z sd(b1 + 2 b2 t).

    (b1 + 2 b2 t)^2 - z^2 (V11 + 4 t V12 + 4 t^2 V22) <= 0 is A t^2 + B t + C <= 0. A > 0 (b2 is
    significantly below 0): the interval between the roots. A <= 0: the set is unbounded; of its two
    rays the one holding the peak holds the maxima (the other, minima of convex curves), and with no
    real root it is every t.
    """
    v11, v12, v22 = covariance[1][1], covariance[1][2], covariance[2][2]
    z2 = z * z
    a, b, c = 4.0 * (b2 * b2 - z2 * v22), 4.0 * (b1 * b2 - z2 * v12), b1 * b1 - z2 * v11
    discriminant = b * b - 4.0 * a * c
    if discriminant < 0.0 or a == 0.0:
        return -math.inf, math.inf
    first, second = sorted(((-b - math.sqrt(discriminant)) / (2 * a), (-b + math.sqrt(discriminant)) / (2 * a)))
    if a > 0.0:
        return first, second
    return (-math.inf, first) if peak <= first else (second, math.inf)
