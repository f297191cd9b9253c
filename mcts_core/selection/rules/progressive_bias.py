"""UCB1 plus a progressive-bias term: ``UCB1 + W * H(move) / sqrt(M.v)``.

The UCB1 part is :func:`~.ucb1.ucb1` itself, so with W = 0 the value is bit-identical to UCB1. H is
``heuristic[move]`` (0 when not listed). Source: Chaslot et al. (2008), "Progressive strategies for
Monte-Carlo tree search", https://doi.org/10.1142/S1793005708001094.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..rule import HEURISTIC, Rule, bias_weight, c_setting
from ..terms import MoveValues, Terms, value_of
from ..value_form import ValueForm
from .ucb1 import ucb1


def progressive_bias(parent_visits: int, visits: int, total: float, *, c: float, move: str, w: float = 1.0,
                     heuristic: MoveValues | None = None) -> Terms:
    """UCB1 plus a progressive-bias term (module docstring).

    Args:
        parent_visits, visits, total: N.v, M.v and M.s (:class:`~mcts_core.selection.terms.RuleFunction`).
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


@dataclass(frozen=True, slots=True)
class Biased(ValueForm):
    """``(mean + c * slope) + bias``: progressive bias, and a sample threshold from T2 on (C itself)."""

    mean: float
    slope: float
    bias: float
    roundings = 2
    plain = False

    def __call__(self, c: float) -> float:
        return (self.mean + c * self.slope) + self.bias

    def line(self) -> tuple[float, float]:
        return self.mean + self.bias, self.slope

    def scale(self) -> float:
        return abs(self.mean) + abs(self.bias)

    def varying(self) -> dict[str, tuple[float, float]]:
        return {
            "effective_c": (0.0, 1.0),
            "exploration": (0.0, self.slope),
            "value": self.line(),
        }


class ProgressiveBias(Rule):
    """UCB1 plus a progressive-bias term (module docstring): UCB1's line shifted by the bias (:class:`Biased`)."""

    key = "progressive_bias"
    name = "UCB1 + progressive bias"
    function = staticmethod(progressive_bias)
    formula = r"\frac{M.s}{M.v} + \frac{W\,H(M)}{\sqrt{M.v}} + C\sqrt{\frac{\ln N.v}{M.v}}"
    source = (
        "Chaslot et al. (2008), https://doi.org/10.1142/S1793005708001094; "
        "https://github.com/Mangara/CodeCup2022"
    )
    settings = (c_setting(), bias_weight(1.0), HEURISTIC)
    inputs = ("move",)
    terms = ("mean", "bias", "exploration", "value")
    addends = ("mean", "bias", "exploration")

    def value_form(self, terms: Terms, parent_visits: int, visits: int, total: float,
                   settings: Mapping[str, Any]) -> ValueForm:
        return Biased(terms["mean"], terms["exploration"], terms["bias"])


RULE = ProgressiveBias()
