"""Why a node picks the child it picks: the margin over the runner-up, the term that decided, and
the UCB1 formula with the numbers filled in."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..selection import ChildScore, ucb1


@dataclass(frozen=True)
class Choice:
    """The winner against the runner-up.

    Attributes:
        winner: the selected child.
        runner_up: the second-ranked child, None when there is only one child.
        margin: winner value minus runner-up value (0.0 for an exact tie).
        differences: per term (not ``value``), winner minus runner-up.
        deciding: the term that favours the winner most; "tie" when the values are exactly
            equal (the smaller move won); "only child" without a runner-up.
    """

    winner: ChildScore
    runner_up: ChildScore | None
    margin: float
    differences: dict[str, float]
    deciding: str


def explain_choice(children: Sequence[ChildScore]) -> Choice | None:
    """Explain the choice among scored children (best first, as ``score_children`` returns them)."""
    if not children:
        return None
    winner = children[0]
    if len(children) == 1:
        return Choice(winner, None, 0.0, {}, "only child")
    runner_up = children[1]
    differences = {
        name: value - runner_up.terms[name]
        for name, value in winner.terms.items()
        if name != "value" and name in runner_up.terms
    }
    margin = winner.value - runner_up.value
    if margin == 0.0:
        deciding = "tie"
    else:
        deciding = max(differences, key=differences.get) if differences else "value"
    return Choice(winner, runner_up, margin, differences, deciding)


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
