"""Building the tree from playouts with the puzzle's rule, and the node facts a log declares.

The rule: every playout adds its return and one visit to the root, walks down its path while the
next node exists (updating each node it enters), and creates the first missing node with that one
visit and return, then stops. A playout whose whole path exists creates nothing. Returns are summed
in playout order, node by node, so every total is the same float a straightforward implementation
of the rule gets. Each node adds the return of the player who moved into it.

Facts (from a JSON log) apply before every playout, in input order among themselves, wherever they
stand in the log: so a log whose bot dumps its node facts at the end builds the same tree as one
that declares them first. They create declared nodes with 0 visits (a node named by a fact exists,
and so do its ancestors), set who moves, order a node's children, give priors, mark chance and
terminal nodes and proven outcomes. The tree after k playouts holds every fact and the first k
playouts. Who moves at a node nobody declared: the player after its parent's (mod the number of
players), starting from the root's declared player (player 0 when undeclared).
"""

from __future__ import annotations

import math
from array import array

from .playouts import Fact, Playouts
from .tree import CHANCE, DECLARED, NO_PARENT, NO_PLAYOUT, ROOT, TERMINAL, Tree

# Below this many playouts the sequential builder takes milliseconds and spares a fresh process
# (the CLI on puzzle-sized input) numpy's import; above it the level builder wins (bench/RESULTS.md).
LEVELS_THRESHOLD = 5_000
# Group a level's (node, move) keys with a direct-address table while it has at most this many
# slots (or 4 per playout); beyond that, sort them (np.unique).
DENSE_KEYS = 1 << 16


class TooManyNodes(ValueError):
    """The tree would have more nodes than the build may make (``build_tree``'s ``max_nodes``)."""


def build_tree(playouts: Playouts, upto: int | None = None, *, max_nodes: int | None = None) -> Tree:
    """Build the tree from the first ``upto`` playouts (all of them when None).

    Args:
        playouts: parsed input.
        upto: number of playouts to use, 0 <= upto <= len(playouts); every fact applies.
        max_nodes: stop with :class:`TooManyNodes` rather than make more nodes than this (a log's
            node facts can declare more nodes than it has playouts; the memory bound sets it).

    Raises:
        ValueError: a bad ``upto``.
        TooManyNodes: the tree would have more than ``max_nodes`` nodes.
    """
    count = len(playouts) if upto is None else upto
    if not 0 <= count <= len(playouts):
        raise ValueError(f"upto must be between 0 and {len(playouts)}, got {upto}")
    # Both builders give identical trees (tests/test_tree.py checks it); the level-by-level numpy
    # one is faster once numpy's fixed costs are paid (bench/RESULTS.md).
    if count >= LEVELS_THRESHOLD and not playouts.facts and (max_nodes is None or count < max_nodes):
        return _build_levels(playouts, count)
    return _build_sequential(playouts, count, max_nodes)


def _build_sequential(playouts: Playouts, count: int, max_nodes: int | None = None) -> Tree:
    """The rule, playout by playout and fact by fact (the reference shape of the algorithm)."""
    return _Builder(playouts, max_nodes).build(count)


def next_player(parent_player: int, players: int) -> int:
    """Who moves at a node nobody declared: the player after its parent's, mod ``players``."""
    return (parent_player + 1) % players


