"""UCB1, the puzzle's rule: ``M.s / M.v + C * sqrt(ln(N.v) / M.v)``, computed in exactly that form.

The form fixes the float: a C++ or Python solution written the same way gets the same value bit
for bit. An unvisited child is worth +infinity. Source: Auer, Cesa-Bianchi, Fischer (2002),
https://doi.org/10.1023/A:1013689704352.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ..rule import Rule, c_setting
from ..terms import Terms
from ..value_form import ValueForm


def ucb1(parent_visits: int, visits: int, total: float, *, c: float) -> Terms:
    """UCB1: ``M.s / M.v + C * sqrt(ln(N.v) / M.v)``, computed in exactly that form.

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


def ucb1_latex(parent_visits: int, visits: int | None = None, total: float | None = None, *, c: float) -> str:
    """The UCB1 formula with the current numbers substituted, as LaTeX (no user text in it).

    With only the parent's visits it substitutes N.v and C; with a child's visits and total it
    substitutes everything and shows the two terms and their sum, computed as :func:`ucb1` does.
    """
    number = _latex_number
    if visits is None or total is None:
        return rf"\frac{{M.s}}{{M.v}} + {number(c)}\sqrt{{\frac{{\ln {parent_visits}}}{{M.v}}}}"
    terms = ucb1(parent_visits, visits, total, c=c)
    return (
        rf"\frac{{{number(total)}}}{{{visits}}} + {number(c)}\sqrt{{\frac{{\ln {parent_visits}}}{{{visits}}}}}"
        rf" = {number(terms['mean'])} + {number(terms['exploration'])} = {number(terms['value'])}"
    )


def _latex_number(value: float) -> str:
    """A float for LaTeX: 4 significant digits, scientific notation as a power of ten."""
    text = f"{value:.4g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        return rf"{mantissa} \times 10^{{{int(exponent)}}}"
    return text


@dataclass(frozen=True, slots=True)
class Plain(ValueForm):
    """``mean + c * slope``: UCB1 and UCB1-Tuned (the exploration term is ``c * slope``)."""

    mean: float
    slope: float
    roundings = 1
    plain = True

    def __call__(self, c: float) -> float:
        return self.mean + c * self.slope

    def line(self) -> tuple[float, float]:
        return self.mean, self.slope

    def scale(self) -> float:
        return abs(self.mean)

    def varying(self) -> dict[str, tuple[float, float]]:
        return {"exploration": (0.0, self.slope), "value": (self.mean, self.slope)}


class UCB1(Rule):
    """UCB1 (module docstring). Its value is a line in C whose float is the line itself
    (:class:`Plain`: the exploration term at C = 1 is the slope); its fast loop is :func:`ucb1_values`."""

    key = "ucb1"
    name = "UCB1"
    function = staticmethod(ucb1)
    formula = r"\frac{M.s}{M.v} + C\sqrt{\frac{\ln N.v}{M.v}}"
    source = "https://www.codingame.com/training/hard/monte-carlo-tree-search-exercise"
    settings = (c_setting(),)
    labels = MappingProxyType({"value": "UCB1", "exploration": "C·√(ln N/n)"})
    statistics_loop = staticmethod(ucb1_values)

    def value_form(self, terms: Terms, parent_visits: int, visits: int, total: float,
                   settings: Mapping[str, Any]) -> ValueForm:
        return Plain(terms["mean"], terms["exploration"])


RULE = UCB1()
