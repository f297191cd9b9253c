"""A fallback policy below T parent visits, then progressive-bias UCB with a ramping C.

Below T (N.v < T) the node draws a child: ``"random"`` uniformly, or ``"heuristic"`` uniformly
among the children of largest H. From T on it is :func:`~.progressive_bias.progressive_bias` with C
replaced by :func:`ramped_c`, which climbs linearly from C0 at N.v = T to C at N.v = T2. With
T = T2 = 0 and W = 0 it is UCB1, bit for bit.

The draw. A node below T has no formula to maximise: each child's terms hold its ``probability``
and its value is that probability. Wherever a path is shown without a search running (the selected
path, the C sweep, the C control's drag, Compare, the tree dump's ``selected``, the command line)
the draw is decided the same way, from those values: the **most likely child**, exact ties to the
smaller move, or to the first child in the node's order when the tree says ``ties = "first"`` (the
tie rule of every choice; with the ``"random"`` fallback every child is equally likely, so it is the
first in tie order). That choice depends on the node's visits only, never on C, so the sweep's
line for such a child is flat at its probability and the sweep and the selection agree at every C.
Only a live search draws for real, with its seeded random generator (``search --seed``), each child
with its probability; its log then says which child was drawn.

Sources: Smitsimax (a policy below a sample threshold, then a ramping exploration); CodeCup 2022.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..rule import HEURISTIC, Rule, Setting, bias_weight, c_setting
from ..terms import PROBABILITY, MoveValues, Siblings, Terms, value_of
from ..value_form import ValueForm
from .progressive_bias import Biased, progressive_bias
from .ucb1 import ucb1

FALLBACKS = ("random", "heuristic")


def ramped_c(parent_visits: int, *, c: float, c0: float, t: int, t2: int) -> float:
    """The exploration constant after the sample threshold: linear from C0 at N.v = T to C at T2.

    ``C0 + (C - C0) * (N.v - T) / (T2 - T)`` for T <= N.v < T2 and exactly C from T2 on (also when
    T2 <= T, i.e. no ramp). Below T the node does not use a formula at all (:func:`sample_threshold`).
    """
    if parent_visits >= t2:
        return c
    return c0 + (c - c0) * (parent_visits - t) / (t2 - t)


def sample_threshold(parent_visits: int, visits: int, total: float, *, c: float, move: str, siblings: Siblings,
                     t: int = 10, t2: int = 10, c0: float = 0.0, fallback: str = "random", w: float = 0.0,
                     heuristic: MoveValues | None = None) -> Terms:
    """A fallback policy below T parent visits, then progressive-bias UCB with a ramping C (module docstring).

    Args:
        parent_visits, visits, total: N.v, M.v and M.s (:class:`~mcts_core.selection.terms.RuleFunction`).
        c: the normal exploration constant C, reached at T2.
        move, siblings: inputs: the child's move, the children of the node choosing.
        t: the sample threshold T.
        t2: where the ramp ends, T2 (no ramp when T2 <= T).
        c0: the exploration constant at T.
        fallback: ``"random"`` or ``"heuristic"`` (the rule's settings check refuses anything else).
        w: the progressive-bias weight W (0: plain UCB1).
        heuristic: H per move, for the bias and the heuristic fallback.

    Returns:
        Below T: ``mean``, ``heuristic``, ``probability``, ``value``. From T on: ``mean``, ``bias``,
        ``effective_c``, ``exploration``, ``value``.
    """
    if parent_visits >= t:
        c_now = ramped_c(parent_visits, c=c, c0=c0, t=t, t2=t2)
        terms = progressive_bias(
            parent_visits, visits, total, c=c_now, move=move, w=w, heuristic=heuristic
        )
        return {
            "mean": terms["mean"],
            "bias": terms["bias"],
            "effective_c": c_now,
            "exploration": terms["exploration"],
            "value": terms["value"],
        }
    h = value_of(heuristic, move)
    if fallback == "random":
        probability = 1.0 / siblings.count
    else:  # argmax H with ties drawn uniformly; O(children) per child, and nodes have few children
        values = [value_of(heuristic, m) for m in siblings.moves]
        best = max(values)
        probability = 1.0 / values.count(best) if h == best else 0.0
    mean = total / visits if visits else math.nan
    return {"mean": mean, "heuristic": h, PROBABILITY: probability, "value": probability}


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


class SampleThreshold(Rule):
    """A fallback policy below T, then progressive bias with a ramping C (module docstring).

    Its value is a line in C from T on: :class:`~.progressive_bias.Biased` from T2 on (C itself),
    :class:`Ramped` on the ramp; below T a flat probability (the draw, the same at every C).
    """

    key = "sample_threshold"
    name = "Sample threshold + ramping C"
    function = staticmethod(sample_threshold)
    formula = (
        r"\begin{cases} \text{fallback policy (random draw)} & N.v < T \\ "
        r"\frac{M.s}{M.v} + \frac{W\,H(M)}{\sqrt{M.v}} + C_{N.v}\sqrt{\frac{\ln N.v}{M.v}} "
        r"& N.v \ge T "
        r"\end{cases}, \quad C_{N.v} = C_0 + (C - C_0)\min\left(1, \frac{N.v - T}{T_2 - T}\right)"
    )
    source = "Smitsimax (a policy below a sample threshold, then a ramping exploration); CodeCup 2022"
    settings = (
        c_setting("normal exploration constant C"),
        Setting("t", "sample threshold T", "int", 10, low=0, high=10_000,
                help="below T parent visits the node draws a child by the fallback policy"),
        Setting("fallback", "below T", "choice", "random", choices=FALLBACKS,
                help="uniformly random child, or a random one of the children of largest H"),
        Setting("t2", "ramp end T2", "int", 10, low=0, high=10_000,
                help="C climbs linearly from C0 at T to C at T2 (no ramp if T2 <= T)"),
        Setting("c0", "exploration constant C0 at T", "float", 0.0, low=0.0, high=10.0),
        bias_weight(0.0),
        HEURISTIC,
    )
    inputs = ("move", "siblings")
    terms = ("mean", "heuristic", "bias", "effective_c", "exploration", PROBABILITY, "value")
    addends = ("mean", "bias", "exploration")  # from T on; below T the value is a probability

    def value_form(self, terms: Terms, parent_visits: int, visits: int, total: float,
                   settings: Mapping[str, Any]) -> ValueForm:
        """From T on (below T the value is a probability, a constant the caller keeps flat)."""
        t, t2 = settings["t"], settings["t2"]
        if parent_visits >= t2:  # ramped_c returns C itself: the exploration term at C = 1 is the slope
            return Biased(terms["mean"], terms["exploration"], terms["bias"])
        slope = ucb1(parent_visits, visits, total, c=1.0)["exploration"]
        return Ramped(terms["mean"], slope, terms["bias"], settings["c0"], parent_visits - t, t2 - t)


RULE = SampleThreshold()
