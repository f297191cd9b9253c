"""Playing strength from game results, measured as engine testers do: Elo, error bar, LOS, SPRT.

Pure math on counts. Imports the standard library only (math, operator, dataclasses, collections.abc)
and :mod:`.llr` (the same): no numpy, no scipy, nothing from the app. Where each formula comes from:

- Elo of a score, the 95 % error bar and the LOS of W/D/L counts: cutechess-cli
  (``projects/lib/src/elo.cpp``), with the exact normal quantile instead of its approximate one.
- Pentanomial (game pairs) score and error bar: fishtest (``server/fishtest/stats/stat_util.py``,
  ``get_elo``), the same as fastchess's ``elo_pentanomial.cpp``; their LOS, Phi((mu - 0.5) / stdev).
- SPRT bounds: Wald's, as in cutechess (``sprt.cpp``) and fishtest (``stats/stat_util.py``), with
  fishtest's strict comparison (the LLR must pass a bound; :mod:`.sprt` adds fishtest's overshoot).
- LLR: the exact generalised LLR (GSPRT) as fishtest's ``update_SPRT`` computes it, in the logistic
  or the normalised Elo model (:mod:`.llr`). cutechess's own SPRT uses the older BayesElo model, so
  only its bounds are shared here.

Scores are from our side's view: a win is 1, a draw 0.5, a loss 0. Elo is logistic Elo (an SPRT
may take normalised Elo, :class:`SprtSettings`).
"""

from __future__ import annotations

import math
import operator
from collections.abc import Iterable
from dataclasses import dataclass

from .llr import llr_logistic, llr_normalized

# Phi^-1(0.975), exact to double precision. cutechess approximates erf^-1 and gets 1.9572, which
# moves its printed error bars by about 0.1 % of their size.
Z_95 = 1.959963984540054

H1_ACCEPTED = "H1 (elo1) accepted"
H0_ACCEPTED = "H0 (elo0) accepted"
CONTINUE = "continue"

GAME_SCORES = (0.0, 0.5, 1.0)
PAIR_SCORES = (0.0, 0.5, 1.0, 1.5, 2.0)  # fishtest's pentanomial order: LL, LD, DD+WL, WD, WW


def _count(name: str, value: object) -> int:
    try:
        number = operator.index(value)  # any integer type (numpy's too), but never a float
    except TypeError:
        raise ValueError(f"{name} ({value!r}) must be a whole number.") from None
    if number < 0:
        raise ValueError(f"{name} ({number}) must not be negative.")
    return number


def _mean_and_variance(values: Iterable[float], counts: Iterable[int]) -> tuple[int, float, float]:
    """Samples N, mean and variance (divided by N, as cutechess and fishtest do) of a tally."""
    pairs = list(zip(values, counts))
    n = sum(count for _, count in pairs)
    mean = math.fsum(value * count for value, count in pairs) / n
    variance = math.fsum(count * (value - mean) ** 2 for value, count in pairs) / n
    return n, mean, variance


@dataclass(frozen=True)
class Outcomes:
    """Game results from our side's view: wins, draws, losses (whole numbers >= 0)."""

    wins: int
    draws: int
    losses: int

    def __post_init__(self) -> None:
        for name in ("wins", "draws", "losses"):
            object.__setattr__(self, name, _count(name, getattr(self, name)))

    @property
    def games(self) -> int:
        """N = W + D + L."""
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """mu = (W + D/2) / N; ValueError with no games."""
        return (self.wins + self.draws / 2) / self._games_or_raise()

    @property
    def draw_ratio(self) -> float:
        """D / N; ValueError with no games."""
        return self.draws / self._games_or_raise()

    def _games_or_raise(self) -> int:
        if self.games == 0:
            raise ValueError("No games yet: a score needs at least one game.")
        return self.games


