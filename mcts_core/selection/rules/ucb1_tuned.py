"""UCB1-Tuned: ``mean + C * sqrt(ln(N.v) / M.v * min(cap, V))`` with a variance bound V.

``V = M.s2 / M.v - mean**2 + sqrt(2 ln(N.v) / M.v)``, where ``M.s2`` is the child's sum of squared
scores: the sample variance plus a confidence margin. With C = 1 and cap = 1/4 (the largest
variance of rewards in [0, 1]) it is the paper's rule; for scores in [a, b] the matching cap is
(b - a)**2 / 4. Source: Auer, Cesa-Bianchi, Fischer (2002), section 4,
https://doi.org/10.1023/A:1013689704352.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ..rule import Rule, Setting, c_setting
from ..terms import Terms
from ..value_form import ValueForm
from .ucb1 import Plain


def ucb1_tuned(
    parent_visits: int, visits: int, total: float, *, c: float, total_sq: float, cap: float = 0.25
) -> Terms:
    """UCB1-Tuned (module docstring).

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


class UCB1Tuned(Rule):
    """UCB1-Tuned (module docstring): ``mean + C * slope`` like UCB1 (:class:`~.ucb1.Plain`), the
    slope the variance-capped root."""

    key = "ucb1_tuned"
    name = "UCB1-Tuned"
    function = staticmethod(ucb1_tuned)
    formula = (
        r"\bar{x} + C\sqrt{\frac{\ln N.v}{M.v}\min\left(\mathit{cap},\ "
        r"\frac{M.s_2}{M.v} - \bar{x}^2 + \sqrt{\frac{2\ln N.v}{M.v}}\right)}, "
        r"\quad \bar{x} = \frac{M.s}{M.v}"
    )
    source = "Auer, Cesa-Bianchi, Fischer (2002), section 4, https://doi.org/10.1023/A:1013689704352"
    settings = (
        c_setting(),
        Setting("cap", "variance cap", "float", 0.25, low=0.0, high=10_000.0,
                help="1/4 for scores in [0, 1]; (b - a)²/4 for scores in [a, b]"),
    )
    inputs = ("total_sq",)
    terms = ("mean", "variance", "exploration", "value")

    def value_form(self, terms: Terms, parent_visits: int, visits: int, total: float,
                   settings: Mapping[str, Any]) -> ValueForm:
        return Plain(terms["mean"], terms["exploration"])


RULE = UCB1Tuned()
