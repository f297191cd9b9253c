"""Why a node picks the child it picks: the margin over the runner-up and the term that decided
(the rule's addends)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..selection import DEFAULT_RULE, RULE_REGISTRY, ChildScore


TIE = "tie"
ONLY_CHILD = "only child"
UNVISITED = "unvisited"
VALUE = "value"


@dataclass(frozen=True)
class Choice:
    """The winner against the runner-up.

    Attributes:
        winner: the selected child.
        runner_up: the second-ranked child, None when there is only one child.
        margin: winner value minus runner-up value (0.0 for an exact tie, infinite for an
            unvisited winner).
        differences: per term whose sum is the value (the rule's ``addends``), winner minus
            runner-up, the finite ones.
        deciding: the term among them that favours the winner most; :data:`TIE` when the values are
            equal (two unvisited children too), the tie order chose; :data:`UNVISITED` when the
            winner's value is infinite (an unvisited child is tried first); :data:`ONLY_CHILD`
            without a runner-up; :data:`VALUE` when the value is not a sum of terms (a draw's odds).
        ties: the tie order: ``"smaller"`` (the smaller move wins) or ``"first"`` (the first child
            in the node's order).
    """

    winner: ChildScore
    runner_up: ChildScore | None
    margin: float
    differences: dict[str, float]
    deciding: str
    ties: str = "smaller"


def explain_choice(children: Sequence[ChildScore], rule: str = DEFAULT_RULE, ties: str = "smaller") -> Choice | None:
    """Explain the choice among scored children (best first, as ``score_children`` returns them)
    under ``rule`` (its addends are the terms that can decide), ties broken by ``ties``."""
    if not children:
        return None
    winner = children[0]
    if len(children) == 1:
        return Choice(winner, None, 0.0, {}, ONLY_CHILD, ties)
    runner_up = children[1]
    if winner.value == runner_up.value:  # also two infinite values: inf - inf would be nan
        return Choice(winner, runner_up, 0.0, {}, TIE, ties)
    margin = winner.value - runner_up.value
    if math.isinf(winner.value):
        return Choice(winner, runner_up, margin, {}, UNVISITED, ties)
    differences = {}
    for name in RULE_REGISTRY[rule].addends:
        if name in winner.terms and name in runner_up.terms:
            gap = winner.terms[name] - runner_up.terms[name]
            if math.isfinite(gap):
                differences[name] = gap
    deciding = max(differences, key=differences.get) if differences else VALUE
    return Choice(winner, runner_up, margin, differences, deciding, ties)
