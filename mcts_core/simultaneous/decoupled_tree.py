"""The decoupled tree: the joint tree plus, at every simultaneous node, each player's own-move statistics.

Decoupled UCT keeps, at a simultaneous node, one set of statistics per player over that player's
own moves: how many simulations chose the move there (whatever the others chose) and the sum of
their returns **for that player**. From a log they are the projection of its simulations: every
simulation that went on from the node through the joint child ``(a_0, ..., a_n)`` adds one visit
and its return ``r_i`` to player i's own move ``a_i``, in simulation order, so every total is the
float a search adding them one by one gets (sums start at 0.0; :func:`numpy.bincount` adds in
array order).

The joint tree itself is an ordinary :class:`~mcts_core.model.tree.Tree` built with the puzzle's rule
(:func:`~mcts_core.model.build.build_tree`) over joint moves; its columns keep their meaning (a joint
child's total is from the view of its parent's ``player``). What it cannot hold lives beside it in
:class:`DecoupledTree`, as flat columns: node n's own-move slots for player i are
``slot_start[n * players + i] : slot_start[n * players + i + 1]``, in the node's order (the own
moves a ``"moves"`` fact declared, in the engine's order, then the others by first play).

Own-move visits at a node sum to the simulations that chose there: every simulation through the
root (the root is never created by one), and at any other node its visits less the one that
created it and those that ended there.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..model.build import build_tree
from ..model.playouts import Fact, Playouts
from ..model.tree import ROOT, Tree
from .joint import JointMoves, SimultaneousFact, SimultaneousLog
from .replay_cache import ReplayCache


@dataclass(frozen=True)
class OwnMove:
    """One player's own move at a simultaneous node, with its statistics from that player's view."""

    player: int
    move: str
    position: int  # in the node's order of this player's moves
    visits: int
    total: float
    total_sq: float
    slot: int

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else math.nan


@dataclass(frozen=True, eq=False)
class DecoupledTree:
    """A joint tree with each player's own-move statistics at its simultaneous nodes.

    Attributes:
        tree: the joint tree (joint moves are moves named ``R|P``).
        joint: which of ``tree.moves`` are joint, and their own moves.
        simultaneous: per node, 1 when the node is simultaneous (it has joint children or a
            fact says so).
        slot_start: ``len(tree) * players + 1`` offsets into the slot columns.
        slot_move: each slot's own move (an id into ``joint.own_names``).
        slot_visits: simulations that chose the move at the node.
        slot_total: the sum of their returns for the slot's player.
        slot_total_sq: the sum of those returns squared.
        playouts: the joint log the tree was built from (None for a tree dump); regret matching
            and EXP3 replay it.
        count: how many of its playouts were used.
        cache: replays of regret matching and EXP3 (:class:`~mcts_core.simultaneous.replay_cache.ReplayCache`:
            locked, bounded), shared by every session reading the input.
    """

    tree: Tree
    joint: JointMoves
    simultaneous: Sequence[int]
    slot_start: Sequence[int]
    slot_move: Sequence[int]
    slot_visits: Sequence[int]
    slot_total: Sequence[float]
    slot_total_sq: Sequence[float]
    playouts: Playouts | None = None
    count: int = 0
    cache: ReplayCache = field(default_factory=ReplayCache, repr=False, compare=False)  # keyed by (tag, node, scoring)

    @property
    def players(self) -> int:
        return self.tree.players

    def cache_bytes(self) -> int:
        """Bytes its replay cache holds now (at most :data:`~mcts_core.simultaneous.replay_cache.MAX_BYTES`):
        a memory count of the input should add them to its columns'."""
        return self.cache.nbytes

    def is_simultaneous(self, node: int) -> bool:
        return bool(self.simultaneous[node])

    def slots(self, node: int, player: int) -> range:
        """Player ``player``'s own-move slots at ``node`` (empty at a sequential node)."""
        at = node * self.players + player
        return range(self.slot_start[at], self.slot_start[at + 1])

    def own_moves(self, node: int, player: int) -> list[OwnMove]:
        """Player ``player``'s own moves at ``node`` in the node's order, with their statistics."""
        names = self.joint.own_names
        return [
            OwnMove(player, names[self.slot_move[slot]], position, self.slot_visits[slot], self.slot_total[slot],
                    self.slot_total_sq[slot], slot)
            for position, slot in enumerate(self.slots(node, player))
        ]

    def joint_move(self, node: int) -> tuple[str, ...] | None:
        """The joint move leading into ``node`` (one move per player), None for a sequential move or the root."""
        return self.joint.names_of(self.tree.move_id[node]) if node != ROOT else None

    def joint_children(self, node: int) -> list[tuple[int, tuple[str, ...]]]:
        """``node``'s joint children in its order, with their joint moves."""
        return [(kid, self.joint_move(kid)) for kid in self.tree.children[node]]

    def joint_child(self, node: int, moves: Sequence[str]) -> int | None:
        """The child of ``node`` reached by the joint move ``moves``, None when no simulation made it."""
        wanted = tuple(moves)
        for kid in self.tree.children[node]:
            if self.joint_move(kid) == wanted:
                return kid
        return None

    def element(self, node: int) -> str | list[str]:
        """The move leading into ``node`` as a log writes it: a name, or a list (a joint move)."""
        joint = self.joint_move(node)
        return list(joint) if joint is not None else self.tree.move[node]

    def path_elements(self, node: int) -> list[str | list[str]]:
        """The moves from the root to ``node`` as a log writes them."""
        return [self.element(n) for n in self.tree.path_nodes(node)[1:]]

    def find(self, elements: Sequence[str | Sequence[str]]) -> int:
        """The node the moves reach from the root (joint moves as sequences of names).

        Raises:
            KeyError: with how far the path exists.
        """
        node = ROOT
        for depth, element in enumerate(elements):
            if isinstance(element, str):
                kid = self.tree.child(node, element)
            else:
                kid = self.joint_child(node, element)
            if kid is None:
                where = "at the root" if not depth else f"after {list(elements[:depth])}"
                raise KeyError(f"no move {element!r} {where}")
            node = kid
        return node

    def choices(self, node: int) -> int:
        """How many simulations chose a joint move at ``node``: its joint children's visits."""
        return sum(self.tree.visits[kid] for kid in self.tree.children[node])

    def visit_shares(self, node: int, player: int) -> dict[str, float]:
        """Each own move's share of the player's own-move visits at ``node`` (its empirical strategy)."""
        moves = self.own_moves(node, player)
        visits = sum(move.visits for move in moves)
        return {move.move: move.visits / visits if visits else 1.0 / len(moves) for move in moves}

    def simultaneous_nodes(self) -> list[int]:
        return [node for node in range(len(self.tree)) if self.simultaneous[node]]


