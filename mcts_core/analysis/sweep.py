"""Exact C breakpoints: where the selected path changes as the exploration constant C moves.

At a node N, child M's value under every sequential rule is a line in C (:mod:`.rule_lines`); for
UCB1::

    value(C) = mean + C * slope,   mean = M.s / M.v,   slope = sqrt(ln(N.v) / M.v)

so the child selection picks, as a function of C, is the upper envelope of its children's lines (ties
to the smaller move, or the first in the node's order), and the selected path is piecewise constant
in C. :func:`path_intervals` splits [c_min, c_max) by the envelope at the root, descends into the
chosen child within each piece and splits again, down to the leaves. Nothing is sampled. Where the
choice does not depend on C (a chance node, a draw below a sample threshold, an unvisited child
worth +infinity) the envelope is one flat line on top.

Floats: every breakpoint is a float where the float choice really changes (see
:mod:`mcts_core.analysis.envelope`), so

* ``select_path(tree, scoring.with_c(math.nextafter(b, -inf)))`` is the path of the interval ending at ``b``, and
* ``select_path(tree, scoring.with_c(b))`` is the path of the interval starting at ``b``: intervals are
  half-open, ``[c_from, c_to)``, and a breakpoint C belongs to the interval on its right.

Source of UCB1: Auer, Cesa-Bianchi, Fischer (2002), https://doi.org/10.1023/A:1013689704352.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..model.tree import ROOT, Tree
from ..selection import Scoring
from .envelope import Line, envelope_segments, representatives
from .rule_lines import UCB1, child_lines


@dataclass(frozen=True)
class Segment:
    """A stretch ``[c_from, c_to)`` of C in which a node picks the child reached by ``move``."""

    c_from: float
    c_to: float
    move: str
    node: int


@dataclass(frozen=True)
class Interval:
    """A stretch ``[c_from, c_to)`` of C over which the selected path is ``moves``.

    ``c_from`` is included, ``c_to`` is not: a breakpoint belongs to the interval it starts.
    ``path`` is the path as text (:meth:`~mcts_core.model.tree.Tree.path`).
    """

    c_from: float
    c_to: float
    path: str
    moves: tuple[str, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class Breakpoint:
    """A value of C where the selected path changes.

    Attributes:
        c: a float where the choice really changes: select_path at ``c`` is the new path, at the
            float just below ``c`` the old one. It is the smallest such float unless rounding makes
            the choice alternate near the crossing (see :func:`rounding_band`).
        node_path: the node where the choice changes, as text ("" = root).
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
        node_path: its path as text.
        lines: one line per child whose value is finite (all but unvisited children under a
            UCB-style rule, worth +infinity), in tie order.
        segments: the envelope over the range, in order, adjacent segments picking different
            children; empty for a leaf, one segment where the choice does not depend on C.
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


def node_envelope(tree: Tree, node: int, c_min: float, c_max: float, scoring: Scoring = UCB1) -> NodeEnvelope:
    """The lines of ``node``'s children and the envelope selection follows over [c_min, c_max).

    Args:
        tree: the tree.
        node: the node choosing a child.
        c_min: start of the range, finite and >= 0.
        c_max: end of the range (excluded), finite and > c_min.
        scoring: the rule and its settings (its C is ignored); UCB1 when not given.

    Returns:
        The lines and the segments (float-snapped, see :mod:`mcts_core.analysis.envelope`).

    Raises:
        ValueError: a bad range.
    """
    lo, hi = _check_range(c_min, c_max)
    lines = child_lines(tree, node, scoring)
    pieces = envelope_segments(representatives(lines), lo, hi) if lines else []
    segments = tuple(Segment(a, b, line.move, line.node) for a, b, line in pieces)
    finite = tuple(line for line in lines if math.isfinite(line.intercept))
    return NodeEnvelope(node, tree.path(node), finite, segments)


