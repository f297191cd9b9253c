"""Long-format pandas tables for drawing and listing a C sweep (the data behind the sweep page).

:mod:`mcts_core.analysis.sweep` finds the exact intervals and envelopes; this module only lays them out as
rows a chart or a table can use: each child's line under the rule sampled at the two ends of the C
range (a line needs no more), the envelope's segments, the crossings, and one row per interval of the sweep
with its path, its leaf's statistics and the breakpoint that starts it. Nothing here computes a
breakpoint; every C comes from :func:`~mcts_core.analysis.sweep.sweep` or
:func:`~mcts_core.analysis.sweep.node_envelope` unchanged.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pandas as pd

from ..analysis.c_range import nice_ceiling
from ..analysis.sweep import Interval, NodeEnvelope, breakpoints_of
from ..model.tree import Tree

LINE_COLUMNS = ["move", "visits", "intercept", "slope", "c", "value"]
ENVELOPE_COLUMNS = ["segment", "move", "c", "value"]
CROSSING_COLUMNS = ["c", "value", "node", "before", "after"]
INTERVAL_COLUMNS = [
    "c_from", "c_to", "path", "length", "leaf_visits", "leaf_mean", "node", "before", "after",
]
BAND_COLUMNS = [*INTERVAL_COLUMNS, "middle", "label"]
ELLIPSIS = "…"


def lines_frame(envelope: NodeEnvelope, c_min: float, c_max: float) -> pd.DataFrame:
    """Each child's line ``value(C) = intercept + slope * C`` at ``c_min`` and at ``c_max``.

    Two rows per child (a straight line is drawn exactly from its ends), in move order, with
    columns move, visits, intercept (the value at C = 0: UCB1's mean, PUCT's Q, ...), slope, c,
    value (the float the rule computes at c). A leaf gives an empty table with those columns.
    """
    rows = [
        {"move": line.move, "visits": line.visits, "intercept": line.intercept, "slope": line.slope,
         "c": c, "value": line.value(c)}
        for line in envelope.lines
        for c in (c_min, c_max)
    ]
    return pd.DataFrame(rows, columns=LINE_COLUMNS)


def envelope_frame(envelope: NodeEnvelope) -> pd.DataFrame:
    """The upper envelope the node's choice follows: two rows (start, end) per segment.

    Columns: segment (0, 1, ... in order of C, to draw each piece separately), move (the child
    chosen on it), c, value (that child's line at c). Segments end where the next one starts, so
    the pieces join into one broken line. A segment whose child has no line (its value is infinite:
    an unvisited child under a UCB-style rule, or a value past the float range) has nothing to draw.
    """
    lines = {line.move: line for line in envelope.lines}
    rows = [
        {"segment": index, "move": segment.move, "c": c, "value": lines[segment.move].value(c)}
        for index, segment in enumerate(envelope.segments)
        if segment.move in lines
        for c in (segment.c_from, segment.c_to)
    ]
    return pd.DataFrame(rows, columns=ENVELOPE_COLUMNS)


def crossings_frame(envelope: NodeEnvelope) -> pd.DataFrame:
    """Where the envelope changes child: c, value (of the child taking over; NaN when that child has
    no line, its value being infinite), node, before, after."""
    lines = {line.move: line for line in envelope.lines}
    rows = [
        {"c": point.c, "value": lines[point.after_move].value(point.c) if point.after_move in lines else math.nan,
         "node": point.node_path, "before": point.before_move, "after": point.after_move}
        for point in envelope.crossings
    ]
    return pd.DataFrame(rows, columns=CROSSING_COLUMNS)


def intervals_frame(tree: Tree, intervals: Sequence[Interval]) -> pd.DataFrame:
    """One row per interval of a sweep, in order of C.

    Columns: c_from, c_to (the half-open interval), path, length (moves), leaf_visits and
    leaf_mean (statistics of the path's last node), and for every interval but the first the
    breakpoint starting it: node (path of the node whose choice changes, "" = root), before and
    after (the two children that swap there). The first interval has them missing (NA).
    """
    starts = [None, *breakpoints_of(tree, intervals)]
    rows = []
    for interval, start in zip(intervals, starts):
        leaf = tree.find(interval.moves)
        rows.append({
            "c_from": interval.c_from,
            "c_to": interval.c_to,
            "path": interval.path,
            "length": len(interval.moves),
            "leaf_visits": tree.visits[leaf],
            "leaf_mean": tree.mean(leaf),
            "node": None if start is None else start.node_path,
            "before": None if start is None else start.before_move,
            "after": None if start is None else start.after_move,
        })
    return pd.DataFrame(rows, columns=INTERVAL_COLUMNS)


def band_label(path: str, width: float, *, chars_across: float) -> str:
    """The text that fits on a band ``width`` (fraction of the axis) wide, or "".

    The whole path when it fits, else its start with an ellipsis when at least three moves fit,
    else nothing (the tooltip still has it). A character is taken to be 1 / ``chars_across`` of
    the axis, plus one character of margin on each side.
    """
    room = int(width * chars_across) - 2
    text = path or "(root)"
    if len(text) <= room:
        return text
    return text[: room - 1] + ELLIPSIS if room - 1 >= 3 else ""


def bands_frame(tree: Tree, intervals: Sequence[Interval], *, chars_across: float = 100) -> pd.DataFrame:
    """:func:`intervals_frame` plus what a strip of colour bands along the C axis needs.

    Extra columns: middle (centre of the interval, where its label goes) and label (the path, or
    its start, when the band is wide enough to hold it; see :func:`band_label`).

    Args:
        tree: the tree.
        intervals: a :func:`~mcts_core.analysis.sweep.sweep` result.
        chars_across: how many characters of label text fit across the whole axis.
    """
    frame = intervals_frame(tree, intervals)
    if frame.empty:
        return pd.DataFrame(columns=BAND_COLUMNS)
    span = intervals[-1].c_to - intervals[0].c_from
    frame["middle"] = (frame["c_from"] + frame["c_to"]) / 2
    frame["label"] = [
        band_label(path, (c_to - c_from) / span, chars_across=chars_across)
        for path, c_from, c_to in zip(frame["path"], frame["c_from"], frame["c_to"])
    ]
    return frame


def sweep_nodes(intervals: Sequence[Interval]) -> list[tuple[str, ...]]:
    """The nodes that choose along the swept paths (as moves): every proper prefix of every path.

    Root first, then by depth and by first appearance along C. Leaves (whole paths) are left out:
    they have no children to choose from.
    """
    seen: dict[tuple[str, ...], None] = {}
    for depth in range(max((len(interval.moves) for interval in intervals), default=0)):
        for interval in intervals:
            if depth < len(interval.moves):
                seen.setdefault(interval.moves[:depth])
    return list(seen)


def on_path_frame(intervals: Sequence[Interval], node_moves: Sequence[str]) -> pd.DataFrame:
    """The stretches of C where the selected path passes through the node ``node_moves``: c_from, c_to.

    Adjacent intervals are merged, so each row is a maximal stretch in which that node's choice
    matters for the selected path.
    """
    rows: list[dict[str, float]] = []
    for interval in intervals:
        if interval.moves[: len(node_moves)] != tuple(node_moves):
            continue
        if rows and rows[-1]["c_to"] == interval.c_from:
            rows[-1]["c_to"] = interval.c_to
        else:
            rows.append({"c_from": interval.c_from, "c_to": interval.c_to})
    return pd.DataFrame(rows, columns=["c_from", "c_to"])


def zoom_range(intervals: Sequence[Interval], *, margin: float = 0.25) -> tuple[float, float] | None:
    """A narrower range showing every breakpoint of a sweep with room around the last one.

    From the sweep's start to the last breakpoint plus ``margin`` of the stretch before it,
    rounded up to a 1, 2, 5 x 10^k number (never beyond the swept range). None when the sweep
    has no breakpoint: there is nothing to zoom to.
    """
    if len(intervals) < 2:
        return None
    start, last = intervals[0].c_from, intervals[-1].c_from
    return start, min(nice_ceiling(last + margin * (last - start)), intervals[-1].c_to)
