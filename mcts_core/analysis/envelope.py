"""The upper envelope of a node's lines in C, snapped to floats.

At a node N, each child's value under a rule is a line in C, ``intercept + C * slope``
(:mod:`.rule_lines`, from each rule's :class:`~mcts_core.selection.ValueForm`; for UCB1 ``mean + C * sqrt(ln(N.v) / M.v)``); the child selection picks as C
grows is the upper envelope of those lines (ties to the child first in tie order: the smaller
move, or the first in the node's order). Constants are flat lines: a proven outcome, +infinity for
an unvisited child under a UCB-style rule, a chance outcome's visits, a probability below a sample
threshold.

Floats. The rule evaluates its value in floats (``line.value(c)``, bit for bit the rule's), so
near a crossing the float choice can differ from the real envelope. Every crossing found from the
lines, ``(intercept_a - intercept_b) / (slope_b - slope_a)``, is therefore snapped to floats:
starting at the float nearest the crossing, a search over the bit patterns of the floats (galloping
by 1, 2, 4, ... floats, then bisection) moves the breakpoint to a float ``b`` where the float choice
really changes, so that

* at the float just below ``b`` selection picks the old child, and
* at ``b`` it picks the new one: a breakpoint C belongs to the interval on its right (it already
  has the new choice).

Both ends of every piece are checked this way. When the float choice changes only once around a
crossing (the usual case), ``b`` is exactly the smallest float with the new choice. Inside an
interval select_path equals the interval's path too, with two exceptions:

* Rounding band. Within :func:`rounding_band` of a breakpoint (for UCB1 at most ``4 * ulp(v) /
  |slope_a - slope_b|``, v the largest magnitude of the means and values involved: about 1e-13 for
  values near 100 and slopes 0.5 apart; a few times more for rules with more float operations) both
  values are within rounding of each other and select_path can alternate between the two children,
  float by float. The breakpoint is then *one* float in that band where the choice really changes,
  not necessarily the first: finding the first would mean stepping through the band float by float.
  Example: two children with mean 122.5 and slopes 1.04 and 1.47 tie at C = 0 and alternate up to
  C = 3e-14.
* Twins. Siblings with bit-identical slopes (UCB1: equal visit counts) have parallel lines, and the
  one with the larger intercept is never below the other in real arithmetic; but once ``C * slope``
  is large, the two float values can round to the same float (the tie goes to the one first in tie
  order), or, for rules whose float value is not ``intercept + C * slope`` itself, to either order.
  When the twins' intercepts differ only by rounding (0.1 + 0.2 against 0.3 + 0), select_path
  flickers between them from one float C to the next, all over the range. The sweep does not follow
  that: of each set of twins it keeps the one with the larger intercept (the first in tie order on
  equal ones), which is what select_path picks at C = 0 and wherever rounding does not hide the
  difference. Only at a node with twins that can tie in the range can select_path disagree with
  the sweep at an interval end, or far from every breakpoint (the tests' ``twins_may_tie`` finds
  such nodes). Flat lines (constants) are exact and never flicker.

"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable
from dataclasses import dataclass

from ..selection import ValueForm

# Non-negative doubles ordered by value have bit patterns ordered as integers, so stepping and
# bisecting over floats is integer arithmetic on these patterns.
_PACK = struct.Struct("<d")
_UNPACK = struct.Struct("<q")


@dataclass(frozen=True)
class Line:
    """One child's value as a line in C: ``intercept + C * slope``, and the float the rule computes.

    Attributes:
        node: the child node.
        move: the move leading into it.
        visits: M.v.
        intercept: the value at C = 0 (UCB1: ``M.s / M.v``, the same float ucb1 computes; a proven
            child: its outcome).
        slope: how fast the value grows with C (UCB1: ``sqrt(ln(N.v) / M.v)``, likewise; a
            constant: 0).
        rank: the child's place in tie order: of two equal values the smaller rank wins.
        form: how the rule computes the value in floats.
    """

    node: int
    move: str
    visits: int
    intercept: float
    slope: float
    rank: int
    form: ValueForm

    def value(self, c: float) -> float:
        """The float the rule returns as ``value`` for this child at ``c`` (same operations, same order)."""
        return self.form(c)

    @property
    def plain(self) -> bool:
        """Whether the float value is ``intercept + c * slope`` itself."""
        return self.form.plain

    @property
    def roundings(self) -> int:
        return self.form.roundings

    def magnitude(self, c: float) -> float:
        """The largest magnitude the rule's float operations meet at ``c`` (for rounding bounds)."""
        return self.form.scale() + c * abs(self.slope)


def rounding_band(a: Line, b: Line, c: float) -> float:
    """Half-width of the C range around ``c`` where float rounding can reorder lines ``a`` and ``b``.

    Each float value is within ``roundings`` ulps of the real line at the largest magnitude
    involved (UCB1: one rounding of the product, one of the sum, so one ulp), so the two float
    values can compare differently from the real lines only where the lines are within the sum of
    those; with a margin of 2 that is ``2 * (roundings_a + roundings_b) * ulp(v) / |a.slope -
    b.slope|`` (UCB1: ``4 * ulp(v) / ...``; inf for parallel lines).
    """
    if a.slope == b.slope:
        return math.inf
    v = max(a.magnitude(c), b.magnitude(c))
    return 2 * (a.roundings + b.roundings) * math.ulp(v) / abs(a.slope - b.slope)