class _Builder:
    """The columns of a tree being built, and the steps that fill them."""

    def __init__(self, playouts: Playouts, max_nodes: int | None = None):
        self.playouts = playouts
        self.max_nodes = max_nodes
        self.parent = array("i", [NO_PARENT])
        self.move_id = array("i", [0])
        self.depth = array("i", [0])
        self.visits = array("q", [0])
        self.total = array("d", [0.0])
        self.total_sq = array("d", [0.0])
        self.created_by = array("i", [NO_PLAYOUT])
        self.player = array("b", [0])
        self.flags = array("B", [0])
        self.prior: array | None = None
        self.outcome: array | None = None
        # Children lists for the nodes that have children (most nodes are leaves), and the child by
        # parent and move as one int key, parent * moves + move: about 150 bytes a node less than a
        # list per node and (parent, move) tuples (bench/RESULTS.md).
        self.kids: dict[int, list[int]] = {}
        self.stride = max(len(playouts.moves), 1)
        self.index: dict[int, int] = {}  # parent * stride + move id -> child
        self.reached = array("i")

    def build(self, count: int) -> Tree:
        playouts, facts = self.playouts, self.playouts.facts
        starts, ids, returns, players = playouts.starts, playouts.move_ids, playouts.returns, playouts.players
        player, visits, total, total_sq = self.player, self.visits, self.total, self.total_sq
        index, stride = self.index, self.stride
        if facts:
            self._apply_facts(facts)
        for p in range(count):
            r = returns[p * players : (p + 1) * players]
            node = ROOT
            score = r[player[ROOT]]
            visits[ROOT] += 1
            total[ROOT] += score
            total_sq[ROOT] += score * score
            for move in ids[starts[p] : starts[p + 1]]:
                score = r[player[node]]
                kid = index.get(node * stride + move)
                if kid is None:  # expand: the first missing node is created and the playout stops
                    node = self._create(node, move, p, 1, score, score * score, 0)
                    break
                visits[kid] += 1
                total[kid] += score
                total_sq[kid] += score * score
                node = kid
            self.reached.append(node)
        return self._tree()

    def _create(self, parent: int, move: int, created_by: int, visits: int, total: float, square: float, flags: int) -> int:
        """Append a node: the parent's last child, with these statistics."""
        kid = len(self.parent)
        if self.max_nodes is not None and kid >= self.max_nodes:
            raise TooManyNodes(f"more than {self.max_nodes:,} nodes")
        self.index[parent * self.stride + move] = kid
        self.parent.append(parent)
        self.move_id.append(move)
        depth = self.depth[parent] + 1
        self.depth.append(depth)
        self.visits.append(visits)
        self.total.append(total)
        self.total_sq.append(square)
        self.created_by.append(created_by)
        self.player.append(next_player(self.player[parent], self.playouts.players))
        self.flags.append(flags)
        if self.prior is not None:
            self.prior.append(math.nan)
        if self.outcome is not None:
            self.outcome.append(math.nan)
        kids = self.kids.get(parent)
        if kids is None:
            self.kids[parent] = [kid]
        else:
            kids.append(kid)
        return kid

    def _declared(self, parent: int, move: int) -> int:
        """The child of ``parent`` by ``move``, created with 0 visits if it does not exist."""
        kid = self.index.get(parent * self.stride + move)
        if kid is None:
            kid = self._create(parent, move, NO_PLAYOUT, 0, 0.0, 0.0, DECLARED)
        return kid

    def _apply_facts(self, facts: tuple[Fact, ...]) -> None:
        """Every fact, before any playout: first the nodes they name (so each node's player is
        known before a playout adds a return from its view), then what they say of them."""
        nodes = []
        for fact in facts:
            node = ROOT
            for move in fact.path:
                node = self._declared(node, move)
            for move in fact.children or ():
                self._declared(node, move)
            for move in fact.priors:
                self._declared(node, move)
            nodes.append(node)
        declared = {node: fact.player for node, fact in zip(nodes, facts) if fact.player is not None}
        player, parent, players = self.player, self.parent, self.playouts.players
        player[ROOT] = declared.get(ROOT, 0)
        for node in range(1, len(player)):  # parents come first: each one's player is settled before its children's
            player[node] = declared.get(node, next_player(player[parent[node]], players))
        for node, fact in zip(nodes, facts):
            self._apply(node, fact)

    def _apply(self, node: int, fact: Fact) -> None:
        if fact.chance is not None:
            self._flag(node, CHANCE, fact.chance)
        if fact.terminal is not None:
            self._flag(node, TERMINAL, fact.terminal)
        if fact.outcome is not None:
            if self.outcome is None:
                self.outcome = array("d", [math.nan]) * len(self.parent)
            self.outcome[node] = fact.outcome[self.player[self.parent[node]] if node else self.player[ROOT]]
        if fact.children is not None:
            declared = [self.index[node * self.stride + move] for move in fact.children]
            chosen = set(declared)
            self.kids[node] = declared + [kid for kid in self.kids.get(node, ()) if kid not in chosen]
        for move, prior in fact.priors.items():
            if self.prior is None:
                self.prior = array("d", [math.nan]) * len(self.parent)
            self.prior[self.index[node * self.stride + move]] = prior

    def _flag(self, node: int, bit: int, on: bool) -> None:
        self.flags[node] = self.flags[node] | bit if on else self.flags[node] & ~bit

    def _tree(self) -> Tree:
        start, flat, kids = array("i", [0]), array("i"), self.kids
        for node in range(len(self.parent)):
            flat.extend(kids.get(node, ()))
            start.append(len(flat))
        playouts = self.playouts
        return Tree(
            moves=playouts.moves,
            parent=self.parent,
            move_id=self.move_id,
            depth=self.depth,
            visits=self.visits,
            total=self.total,
            total_sq=self.total_sq,
            created_by=self.created_by,
            child_start=start,
            child_list=flat,
            reached=self.reached,
            player=self.player,
            flags=self.flags,
            prior=self.prior,
            outcome=self.outcome,
            players=playouts.players,
            ties=playouts.ties,
            compact=playouts.compact,
        )


