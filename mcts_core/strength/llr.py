"""The exact generalised log-likelihood ratio (GSPRT) of game results, as fishtest computes it.

Results are counts by score, lowest first: a trinomial (losses, draws, wins: per-game scores 0,
1/2, 1) or a pentanomial (game pairs LL, LD, DD+WL, WD, WW: per-game scores 0, 1/4, 1/2, 3/4, 1).
With N results and observed frequencies q_i of the scores a_i, the generalised LLR of H1 against H0
is N * sum_i q_i * log(p1_i / p0_i), where p0 and p1 are the distributions on the same scores that
fit the results best (maximum likelihood) among those H0 and H1 allow:

- logistic model: H is "the expected score is s", s = 1 / (1 + 10^(-elo / 400)). The best fit is
  p_i = q_i / (1 + x (a_i - s)), x the root of the secular equation sum_i q_i b_i / (1 + x b_i) = 0
  with b_i = a_i - s (Van den Bergh, https://www.cantate.be/Fishtest/support_MLE_multinomial.pdf,
  Proposition 1.1).
- normalised model: H is "the t-value (mu - 1/2) / sigma is t", t = nelo / (800 / ln 10) for games
  and sqrt(2) times that for pairs, mu and sigma the distribution's mean and standard deviation of
  the per-game score. The best fit is the fixed point of the same secular step with b_i = a_i - 1/2
  - t (sigma^2 + (a_i - mu)^2) / (2 sigma), mu and sigma those of the previous iterate, starting from
  the uniform distribution, for at most 10 steps as fishtest does (see :data:`FIXED_POINT_STEPS`)
  (https://www.cantate.be/Fishtest/normalized_elo_practical.pdf, section 4.1).

Empty bins: a count of 0 is taken as 1e-3 (fishtest's ``regularize``), and N is the sum of the counts
so taken, so that a run of only wins (or draws) still has an LLR: the exact test accepts H1 after
enough wins, where the normal approximation has no variance and never stops. With no results at all
the LLR is 0. Definitions and constants as in fishtest's ``server/fishtest/stats/LLRcalc.py``
(``LLR_logistic``, ``LLR_normalized``); the root finder is ours (safeguarded Newton, to full precision).
Standard library only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

EMPTY_BIN = 1e-3  # what an empty bin counts as (fishtest's regularisation)
NELO_PER_T = 800.0 / math.log(10.0)  # normalised Elo of a t-value of 1 per game (347.4...)
# The normalised fit's fixed point is iterated as fishtest iterates it: at most 10 steps, stopping once no
# probability moves by 1e-9. On fishtest's own sizes (a few normalised Elo) that converges to 1e-12; on
# differences of 100 or more with an empty bin it stops short of the fixed point (by 2 % of the LLR at
# nelo1 = 200 on 300 pairs), and the arena follows fishtest there rather than the converged value.
FIXED_POINT_STEPS = 10
FIXED_POINT_TOLERANCE = 1e-9


def secular_root(values: Sequence[float], weights: Sequence[float], start: float = 0.0) -> float:
    """The root x of f(x) = sum_i w_i b_i / (1 + x b_i) between its poles -1/max(b) and -1/min(b).

    f falls from +inf to -inf there (f' = -sum w b^2 / (1 + x b)^2 < 0, weights > 0), so the root is
    unique. Newton steps from ``start`` (0 if outside the poles), kept inside a bracket [low, high]
    with f(low) > 0 > f(high) that bisection halves whenever a step would leave it. Near a pole Newton's steps are tiny too
    (f is steep there), so a small step counts as converged only once f changes sign within two
    steps; otherwise that point narrows the bracket and bisection goes on.

    Raises:
        ValueError: the values do not straddle 0 (no pole on one side: no root).
    """
    if not min(values) < 0.0 < max(values):
        raise ValueError(f"the secular equation needs values on both sides of 0, got {list(values)}")
    low, high = -1.0 / max(values), -1.0 / min(values)
    scale = 1.0 / max(abs(b) for b in values)  # x moves 1 + x b by about x / scale: the unit of x

    def f_and_slope(x: float) -> tuple[float, float]:
        f = slope = 0.0
        for b, w in zip(values, weights):
            term = w * b / (1.0 + x * b)
            f += term
            slope -= term * b / (1.0 + x * b)
        return f, slope

    x = start if low < start < high else 0.0
    for _ in range(500):  # bisection alone narrows the bracket to one float in about 1,100 halvings
        f, slope = f_and_slope(x)
        if f == 0.0:
            return x
        if f > 0.0:
            low = x
        else:
            high = x
        tolerance = 4e-16 * max(abs(x), scale)
        step = -f / slope
        target = x + step
        if abs(step) <= tolerance:
            beyond = x + 2.0 * step
            if low < beyond < high:
                f_beyond = f_and_slope(beyond)[0]
                if (f_beyond > 0.0) != (f > 0.0):
                    return target  # the root lies within two steps of x
                if f_beyond > 0.0:
                    low = beyond
                else:
                    high = beyond
            target = low  # not the root but a pole's steep side: bisect (below)
        if not low < target < high:
            target = low + (high - low) / 2
        if high - low <= tolerance:
            return target
        x = target
    return x


def regularized(counts: Sequence[int]) -> list[float]:
    """The counts with each 0 taken as :data:`EMPTY_BIN`."""
    return [float(count) if count else EMPTY_BIN for count in counts]


def _scores(bins: int) -> list[float]:
    """Per-game scores of the bins, 0 to 1 in equal steps (3 bins: games, 5 bins: pairs)."""
    if bins not in (3, 5):
        raise ValueError(f"results are 3 counts (L, D, W) or 5 (pairs LL to WW), got {bins}")
    return [i / (bins - 1) for i in range(bins)]


def _mean_variance(scores: Sequence[float], probabilities: Sequence[float]) -> tuple[float, float]:
    mean = sum(p * a for a, p in zip(scores, probabilities))
    return mean, sum(p * (a - mean) ** 2 for a, p in zip(scores, probabilities))


def fit_with_mean(scores: Sequence[float], observed: Sequence[float], mean: float) -> list[float]:
    """The distribution on ``scores`` with this mean that makes ``observed`` (frequencies) likeliest."""
    shifted = [a - mean for a in scores]
    x = secular_root(shifted, observed)
    return [q / (1.0 + x * b) for q, b in zip(observed, shifted)]


def fit_with_t_value(scores: Sequence[float], observed: Sequence[float], t: float, reference: float = 0.5) -> list[float]:
    """The distribution on ``scores`` with (mean - reference) / sigma = t that makes ``observed`` likeliest.

    Raises:
        ValueError: t is too far out for the fixed point's secular step (no value straddling 0).
    """
    fitted, x = [1.0 / len(scores)] * len(scores), 0.0
    for _ in range(FIXED_POINT_STEPS):
        mu, variance = _mean_variance(scores, fitted)
        sigma = math.sqrt(variance)
        shifted = [a - reference - t * (variance + (a - mu) ** 2) / (2.0 * sigma) for a in scores]
        x = secular_root(shifted, observed, x)  # the last step's root: close to this one's
        previous, fitted = fitted, [q / (1.0 + x * b) for q, b in zip(observed, shifted)]
        if max(abs(new - old) for new, old in zip(fitted, previous)) < FIXED_POINT_TOLERANCE:
            break
    return fitted


def _llr(counts: Sequence[int], fit, first: float, second: float) -> float:
    if sum(counts) == 0:
        return 0.0
    taken = regularized(counts)
    n = sum(taken)
    observed = [count / n for count in taken]
    scores = _scores(len(counts))
    h0, h1 = fit(scores, observed, first), fit(scores, observed, second)
    return n * math.fsum(q * (math.log(p1) - math.log(p0)) for q, p0, p1 in zip(observed, h0, h1))


def llr_logistic(elo0: float, elo1: float, counts: Sequence[int]) -> float:
    """The GLR of "the logistic Elo is elo1" against "it is elo0" (fishtest's ``LLR_logistic``).

    ``counts``: 3 (L, D, W) or 5 (pairs LL, LD, DD+WL, WD, WW); 0 when all are 0.
    """
    s0, s1 = (1.0 / (1.0 + 10.0 ** (-elo / 400.0)) for elo in (elo0, elo1))
    return _llr(counts, fit_with_mean, s0, s1)


def llr_normalized(nelo0: float, nelo1: float, counts: Sequence[int]) -> float:
    """The GLR of "the normalised Elo is nelo1" against "it is nelo0" (fishtest's ``LLR_normalized``).

    Normalised Elo: the t-value of the per-game score, (mu - 1/2) / sigma, times 800 / ln 10. For
    pairs fishtest's sigma per game is sqrt(2) times the spread of the pair's mean score, so the
    t-value of the pair's mean is sqrt(2) times the per-game one. ``counts`` as in :func:`llr_logistic`.

    Raises:
        ValueError: a normalised Elo beyond about ±220 for pairs (±340 for games): the fit's first
            step, from the uniform distribution, has no solution there (fishtest's neither).
    """
    per_pair = math.sqrt(2.0) if len(counts) == 5 else 1.0
    t0, t1 = (nelo / NELO_PER_T * per_pair for nelo in (nelo0, nelo1))
    return _llr(counts, fit_with_t_value, t0, t1)
