"""Selection formulas as pure functions of a child's statistics.

Every formula has one signature (:class:`RuleFunction`): the parent's visit count and the child's
visits and total score come positionally, everything else is keyword-only::

    rule(parent_visits, visits, total, *, c, <settings...>, <inputs...>) -> Terms

*Settings* are what a user picks (C, W, a threshold, priors...); *inputs* are per-child data the
scoring fills in (the child's ``move``, its ``total_sq``, the ``prior`` a log declared for it, the
``siblings`` of the node choosing). A formula returns the child's terms in
display order; the key ``"value"`` is what selection maximises.

Unvisited children (0 visits: a log declared them) have no mean: UCB-style values are +infinity
(so one is tried first) and PUCT's Q is 0; their ``mean`` term is NaN.

Random choices: below a sample threshold a node draws a child at random instead of maximising a
formula. Such a formula returns the key ``"probability"`` (this child's chance) and sets ``"value"``
to it, so selection follows the most likely child and can say that the choice was a draw.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

Terms = dict[str, float]
MoveValues = Mapping[str, float]

PROBABILITY = "probability"  # the term a formula returns when its choice at a node is a random draw
NORMALISATIONS = ("raw", "minmax")
FALLBACKS = ("random", "heuristic")


class RuleFunction(Protocol):
    """The shape every selection formula has."""

    def __call__(self, parent_visits: int, visits: int, total: float, /, *, c: float, **keywords) -> Terms: ...


@dataclass(frozen=True)
class Siblings:
    """The children of the node choosing, as formulas may need them (computed once per node).

    Attributes:
        moves: the children's moves in the node's order.
        min_mean: smallest mean of a visited child (0.0 when none is visited).
        max_mean: largest mean of a visited child (0.0 when none is visited).
    """

    moves: tuple[str, ...]
    min_mean: float
    max_mean: float

    @property
    def count(self) -> int:
        return len(self.moves)


def ucb1(parent_visits: int, visits: int, total: float, *, c: float) -> Terms:
    """UCB1: ``M.s / M.v + C * sqrt(ln(N.v) / M.v)``, computed in exactly that form.

    The form fixes the float: a C++ or Python solution written the same way gets the same value
    bit for bit. An unvisited child is worth +infinity. Source: Auer, Cesa-Bianchi, Fischer
    (2002), https://doi.org/10.1023/A:1013689704352.

    Args:
        parent_visits: N.v, visits of the node choosing a child.
        visits: M.v, visits of the child.
        total: M.s, sum of the child's scores.
        c: the exploration constant C >= 0.

    Returns:
        ``mean`` (exploitation), ``exploration`` and their sum ``value``.
    """
    if not visits:
        return {"mean": math.nan, "exploration": math.inf, "value": math.inf}
    mean = total / visits
    exploration = c * math.sqrt(math.log(parent_visits) / visits)
    return {"mean": mean, "exploration": exploration, "value": mean + exploration}


def ucb1_values(parent_visits: int, visits: Sequence[int], total: Sequence[float], children: Iterable[int], *,
                c: float) -> list[float]:
    """UCB1's value for each of a node's ``children``, in their order: the searches' fast form of :func:`ucb1`.

    ``visits[k]`` and ``total[k]`` are child ``k``'s M.v and M.s; an unvisited child is worth
    +infinity. Each value is ``M.s / M.v + C * sqrt(ln(N.v) / M.v)`` with the float operations of
    :func:`ucb1` in the same order, so both give the same bits (``tests/test_search.py`` checks).
    """
    if not parent_visits:  # no child has a visit yet
        return [math.inf for _ in children]
    log_n, sqrt, inf = math.log(parent_visits), math.sqrt, math.inf
    values: list[float] = []
    append = values.append  # a plain loop: faster than a comprehension for a node's few children
    for k in children:
        v = visits[k]
        append(total[k] / v + c * sqrt(log_n / v) if v else inf)
    return values


def ucb1_tuned(
    parent_visits: int, visits: int, total: float, *, c: float, total_sq: float, cap: float = 0.25
) -> Terms:
    """UCB1-Tuned: ``mean + C * sqrt(ln(N.v) / M.v * min(cap, V))`` with a variance bound V.

    ``V = M.s2 / M.v - mean**2 + sqrt(2 ln(N.v) / M.v)``, where ``M.s2`` is the child's sum of
    squared scores: the sample variance plus a confidence margin. With C = 1 and cap = 1/4 (the
    largest variance of rewards in [0, 1]) it is the paper's rule; for scores in [a, b] the matching
    cap is (b - a)**2 / 4. Source: Auer, Cesa-Bianchi, Fischer (2002), section 4,
    https://doi.org/10.1023/A:1013689704352.

    Args:
        parent_visits: N.v.
        visits: M.v (>= 1).
        total: M.s.
        c: multiplies the exploration term.
        total_sq: M.s2, sum of the child's squared scores (input ``"total_sq"``).
        cap: upper bound on the variance term.

    Returns:
        ``mean``, ``variance`` (the sample variance), ``exploration`` and ``value``.
    """
    if not visits:
        return {"mean": math.nan, "variance": math.nan, "exploration": math.inf, "value": math.inf}
    mean = total / visits
    variance = max(0.0, total_sq / visits - mean * mean)  # rounding can dip below 0
    log_n = math.log(parent_visits)
    bound = min(cap, variance + math.sqrt(2.0 * log_n / visits))
    exploration = c * math.sqrt(log_n / visits * bound)
    return {"mean": mean, "variance": variance, "exploration": exploration, "value": mean + exploration}


def puct(
    parent_visits: int,
    visits: int,
    total: float,
    *,
    c: float,
    move: str,
    siblings: Siblings,
    prior: float | None = None,
    priors: MoveValues | None = None,
    normalise: str = "raw",
) -> Terms:
    """PUCT: ``Q + C * P * sqrt(N.v) / (1 + M.v)``.

    Q is the child's mean, ``"raw"`` or ``"minmax"``-normalised over the visited siblings,
    ``(mean - min) / (max - min)`` (0.5 for each when all have the same mean); an unvisited
    child's Q is 0. P is the prior the log declared for this child, else ``priors[move]`` (0 for a
    move not listed, not renormalised), else uniform ``1 / children``. N is N.v, the parent's
    visits. Sources: Silver et al. (2018),
    https://doi.org/10.1126/science.aar6404; min-max Q: Schrittwieser et al. (2020),
    https://doi.org/10.1038/s41586-020-03051-4.

    Args:
        parent_visits: N.v.
        visits: M.v (>= 1).
        total: M.s.
        c: c_puct.
        move: the child's move (input).
        siblings: the children of the node choosing (input).
        prior: the prior the log declared for this child (input), None if none.
        priors: P per move, or None for uniform.
        normalise: ``"raw"`` or ``"minmax"``.

    Returns:
        ``mean``, ``q``, ``prior``, ``exploration`` and ``value``.
    """
    if normalise not in NORMALISATIONS:
        raise ValueError(f"normalise must be one of {NORMALISATIONS}, got {normalise!r}")
    mean = total / visits if visits else math.nan
    if not visits:
        q = 0.0
    elif normalise == "raw":
        q = mean
    else:
        spread = siblings.max_mean - siblings.min_mean
        q = (mean - siblings.min_mean) / spread if spread > 0 else 0.5
    if prior is None:
        prior = value_of(priors, move) if priors else 1.0 / siblings.count
    exploration = c * prior * math.sqrt(parent_visits) / (1 + visits)
    return {"mean": mean, "q": q, "prior": prior, "exploration": exploration, "value": q + exploration}


def progressive_bias(
    parent_visits: int,
    visits: int,
    total: float,
    *,
    c: float,
    move: str,
    w: float = 1.0,
    heuristic: MoveValues | None = None,
) -> Terms:
    """UCB1 plus a progressive-bias term: ``UCB1 + W * H(move) / sqrt(M.v)``.

    The UCB1 part is :func:`ucb1` itself, so with W = 0 the value is bit-identical to UCB1. H is
    ``heuristic[move]`` (0 when not listed). Source: Chaslot et al. (2008), "Progressive strategies
    for Monte-Carlo tree search", https://doi.org/10.1142/S1793005708001094.

    Args:
        parent_visits: N.v.
        visits: M.v (>= 1).
        total: M.s.
        c: the exploration constant C.
        move: the child's move (input).
        w: the bias weight W.
        heuristic: H per move; None means H = 0 everywhere.

    Returns:
        ``mean``, ``bias``, ``exploration`` and ``value``.
    """
    base = ucb1(parent_visits, visits, total, c=c)
    bias = w * value_of(heuristic, move) / math.sqrt(visits) if visits else 0.0
    return {
        "mean": base["mean"],
        "bias": bias,
        "exploration": base["exploration"],
        "value": base["value"] + bias,
    }


def ramped_c(parent_visits: int, *, c: float, c0: float, t: int, t2: int) -> float:
    """The exploration constant after the sample threshold: linear from C0 at N.v = T to C at T2.

    ``C0 + (C - C0) * (N.v - T) / (T2 - T)`` for T <= N.v < T2 and exactly C from T2 on (also when
    T2 <= T, i.e. no ramp). Below T the node does not use a formula at all (:func:`sample_threshold`).
    """
    if parent_visits >= t2:
        return c
    return c0 + (c - c0) * (parent_visits - t) / (t2 - t)


def sample_threshold(
    parent_visits: int,
    visits: int,
    total: float,
    *,
    c: float,
    move: str,
    siblings: Siblings,
    t: int = 10,
    t2: int = 10,
    c0: float = 0.0,
    fallback: str = "random",
    w: float = 0.0,
    heuristic: MoveValues | None = None,
) -> Terms:
    """A fallback policy below T parent visits, then progressive-bias UCB with a ramping C.

    Below T (N.v < T) the node draws a child: ``"random"`` uniformly, or ``"heuristic"`` uniformly
    among the children of largest H. The terms then hold ``probability`` and ``value`` =
    probability. From T on it is :func:`progressive_bias` with C replaced by :func:`ramped_c`,
    which climbs linearly from C0 at N.v = T to C at N.v = T2. With T = T2 = 0 and W = 0 it is
    UCB1, bit for bit.

    Args:
        parent_visits: N.v.
        visits: M.v (>= 1).
        total: M.s.
        c: the normal exploration constant C, reached at T2.
        move: the child's move (input).
        siblings: the children of the node choosing (input).
        t: the sample threshold T.
        t2: where the ramp ends, T2 (no ramp when T2 <= T).
        c0: the exploration constant at T.
        fallback: ``"random"`` or ``"heuristic"``.
        w: the progressive-bias weight W (0: plain UCB1).
        heuristic: H per move, for the bias and the heuristic fallback.

    Returns:
        Below T: ``mean``, ``heuristic``, ``probability``, ``value``. From T on: ``mean``, ``bias``,
        ``effective_c``, ``exploration``, ``value``.
    """
    if fallback not in FALLBACKS:
        raise ValueError(f"fallback must be one of {FALLBACKS}, got {fallback!r}")
    if parent_visits >= t:
        c_now = ramped_c(parent_visits, c=c, c0=c0, t=t, t2=t2)
        terms = progressive_bias(
            parent_visits, visits, total, c=c_now, move=move, w=w, heuristic=heuristic
        )
        return {
            "mean": terms["mean"],
            "bias": terms["bias"],
            "effective_c": c_now,
            "exploration": terms["exploration"],
            "value": terms["value"],
        }
    h = value_of(heuristic, move)
    if fallback == "random":
        probability = 1.0 / siblings.count
    else:  # argmax H with ties drawn uniformly; O(children) per child, and nodes have few children
        values = [value_of(heuristic, m) for m in siblings.moves]
        best = max(values)
        probability = 1.0 / values.count(best) if h == best else 0.0
    mean = total / visits if visits else math.nan
    return {"mean": mean, "heuristic": h, PROBABILITY: probability, "value": probability}


def value_of(values: MoveValues | None, move: str) -> float:
    """``values[move]``, 0 when the move is not listed or there are no values."""
    return values.get(move, 0.0) if values else 0.0
