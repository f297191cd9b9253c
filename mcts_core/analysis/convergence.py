"""The search over time: a node's children's visits and values after each of the node's visits.

For an input with an order (puzzle playouts, a JSON Lines log: simulations in the order they ran),
the tree after the node's ``k``-th visit is the tree built from the playouts up to the one that
made it (:func:`~mcts_core.model.build.build_tree` with ``upto``). :func:`convergence` gives each
child's visits and total there for ``k`` on a log grid, in one pass over the playouts: the playouts
through the node, grouped by the child they enter, each child's returns summed in playout order as
the builder sums them, so every number is the built tree's bit for bit. A tree dump is a finished
tree with no order to replay (:class:`NoOrder`).

An engine's search is reported, not replayed: :func:`update_series` follows the root through its
updates (each update's tree as read), one sample per update, its numbers the update's as printed.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TextIO

from ..model.playouts import Playouts
from ..model.tree import DECLARED, ROOT, Tree
from ..selection import Scoring, select_child
from .node_star import node_star

if TYPE_CHECKING:  # numpy is imported where it is used: the puzzle's road never loads it
    import numpy as np

CONVERGENCE_COLUMNS = ("visits", "move", "child_visits", "value")  # the CSV's header, a contract (docs/DESIGN.md)
MAX_POINTS = 500  # samples of k: a chart's width of points, few enough to draw at once
NO_CHILD = -1  # in ``most_visited`` and ``selected``: the node has no child yet
NAMED_CHILDREN = 6  # a chart names this many children, the most visited at the end; the rest are one group
OTHERS = "(others)"  # the group of the children not named (in brackets: no move of puzzle text is a word)


class NoOrder(ValueError):
    """The input has no order of simulations to replay (a tree dump): the message says so."""


@dataclass(frozen=True, eq=False)
class Convergence:
    """A node's children over the node's visits, sampled at ``len(visits)`` points.

    Attributes:
        node: the node (in the whole input's tree).
        kids: its children in the whole tree, in the node's order; columns below follow them (an
            engine's updates share no tree: there, the children's places, in order of first report).
        moves: their moves.
        visits: the node's visits at each sample (k, rising; the last is all of them).
        playouts: the playouts read by then (the node's k-th visit is playout ``playouts - 1``); for
            an engine's updates, each update's number among the file's analyses (1-based).
        child_visits: ``[sample, child]`` the child's visits.
        total: ``[sample, child]`` the sum of its returns, from the view of the player who moved into it.
        total_sq: ``[sample, child]`` the sum of their squares.
        exists: ``[sample, child]`` whether the child is in the tree by then (created, or declared).
        most_visited: per sample, the index (into ``kids``) of the most visited child, ties in the
            tree's tie order; :data:`NO_CHILD` while there is none.
        selected: per sample, the index of the child the scoring selects (:data:`NO_CHILD` while
            there is none); None when no scoring was given.
        updates: for an engine's search, each update's tree and the settings its file states
            (:func:`update_series`); None for a replay.
    """

    node: int
    kids: tuple[int, ...]
    moves: tuple[str, ...]
    visits: np.ndarray
    playouts: np.ndarray
    child_visits: np.ndarray
    total: np.ndarray
    total_sq: np.ndarray
    exists: np.ndarray
    most_visited: np.ndarray
    selected: np.ndarray | None
    updates: tuple[tuple[Tree, Mapping[str, Any]], ...] | None = None

    @property
    def value(self) -> np.ndarray:
        """``[sample, child]`` the mean as the tree counts it, ``total / visits`` (NaN at 0 visits)."""
        import numpy as np

        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(self.child_visits > 0, self.total / np.maximum(self.child_visits, 1), np.nan)

    def rows(self) -> Iterator[tuple[int, str, int, float]]:
        """``(node visits, move, child visits, value)`` per sample and existing child, in the node's order."""
        import numpy as np

        value = self.value
        for sample, k in enumerate(self.visits.tolist()):
            for index in np.flatnonzero(self.exists[sample]).tolist():
                yield k, self.moves[index], int(self.child_visits[sample, index]), float(value[sample, index])

    def write_csv(self, out: TextIO) -> None:
        """The series as CSV: the header :data:`CONVERGENCE_COLUMNS`, then :meth:`rows` (floats in ``repr``
        precision, ``nan`` for a declared child not yet visited; a move with a comma or a quote quoted)."""
        import csv

        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(CONVERGENCE_COLUMNS)
        writer.writerows(self.rows())

    def changes(self, choice: np.ndarray) -> list[int]:
        """The samples where ``choice`` (``most_visited`` or ``selected``) differs from the sample before."""
        import numpy as np

        return (np.flatnonzero(choice[1:] != choice[:-1]) + 1).tolist()

    def change_points(self, choice: np.ndarray) -> list[tuple[int, int, str, str]]:
        """``(node visits, playouts, move before, move after)`` at each of :meth:`changes`; "none" where
        the node had no child."""
        def named(index: int) -> str:
            return "none" if index == NO_CHILD else self.moves[index]

        return [(int(self.visits[sample]), int(self.playouts[sample]), named(int(choice[sample - 1])),
                 named(int(choice[sample]))) for sample in self.changes(choice)]

    def grouped(self, named: int = NAMED_CHILDREN) -> GroupedSeries:
        """The series with the ``named`` children most visited at the end kept (ties in the node's order)
        and the rest summed as one group, :data:`OTHERS`; one row per group and sample where the group
        has a visit, so every share and value is a number (a mean before a first visit is not)."""
        import numpy as np

        last = self.child_visits[-1] if self.visits.size else np.zeros(len(self.kids), dtype=np.int64)
        ranked = np.argsort(-last, kind="stable")
        kept, rest = ranked[:named].tolist(), ranked[named:]
        labels = [self.moves[index] for index in kept]
        visits = [self.child_visits[:, index] for index in kept]
        totals = [self.total[:, index] for index in kept]
        if rest.size:
            labels.append(OTHERS)
            visits.append(self.child_visits[:, rest].sum(axis=1))
            totals.append(self.total[:, rest].sum(axis=1))
        columns: dict[str, list] = {name: [] for name in GroupedSeries.COLUMNS}
        for label, group_visits, group_total in zip(labels, visits, totals):
            with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
                value = group_total / np.maximum(group_visits, 1)
                share = group_visits / self.visits
            shown = np.flatnonzero((group_visits > 0) & np.isfinite(value))
            columns["visits"] += self.visits[shown].tolist()
            columns["playouts"] += self.playouts[shown].tolist()
            columns["move"] += [label] * shown.size
            columns["child_visits"] += group_visits[shown].tolist()
            columns["share"] += share[shown].tolist()
            columns["value"] += value[shown].tolist()
        return GroupedSeries(columns, tuple(labels))


@dataclass(frozen=True)
class GroupedSeries:
    """A chart's rows of a :class:`Convergence` (:meth:`Convergence.grouped`): per group and sample, the
    node's visits, the playouts read, the move (or :data:`OTHERS`), the group's visits, its share of
    the node's visits and its value (total / visits)."""

    COLUMNS = ("visits", "playouts", "move", "child_visits", "share", "value")
    columns: dict[str, list]
    groups: tuple[str, ...]  # named children, most visited first, then OTHERS when some are grouped


def log_grid(count: int, max_points: int = MAX_POINTS) -> np.ndarray:
    """Sample points 1..count: every k up to ``max_points``, else about that many spaced evenly on a log axis
    (always 1 and ``count``)."""
    import numpy as np

    if count <= max_points:
        return np.arange(1, count + 1, dtype=np.int64)
    return np.unique(np.rint(np.geomspace(1, count, max(max_points, 2))).astype(np.int64))


def convergence(tree: Tree, playouts: Playouts | None, node: int = ROOT, *, scoring: Scoring | None = None,
                max_points: int = MAX_POINTS) -> Convergence:
    """The node's children's statistics after its k-th visit, k on :func:`log_grid`.

    Args:
        tree: ``build_tree(playouts)`` (the whole input's tree).
        playouts: the input's playouts, in order; None for a tree dump.
        node: the node followed (the root by default).
        scoring: the rule whose selected child each sample records, if any.
        max_points: about how many samples at most.

    Returns:
        The series; at sample k each child's visits and total equal those of the tree built from
        the first ``playouts[k]`` playouts.

    Raises:
        NoOrder: ``playouts`` is None.
    """
    import numpy as np

    if playouts is None:
        raise NoOrder("a tree dump is a finished tree: it has no order of simulations to replay")
    kids = tuple(tree.children[node])
    through, child_of = _visits_through(tree, node, len(kids))
    grid = log_grid(through.size, max_points)
    players = playouts.players
    returns = np.asarray(memoryview(playouts.returns)) if len(playouts.returns) else np.zeros(0)
    # Each child adds the return of the player who moved into it: the one to move at the node.
    scores = returns[through.astype(np.int64) * players + tree.player[node]]
    samples, width = grid.size, len(kids)
    child_visits = np.zeros((samples, width), dtype=np.int64)
    total = np.zeros((samples, width))
    total_sq = np.zeros((samples, width))
    exists = np.zeros((samples, width), dtype=bool)
    order = np.argsort(child_of, kind="stable")
    bounds = np.concatenate(([0], np.cumsum(np.bincount(child_of, minlength=width + 1))))
    for index, kid in enumerate(kids):
        visit_at = order[bounds[index] : bounds[index + 1]]  # the node's visits that entered this child, rising
        own = scores[visit_at]
        declared = bool(tree.flags[kid] & DECLARED)
        if declared:  # a declared child starts at 0.0 (0.0 + s, which turns a first -0.0 into 0.0)
            own = np.concatenate(([0.0], own))
        sums = np.cumsum(own)  # a sequential sum: the builder's float additions, in its order
        squares = np.cumsum(own * own)
        seen = np.searchsorted(visit_at, grid, side="left")  # of this child's visits, those among the first k
        last = seen - 1 + declared
        visited = last >= 0
        child_visits[:, index] = seen
        total[visited, index] = sums[last[visited]]
        total_sq[visited, index] = squares[last[visited]]
        exists[:, index] = visited
    return Convergence(
        node=node,
        kids=kids,
        moves=tuple(tree.move[kid] for kid in kids),
        visits=grid,
        playouts=through[grid - 1].astype(np.int64) + 1 if grid.size else np.zeros(0, dtype=np.int64),
        child_visits=child_visits,
        total=total,
        total_sq=total_sq,
        exists=exists,
        most_visited=_most_visited(tree, node, kids, child_visits, exists),
        selected=None if scoring is None else _selected(tree, node, kids, scoring, child_visits, total, total_sq, exists, grid),
    )


def update_series(trees: Sequence[Tree], numbers: Sequence[int], settings: Sequence[Mapping[str, Any]], *,
                  scoring: Scoring | None = None) -> Convergence:
    """The root of an engine's search over its updates: one sample per update, its numbers as read.

    Args:
        trees: each update's tree, in the order the engine reported them.
        numbers: each update's number among its file's analyses (1-based): the samples' ``playouts``.
        settings: the rule settings each update's file states (its root value...).
        scoring: the rule whose selected child each sample records, if any (:func:`selected_over_time`).

    Returns:
        The series: at sample j the root's visits, each child's visits and total, the most visited
        child (ties to the first in the update's order) and the child selected are update j's; a
        child is listed from the first update that reports it, by its move.

    Raises:
        NoOrder: a single update (a snapshot) has no order to follow.
    """
    import numpy as np

    if len(trees) < 2:
        raise NoOrder("this search is a single snapshot of the engine's analysis: it has no order of updates to follow")

    places: dict[str, int] = {}
    for tree in trees:
        for kid in tree.children[ROOT]:
            places.setdefault(tree.move[kid], len(places))
    samples, width = len(trees), len(places)
    child_visits = np.zeros((samples, width), dtype=np.int64)
    total = np.zeros((samples, width))
    total_sq = np.zeros((samples, width))
    exists = np.zeros((samples, width), dtype=bool)
    most_visited = np.full(samples, NO_CHILD, dtype=np.int64)
    for sample, tree in enumerate(trees):
        for kid in tree.children[ROOT]:
            index = places[tree.move[kid]]
            child_visits[sample, index] = tree.visits[kid]
            total[sample, index] = tree.total[kid]
            total_sq[sample, index] = tree.total_sq[kid]
            exists[sample, index] = True
        order = tree.tie_order(ROOT)
        if order:
            most_visited[sample] = places[tree.move[max(order, key=lambda kid: tree.visits[kid])]]  # max: the first
    series = Convergence(
        node=ROOT,
        kids=tuple(range(width)),
        moves=tuple(places),
        visits=np.array([tree.visits[ROOT] for tree in trees], dtype=np.int64),
        playouts=np.array(numbers, dtype=np.int64),
        child_visits=child_visits,
        total=total,
        total_sq=total_sq,
        exists=exists,
        most_visited=most_visited,
        selected=None,
        updates=tuple(zip(trees, settings)),
    )
    return series if scoring is None else replace(series, selected=selected_over_time(trees[-1], series, scoring))


def selected_over_time(tree: Tree, series: Convergence, scoring: Scoring) -> np.ndarray:
    """Per sample of ``series``, the index of the child ``scoring`` selects (:data:`NO_CHILD` while there
    is none): ``convergence(..., scoring=scoring).selected`` for a series made without a scoring, so a
    new C need not replay the playouts. For an engine's updates, the rule's selection on each update's
    tree (:func:`_selected_on_updates`; ``tree`` is not read)."""
    if series.updates is not None:
        return _selected_on_updates(series, scoring)
    return _selected(tree, series.node, series.kids, scoring, series.child_visits, series.total, series.total_sq,
                     series.exists, series.visits)


def _visits_through(tree: Tree, node: int, width: int) -> tuple[np.ndarray, np.ndarray]:
    """The playouts that visit ``node``, in order, and the index of the child each enters (``width``
    for one that ends at the node).

    A playout visits the node when the deepest node it reached is the node or below it; the child
    it enters is that deepest node's ancestor one level below the node, found for every node at
    once, one depth level at a time from the level below the node's children, each node taking its
    parent's.
    """
    import numpy as np

    parent = np.asarray(memoryview(tree.parent))
    depth = np.asarray(memoryview(tree.depth))
    below = np.full(len(tree), -1, dtype=np.int32)  # per node: the child of `node` above it, -1 if none
    below[node] = width
    below[np.asarray(tree.children[node], dtype=np.int64)] = np.arange(width, dtype=np.int32)
    start = tree.depth[node] + 2
    if width and start <= tree.max_depth:
        # Depths fit 16 bits (at most 1,000 moves a playout): a radix sort.
        by_depth = np.argsort(depth.astype(np.int16), kind="stable")
        level_starts = np.searchsorted(depth[by_depth], np.arange(start, tree.max_depth + 2))
        for first, end in zip(level_starts[:-1].tolist(), level_starts[1:].tolist()):
            level = by_depth[first:end]
            below[level] = below[parent[level]]
    entered = below[np.asarray(memoryview(tree.reached))] if tree.playouts else np.zeros(0, dtype=np.int32)
    through = np.flatnonzero(entered >= 0)
    child_of = entered[through]
    return through, (child_of.astype(np.int16) if width < 1 << 15 else child_of)


def _most_visited(tree: Tree, node: int, kids: tuple[int, ...], child_visits: np.ndarray,
                  exists: np.ndarray) -> np.ndarray:
    """Per sample, the index of the most visited existing child, ties in the tree's tie order."""
    import numpy as np

    if not kids:
        return np.full(child_visits.shape[0], NO_CHILD, dtype=np.int64)
    place = {kid: index for index, kid in enumerate(kids)}
    tie_order = np.array([place[kid] for kid in tree.tie_order(node)], dtype=np.int64)
    counts = np.where(exists, child_visits, -1)[:, tie_order]
    best = tie_order[np.argmax(counts, axis=1)]  # argmax: the first of the largest
    return np.where(exists.any(axis=1), best, NO_CHILD)


def _selected(tree: Tree, node: int, kids: tuple[int, ...], scoring: Scoring, child_visits: np.ndarray,
              total: np.ndarray, total_sq: np.ndarray, exists: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """Per sample, the index of the child the rule selects in the node's star at that moment.

    The star holds the children existing then (a set that only grows: one star per set), with
    that sample's statistics written in.
    """
    import numpy as np

    chosen = np.full(grid.size, NO_CHILD, dtype=np.int64)
    star, present = None, None
    for sample in range(grid.size):
        now = np.flatnonzero(exists[sample])
        if not now.size:
            continue
        if present is None or now.size != present.size:
            present = now
            star = node_star(tree, node, [kids[index] for index in present])
        star.visits[ROOT] = int(grid[sample])
        for place, index in enumerate(present.tolist(), start=1):
            star.visits[place] = int(child_visits[sample, index])
            star.total[place] = float(total[sample, index])
            star.total_sq[place] = float(total_sq[sample, index])
        pick = select_child(star, ROOT, scoring)
        chosen[sample] = present[pick - 1]
    return chosen


def _selected_on_updates(series: Convergence, scoring: Scoring) -> np.ndarray:
    """Per update, the index of the child ``scoring`` selects on the update's tree. A setting the
    files state that differs between the updates (the root's value, where first-play values start)
    is each update's own; the rest are ``scoring``'s."""
    import numpy as np

    places = {move: index for index, move in enumerate(series.moves)}
    trees = [tree for tree, _ in series.updates]
    stated = [stated for _, stated in series.updates]
    varying = {name for name in set().union(*stated) if name in scoring.spec.defaults
               and len({repr(update.get(name)) for update in stated}) > 1}
    chosen = np.full(len(trees), NO_CHILD, dtype=np.int64)
    for sample, (tree, own) in enumerate(zip(trees, stated)):
        mine = {name: own[name] for name in varying if name in own}
        at_update = replace(scoring, settings={**scoring.settings, **mine}) if mine else scoring
        pick = select_child(tree, ROOT, at_update)
        if pick is not None:
            chosen[sample] = places[tree.move[pick]]
    return chosen
