"""Playback of a log playout by playout: the tree after any k playouts, what playout k changed, and
how the root children's statistics race, without rebuilding the tree k times.

Everything is derived from the tree built from the whole log (:func:`~mcts_core.tree.build_tree`):
nodes are numbered in creation order, so the tree after k playouts holds exactly the nodes created by
playouts 0..k-1 (a prefix of the numbering), and ``tree.reached[p]`` with the parent pointers gives
the nodes playout p updated. Only the statistics need a replay, each node adding the return of the
player who moved into it. :class:`Playback` keeps checkpoints of
the statistics every ``interval`` playouts and replays from the nearest one, adding the scores in
playout order exactly as ``build_tree`` does, so every snapshot equals ``build_tree(playouts,
upto=k)`` bit for bit. :func:`race` walks the log once and samples the root children's visit share
and mean over k.
"""

from __future__ import annotations

import math
import threading
from array import array
from bisect import bisect_left
from dataclasses import dataclass

from .build import build_tree
from .playouts import Playouts
from .tree import DECLARED, NO_PARENT, ROOT, Tree

MIN_INTERVAL = 2048  # replaying this many playouts costs about a millisecond: no checkpoint needed
MAX_CHECKPOINTS = 16  # bounds the memory: each checkpoint holds three numbers per node


@dataclass(frozen=True)
class NodeStats:
    """A node's visits and total score at one moment (0 visits: the node does not exist yet)."""

    visits: int
    total: float

    @property
    def mean(self) -> float | None:
        """``total / visits``, None before the node exists."""
        return self.total / self.visits if self.visits else None


@dataclass(frozen=True)
class Step:
    """What playout k did to the tree (k counts from 1: the tree after it holds k playouts).

    Attributes:
        k: 1-based playout number.
        word: the playout's moves.
        score: its score.
        line: its 1-based input line.
        created: the node it created, None when its whole word already existed.
        path: the nodes it updated, root first (ends with ``created`` when there is one).
        before: each path node's statistics before the playout.
        after: each path node's statistics after it.
    """

    k: int
    word: str
    score: float
    line: int
    created: int | None
    path: tuple[int, ...]
    before: tuple[NodeStats, ...]
    after: tuple[NodeStats, ...]


@dataclass(frozen=True)
class Frame:
    """The tree after k playouts and the step that made it (None for k = 0)."""

    tree: Tree
    step: Step | None


@dataclass
class _Stats:
    """Mutable statistics of the first ``len(visits)`` nodes after ``k`` playouts."""

    k: int
    visits: array
    total: array
    total_sq: array


