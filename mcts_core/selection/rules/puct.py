"""PUCT (AlphaZero): ``Q + C * P * sqrt(N.v) / (1 + M.v)``.

Q is the child's mean, ``"raw"`` or ``"minmax"``-normalised over the visited siblings,
``(mean - min) / (max - min)`` (0.5 for each when all have the same mean); an unvisited child's Q
is 0. P is the prior the log declared for this child, else ``priors[move]`` (0 for a move not
listed, not renormalised), else uniform ``1 / children``. N is N.v, the parent's visits. Sources:
Silver et al. (2018), https://doi.org/10.1126/science.aar6404; min-max Q: Schrittwieser et al.
(2020), https://doi.org/10.1038/s41586-020-03051-4.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...model.tree_protocol import SelectableTree
from ..rule import Rule, Setting, TreeLoop, c_setting
from ..terms import MoveValues, Siblings, Terms, value_of
from ..value_form import ValueForm

NORMALISATIONS = ("raw", "minmax")


def puct(parent_visits: int, visits: int, total: float, *, c: float, move: str, siblings: Siblings,
         prior: float | None = None, priors: MoveValues | None = None, normalise: str = "raw") -> Terms:
    """PUCT (module docstring).

    Args:
        parent_visits, visits, total: N.v, M.v and M.s (:class:`~mcts_core.selection.terms.RuleFunction`).
        c: c_puct.
        move, siblings, prior: inputs: the child's move, the children of the node choosing, the
            prior the log declared for this child (None if none).
        priors: P per move, or None for uniform.
        normalise: ``"raw"`` or ``"minmax"`` (the rule's settings check refuses anything else).

    Returns:
        ``mean``, ``q``, ``prior``, ``exploration`` and ``value``.
    """
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


def puct_values(tree: SelectableTree, node: int, c: float, *, normalise: str = "raw",
                priors: MoveValues | None = None) -> list[float]:
    """Each child's ``Q + C * P * sqrt(N.v) / (1 + M.v)`` at a live tree's node, as :func:`puct` computes it.

    The searches' fast form of :func:`puct` (the same float operations in the same order): Q is the
    mean (``"raw"``) or min-max normalised over the visited children, 0 at 0 visits; P is the
    child's declared prior (``tree.prior_of``), else ``priors[move]``, else uniform.
    """
    visits, total, kids = tree.visits, tree.total, tree.children[node]
    sqrt_n = math.sqrt(visits[node])
    uniform = 1.0 / len(kids)
    if normalise == "minmax":
        means = [total[kid] / visits[kid] for kid in kids if visits[kid]]
        low, high = min(means, default=0.0), max(means, default=0.0)
        spread = high - low
    values = []
    for kid in kids:
        v = visits[kid]
        if not v:
            q = 0.0
        elif normalise == "raw":
            q = total[kid] / v
        else:
            q = (total[kid] / v - low) / spread if spread > 0 else 0.5
        prior = tree.prior_of(kid)
        if prior is None:
            prior = value_of(priors, tree.move[kid]) if priors else uniform
        values.append(q + c * prior * sqrt_n / (1 + v))
    return values


@dataclass(frozen=True, slots=True)
class Puct(ValueForm):
    """``q + c * prior * root / d``: PUCT's value, with root = sqrt(N.v) and d = 1 + M.v."""

    q: float
    prior: float
    root: float
    d: int
    roundings = 4
    plain = False

    def __call__(self, c: float) -> float:
        return self.q + c * self.prior * self.root / self.d

    def line(self) -> tuple[float, float]:
        return self.q, self.prior * self.root / self.d

    def scale(self) -> float:
        return abs(self.q)

    def varying(self) -> dict[str, tuple[float, float]]:
        slope = self.prior * self.root / self.d
        return {"exploration": (0.0, slope), "value": (self.q, slope)}


class PUCT(Rule):
    """PUCT (module docstring): its value is the line ``Q + C * P * sqrt(N.v) / (1 + M.v)``
    (:class:`Puct`); its fast loop is :func:`puct_values`."""

    key = "puct"
    name = "PUCT (AlphaZero)"
    function = staticmethod(puct)
    formula = r"Q(M) + C\,P(M)\,\frac{\sqrt{N.v}}{1 + M.v}"
    source = (
        "Silver et al. (2018), https://doi.org/10.1126/science.aar6404; min-max "
        "normalisation: Schrittwieser et al. (2020), https://doi.org/10.1038/s41586-020-03051-4"
    )
    settings = (
        c_setting("c_puct"),
        Setting("normalise", "value normalisation", "choice", "raw", choices=NORMALISATIONS,
                help="Q = raw mean, or (mean - min) / (max - min) over the siblings"),
        Setting("priors", "prior P per move", "move_values", None,
                help="one `move value` per line; empty = uniform 1/children; unlisted moves get 0"),
    )
    inputs = ("move", "siblings", "prior")
    terms = ("mean", "q", "prior", "exploration", "value")
    addends = ("q", "exploration")

    def value_form(self, terms: Terms, parent_visits: int, visits: int, total: float,
                   settings: Mapping[str, Any]) -> ValueForm:
        return Puct(terms["q"], terms["prior"], math.sqrt(parent_visits), 1 + visits)

    def fast_values(self, c: float, settings: Mapping[str, Any]) -> TreeLoop:
        normalise, priors = settings.get("normalise", "raw"), settings.get("priors")
        return lambda tree, node, kids: puct_values(tree, node, c, normalise=normalise, priors=priors)


RULE = PUCT()
