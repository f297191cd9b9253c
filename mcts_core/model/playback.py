"""Playback of a log playout by playout: the tree after any k playouts, what playout k changed, and
how the root children's statistics race, with memory that stays flat however the user steps.

Everything is derived from the tree built from the whole log (:func:`~mcts_core.model.build.build_tree`):
nodes are numbered in creation order, so the tree after k playouts holds exactly the nodes created by
playouts 0..k-1 (a prefix of the numbering), and ``tree.reached[p]`` with the parent pointers gives
the nodes playout p updated. Only the statistics change with k. :class:`Playback` keeps one state
(the statistics after the last k it served) and steps it forward playout by playout, each node
adding the return of the player who moved into it in playout order exactly as ``build_tree`` does;
a jump backwards or far ahead builds the statistics after k afresh with ``build_tree(playouts,
upto=k)``. So every frame equals ``build_tree(playouts, upto=k)`` bit for bit, and the memory held
is one state plus a couple of recent frames, whichever way the user steps. :func:`race` walks the
log once and samples the root children's visit share and mean over k.
"""

from __future__ import annotations

import math
import threading
from array import array
from collections import OrderedDict
from dataclasses import dataclass

from .build import build_tree
from ..common.memory import return_free_memory
from .playouts import Playouts
from .tree import DECLARED, NO_PARENT, ROOT, Tree

REPLAY_STEPS = 60  # steps a whole replay takes by default: about a minute at one step a second
STEP_LIMIT = 20_000  # stepping forward this many playouts costs about what a fresh build of a large log does
KEPT_FRAMES = 2  # recent frames kept: going back and forth between two k costs nothing


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
        score: its score (player 0's return).
        returns: each player's return, as the input records them.
        line: its 1-based input line.
        created: the node it created, None when its whole word already existed.
        path: the nodes it updated, root first (ends with ``created`` when there is one).
        before: each path node's statistics before the playout.
        after: each path node's statistics after it.
    """

    k: int
    word: str
    score: float
    returns: tuple[float, ...]
    line: int
    created: int | None
    path: tuple[int, ...]
    before: tuple[NodeStats, ...]
    after: tuple[NodeStats, ...]

    @property
    def new_node(self) -> int | None:
        """The node this playout visited first: the one it created, or a declared child (a log's
        unvisited child) it was the first to reach; None when every node on it had visits."""
        if self.created is not None:
            return self.created
        return self.path[-1] if len(self.path) > 1 and not self.before[-1].visits else None

    @property
    def at_root(self) -> bool:
        """The playout stopped at the root: it updated the root alone."""
        return len(self.path) == 1


def default_stride(count: int, steps: int = REPLAY_STEPS) -> int:
    """Playouts per step so that replaying ``count`` playouts takes about ``steps`` steps."""
    return max(1, math.ceil(count / steps))


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
    """Snapshots of a log's tree after any number of playouts (see the module docstring).

    A log with node facts (a JSON log) is rebuilt with :func:`~mcts_core.model.build.build_tree` for each
    frame instead: its facts reorder children and set players, which the stepped state does not track.

    Args:
        playouts: the parsed log.
        tree: ``build_tree(playouts)``, when the caller already has it.

    One Playback can be shared by app sessions (threads): a lock guards its state.
    """

    def __init__(self, playouts: Playouts, tree: Tree | None = None):
        self.playouts = playouts
        self.tree = build_tree(playouts) if tree is None else tree
        if self.tree.playouts != len(playouts):
            raise ValueError("tree must be built from all the playouts")
        self._state: _Stats | None = None
        self._frames: OrderedDict[int, Frame] = OrderedDict()
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
        with self._lock:
            if k in self._frames:
                self._frames.move_to_end(k)
                return self._frames[k]
            if self.playouts.facts:
                frame = self._rebuilt_frame(k)
            else:
                stats = self._state_at(max(k - 1, 0))
                step = self._advance(stats) if k else None
                frame = Frame(self._snapshot(stats), step)
            self._frames[k] = frame
            while len(self._frames) > KEPT_FRAMES:
                self._frames.popitem(last=False)
            return frame

    def first_steps(self, count: int) -> list[Step]:
        """The steps of playouts 1..count (for a story of how the tree grew)."""
        self._check(count)
        if self.playouts.facts:
            return [self._rebuilt_frame(k).step for k in range(1, count + 1)]
        stats = self._empty()
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
        playouts, players = self.playouts, self.playouts.players
        return Step(
            k=p + 1,
            word=playouts.word(p),
            score=playouts.score(p),
            returns=tuple(playouts.returns[p * players : (p + 1) * players]),
            line=playouts.lines[p],
            created=created,
            path=path,
            before=tuple(NodeStats(0, 0.0) if node == created else stats_before(node) for node in path),
            after=tuple(stats_after(node) for node in path),
        )

    def _empty(self) -> _Stats:
        return _Stats(0, array("q", [0]), array("d", [0.0]), array("d", [0.0]))

    def _state_at(self, k: int) -> _Stats:
        """The kept state moved to ``k`` playouts: stepped forward when close, else built afresh."""
        state = self._state
        if state is None or not state.k <= k <= state.k + STEP_LIMIT:
            if k <= STEP_LIMIT:
                state = self._empty()
            else:
                tree = build_tree(self.playouts, upto=k)
                state = _Stats(k, array("q", tree.visits), array("d", tree.total), array("d", tree.total_sq))
                del tree
                return_free_memory()  # the build's temporaries: several times what the state keeps
        while state.k < k:
            self._apply(state)
        self._state = state
        return state

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
        """The Tree of ``stats``: the structure is the full tree's first nodes, the statistics a copy."""
        full, count = self.tree, len(stats.visits)

        def prefix(column):
            return memoryview(column)[:count]  # a view: no copy of the structure per frame

        start, kids = _children_prefix(full, count)
        return Tree(
            moves=full.moves,
            parent=prefix(full.parent),
            move_id=prefix(full.move_id),
            depth=prefix(full.depth),
            visits=array("q", stats.visits),
            total=array("d", stats.total),
            total_sq=array("d", stats.total_sq),
            created_by=prefix(full.created_by),
            child_start=start,
            child_list=kids,
            reached=memoryview(full.reached)[: stats.k],
            player=prefix(full.player),
            flags=prefix(full.flags),
            players=full.players,
            ties=full.ties,
            compact=full.compact,
        )


def _children_prefix(full: Tree, count: int) -> tuple[array, array]:
    """The CSR children of the tree's first ``count`` nodes.

    Without facts every node's children are in creation order, so the first ``count`` nodes keep,
    of each node's children, those numbered below ``count``: a prefix of its list.
    """
    if count < 5_000:
        from bisect import bisect_left

        start, kids = array("i", [0]), array("i")
        for node in range(count):
            own = full.child_list[full.child_start[node] : full.child_start[node + 1]]
            kids.extend(own[: bisect_left(own, count)])
            start.append(len(kids))
        return start, kids
    import numpy as np

    child_list = np.frombuffer(full.child_list, dtype=np.int32)
    child_start = np.frombuffer(full.child_start, dtype=np.int32)[: count + 1]
    kept = child_list < count
    kept_before = np.zeros(child_list.size + 1, dtype=np.int64)
    np.cumsum(kept, out=kept_before[1:])
    return (
        array("i", kept_before[child_start].astype(np.int32).tobytes()),
        array("i", child_list[: child_start[-1]][kept[: child_start[-1]]].tobytes()),
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