@dataclass(frozen=True)
class Pentanomial:
    """Counts of game pairs by pair score (the same opening played twice, seats swapped).

    A pair scores 0 (LL), 0.5 (LD), 1 (DD or WL), 1.5 (WD) or 2 (WW); fishtest lists them in that
    order. The bins merge the order of the two games (LD counts DL too).
    """

    ll: int
    ld: int
    dd_wl: int
    wd: int
    ww: int

    def __post_init__(self) -> None:
        for name in ("ll", "ld", "dd_wl", "wd", "ww"):
            object.__setattr__(self, name, _count(name, getattr(self, name)))

    @property
    def counts(self) -> tuple[int, int, int, int, int]:
        """The five counts in fishtest's order, for pair scores 0, 0.5, 1, 1.5, 2."""
        return (self.ll, self.ld, self.dd_wl, self.wd, self.ww)

    @property
    def pairs(self) -> int:
        """Number of pairs (twice as many games)."""
        return sum(self.counts)

    @property
    def score(self) -> float:
        """Mean pair score / 2: the score per game; ValueError with no pairs."""
        if self.pairs == 0:
            raise ValueError("No game pairs yet: a score needs at least one pair.")
        return _mean_and_variance(_HALF_PAIR_SCORES, self.counts)[1]


_HALF_PAIR_SCORES = tuple(score / 2 for score in PAIR_SCORES)  # a pair's score per game


def pentanomial_from_pairs(pairs: Iterable[tuple[float, float]]) -> Pentanomial:
    """Tally game pairs ``(score_game1, score_game2)``, each game score 0, 0.5 or 1, by their sum.

    Raises:
        ValueError: a pair is not two game scores of 0, 0.5 or 1.
    """
    counts = [0] * len(PAIR_SCORES)
    for index, pair in enumerate(pairs):
        try:
            first, second = pair
        except (TypeError, ValueError):
            raise ValueError(f"Pair {index} ({pair!r}) must be two game scores.") from None
        if first not in GAME_SCORES or second not in GAME_SCORES:
            raise ValueError(f"Pair {index} ({pair!r}) has a game score that is not 0, 0.5 or 1.")
        counts[round(2 * (first + second))] += 1
    return Pentanomial(*counts)


def elo_from_score(score: float) -> float:
    """Logistic Elo difference of an expected score: Elo = -400 * log10(1/score - 1).

    +inf at score 1, -inf at score 0.

    Raises:
        ValueError: score is outside [0, 1] (or nan).
    """
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"score ({score}) must be between 0 and 1.")
    if score == 1.0:
        return math.inf
    if score == 0.0:
        return -math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0: score 0.5 gives 0.0, not -0.0


def elo_interval(low: float, high: float) -> tuple[float, float]:
    """A score interval in Elo: ``(Elo(low), Elo(high))`` by :func:`elo_from_score`.

    Elo rises with the score, so the Elo whose expected score lies in [low, high] lies in this
    interval and nowhere else: it holds the row's Elo whenever [low, high] holds its score. It is
    asymmetric (the Elo scale stretches towards scores 0 and 1), -inf only where low is 0 and +inf
    only where high is 1. cutechess's symmetric "+/-" (:attr:`EloEstimate.error`) is infinite as
    soon as either end of its normal interval leaves (0, 1), on both sides at once.

    Raises:
        ValueError: an end outside [0, 1], or low > high.
    """
    if not low <= high:
        raise ValueError(f"the score interval's low end ({low}) must not be above its high end ({high}).")
    return elo_from_score(low), elo_from_score(high)