def build_decoupled(playouts: Playouts, log: SimultaneousLog, upto: int | None = None,
                    *, tree: Tree | None = None) -> DecoupledTree:
    """The decoupled tree of the first ``upto`` simulations of a simultaneous log (all when None).

    Args:
        playouts: the log's joint playouts (:func:`mcts_core.inputs.formats.log.read_log`).
        log: what its simultaneous moves add.
        upto: how many simulations (every fact applies, wherever it stands in the log).
        tree: ``build_tree(playouts, upto)`` when the caller has it already.
    """
    import numpy as np

    count = len(playouts) if upto is None else upto
    tree = build_tree(playouts, count) if tree is None else tree
    players, nodes = playouts.players, len(tree)
    own_names = log.joint.own_names
    own_count = max(len(own_names), 1)
    table = np.full((max(len(playouts.moves), 1), players), -1, dtype=np.int64)
    for move, own in enumerate(log.joint.joint_of):
        if own is not None:
            table[move] = own
    parent = np.asarray(tree.parent, dtype=np.int64)
    move_id = np.asarray(tree.move_id, dtype=np.int64)
    joint_child = table[move_id, 0] >= 0
    joint_child[ROOT] = False
    simultaneous = np.zeros(nodes, dtype=np.uint8)
    simultaneous[parent[joint_child]] = 1

    # Own moves a fact declared, per (node, player), in the engine's order (the last fact wins).
    declared: dict[tuple[int, int], tuple[int, ...]] = {}
    if log.facts:  # every fact holds from the first simulation on, as in build_tree
        index = _child_index(tree)
        for fact in log.facts:
            node = _node_of(index, fact)
            simultaneous[node] = 1 if fact.simultaneous else simultaneous[node]
            if fact.moves is not None:
                for player, moves in enumerate(fact.moves):
                    declared[(node, player)] = moves

    # Slot table: every (node, player, own move), declared first in their order, then by first play.
    kids = np.flatnonzero(joint_child)  # creation order: a move's first play creates its first joint child
    big = nodes + 1
    groups, owns, ranks = [], [], []
    for player in range(players):
        groups.append(parent[kids] * players + player)
        owns.append(table[move_id[kids], player])
        ranks.append(big + kids)
    if declared:
        entries = [(node * players + player, own, rank) for (node, player), moves in declared.items()
                   for rank, own in enumerate(moves)]
        groups.append(np.array([e[0] for e in entries], dtype=np.int64))
        owns.append(np.array([e[1] for e in entries], dtype=np.int64))
        ranks.append(np.array([e[2] for e in entries], dtype=np.int64))
    group = np.concatenate(groups) if groups else np.zeros(0, dtype=np.int64)
    own = np.concatenate(owns) if owns else np.zeros(0, dtype=np.int64)
    rank = np.concatenate(ranks) if ranks else np.zeros(0, dtype=np.int64)
    key = group * own_count + own
    ranks_span = int(rank.max(initial=0)) + 1
    by_key = np.argsort(key * ranks_span + rank)  # each key's smallest rank first (no two entries tie)
    sorted_key = key[by_key]
    first = np.ones(len(key), dtype=bool)
    first[1:] = sorted_key[1:] != sorted_key[:-1]
    distinct_of_sorted = np.cumsum(first) - 1
    group, own, rank = group[by_key][first], own[by_key][first], rank[by_key][first]
    order = np.argsort(group * ranks_span + rank)  # slots: by node and player, then in the node's order
    slot_group, slot_move = group[order], own[order]
    slots = len(slot_group)
    slot_of_distinct = np.empty(slots, dtype=np.int64)
    slot_of_distinct[order] = np.arange(slots)
    entry_slot = np.empty(len(key), dtype=np.int64)  # each entry's slot: the joint children's first
    entry_slot[by_key] = slot_of_distinct[distinct_of_sorted]
    slot_start = np.zeros(nodes * players + 1, dtype=np.int64)
    np.cumsum(np.bincount(slot_group, minlength=nodes * players), out=slot_start[1:])

    # Every (simulation, node entered) in simulation order, depth by depth within a simulation.
    visits = np.zeros(slots, dtype=np.int64)
    total = np.zeros(slots, dtype=np.float64)
    total_sq = np.zeros(slots, dtype=np.float64)
    if count:
        reached = np.asarray(tree.reached, dtype=np.int64)[:count]
        depth = np.asarray(tree.depth, dtype=np.int64)
        event_node, event_playout = _entered(np, reached, depth, parent)
        keep = joint_child[event_node]
        if not keep.all():  # only the nodes entered by a joint move count
            event_node, event_playout = event_node[keep], event_playout[keep]
        returns = np.asarray(playouts.returns, dtype=np.float64)[: count * players].reshape(count, players)
        child_visits = np.asarray(tree.visits, dtype=np.int64)[kids]
        slot_of_child = np.empty(nodes, dtype=np.int64)  # per player: the slot of a joint child's own move
        for player in range(players):
            child_slot = entry_slot[player * len(kids):(player + 1) * len(kids)]
            mine = np.flatnonzero(slot_group % players == player)
            # Visits are whole numbers: summed per joint child, in any order. Totals are floats: summed
            # return by return, in simulation order, as the search adds them.
            visits[mine] = np.bincount(child_slot, weights=child_visits, minlength=slots)[mine].astype(np.int64)
            slot_of_child[kids] = child_slot
            slot = slot_of_child[event_node]
            scores = returns[:, player][event_playout]
            total[mine] = np.bincount(slot, weights=scores, minlength=slots)[mine]
            total_sq[mine] = np.bincount(slot, weights=scores * scores, minlength=slots)[mine]

    from array import array

    return DecoupledTree(
        tree=tree,
        joint=log.joint,
        simultaneous=array("B", simultaneous.tobytes()),
        slot_start=array("q", slot_start.tobytes()),
        slot_move=array("i", slot_move.astype(np.int32).tobytes()),
        slot_visits=array("q", visits.tobytes()),
        slot_total=array("d", total.tobytes()),
        slot_total_sq=array("d", total_sq.tobytes()),
        playouts=playouts,
        count=count,
    )