def representatives(lines: list[Line]) -> list[Line]:
    """Drop each twin that never beats its sibling in real arithmetic (see module docstring)."""
    best: dict[float, Line] = {}
    for line in lines:  # in tie order, so on equal intercepts the first stays
        kept = best.get(line.slope)
        if kept is None or line.intercept > kept.intercept:
            best[line.slope] = line
    return sorted(best.values(), key=lambda line: line.rank)


def _bits(x: float) -> int:
    """The bit pattern of a float >= 0, as an integer ordered like the floats."""
    return _UNPACK.unpack(_PACK.pack(x))[0]


def _float(bits: int) -> float:
    """The float with this bit pattern (inverse of :func:`_bits`)."""
    return _PACK.unpack(_UNPACK.pack(bits))[0]


def _picker(lines: list[Line]) -> Callable[[float], Line]:
    """The float choice among ``lines`` at a C: largest value, exact ties to the earlier line."""
    # Plain lines are evaluated inline (UCB1's speed); the others by their rule's float operations.
    terms = [(line.intercept, line.slope, None if line.plain else line.form, line) for line in lines]

    def pick(c: float) -> Line:
        best, best_value = None, None
        for intercept, slope, form, line in terms:  # lines are in tie order
            value = intercept + c * slope if form is None else form(c)
            if best_value is None or value > best_value:  # strict: the earlier line keeps ties
                best, best_value = line, value
        return best

    return pick


def _next_crossing(lines: list[Line], current: Line) -> float:
    """The smallest real C at which a steeper line reaches ``current`` (inf if none does)."""
    first = math.inf
    for line in lines:
        if line.slope > current.slope:
            crossing = (current.intercept - line.intercept) / (line.slope - current.slope)
            if crossing < first:  # NaN (both intercepts infinite) never is
                first = crossing
    return first


def envelope_segments(lines: list[Line], lo: float, hi: float) -> list[tuple[float, float, Line]]:
    """The float-snapped envelope of ``lines`` over [lo, hi): ``(c_from, c_to, line)`` in order.

    Walks from ``lo``: the child chosen at the current C keeps the choice until the first steeper
    line crosses it; that crossing, computed from the lines, is then snapped to the float where the
    float choice really changes, and the walk continues from there with the new choice.
    """
    pick = _picker(lines)
    pieces = []
    start, current = lo, pick(lo)
    last = _bits(math.nextafter(hi, -math.inf))  # the last float in the range
    while True:
        start_bits = _bits(start)
        crossing = _next_crossing(lines, current)
        # A crossing at or before ``start`` means rounding still favoured ``current`` there; look
        # from the next float on.
        guess = _bits(crossing) if crossing > start else start_bits + 1
        if guess >= last:
            # No crossing before hi in real arithmetic; rounding could still move one just below it.
            change = None if pick(_float(last)) is current else _search_down(pick, current, start_bits, last)
        elif pick(_float(guess)) is current:
            change = _search_up(pick, current, guess, last)
        else:
            change = _search_down(pick, current, start_bits, guess)
        if change is None:
            pieces.append((start, hi, current))
            return pieces
        end = _float(change)
        pieces.append((start, end, current))
        start, current = end, pick(end)


def _search_up(pick: Callable[[float], Line], current: Line, low: int, last: int) -> int | None:
    """First change above bit pattern ``low`` (where ``current`` is picked), up to ``last``.

    Gallops in steps of 1, 2, 4, ... floats, because the float change sits within a few floats of
    the real crossing (more when two slopes are nearly equal), then bisects. None if ``current`` is
    still picked at ``last``.
    """
    step = 1
    while True:
        probe = low + step
        if probe >= last:
            if pick(_float(last)) is current:
                return None
            return _bisect(pick, current, low, last)
        if pick(_float(probe)) is not current:
            return _bisect(pick, current, low, probe)
        low, step = probe, step * 2


def _search_down(pick: Callable[[float], Line], current: Line, floor: int, high: int) -> int:
    """A change at or below bit pattern ``high`` (not ``current``), above ``floor`` (``current``)."""
    step = 1
    while True:
        probe = high - step
        if probe <= floor:
            return _bisect(pick, current, floor, high)
        if pick(_float(probe)) is current:
            return _bisect(pick, current, probe, high)
        high, step = probe, step * 2


def _bisect(pick: Callable[[float], Line], current: Line, low: int, high: int) -> int:
    """Bit pattern b in (low, high] with ``current`` picked at b - 1 and not at b."""
    while high - low > 1:
        middle = (low + high) // 2
        if pick(_float(middle)) is current:
            low = middle
        else:
            high = middle
    return high