def score_from_elo(elo: float) -> float:
    """Expected score of a logistic Elo difference: score = 1 / (1 + 10^(-elo/400))."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


@dataclass(frozen=True)
class EloEstimate:
    """An Elo difference with its 95 % error bar, as cutechess-cli prints it.

    Attributes:
        elo: Elo of the score; +-inf when every game (or pair) was won or lost.
        error: half the width of the 95 % interval in Elo (the "+/-"): inf when the interval
            reaches a score of 0 or 1 (all wins, all losses, or too few games), 0 when there is
            no spread (all draws).
        los: likelihood of superiority, 0 to 1 (cutechess prints it in percent).
        score: mu, the mean score per game.
        draw_ratio: D / N; nan for pairs, whose bins mix draws with win-loss pairs.
    """

    elo: float
    error: float
    los: float
    score: float
    draw_ratio: float


def _error_bar(score: float, stdev: float, z: float) -> float:
    """(Elo(mu + z*stdev) - Elo(mu - z*stdev)) / 2; inf when a bound leaves (0, 1)."""
    if stdev == 0.0 and 0.0 < score < 1.0:
        return 0.0
    high, low = score + z * stdev, score - z * stdev
    if not (0.0 < low and high < 1.0):
        return math.inf  # that bound's Elo is infinite: the data do not bound the Elo on that side
    return (elo_from_score(high) - elo_from_score(low)) / 2


def _normal_los(score: float, stdev: float) -> float:
    """LOS = Phi((mu - 0.5) / stdev); with no spread 1, 0 or 0.5 by the side of 0.5 mu is on."""
    if stdev == 0.0:
        return 0.5 if score == 0.5 else float(score > 0.5)
    return 0.5 * (1.0 + math.erf((score - 0.5) / (stdev * math.sqrt(2.0))))


def elo_estimate(outcomes: Outcomes, *, z: float = Z_95) -> EloEstimate:
    """Elo, error bar and LOS of W/D/L counts, by cutechess-cli's rules.

    mu = (W + D/2) / N; per-game variance var = (W(1-mu)^2 + D(0.5-mu)^2 + L(0-mu)^2) / N;
    stdev = sqrt(var / N); error = (Elo(mu + z stdev) - Elo(mu - z stdev)) / 2;
    LOS = (1 + erf((W - L) / sqrt(2 (W + L)))) / 2, and 0.5 when W + L = 0.

    Args:
        outcomes: the counts, from our side.
        z: normal quantile of the interval; the default is the exact two-sided 95 % one.

    Returns:
        The estimate. All wins give elo +inf and error inf (all losses: -inf, inf): inf rather
        than nan so that sorting by error puts them last, and a CSV writes "inf", which Python
        and pandas read back. All draws give elo 0, error 0, LOS 0.5.

    Raises:
        ValueError: no games.
    """
    if outcomes.games == 0:
        raise ValueError("No games yet: an Elo estimate needs at least one game.")
    n, score, variance = _mean_and_variance(GAME_SCORES, (outcomes.losses, outcomes.draws, outcomes.wins))
    decisive = outcomes.wins + outcomes.losses
    lead = outcomes.wins - outcomes.losses
    los = 0.5 if decisive == 0 else 0.5 * (1.0 + math.erf(lead / math.sqrt(2.0 * decisive)))
    return EloEstimate(
        elo=elo_from_score(score),
        error=_error_bar(score, math.sqrt(variance / n), z),
        los=los,
        score=score,
        draw_ratio=outcomes.draw_ratio,
    )


def elo_estimate_pairs(pentanomial: Pentanomial, *, z: float = Z_95) -> EloEstimate:
    """Elo, error bar and LOS of game pairs, by fishtest's pentanomial rules.

    Each pair contributes x = pair score / 2 (0, 0.25, 0.5, 0.75 or 1). mu = mean of x;
    var = variance of x over the pairs; stdev = sqrt(var / pairs); error as in
    :func:`elo_estimate`; LOS = Phi((mu - 0.5) / stdev). Pairs cancel the luck of the opening,
    so their error bar is usually smaller than the same games' W/D/L one.

    Args:
        pentanomial: the pair counts.
        z: normal quantile of the interval; the default is the exact two-sided 95 % one.

    Returns:
        The estimate, with draw_ratio nan and the same edges as :func:`elo_estimate`
        (all WW pairs: elo +inf, error inf, LOS 1; all pairs scoring 1: elo 0, error 0, LOS 0.5).

    Raises:
        ValueError: no pairs.
    """
    if pentanomial.pairs == 0:
        raise ValueError("No game pairs yet: an Elo estimate needs at least one pair.")
    n, score, variance = _mean_and_variance(_HALF_PAIR_SCORES, pentanomial.counts)
    stdev = math.sqrt(variance / n)
    return EloEstimate(
        elo=elo_from_score(score),
        error=_error_bar(score, stdev, z),
        los=_normal_los(score, stdev),
        score=score,
        draw_ratio=math.nan,
    )


def _check_probability(name: str, value: float) -> None:
    if not 0.0 < value < 1.0:
        raise ValueError(f"{name} ({value}) must be between 0 and 1, both excluded.")


def sprt_bounds(*, alpha: float, beta: float) -> tuple[float, float]:
    """Wald's stopping bounds on the LLR: lower = log(beta / (1 - alpha)), upper = log((1 - beta) / alpha).

    ±2.944 at alpha = beta = 0.05.

    Raises:
        ValueError: alpha or beta is not strictly between 0 and 1.
    """
    _check_probability("alpha", alpha)
    _check_probability("beta", beta)
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


ELO_MODELS = ("logistic", "normalized")
MAX_NORMALIZED_ELO = 200.0  # t = 0.58 per game; the pentanomial fit fails from about 220 (see .llr)


@dataclass(frozen=True, kw_only=True)
class SprtSettings:
    """An SPRT of H0: Elo = elo0 against H1: Elo = elo1 (elo0 < elo1), in fishtest's Elo models.

    model "logistic" (the default): elo0 and elo1 are logistic Elo, the expected score's
    1 / (1 + 10^(-elo/400)). "normalized": they are normalised Elo, the t-value of the score
    ((mu - 1/2) / sigma per game) times 800 / ln 10, which does not move with the draw ratio.
    alpha is the chance of accepting H1 when elo0 is true, beta that of accepting H0 when elo1 is.
    Invalid settings raise ValueError with one sentence naming the value.
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "logistic"

    def __post_init__(self) -> None:
        for name in ("elo0", "elo1"):
            if not math.isfinite(getattr(self, name)):
                raise ValueError(f"{name} ({getattr(self, name)}) must be a finite number.")
        if not self.elo0 < self.elo1:
            raise ValueError(f"elo0 ({self.elo0}) must be smaller than elo1 ({self.elo1}).")
        _check_probability("alpha", self.alpha)
        _check_probability("beta", self.beta)
        if self.alpha + self.beta >= 1.0:  # then lower >= 0 >= upper: the bounds cross
            raise ValueError(f"alpha + beta ({self.alpha + self.beta}) must be smaller than 1.")
        if self.model not in ELO_MODELS:
            raise ValueError(f"the Elo model ({self.model!r}) must be \"logistic\" or \"normalized\".")
        if self.model == "normalized" and max(abs(self.elo0), abs(self.elo1)) > MAX_NORMALIZED_ELO:
            raise ValueError(f"normalized elo0 and elo1 ({self.elo0:g}, {self.elo1:g}) must be between "
                             f"-{MAX_NORMALIZED_ELO:g} and {MAX_NORMALIZED_ELO:g}: {MAX_NORMALIZED_ELO:g} is "
                             "already a score 0.58 standard deviations above even, and fishtest's fit has no "
                             "solution much beyond it.")

    @property
    def bounds(self) -> tuple[float, float]:
        """(lower, upper), see :func:`sprt_bounds`."""
        return sprt_bounds(alpha=self.alpha, beta=self.beta)

    def llr(self, counts: tuple[int, ...]) -> float:
        """The GLR of these results in this model: 3 counts (L, D, W) or 5 (pairs), see :mod:`.llr`."""
        exact = llr_logistic if self.model == "logistic" else llr_normalized
        return exact(self.elo0, self.elo1, counts)



