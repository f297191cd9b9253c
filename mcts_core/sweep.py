"""Exact C breakpoints: where the UCB1-selected path changes as the exploration constant C moves.

At a node N, child M's UCB1 value is a line in C::

    value(C) = mean + C * slope,   mean = M.s / M.v,   slope = sqrt(ln(N.v) / M.v)

so the child selection picks, as a function of C, is the upper envelope of its children's lines (ties
to the smaller move), and the selected path is piecewise constant in C. :func:`sweep` splits
[c_min, c_max) by the envelope at the root, descends into the chosen child within each piece and
splits again, down to the leaves. Nothing is sampled.

Floats. :func:`mcts_core.selection.ucb1` evaluates ``total / visits + c * sqrt(log(N.v) / visits)``
in floats, so near a crossing the float choice can differ from the real envelope. Every crossing
found from the lines, ``(mean_a - mean_b) / (slope_b - slope_a)``, is therefore snapped to floats:
starting at the float nearest the crossing, a search over the bit patterns of the floats (galloping
by 1, 2, 4, ... floats, then bisection) moves the breakpoint to a float ``b`` where the float choice
really changes, so that

* ``select_path(tree, c=math.nextafter(b, -inf))`` is the path of the interval ending at ``b``, and
* ``select_path(tree, c=b)`` is the path of the interval starting at ``b``: intervals are half-open,
  ``[c_from, c_to)``, and a breakpoint C belongs to the interval on its right (it already has the
  new path).

Both ends of every interval are checked this way: ``select_path`` equals the interval's path at
``c_from`` and at the last float below ``c_to``. When the float choice changes only once around a
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
  ``mean + C * slope`` can round to the same float for both, and the tie goes to the smaller move.
  When the twins' means differ only by rounding (0.1 + 0.2 against 0.3 + 0), select_path flickers
  between them from one float C to the next, all over the range. The sweep does not follow that:
  of each set of twins it keeps the one with the larger mean (the smaller move on equal means),
  which is what select_path picks at C = 0 and wherever rounding does not hide the difference.
  :func:`twins_may_tie` says whether a node has twins that can tie in a range; only at such nodes
  can select_path disagree with the sweep at an interval end, or far from every breakpoint.

Source of the formula: the puzzle statement (DESIGN.md, "Puzzle semantics") and Auer,
Cesa-Bianchi, Fischer (2002), https://doi.org/10.1023/A:1013689704352.
"""

from __future__ import annotations

