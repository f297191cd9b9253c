"""KataGo's PUCT: ``Q + cpuct(W) * sqrt(W + 0.01) * P / (1 + M.v)``.

``cpuct(W) = C + cpuctExplorationLog * ln((W + cpuctExplorationBase) / cpuctExplorationBase)``, C
being ``cpuctExploration``; W is the children's visits summed (KataGo's total child weight: its
weights are visits when ``useUncertainty`` is off). Q is the child's mean, KataGo's utility for the
player who moves into it; an unvisited child's Q is the first-play value ``root_value -
rootFpuReductionMax * sqrt(visited prior)``, the visited prior being the declared priors of the
visited children summed. P is the declared prior, else uniform ``1 / children``.

Source: KataGo, cpp/search/searchexplorehelpers.cpp (``cpuctExploration``, ``getExploreScaling``,
``getExploreSelectionValue``, ``getFpuValueForChildrenAssumeVisited``); defaults from
cpp/program/setup.cpp (cpuctExploration 1.0, cpuctExplorationLog 0.45, cpuctExplorationBase 500,
rootFpuReductionMax 0.1, fpuReductionMax 0.2).

Where it differs from KataGo, because an analysis does not say what KataGo used:
- KataGo multiplies the exploration by ``1 + cpuctUtilityStdevScale * (stdev / 0.40 - 1)``, stdev
  being the parent's utility spread, which no analysis reports: this rule takes the scale as 0
  (KataGo's default for analysis and GTP is 0.85; a query sets 0 with ``overrideSettings``).
- KataGo's first-play value starts from the parent's utility average, by default blended with the
  network's raw utility as ``min(1, visited prior ** 2)`` (``fpuParentWeightByVisitedPolicy``);
  this rule starts from ``root_value`` at every node (the reader sets it to the file's root utility,
  which KataGo reports averaged by its play-selection weights rather than by visits) and reduces it
  by the root's reduction everywhere: it scores every node as KataGo scores its root.
- KataGo's analysis engine adds a random bonus to root children's utilities (``wideRootNoise``,
  0.04 by default) and, with ``useUncertainty`` (on by default), weighs visits unequally: no
  formula follows the first, and an analysis gives weights only as sums; queries set them off.
With those settings off, KataGo's next visit was this rule's choice on 157 of 158 consecutive
budgets of KataGo 1.18.1 (tests/test_engine_katago.py; the miss: an unvisited child 0.0004 behind,
within the root utility's difference).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ..rule import Rule, Setting, c_setting
from ..terms import Siblings, Terms
from ..value_form import ValueForm

PUCT_OFFSET = 0.01  # KataGo's TOTALCHILDWEIGHT_PUCT_OFFSET: a positive numerator before any visit


def katago(parent_visits: int, visits: int, total: float, *, c: float, siblings: Siblings,
           prior: float | None = None, cpuct_log: float = 0.45, cpuct_base: float = 500.0,
           fpu_reduction_max: float = 0.1, root_value: float = 0.0) -> Terms:
    """KataGo's PUCT (module docstring).

    Args:
        parent_visits, visits, total: N.v, M.v and M.s (:class:`~mcts_core.selection.terms.RuleFunction`).
        c: cpuctExploration.
        siblings, prior: inputs: the children of the node choosing, the prior declared for this child.
        cpuct_log, cpuct_base: cpuctExplorationLog and cpuctExplorationBase.
        fpu_reduction_max: rootFpuReductionMax.
        root_value: the root's utility for the player to move there, where first-play values start.

    Returns:
        ``mean``, ``q``, ``prior``, ``W``, ``cpuct``, ``exploration`` and ``value``.
    """
    mean = total / visits if visits else math.nan
    q = mean if visits else root_value - fpu_reduction_max * math.sqrt(siblings.visited_prior)
    if prior is None:
        prior = 1.0 / siblings.count
    weight = siblings.visits
    cpuct = c + cpuct_growth(weight, cpuct_log, cpuct_base)
    exploration = cpuct * math.sqrt(weight + PUCT_OFFSET) * prior / (1 + visits)
    return {"mean": mean, "q": q, "prior": prior, "W": float(weight), "cpuct": cpuct, "exploration": exploration,
            "value": exploration + q}


def cpuct_growth(weight: int, cpuct_log: float, cpuct_base: float) -> float:
    """What cpuct(W) adds to C: ``cpuctExplorationLog * ln((W + base) / base)``."""
    return cpuct_log * math.log((weight + cpuct_base) / cpuct_base)


@dataclass(frozen=True, slots=True)
class KataGoValue(ValueForm):
    """``(c + growth) * root * prior / d + q``: KataGo's value, with growth = cpuct(W) - C,
    root = sqrt(W + 0.01) and d = 1 + M.v."""

    q: float
    growth: float
    root: float
    prior: float
    d: int
    roundings = 5
    plain = False

    def __call__(self, c: float) -> float:
        return (c + self.growth) * self.root * self.prior / self.d + self.q

    def _slope(self) -> float:
        return self.root * self.prior / self.d

    def line(self) -> tuple[float, float]:
        slope = self._slope()
        return self.q + self.growth * slope, slope

    def scale(self) -> float:
        return max(abs(self.q), abs(self.growth * self._slope()))

    def varying(self) -> dict[str, tuple[float, float]]:
        slope = self._slope()
        return {"cpuct": (self.growth, 1.0), "exploration": (self.growth * slope, slope), "value": self.line()}


class KataGo(Rule):
    """KataGo's PUCT (module docstring): its value is the line in C :class:`KataGoValue`."""

    key = "katago"
    name = "KataGo PUCT"
    function = staticmethod(katago)
    # Two lines (gathered): one did not fit beside the picture on a 1366-pixel page.
    formula = (r"\begin{gathered}Q(M) + \mathrm{cpuct}(W)\,P(M)\,\frac{\sqrt{W + 0.01}}{1 + M.v} \\ "
               r"\mathrm{cpuct}(W) = C + c_{\log}\ln\frac{W + b}{b}\end{gathered}")
    source = ("KataGo, cpp/search/searchexplorehelpers.cpp and cpp/program/setup.cpp, "
              "https://github.com/lightvector/KataGo")
    settings = (
        c_setting("cpuctExploration"),
        Setting("cpuct_log", "cpuctExplorationLog", "float", 0.45, low=0.0, high=10.0,
                help="how fast cpuct grows with the children's visits W"),
        Setting("cpuct_base", "cpuctExplorationBase", "float", 500.0, low=10.0, high=100000.0,
                help="the W at which cpuct has grown by cpuctExplorationLog · ln 2"),
        Setting("fpu_reduction_max", "rootFpuReductionMax", "float", 0.1, low=0.0, high=2.0,
                help="an unvisited child's Q = root utility − this · √(prior of the visited children)"),
        Setting("root_value", "root utility", "float", 0.0, high=2.0,
                help="the root's utility for the player to move: where first-play values start"),
    )
    inputs = ("siblings", "prior")
    terms = ("mean", "q", "prior", "W", "cpuct", "exploration", "value")
    addends = ("q", "exploration")
    node_terms = ("W", "cpuct")  # one value at a node: said once above the table
    labels = MappingProxyType({"q": "Q", "W": "W (children's visits)", "cpuct": "cpuct(W)"})
    reads_sibling_visits = True

    @property
    def intercept_term(self) -> str | None:
        """None: at C = 0 the value still has cpuct's growth term, so it is not Q alone."""
        return None

    def value_form(self, terms: Terms, parent_visits: int, visits: int, total: float,
                   settings: Mapping[str, Any]) -> ValueForm:
        weight = int(terms["W"])
        growth = cpuct_growth(weight, settings["cpuct_log"], settings["cpuct_base"])
        return KataGoValue(terms["q"], growth, math.sqrt(weight + PUCT_OFFSET), terms["prior"], 1 + visits)


RULE = KataGo()