def sprt_status(llr: float, bounds: tuple[float, float]) -> str:
    """:data:`H1_ACCEPTED` when llr > upper, :data:`H0_ACCEPTED` when llr < lower, else :data:`CONTINUE`.

    Strict, as fishtest's ``update_SPRT`` (an LLR exactly on a bound goes on). A nan LLR continues.
    """
    lower, upper = bounds
    if llr < lower:
        return H0_ACCEPTED
    if llr > upper:
        return H1_ACCEPTED
    return CONTINUE


def mean_interval(values: Iterable[float], *, z: float = Z_95) -> tuple[float, float, float]:
    """Mean return with its normal-approximation interval: mean ± z s / sqrt(n).

    s is the sample standard deviation (divided by n - 1). The normal quantile (1.96 for 95 %) is
    a little narrow for few values: Student's t would use 2.262 at n = 10, 2.045 at n = 30.
    For one player of a multi-player game, pass that player's returns.

    Returns:
        ``(mean, low, high)``; with one value ``(value, -inf, inf)``: one return says nothing
        about the spread, so the interval is unbounded.

    Raises:
        ValueError: no values, or a value that is not a finite number.
    """
    numbers = [float(value) for value in values]
    if not numbers:
        raise ValueError("No values: a mean needs at least one.")
    for index, value in enumerate(numbers):
        if not math.isfinite(value):
            raise ValueError(f"Value {index} ({value}) must be a finite number.")
    n = len(numbers)
    mean = math.fsum(numbers) / n
    if n == 1:
        return mean, -math.inf, math.inf
    stdev = math.sqrt(math.fsum((value - mean) ** 2 for value in numbers) / (n - 1))
    half = z * stdev / math.sqrt(n)
    return mean, mean - half, mean + half
