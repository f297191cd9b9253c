"""The model-free answer to "which C is best": the C values whose score is not significantly below the
best measured one, and the range of C that holds the true best C if the score rises then falls.

Each C's score is compared with the best measured score (the highest), one-sided, with the variance of
each score from its own game pairs (the pentanomial's, so draws and paired seats count as they should)
and the two C values' games independent. The test's level is alpha / (k - 1) for k C values
(Bonferroni): the truly best of the grid's C values stays in the set with probability at least
1 - alpha, whatever the curve's shape, because it is left out only when some other C's score beats it
by more than its own margin (Gupta's subset selection).

When the score is unimodal in C (it rises, peaks once, and falls: a plateau counts), the true best C
lies between the grid's neighbours of its best grid C, so the range from the grid C below the set's
smallest member to the one above its largest holds it with the same probability: 0 below the grid's
first C, inf above its last (the data leave that side open). Standard library only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

from .best_c import ScorePoint

ALPHA = 0.05


@dataclass(frozen=True)
class BestSet:
    """The C values a user cannot tell from the best measured one yet.

    Attributes:
        best: the C with the highest measured score (the lower C on a tie).
        members: the C values whose score is not significantly below it, in increasing order.
        low, high: the range that holds the true best C on a unimodal curve: the grid's C just below
            the smallest member and just above the largest (0 and inf past the grid's ends).
    """

    best: float
    members: tuple[float, ...]
    low: float
    high: float


def best_set(points: Sequence[ScorePoint], *, alpha: float = ALPHA) -> BestSet:
    """The set of C values not significantly below the best measured one, and the range it implies.

    Args:
        points: one per C (C values without games are left out; C = 0 is kept).
        alpha: the chance of leaving out the truly best grid C (95 % confidence by default).

    Raises:
        ValueError: no C with games.
    """
    used = sorted((point for point in points if point.games > 0), key=lambda point: point.c)
    if not used:
        raise ValueError("the set of best C values needs at least one C with games")
    top = max(used, key=lambda point: point.score)
    z = NormalDist().inv_cdf(1.0 - alpha / max(len(used) - 1, 1))
    members = [point for point in used if point is top or _not_below(point, top, z)]
    first, last = used.index(members[0]), used.index(members[-1])
    low = used[first - 1].c if first > 0 else 0.0
    high = used[last + 1].c if last + 1 < len(used) else math.inf
    return BestSet(top.c, tuple(point.c for point in members), low, high)


def _not_below(point: ScorePoint, top: ScorePoint, z: float) -> bool:
    """``point``'s score is within z standard errors of ``top``'s (the difference's, from both pairs' variances)."""
    spread = math.sqrt(point.game_variance / point.games + top.game_variance / top.games)
    return top.score - point.score <= z * spread