def path_intervals(tree: Tree, c_min: float, c_max: float, scoring: Scoring = UCB1) -> list[Interval]:
    """The selected path as a function of C over [c_min, c_max), as exact intervals.

    Args:
        tree: the tree.
        c_min: start of the range, finite and >= 0.
        c_max: end of the range (excluded), finite and > c_min.
        scoring: the rule and its settings (its C is ignored); UCB1 when not given. Every
            formula rule is affine in C (:mod:`.rule_lines`).

    Returns:
        Half-open intervals ``[c_from, c_to)`` covering the range in order, the first starting at
        ``c_min`` and the last ending at ``c_max``; adjacent intervals have different paths. A
        breakpoint C belongs to the interval on its right: the rule's path at ``c_from`` is that
        interval's path, and the path just below ``c_from`` is the previous interval's (see the
        module docstring for the float details and the twins caveat). Where a node's choice is a
        draw (below a sample threshold) the path follows the most likely child, as select_path
        does, whatever C is: whether a node is below its threshold depends on its visits only. A
        tree without children gives one interval with the empty path.

    Raises:
        ValueError: a bad range.
    """
    lo, hi = _check_range(c_min, c_max)
    scoring = scoring.with_c(1.0)  # the C child_lines scores at: set once, not per node
    kept_lines: dict[int, list[Line]] = {}
    intervals: list[Interval] = []
    # An explicit stack instead of recursion: paths can be 1,000 moves deep. Pieces are pushed in
    # reverse so they pop, and land in ``intervals``, in order of C.
    stack: list[tuple[int, float, float, tuple[str, ...]]] = [(ROOT, lo, hi, ())]
    while stack:
        node, a, b, moves = stack.pop()
        if not tree.children[node]:
            if intervals and intervals[-1].moves == moves and intervals[-1].c_to == a:
                intervals[-1] = Interval(intervals[-1].c_from, b, intervals[-1].path, moves)
            else:
                intervals.append(Interval(a, b, tree.format_path(moves), moves))
            continue
        lines = kept_lines.get(node)
        if lines is None:
            lines = kept_lines[node] = representatives(child_lines(tree, node, scoring))
        for start, end, line in reversed(envelope_segments(lines, a, b)):
            stack.append((line.node, start, end, (*moves, line.move)))
    return intervals


def intervals_below(intervals: Sequence[Interval], c_max: float) -> list[Interval]:
    """A sweep over [c_min, C) cut at ``c_max`` (c_min < c_max <= C): the sweep over [c_min, c_max).

    Every float below ``c_max`` keeps its interval, so it is a sweep of the shorter range as exact as
    the longer one: a range narrowed to its breakpoints needs no second sweep.
    """
    kept = [interval for interval in intervals if interval.c_from < c_max]
    if kept and kept[-1].c_to != c_max:
        last = kept[-1]
        kept[-1] = Interval(last.c_from, c_max, last.path, last.moves)
    return kept


def breakpoints(tree: Tree, c_min: float, c_max: float, scoring: Scoring = UCB1) -> list[Breakpoint]:
    """Every C in (c_min, c_max) where the selected path changes, in order.

    Each says at which node the choice changes and which two children swap there; see
    :func:`path_intervals` for the float convention (the breakpoint C already has the new path).
    """
    return breakpoints_of(tree, path_intervals(tree, c_min, c_max, scoring))


def breakpoints_of(tree: Tree, intervals: Sequence[Interval]) -> list[Breakpoint]:
    """The breakpoints between consecutive intervals of a :func:`path_intervals` result of ``tree``."""
    points = []
    for before, after in zip(intervals, intervals[1:]):
        # Two different root-to-leaf paths: neither is a prefix of the other (a leaf has no
        # children), so they part at a node strictly above both ends.
        depth = 0
        while before.moves[depth] == after.moves[depth]:
            depth += 1
        node_path = tree.format_path(before.moves[:depth])
        points.append(Breakpoint(after.c_from, node_path, before.moves[depth], after.moves[depth]))
    return points


def range_problem(c_min: float, c_max: float) -> str | None:
    """Why [c_min, c_max) cannot be swept, as a sentence for a person; None when it can.

    The range must be finite, start at C >= 0 and not be empty.
    """
    if not (isinstance(c_min, (int, float)) and isinstance(c_max, (int, float))):
        return f"The C range must be two numbers, got {c_min!r} and {c_max!r}."
    if not (math.isfinite(c_min) and math.isfinite(c_max)):
        return f"The C range must be finite, got from {c_min!r} to {c_max!r}."
    if c_min < 0:
        return f"C cannot be negative: “from” is {c_min!r}; use 0 or more."
    if not c_min < c_max:
        return f"“From” ({c_min!r}) must be smaller than “to” ({c_max!r})."
    return None


def _check_range(c_min: float, c_max: float) -> tuple[float, float]:
    """The range as floats (-0.0 becomes 0.0); ValueError with :func:`range_problem`'s sentence."""
    problem = range_problem(c_min, c_max)
    if problem is not None:
        raise ValueError(problem)
    return float(c_min) + 0.0, float(c_max)  # -0.0 + 0.0 == +0.0, whose bit pattern is 0


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