class Playback:
    """Snapshots of a log's tree after any number of playouts, by replay from checkpoints.

    A log with node facts (a JSON log) is rebuilt with :func:`~mcts_core.build.build_tree` for each
    frame instead: its facts can change a node between playouts.

    Args:
        playouts: the parsed log.
        tree: ``build_tree(playouts)``, when the caller already has it.
        interval: playouts between checkpoints; by default at most :data:`MAX_CHECKPOINTS`
            checkpoints and none closer than :data:`MIN_INTERVAL`.
    """

    def __init__(self, playouts: Playouts, tree: Tree | None = None, *, interval: int | None = None):
        self.playouts = playouts
        self.tree = build_tree(playouts) if tree is None else tree
        if self.tree.playouts != len(playouts):
            raise ValueError("tree must be built from all the playouts")
        self.interval = interval or max(MIN_INTERVAL, math.ceil(len(playouts) / MAX_CHECKPOINTS))
        self._checkpoints: list[tuple[array, array, array]] | None = None
        # Built on first need: a Playback for the first few steps costs nothing. The lock makes it
        # safe to share one Playback between app sessions (threads).
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.playouts)

    def frame(self, k: int) -> Frame:
        """The tree after the first ``k`` playouts and the :class:`Step` of playout k.

        Args:
            k: 0 <= k <= len(self).

        Returns:
            A tree equal field for field to ``build_tree(playouts, upto=k)``, and the step.
        """
        self._check(k)
        if self.playouts.facts:
            return self._rebuilt_frame(k)
        stats = self._replay(max(k - 1, 0))
        step = self._advance(stats) if k else None
        return Frame(self._snapshot(stats), step)

    def first_steps(self, count: int) -> list[Step]:
        """The steps of playouts 1..count, in one replay (for a story of how the tree grew)."""
        self._check(count)
        if self.playouts.facts:
            return [self._rebuilt_frame(k).step for k in range(1, count + 1)]
        stats = self._replay(0)
        return [self._advance(stats) for _ in range(count)]

    def _check(self, k: int) -> None:
        if not 0 <= k <= len(self):
            raise ValueError(f"k must be between 0 and {len(self)}, got {k}")

    def _rebuilt_frame(self, k: int) -> Frame:
        """A frame of a log with facts: the trees before and after playout k, built anew."""
        tree = build_tree(self.playouts, upto=k)
        if not k:
            return Frame(tree, None)
        before = build_tree(self.playouts, upto=k - 1)
        p, end = k - 1, tree.reached[k - 1]
        created = end if tree.created_by[end] == p and not tree.flags[end] else None
        path = tuple(tree.path_nodes(end))
        return Frame(tree, self._step(p, created, path, lambda node: _stats_of(before, node), lambda node: _stats_of(tree, node)))

    def _step(self, p: int, created, path, stats_before, stats_after) -> Step:
        playouts = self.playouts
        return Step(
            k=p + 1,
            word=playouts.word(p),
            score=playouts.score(p),
            line=playouts.lines[p],
            created=created,
            path=path,
            before=tuple(NodeStats(0, 0.0) if node == created else stats_before(node) for node in path),
            after=tuple(stats_after(node) for node in path),
        )

    def _empty(self) -> _Stats:
        return _Stats(0, array("q", [0]), array("d", [0.0]), array("d", [0.0]))

    def _replay(self, k: int) -> _Stats:
        """Fresh statistics after ``k`` playouts: the nearest checkpoint, then playout by playout."""
        if k < self.interval:
            stats = self._empty()
        else:
            visits, total, total_sq = self.checkpoints()[k // self.interval]
            stats = _Stats(k - k % self.interval, array("q", visits), array("d", total), array("d", total_sq))
        while stats.k < k:
            self._apply(stats)
        return stats

    def checkpoints(self) -> list[tuple[array, array, array]]:
        """(visits, total, total_sq) after every multiple of ``interval`` playouts.

        Built by one replay of the log on the first call (the first frame beyond ``interval``).
        """
        with self._lock:
            if self._checkpoints is None:
                checkpoints, stats = [], self._empty()
                for k in range(len(self) + 1):
                    if k % self.interval == 0:
                        checkpoints.append((array("q", stats.visits), array("d", stats.total), array("d", stats.total_sq)))
                    if k < len(self):
                        self._apply(stats)
                self._checkpoints = checkpoints
            return self._checkpoints

    def _apply(self, stats: _Stats) -> None:
        """Add playout ``stats.k`` (0-based) to the statistics.

        Each node gets the return of the player who moved into it, added in playout order as
        ``build_tree`` adds it; a node the playout creates starts at the return itself (not 0.0 +
        return, which loses the sign of -0.0).
        """
        tree, p, players = self.tree, stats.k, self.playouts.players
        returns = self.playouts.returns[p * players : (p + 1) * players]
        visits, total, total_sq, parent, player = stats.visits, stats.total, stats.total_sq, tree.parent, tree.player
        node = tree.reached[p]
        if tree.created_by[node] == p:
            score = returns[player[parent[node]]]
            visits.append(1)
            total.append(score)
            total_sq.append(score * score)
            node = parent[node]
        while node != NO_PARENT:  # up the parent pointers: no path list to build
            score = returns[player[parent[node]] if node else player[ROOT]]
            visits[node] += 1
            total[node] += score
            total_sq[node] += score * score
            node = parent[node]
        stats.k += 1

    def _advance(self, stats: _Stats) -> Step:
        """Apply the next playout to ``stats`` and describe what it changed."""
        p, end = stats.k, self.tree.reached[stats.k]
        created = end if self.tree.created_by[end] == p else None
        path = tuple(self.tree.path_nodes(end))
        before = {node: NodeStats(stats.visits[node], stats.total[node]) for node in path if node != created}
        self._apply(stats)
        return self._step(
            p, created, path, before.__getitem__, lambda node: NodeStats(stats.visits[node], stats.total[node])
        )

    def _snapshot(self, stats: _Stats) -> Tree:
        """The Tree of ``stats``: structure sliced from the full tree, children cut at the node count."""
        full, count = self.tree, len(stats.visits)
        # Children are numbered in creation order, so the tree after k playouts keeps, of each
        # node's children, those numbered below ``count``: a prefix of its list.
        start, kids = array("i", [0]), array("i")
        for node in range(count):
            own = full.child_list[full.child_start[node] : full.child_start[node + 1]]
            kids.extend(own[: bisect_left(own, count)])
            start.append(len(kids))
        return Tree(
            moves=full.moves,
            parent=full.parent[:count],
            move_id=full.move_id[:count],
            depth=full.depth[:count],
            visits=stats.visits,
            total=stats.total,
            total_sq=stats.total_sq,
            created_by=full.created_by[:count],
            child_start=start,
            child_list=kids,
            reached=full.reached[: stats.k],
            player=full.player[:count],
            flags=full.flags[:count],
            players=full.players,
            ties=full.ties,
            compact=full.compact,
        )


def _stats_of(tree: Tree, node: int) -> NodeStats:
    return NodeStats(tree.visits[node], tree.total[node]) if node < len(tree) else NodeStats(0, 0.0)


@dataclass(frozen=True)
class Race:
    """The root children's statistics over k, in long form (one row per sampled k and child).

    Attributes:
        k: playouts so far.
        move: the root child's move.
        share: its visits / the root's visits after k playouts.
        mean: its mean score after k playouts.
        moves: the children followed, most visited (in the whole log) first.
    """

    k: tuple[int, ...]
    move: tuple[str, ...]
    share: tuple[float, ...]
    mean: tuple[float, ...]
    moves: tuple[str, ...]

    def columns(self) -> dict[str, tuple]:
        """Column name -> values, ready for a DataFrame."""
        return {"k": self.k, "move": self.move, "share": self.share, "mean": self.mean}


def race(tree: Tree, playouts: Playouts, *, max_children: int = 8, max_points: int = 400) -> Race:
    """How the root children's visit share and mean evolve, in one pass over the log.

    Args:
        tree: ``build_tree(playouts)``.
        playouts: the log.
        max_children: follow only this many root children, the most visited in the end.
        max_points: most sampled values of k (evenly spaced, always ending at the last playout);
            every k is sampled when the log is shorter.

    Returns:
        The sampled statistics; a child appears from the first sample after its creation.
    """
    count = len(playouts)
    followed = tree.ranked_children(ROOT)[:max_children]
    # The root child above every node: one pass in creation order, parents before children.
    branch = [NO_PARENT] * len(tree)
    for node in range(1, len(tree)):
        parent = tree.parent[node]
        branch[node] = node if parent == ROOT else branch[parent]
    visits = dict.fromkeys(followed, 0)
    totals = dict.fromkeys(followed, 0.0)
    declared = {kid for kid in followed if tree.flags[kid] & DECLARED}
    stride = max(1, math.ceil(count / max_points))
    players, view = playouts.players, tree.player[ROOT]  # the root's children add this player's return
    returns = playouts.returns
    ks, moves, shares, means = [], [], [], []
    for p, end in enumerate(tree.reached):
        child = branch[end]
        if child in visits:
            # The same additions in the same order as build_tree: the means match it exactly (a
            # declared child starts at 0.0, a created one at its first return).
            score = returns[p * players + view]
            totals[child] = totals[child] + score if visits[child] or child in declared else score
            visits[child] += 1
        k = p + 1
        if k % stride == 0 or k == count:
            for kid in followed:
                if visits[kid]:
                    ks.append(k)
                    moves.append(tree.move[kid])
                    shares.append(visits[kid] / k)
                    means.append(totals[kid] / visits[kid])
    return Race(tuple(ks), tuple(moves), tuple(shares), tuple(means), tuple(tree.move[kid] for kid in followed))
