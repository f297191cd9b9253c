"""Each sequential rule's value at a child as a line in C: the float the rule computes, and the line.

Every registered sequential rule is affine in C at each child (in real arithmetic):

* UCB1 and UCB1-Tuned: ``mean + C * s`` (s: ``sqrt(ln N / n)``, or Tuned's variance-capped form);
* progressive bias: ``(mean + C * s) + bias``;
* sample threshold from T on: the same with C replaced by the ramp
  ``C0 + (C - C0) * (N - T) / (T2 - T)`` (affine in C), and by C itself from T2 on;
* PUCT, raw and min-max Q: ``Q + C * P * sqrt(N) / (1 + n)``;

and constant where C does not enter: a proven child (its outcome), an unvisited child under a
UCB-style rule (+infinity), a chance node's outcome (its visits: the path follows the most
visited), a child below a sample threshold (its probability: whether a node is below T depends on
its visits only, never on C).

A :class:`~mcts_core.analysis.envelope.Line` holds both views of a child: ``intercept + C * slope``,
the real line (crossings are computed from it, a browser draws and hovers it), and ``value(c)``,
the float the rule computes, bit for bit (the same operations in the same order), which the sweep
snaps its breakpoints to. For UCB1, UCB1-Tuned and constants the two are the same floats; for the
other forms they differ by rounding, :attr:`ValueForm.roundings` ulps at most.

The constants of each line are read off the rule's own terms, scored at C = 1 (``1.0 * x`` is
``x`` exactly, so the exploration term at C = 1 is the slope for UCB-style rules): this module
knows where C enters each formula, not how the formulas compute the rest.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

from ..model.tree import Tree
from ..selection import PROBABILITY, RULES, Scoring, score_children, ucb1
from ..selection.scoring import OUTCOME, SHARE
from .envelope import Line, ValueForm

UCB1 = Scoring()  # what selection uses when no rule is given: the puzzle's UCB1


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


@dataclass(frozen=True, slots=True)
class Ramped(ValueForm):
    """``(mean + (c0 + (c - c0) * k / d) * slope) + bias``: a sample threshold's ramp, k = N - T, d = T2 - T."""

    mean: float
    slope: float
    bias: float
    c0: float
    k: float
    d: float
    roundings = 8
    plain = False

    def __call__(self, c: float) -> float:
        return (self.mean + (self.c0 + (c - self.c0) * self.k / self.d) * self.slope) + self.bias

    def _ramp(self) -> tuple[float, float]:
        """The effective C as a line: ``c0 * (1 - k/d) + (k/d) * C``."""
        share = self.k / self.d
        return self.c0 * (1.0 - share), share

    def line(self) -> tuple[float, float]:
        start, share = self._ramp()
        return self.mean + self.bias + start * self.slope, share * self.slope

    def scale(self) -> float:
        return abs(self.mean) + abs(self.bias) + 2 * abs(self.c0 * self.slope)

    def varying(self) -> dict[str, tuple[float, float]]:
        start, share = self._ramp()
        return {
            "effective_c": (start, share),
            "exploration": (start * self.slope, share * self.slope),
            "value": self.line(),
        }


@dataclass(frozen=True, slots=True)
class Puct(ValueForm):
    """``q + c * prior * root / d``: PUCT, with root = sqrt(N.v) and d = 1 + M.v."""

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


# Terms whose presence says C does not enter the value: a draw (probability), a proven child
# (outcome), a chance node's outcome (share). At C = 1 only an unvisited UCB child is infinite.
CONSTANT_TERMS = frozenset({PROBABILITY, OUTCOME, SHARE})

Shape = Callable[[dict[str, float], int, int, float, Scoring], ValueForm]


def _ucb(terms: dict[str, float], parent_visits: int, visits: int, total: float, scoring: Scoring) -> ValueForm:
    return Plain(terms["mean"], terms["exploration"])


def _biased(terms: dict[str, float], parent_visits: int, visits: int, total: float, scoring: Scoring) -> ValueForm:
    return Biased(terms["mean"], terms["exploration"], terms["bias"])


def _threshold(terms: dict[str, float], parent_visits: int, visits: int, total: float, scoring: Scoring) -> ValueForm:
    settings = {**scoring.spec.defaults, **scoring.settings}
    t, t2 = settings["t"], settings["t2"]
    if parent_visits >= t2:  # ramped_c returns C itself: the exploration term at C = 1 is the slope
        return Biased(terms["mean"], terms["exploration"], terms["bias"])
    slope = ucb1(parent_visits, visits, total, c=1.0)["exploration"]
    return Ramped(terms["mean"], slope, terms["bias"], settings["c0"], parent_visits - t, t2 - t)


def _puct(terms: dict[str, float], parent_visits: int, visits: int, total: float, scoring: Scoring) -> ValueForm:
    return Puct(terms["q"], terms["prior"], math.sqrt(parent_visits), 1 + visits)


# Where C enters each rule's value (the rest is read off the terms). A rule missing here is not
# known to be affine in C: the sweep refuses it, and a slider commits it on release.
SHAPES: dict[str, Shape] = {
    "ucb1": _ucb,
    "ucb1_tuned": _ucb,
    "progressive_bias": _biased,
    "sample_threshold": _threshold,
    "puct": _puct,
}


def affine_problem(scoring: Scoring) -> str | None:
    """Why the selected path of ``scoring`` cannot be swept exactly in C, as a sentence; None if it can."""
    if scoring.rule in SHAPES:
        return None
    name = RULES[scoring.rule].name if scoring.rule in RULES else scoring.rule
    return f"{name} is not known to be affine in C: its path is recomputed when C is committed, not while dragging."


def child_lines(tree: Tree, node: int, scoring: Scoring = UCB1) -> list[Line]:
    """Every child of ``node`` as a line in C under ``scoring``, in tie order (empty for a leaf).

    ``line.value(c)`` is bit for bit the ``value`` term :func:`~mcts_core.selection.score_children`
    gives the child at ``c`` (proven children, chance nodes and draws below a threshold included).

    Raises:
        ValueError: the rule is not known to be affine in C (:func:`affine_problem`).
    """
    problem = affine_problem(scoring)
    if problem is not None:
        raise ValueError(problem)
    kids = tree.tie_order(node)
    if not kids:
        return []
    shape = SHAPES[scoring.rule]
    parent_visits = tree.visits[node]
    at_one = scoring if scoring.c == 1.0 else scoring.with_c(1.0)
    terms_of = {score.node: score.terms for score in score_children(tree, node, at_one)}
    lines = []
    for rank, kid in enumerate(kids):
        terms, visits = terms_of[kid], tree.visits[kid]
        if terms.keys() & CONSTANT_TERMS or math.isinf(terms["value"]):
            form: ValueForm = Constant(terms["value"])
        else:
            form = shape(terms, parent_visits, visits, tree.total[kid], scoring)
        intercept, slope = form.line()
        lines.append(Line(kid, tree.move[kid], visits, intercept, slope, rank, form))
    return lines