def _entered(np, reached, depth, parent):
    """(node, simulation) of every node each simulation entered below the root, simulation by
    simulation, shallow to deep: simulation p entered the nodes from the root to ``reached[p]``."""
    depths = depth[reached]
    starts = np.zeros(len(reached) + 1, dtype=np.int64)
    np.cumsum(depths, out=starts[1:])
    nodes = np.empty(int(starts[-1]), dtype=np.int64)
    active = np.flatnonzero(depths > 0)
    current = reached.copy()
    up = 0
    while active.size:  # walk up from the deepest node: step ``up`` fills position depth - 1 - up
        nodes[starts[active] + depths[active] - 1 - up] = current[active]
        current[active] = parent[current[active]]
        up += 1
        active = active[depths[active] > up]
    playouts = np.repeat(np.arange(len(reached), dtype=np.int64), depths)
    return nodes, playouts


def _child_index(tree: Tree) -> dict[tuple[int, int], int]:
    parent, move_id = tree.parent, tree.move_id
    return {(parent[kid], move_id[kid]): kid for kid in range(1, len(tree))}


def _node_of(index: dict[tuple[int, int], int], fact: SimultaneousFact | Fact) -> int:
    """The node a fact names (build_tree creates every such node)."""
    node = ROOT
    for move in fact.path:
        node = index[(node, move)]
    return node