def _build_levels(playouts: Playouts, count: int) -> Tree:
    """The same tree, computed one depth at a time over all playouts at once (numpy; no facts).

    Why this is the same tree: node P (a prefix, parent Q) is created by the first playout that has
    P as a prefix and comes after Q's creator, because only such a playout walks past Q; every
    later playout with prefix P enters P. So at depth k the playouts still walking (those that
    neither created a node nor ended their path above k) are grouped by (node at depth k-1, k-th
    move): each group is one node, its first playout creates it, all of them enter it. A node's
    visits and returns come only from its own group, added in playout order by ``np.bincount``
    (a sequential loop), so totals are the same floats as the sequential build. Without facts the
    players take turns, so every node at depth k adds player ``(k - 1) % players``'s return. Nodes
    are named by their creating playout while building and numbered in creation order at the end.
    """
    import numpy as np

    players = playouts.players
    # Indices of playouts and nodes fit in 32 bits (the input limits keep them far below): half the
    # memory of int64 for the arrays that have one entry per playout.
    index = np.int32 if count < 1 << 31 else np.int64
    ids = np.frombuffer(playouts.move_ids, dtype=_numpy_type(playouts.move_ids))
    offsets = np.frombuffer(playouts.starts, dtype=_numpy_type(playouts.starts))[: count + 1]
    starts = offsets[:-1].astype(np.int64, copy=False)
    lengths = np.diff(offsets).astype(index)
    returns = np.frombuffer(playouts.returns, dtype=np.float64)[: count * players].reshape(count, players)
    distinct = len(playouts.moves)

    # Per node, indexed by the creating playout.
    is_creator = np.zeros(count, dtype=bool)
    node_parent = np.empty(count, dtype=index)
    node_move = np.empty(count, dtype=index)
    node_depth = np.empty(count, dtype=index)
    node_visits = np.empty(count, dtype=index)
    node_total = np.empty(count, dtype=np.float64)
    node_total_sq = np.empty(count, dtype=np.float64)
    reached = np.full(count, NO_PLAYOUT, dtype=index)  # creator of the deepest node; -1 = root

    walking = np.flatnonzero(lengths > 0).astype(index)  # playouts still walking, in playout order
    at = np.zeros(walking.size, dtype=index)  # their node at depth k-1, as an index into level
    level = np.array([NO_PLAYOUT], dtype=index)  # creators of the nodes at depth k-1
    k = 0
    while walking.size:
        k += 1
        size = walking.size
        moves = ids[starts[walking] + (k - 1)].astype(index)
        if distinct <= DENSE_KEYS:
            seen = np.bincount(moves, minlength=distinct) > 0
            letters = int(seen.sum())
            letter = (np.cumsum(seen, dtype=index) - 1)[moves]
        else:
            letters_seen, letter = np.unique(moves, return_inverse=True)
            letters = letters_seen.size
        key = at.astype(np.int64) * letters + letter
        del letter
        space = level.size * letters
        if space <= max(4 * size, DENSE_KEYS):
            first = np.full(space, size, dtype=index)
            np.minimum.at(first, key, np.arange(size, dtype=index))
            used = np.flatnonzero(first < size)
            group_of_key = np.empty(space, dtype=index)
            group_of_key[used] = np.arange(used.size, dtype=index)
            group = group_of_key[key]
            del group_of_key
            first = first[used]
        else:
            _, first, group = np.unique(key, return_index=True, return_inverse=True)
            group = group.reshape(-1).astype(index)
        del key
        groups = first.size
        creators = walking[first]
        is_creator[creators] = True
        node_parent[creators] = level[at[first]]
        node_move[creators] = moves[first]
        del moves
        node_depth[creators] = k
        node_visits[creators] = np.bincount(group, minlength=groups)
        scores = returns[walking, (k - 1) % players]
        node_total[creators] = _group_sums(np, group, scores, groups, node_visits[creators])
        scores *= scores
        node_total_sq[creators] = np.bincount(group, weights=scores, minlength=groups)
        del scores
        stops = lengths[walking] == k
        stops[first] = True  # a creator stops at the node it created
        reached[walking[stops]] = creators[group[stops]]
        goes_on = ~stops
        walking = walking[goes_on]
        at = group[goes_on]
        level = creators
        del group, stops, goes_on, first

    created = np.flatnonzero(is_creator)  # creation order = playout order of the creators
    nodes = created.size + 1
    number = np.empty(count + 1, dtype=index)  # creator -> node number; number[-1] = ROOT
    np.cumsum(is_creator, dtype=index, out=number[:count])
    number[count] = ROOT
    del is_creator

    def with_root(code: str, root_value, values) -> array:
        out = array(code, [root_value]) * nodes
        np.frombuffer(out, dtype=_NUMPY_OF[code])[1:] = values
        return out

    def column(code: str, values) -> array:
        out = array(code, [0]) * len(values)
        if len(values):
            np.frombuffer(out, dtype=_NUMPY_OF[code])[:] = values
        return out

    # Each per-playout array goes as soon as its column is made: they and the tree's columns are
    # the build's peak.
    parents = number[node_parent[created]]
    del node_parent
    tree_reached = column("i", number[reached])
    del number, reached
    root_scores = returns[:, 0]
    # The root's sums start from 0.0: 0.0 + s0 + s1 + ... (cumsum is a sequential loop).
    root_total = float(np.cumsum(root_scores)[-1]) + 0.0 if count else 0.0
    root_total_sq = float(np.cumsum(root_scores * root_scores)[-1]) + 0.0 if count else 0.0
    move_id = with_root(playouts.move_ids.typecode, 0, node_move[created])
    del node_move
    depths = node_depth[created]
    del node_depth
    visits = with_root("q", count, node_visits[created])
    del node_visits
    total = with_root("d", root_total, node_total[created])
    del node_total
    total_sq = with_root("d", root_total_sq, node_total_sq[created])
    del node_total_sq

    # Children in creation order: node numbers sorted by (parent, number), one sort of unique keys.
    child_list = np.sort(parents.astype(np.int64) * nodes + np.arange(1, nodes)) % nodes
    child_start = np.zeros(nodes + 1, dtype=np.int64)
    np.cumsum(np.bincount(parents, minlength=nodes), out=child_start[1:])
    return Tree(
        moves=playouts.moves,
        parent=with_root("i", NO_PARENT, parents),
        move_id=move_id,
        depth=with_root("i", 0, depths),
        visits=visits,
        total=total,
        total_sq=total_sq,
        created_by=with_root("i", NO_PLAYOUT, created),
        child_start=column("i", child_start),
        child_list=column("i", child_list),
        reached=tree_reached,
        player=array("b", bytes(nodes)) if players == 1 else with_root("b", 0, depths % players),
        flags=array("B", bytes(nodes)),
        players=players,
        ties=playouts.ties,
        compact=playouts.compact,
    )


def _group_sums(np, group, scores, groups: int, visits):
    """Per group, the sum of its scores in playout order, starting from the group's first score.

    ``np.bincount`` sums from +0.0, so a group whose every score is -0.0 would come out +0.0 where
    the sequential sum (which starts from the first score) keeps -0.0.
    """
    totals = np.bincount(group, weights=scores, minlength=groups)
    negative_zero = (scores == 0.0) & np.signbit(scores)
    if negative_zero.any():
        zeros = np.bincount(group[negative_zero], minlength=groups)
        totals[zeros == visits] = -0.0
    return totals


_NUMPY_OF = {"b": "int8", "B": "uint8", "H": "uint16", "i": "int32", "q": "int64", "d": "float64"}


def _numpy_type(column) -> str:
    """The numpy dtype viewing an ``array.array`` (or ``range``) column."""
    return _NUMPY_OF[column.typecode]