import bisect
import math
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .tree import ROOT, Tree

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
        mean: ``M.s / M.v``, the same float :func:`~mcts_core.selection.ucb1` computes.
        slope: ``sqrt(ln(N.v) / M.v)``, likewise; ``C * slope`` is ucb1's exploration term.
    """

    node: int
    move: str
    visits: int
    mean: float
    slope: float

    def value(self, c: float) -> float:
        """The float ucb1 returns as ``value`` for this child at ``c`` (same operations, same order)."""
        return self.mean + c * self.slope


@dataclass(frozen=True)
class Segment:
    """A stretch ``[c_from, c_to)`` of C in which a node picks the child reached by ``move``."""

    c_from: float
    c_to: float
    move: str
    node: int


@dataclass(frozen=True)
class Interval:
    """A stretch ``[c_from, c_to)`` of C over which the selected path is ``path``.

    ``c_from`` is included, ``c_to`` is not: a breakpoint belongs to the interval it starts.
    """

    c_from: float
    c_to: float
    path: str


@dataclass(frozen=True)
class Breakpoint:
    """A value of C where the selected path changes.

    Attributes:
        c: a float where the choice really changes: select_path at ``c`` is the new path, at the
            float just below ``c`` the old one. It is the smallest such float unless rounding makes
            the choice alternate near the crossing (see :func:`rounding_band`).
        node_path: the node where the choice changes, as the moves leading to it ("" = root).
        before_move: the child chosen there just below ``c``.
        after_move: the child chosen there from ``c`` on.
    """

    c: float
    node_path: str
    before_move: str
    after_move: str


@dataclass(frozen=True)
class NodeEnvelope:
    """A node's children as lines in C, and which of them selection picks over a C range.

    Attributes:
        node: the node choosing.
        node_path: its moves from the root.
        lines: one line per child, ordered by move.
        segments: the envelope over the range, in order, adjacent segments picking different
            children; empty for a leaf.
    """

    node: int
    node_path: str
    lines: tuple[Line, ...]
    segments: tuple[Segment, ...]

    @property
    def crossings(self) -> list[Breakpoint]:
        """Where the choice at this node changes inside the range (segment starts after the first)."""
        return [
            Breakpoint(after.c_from, self.node_path, before.move, after.move)
            for before, after in zip(self.segments, self.segments[1:])
        ]


def child_lines(tree: Tree, node: int) -> list[Line]:
    """Each child of ``node`` as a UCB1 line, ordered by move (empty for a leaf)."""
    # log(N.v) / M.v, then sqrt, exactly as ucb1 does, so that mean + c * slope is bit for bit
    # ucb1's value for every c.
    log_n = math.log(tree.visits[node]) if tree.children[node] else 0.0
    lines = [
        Line(
            kid,
            tree.move[kid],
            tree.visits[kid],
            tree.total[kid] / tree.visits[kid],
            math.sqrt(log_n / tree.visits[kid]),
        )
        for kid in tree.children[node]
    ]
    lines.sort(key=lambda line: line.move)
    return lines


def twins_may_tie(lines: Sequence[Line], c_max: float) -> bool:
    """Whether rounding can tie two parallel twins for some C < ``c_max`` (module docstring).

    True when two children have bit-identical slopes, the one with the smaller move has the
    smaller mean (so a rounding tie would hand it the choice), and the means are close enough for
    ``mean + C * slope`` to round to the same float. The sweep follows the twin with the larger
    mean; select_path may pick the other one at some C, anywhere in the range.
    """
    groups: dict[float, list[Line]] = {}
    for line in lines:
        groups.setdefault(line.slope, []).append(line)
    for slope, twins in groups.items():
        twins.sort(key=lambda line: line.move)
        kept = max(twins, key=lambda line: line.mean)  # max keeps the first (smaller move) of equals
        # Two reals round to one float only if they are within an ulp of the larger magnitude.
        reach = 2 * math.ulp(abs(kept.mean) + c_max * slope)
        if any(line.move < kept.move and kept.mean - line.mean <= reach for line in twins):
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


def node_envelope(tree: Tree, node: int, c_min: float, c_max: float) -> NodeEnvelope:
    """The lines of ``node``'s children and the envelope selection follows over [c_min, c_max).

    Args:
        tree: the tree.
        node: the node choosing a child.
        c_min: start of the range, finite and >= 0.
        c_max: end of the range (excluded), finite and > c_min.

    Returns:
        The lines and the segments (float-snapped as described in the module docstring).

    Raises:
        ValueError: a bad range.
    """
    lo, hi = _check_range(c_min, c_max)
    lines = child_lines(tree, node)
    segments = _segments(_representatives(lines), lo, hi) if lines else []
    return NodeEnvelope(
        node,
        tree.path(node),
        tuple(lines),
        tuple(Segment(a, b, line.move, line.node) for a, b, line in segments),
    )


def sweep(tree: Tree, c_min: float, c_max: float) -> list[Interval]:
    """The selected path as a function of C over [c_min, c_max), as exact intervals.

    Args:
        tree: the tree.
        c_min: start of the range, finite and >= 0.
        c_max: end of the range (excluded), finite and > c_min.

    Returns:
        Half-open intervals ``[c_from, c_to)`` covering the range in order, the first starting at
        ``c_min`` and the last ending at ``c_max``; adjacent intervals have different paths. A
        breakpoint C belongs to the interval on its right: ``select_path(tree, c=c_from)`` is that
        interval's path, and the path just below ``c_from`` is the previous interval's (see the
        module docstring for the float details and the twins caveat). A tree without children gives
        one interval with the empty path.

    Raises:
        ValueError: a bad range.
    """
    lo, hi = _check_range(c_min, c_max)
    representatives: dict[int, list[Line]] = {}
    intervals: list[Interval] = []
    # An explicit stack instead of recursion: paths can be 1,000 moves deep. Pieces are pushed in
    # reverse so they pop, and land in ``intervals``, in order of C.
    stack: list[tuple[int, float, float, str]] = [(ROOT, lo, hi, "")]
    while stack:
        node, a, b, path = stack.pop()
        if not tree.children[node]:
            if intervals and intervals[-1].path == path and intervals[-1].c_to == a:
                intervals[-1] = Interval(intervals[-1].c_from, b, path)
            else:
                intervals.append(Interval(a, b, path))
            continue
        lines = representatives.get(node)
        if lines is None:
            lines = representatives[node] = _representatives(child_lines(tree, node))
        for start, end, line in reversed(_segments(lines, a, b)):
            stack.append((line.node, start, end, path + line.move))
    return intervals


def breakpoints(tree: Tree, c_min: float, c_max: float) -> list[Breakpoint]:
    """Every C in (c_min, c_max) where the selected path changes, in order.

    Each says at which node the choice changes and which two children swap there; see
    :func:`sweep` for the float convention (the breakpoint C already has the new path).
    """
    return breakpoints_of(sweep(tree, c_min, c_max))


def breakpoints_of(intervals: Sequence[Interval]) -> list[Breakpoint]:
    """The breakpoints between consecutive intervals of a :func:`sweep` result."""
    points = []
    for before, after in zip(intervals, intervals[1:]):
        # Two different root-to-leaf paths: neither is a prefix of the other (a leaf has no
        # children), so they part at a node strictly above both ends.
        depth = 0
        while before.path[depth] == after.path[depth]:
            depth += 1
        points.append(Breakpoint(after.c_from, before.path[:depth], before.path[depth], after.path[depth]))
    return points


def _check_range(c_min: float, c_max: float) -> tuple[float, float]:
    """Validate the range; returns it as floats (-0.0 becomes 0.0)."""
    try:
        lo, hi = float(c_min), float(c_max)
    except (TypeError, ValueError):
        raise ValueError(f"c_min and c_max must be numbers, got {c_min!r} and {c_max!r}") from None
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise ValueError(f"c_min and c_max must be finite, got {c_min!r} and {c_max!r}")
    if lo < 0:
        raise ValueError(f"c_min must be >= 0, got {c_min!r}")
    if not lo < hi:
        raise ValueError(f"c_min must be smaller than c_max, got {c_min!r} and {c_max!r}")
    return lo + 0.0, hi  # -0.0 + 0.0 == +0.0, whose bit pattern is 0


def _representatives(lines: list[Line]) -> list[Line]:
    """Drop each twin that never beats its sibling in real arithmetic (see module docstring)."""
    best: dict[float, Line] = {}
    for line in lines:  # ordered by move, so on equal means the first (smaller move) stays
        kept = best.get(line.slope)
        if kept is None or line.mean > kept.mean:
            best[line.slope] = line
    return sorted(best.values(), key=lambda line: line.move)


def _bits(x: float) -> int:
    """The bit pattern of a float >= 0, as an integer ordered like the floats."""
    return _UNPACK.unpack(_PACK.pack(x))[0]


def _float(bits: int) -> float:
    """The float with this bit pattern (inverse of :func:`_bits`)."""
    return _PACK.unpack(_UNPACK.pack(bits))[0]


def _picker(lines: list[Line]) -> Callable[[float], Line]:
    """The float choice among ``lines`` at a C: largest value, exact ties to the smaller move."""
    terms = [(line.mean, line.slope, line) for line in lines]  # lines are ordered by move

    def pick(c: float) -> Line:
        best, best_value = None, None
        for mean, slope, line in terms:
            value = mean + c * slope  # ucb1's float, see child_lines
            if best_value is None or value > best_value:  # strict: earlier (smaller) move keeps ties
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


def _segments(lines: list[Line], lo: float, hi: float) -> list[tuple[float, float, Line]]:
    """The float-snapped envelope of ``lines`` over [lo, hi): ``(c_from, c_to, line)`` in order.

    Walks from ``lo``: the child chosen at the current C keeps the choice until the first steeper
    line crosses it; that crossing, computed from the lines, is then snapped to the float where the
    float choice really changes, and the walk continues from there with the new choice.
    """
    pick = _picker(lines)
    segments = []
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
            segments.append((start, hi, current))
            return segments
        end = _float(change)
        segments.append((start, end, current))
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


def interval_at(intervals: Sequence[Interval], c: float) -> int | None:
    """Index of the interval holding ``c`` (a breakpoint belongs to the interval it starts), or None.

    None when ``c`` lies outside the swept range [first c_from, last c_to).
    """
    if not intervals or not intervals[0].c_from <= c < intervals[-1].c_to:
        return None
    return bisect.bisect_right([interval.c_from for interval in intervals], c) - 1


def neighbouring_intervals(intervals: Sequence[Interval], c: float) -> tuple[Interval | None, Interval | None]:
    """The intervals just below and just above the one holding ``c`` (None at either end).

    Their ``c_to`` / ``c_from`` are where the path last changed below ``c`` and next changes
    above it; ``c`` outside every interval gives (None, None), except that the end of the range
    counts as inside the last interval (a slider's range includes its maximum).
    """
    index = interval_at(intervals, c)
    if index is None and intervals and c == intervals[-1].c_to:
        index = len(intervals) - 1
    if index is None:
        return None, None
    below = intervals[index - 1] if index > 0 else None
    above = intervals[index + 1] if index + 1 < len(intervals) else None
    return below, above
