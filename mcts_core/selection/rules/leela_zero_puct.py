"""Leela Zero's PUCT: ``Q + puct * P * sqrt(N * ln(logpuct * N + logconst)) / (1 + n)``.

N is the children's visits summed (Leela Zero counts them at each selection instead of reading the
parent's visits, which are one more: the parent's own first evaluation). Q is the child's mean; an
unvisited child's Q is the first-play value ``root_value - fpu_reduction * sqrt(visited policy)``,
with the visited policy the priors of the visited children summed (0 where no prior is declared)
and root_value the parent's network value for the player choosing (an engine file gives the root's;
every node uses it). P is the child's declared prior, else uniform ``1 / children``.

Defaults from Leela Zero 0.17's source: puct 0.5, logpuct 0.015, logconst 1.7, fpu_reduction 0.25
(``src/GTP.cpp``, ``GTP::setup_default_parameters``; the root's reduction equals it there), the
formula from ``UCTNode::uct_select_child`` (``src/UCTNode.cpp``),
https://github.com/leela-zero/leela-zero/blob/v0.17/src/UCTNode.cpp.

Leela Zero computes in float32 in places: its constants (logpuct is float32's 0.01499999966...),
the priors, the winrates (a mean is rounded to float32), the visited-policy sum and the first-play
value are floats, and ``puct * P`` is a float product; N's square root, the division by 1 + n and
the final sum are doubles (it divides the numerator by 1 + n before multiplying; this rule
multiplies first, as PUCT does). This rule computes every step
in float64, so its value can differ from the engine's by about 1e-7 relative: only children whose
values are that close can be ordered differently.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from ..rule import Rule, Setting, c_setting
from ..terms import Siblings, Terms
from ..value_form import ValueForm
from .puct import Puct

PUCT = 0.5  # cfg_puct
LOGPUCT = 0.015  # cfg_logpuct
LOGCONST = 1.7  # cfg_logconst
FPU_REDUCTION = 0.25  # cfg_fpu_reduction (and cfg_fpu_root_reduction, set equal to it)


def numerator(children_visits: int, logpuct: float, logconst: float) -> float:
    """``sqrt(N * ln(logpuct * N + logconst))``, N the children's visits summed."""
    return math.sqrt(children_visits * math.log(logpuct * children_visits + logconst))


def leela_zero(parent_visits: int, visits: int, total: float, *, c: float, move: str, siblings: Siblings,
               prior: float | None = None, root_value: float = 0.5, fpu_reduction: float = FPU_REDUCTION,
               logpuct: float = LOGPUCT, logconst: float = LOGCONST) -> Terms:
    """Leela Zero's PUCT (module docstring).

    Args:
        parent_visits, visits, total: N.v, M.v and M.s (:class:`~mcts_core.selection.terms.RuleFunction`);
            N.v is not read: N is the children's visits summed.
        c: puct.
        move, siblings, prior: inputs: the child's move, the children of the node choosing, the
            prior declared for this child (None: uniform).
        root_value: the parent's network value for the player choosing (the first-play value's base).
        fpu_reduction: how far below it an unvisited child starts, times sqrt(visited policy).
        logpuct, logconst: the constants inside the logarithm.

    Returns:
        ``mean``, ``q``, ``prior``, ``numerator``, ``exploration`` and ``value``.
    """
    mean = total / visits if visits else math.nan
    q = mean if visits else root_value - fpu_reduction * math.sqrt(siblings.visited_prior)
    if prior is None:
        prior = 1.0 / siblings.count
    root = numerator(siblings.visits, logpuct, logconst)
    exploration = c * prior * root / (1 + visits)
    return {"mean": mean, "q": q, "prior": prior, "numerator": root, "exploration": exploration,
            "value": q + exploration}


class LeelaZero(Rule):
    """Leela Zero's PUCT (module docstring): its value is PUCT's line ``Q + C * P * root / d``
    (:class:`~.puct.Puct`) with root = the numerator."""

    key = "leela_zero"
    name = "Leela Zero PUCT"
    function = staticmethod(leela_zero)
    # Two lines (gathered): one did not fit beside the picture on a 1366-pixel page.
    formula = (r"\begin{gathered}Q(M) + C\,P(M)\,\frac{\sqrt{N \ln(\mathit{logpuct}\,N + \mathit{logconst})}}{1 + M.v}"
               r" \\ N = \textstyle\sum M.v\end{gathered}")
    source = ("Leela Zero 0.17, src/UCTNode.cpp (UCTNode::uct_select_child) and src/GTP.cpp (defaults), "
              "https://github.com/leela-zero/leela-zero/blob/v0.17/src/UCTNode.cpp")
    settings = (
        replace(c_setting("puct"), default=PUCT),
        Setting("root_value", "parent's network value", "float", 0.5, high=1.0,
                help="the first-play value's base: the root's network value for the player to move (NN eval)"),
        Setting("fpu_reduction", "fpu_reduction", "float", FPU_REDUCTION, low=0.0, high=1.0,
                help="an unvisited child's Q is the parent's value minus this times √(visited policy)"),
        Setting("logpuct", "logpuct", "float", LOGPUCT, low=0.0, high=1.0,
                help="the visits' weight inside the logarithm"),
        Setting("logconst", "logconst", "float", LOGCONST, low=1.0, high=10.0,
                help="the constant inside the logarithm (at least 1, so the logarithm is never negative)"),
    )
    inputs = ("move", "siblings", "prior")
    terms = ("mean", "q", "prior", "numerator", "exploration", "value")
    addends = ("q", "exploration")
    node_terms = ("numerator",)  # one value at a node: said once above the table
    labels = MappingProxyType({"numerator": "√(N·ln(logpuct·N + logconst))", "value": "Q + U"})
    reads_sibling_visits = True

    def value_form(self, terms: Terms, parent_visits: int, visits: int, total: float,
                   settings: Mapping[str, Any]) -> ValueForm:
        return Puct(terms["q"], terms["prior"], terms["numerator"], 1 + visits)


RULE = LeelaZero()
