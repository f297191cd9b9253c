"""Each sequential rule's value at a child as a line in C: the float the rule computes, and the line.

Every registered sequential rule is affine in C at each child (in real arithmetic), and its module
says how (its :meth:`~mcts_core.selection.Rule.value_form`, a
:class:`~mcts_core.selection.ValueForm`): UCB1 and UCB1-Tuned ``mean + C * s``, progressive bias
``(mean + C * s) + bias``, a sample threshold the same with C replaced by its ramp from T on, PUCT
``Q + C * P * sqrt(N) / (1 + n)``. A value is constant where C does not enter: a proven child (its
outcome), an unvisited child under a UCB-style rule (+infinity), a chance node's outcome (its
visits: the path follows the most visited), a child below a sample threshold (its probability:
whether a node is below T depends on its visits only, never on C). This module makes those flat
lines (:class:`Constant`) and asks the rule for the others.

A :class:`~mcts_core.analysis.envelope.Line` holds both views of a child: ``intercept + C * slope``,
the real line (crossings are computed from it, a browser draws and hovers it), and ``value(c)``,
the float the rule computes, bit for bit (the same operations in the same order), which the sweep
snaps its breakpoints to. For UCB1, UCB1-Tuned and constants the two are the same floats; for the
other forms they differ by rounding, :attr:`ValueForm.roundings` ulps at most.

The constants of each line are read off the rule's own terms, scored at C = 1 (``1.0 * x`` is
``x`` exactly, so the exploration term at C = 1 is the slope for UCB-style rules).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..model.tree import Tree
from ..selection import PROBABILITY, Scoring, ValueForm, score_children
from ..selection.scoring import OUTCOME, SHARE
from .envelope import Line

UCB1 = Scoring()  # what selection uses when no rule is given: the puzzle's UCB1


@dataclass(frozen=True, slots=True)
class Constant(ValueForm):
    """A value C does not enter: a proven outcome, +inf (unvisited), a chance share, a probability."""

    value: float
    roundings = 0
    plain = True  # value + c * 0.0 compares like value for every finite C

    def __call__(self, c: float) -> float:
        return self.value

    def line(self) -> tuple[float, float]:
        return self.value, 0.0

    def scale(self) -> float:
        return abs(self.value)

    def varying(self) -> dict[str, tuple[float, float]]:
        return {"value": (self.value, 0.0)}


# Terms whose presence says C does not enter the value: a draw (probability), a proven child
# (outcome), a chance node's outcome (share). At C = 1 only an unvisited UCB child is infinite.
CONSTANT_TERMS = frozenset({PROBABILITY, OUTCOME, SHARE})


def child_lines(tree: Tree, node: int, scoring: Scoring = UCB1) -> list[Line]:
    """Every child of ``node`` as a line in C under ``scoring``, in tie order (empty for a leaf).

    ``line.value(c)`` is bit for bit the ``value`` term :func:`~mcts_core.selection.score_children`
    gives the child at ``c`` (proven children, chance nodes and draws below a threshold included).
    """
    kids = tree.tie_order(node)
    if not kids:
        return []
    value_form = scoring.spec.value_form
    settings = scoring.resolved_settings()
    parent_visits = tree.visits[node]
    at_one = scoring if scoring.c == 1.0 else scoring.with_c(1.0)
    terms_of = {score.node: score.terms for score in score_children(tree, node, at_one)}
    lines = []
    for rank, kid in enumerate(kids):
        terms, visits = terms_of[kid], tree.visits[kid]
        if terms.keys() & CONSTANT_TERMS or math.isinf(terms["value"]):
            form: ValueForm = Constant(terms["value"])
        else:
            form = value_form(terms, parent_visits, visits, tree.total[kid], settings)
        intercept, slope = form.line()
        lines.append(Line(kid, tree.move[kid], visits, intercept, slope, rank, form))
    return lines

