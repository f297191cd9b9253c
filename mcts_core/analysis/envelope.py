"""The upper envelope of a node's UCB1 lines in C, snapped to floats.

At a node N, child M's UCB1 value is a line in C, ``mean + C * slope`` with ``mean = M.s / M.v`` and
``slope = sqrt(ln(N.v) / M.v)``; the child selection picks as C grows is the upper envelope of
those lines (ties to the child first in tie order: the smaller move, or the first in the node's
order). A child with a proven outcome is a flat line at that outcome. Where the choice does not
depend on C at all (:func:`fixed_choice`: a chance node, or an unvisited child worth +infinity)
there is no envelope to walk.

Floats. :func:`mcts_core.selection.ucb1` evaluates ``total / visits + c * sqrt(log(N.v) / visits)``
in floats, so near a crossing the float choice can differ from the real envelope. Every crossing
found from the lines, ``(mean_a - mean_b) / (slope_b - slope_a)``, is therefore snapped to floats:
starting at the float nearest the crossing, a search over the bit patterns of the floats (galloping
by 1, 2, 4, ... floats, then bisection) moves the breakpoint to a float ``b`` where the float choice
really changes, so that

* at the float just below ``b`` selection picks the old child, and
* at ``b`` it picks the new one: a breakpoint C belongs to the interval on its right (it already
  has the new choice).

Both ends of every piece are checked this way. When the float choice changes only once around a
crossing (the usual case), ``b`` is exactly the smallest float with the new choice. Inside an
interval select_path equals the interval's path too, with two exceptions:

* Rounding band. Within :func:`rounding_band` of a breakpoint (at most ``4 * ulp(v) / |slope_a -
  slope_b|``, v the largest magnitude of the means and values involved: about 1e-13 for values near
  100 and slopes 0.5 apart) both values are within rounding of each other and select_path can
  alternate between the two children, float by float. The breakpoint is then *one* float in that
  band where the choice really changes, not necessarily the first: finding the first would mean
  stepping through the band float by float. Example: two children with mean 122.5 and slopes 1.04
  and 1.47 tie at C = 0 and alternate up to C = 3e-14.
* Twins. Siblings with equal visit counts have bit-identical slopes, so their lines are parallel
  and the one with the larger mean is never below the other; but once ``C * slope`` is large,
  ``mean + C * slope`` can round to the same float for both, and the tie goes to the one first in tie order.
  When the twins' means differ only by rounding (0.1 + 0.2 against 0.3 + 0), select_path flickers
  between them from one float C to the next, all over the range. The sweep does not follow that:
  of each set of twins it keeps the one with the larger mean (the first in tie order on equal means),
  which is what select_path picks at C = 0 and wherever rounding does not hide the difference.
  :func:`twins_may_tie` says whether a node has twins that can tie in a range; only at such nodes
  can select_path disagree with the sweep at an interval end, or far from every breakpoint.

"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..model.tree import Tree

# Non-negative doubles ordered by value have bit patterns ordered as integers, so stepping and
# bisecting over floats is integer arithmetic on these patterns.
_PACK = struct.Struct("<d")
_UNPACK = struct.Struct("<q")


@dataclass(frozen=True)
class Line:
    """One child's UCB1 value as a line in C: ``value(C) = mean + C * slope``.

    Attributes:
        node: the child node.
        move: the move leading into it.
        visits: M.v.
        mean: ``M.s / M.v``, the same float :func:`~mcts_core.selection.ucb1` computes (a proven
            child: its outcome).
        slope: ``sqrt(ln(N.v) / M.v)``, likewise; ``C * slope`` is ucb1's exploration term (a
            proven child: 0).
        rank: the child's place in tie order: of two equal values the smaller rank wins.
    """

    node: int
    move: str
    visits: int
    mean: float
    slope: float
    rank: int = 0

    def value(self, c: float) -> float:
        """The float ucb1 returns as ``value`` for this child at ``c`` (same operations, same order)."""
        return self.mean + c * self.slope


def child_lines(tree: Tree, node: int) -> list[Line]:
    """Each visited or proven child of ``node`` as a UCB1 line, in tie order (empty for a leaf)."""
    kids = tree.tie_order(node)
    # log(N.v) / M.v, then sqrt, exactly as ucb1 does, so that mean + c * slope is bit for bit
    # ucb1's value for every c.
    log_n = math.log(tree.visits[node]) if kids and tree.visits[node] else 0.0
    lines = []
    for rank, kid in enumerate(kids):
        visits, outcome = tree.visits[kid], tree.outcome_of(kid)
        if outcome is not None:
            lines.append(Line(kid, tree.move[kid], visits, outcome, 0.0, rank))
        elif visits:
            lines.append(Line(kid, tree.move[kid], visits, tree.total[kid] / visits, math.sqrt(log_n / visits), rank))
    return lines


def fixed_choice(tree: Tree, node: int) -> int | None:
    """The child UCB1 picks at ``node`` whatever C is, or None when the choice depends on C.

    A chance node follows its most visited outcome; a node with an unvisited, unproven child picks
    the first such child in tie order (it is worth +infinity).
    """
    kids = tree.tie_order(node)
    if not kids:
        return None
    if tree.is_chance(node):
        return max(kids, key=lambda kid: tree.visits[kid])  # max keeps the first of equals
    return next((kid for kid in kids if not tree.visits[kid] and tree.outcome_of(kid) is None), None)


def twins_may_tie(lines: Sequence[Line], c_max: float) -> bool:
    """Whether rounding can tie two parallel twins for some C < ``c_max`` (module docstring).

    True when two children have bit-identical slopes, the one first in tie order has the
    smaller mean (so a rounding tie would hand it the choice), and the means are close enough for
    ``mean + C * slope`` to round to the same float. The sweep follows the twin with the larger
    mean; select_path may pick the other one at some C, anywhere in the range.
    """
    groups: dict[float, list[Line]] = {}
    for line in lines:
        groups.setdefault(line.slope, []).append(line)
    for slope, twins in groups.items():
        twins.sort(key=lambda line: line.rank)
        kept = max(twins, key=lambda line: line.mean)  # max keeps the first (in tie order) of equals
        # Two reals round to one float only if they are within an ulp of the larger magnitude.
        reach = 2 * math.ulp(abs(kept.mean) + c_max * slope)
        if any(line.rank < kept.rank and kept.mean - line.mean <= reach for line in twins):
            return True
    return False


def rounding_band(a: Line, b: Line, c: float) -> float:
    """Half-width of the C range around ``c`` where float rounding can reorder lines ``a`` and ``b``.

    Each float value ``mean + c * slope`` is within an ulp of the real line at the largest
    magnitude involved (one rounding of the product, one of the sum), so the two float values can
    compare differently from the real lines only where the lines are within two such ulps; with
    a margin of 2 that is ``4 * ulp(v) / |a.slope - b.slope|`` (inf for parallel lines).
    """
    if a.slope == b.slope:
        return math.inf
    v = max(abs(a.mean) + c * a.slope, abs(b.mean) + c * b.slope)
    return 4 * math.ulp(v) / abs(a.slope - b.slope)


def representatives(lines: list[Line]) -> list[Line]:
    """Drop each twin that never beats its sibling in real arithmetic (see module docstring)."""
    best: dict[float, Line] = {}
    for line in lines:  # in tie order, so on equal means the first stays
        kept = best.get(line.slope)
        if kept is None or line.mean > kept.mean:
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
    terms = [(line.mean, line.slope, line) for line in lines]  # lines are in tie order

    def pick(c: float) -> Line:
        best, best_value = None, None
        for mean, slope, line in terms:
            value = mean + c * slope  # ucb1's float, see child_lines
            if best_value is None or value > best_value:  # strict: the earlier line keeps ties
                best, best_value = line, value
        return best

    return pick


def _next_crossing(lines: list[Line], current: Line) -> float:
    """The smallest real C at which a steeper line reaches ``current`` (inf if none does)."""
    first = math.inf
    for line in lines:
        if line.slope > current.slope:
            first = min(first, (current.mean - line.mean) / (line.slope - current.slope))
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
