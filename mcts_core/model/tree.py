"""The MCTS tree as flat columns: node i's statistics sit at index i of each column (root = 0).

Nodes are numbered in creation order, so a parent always has a smaller number than its children.
Children are stored once, in CSR form: node i's children are ``child_list[child_start[i]:
child_start[i + 1]]``, in the node's order (the engine's declared order, then creation order).
Moves are ids into ``moves``. Columns are ``array.array``: compact, and numpy can view them
without a copy. Treat every column as read-only: trees are cached and shared between app sessions.

Perspective: a node's ``total`` is from the view of the player who moved into it (the player to
move at its parent; for the root, the player to move at the root), so selection at any node
maximises its children's values as they are.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from .playouts import join_path, split_path

ROOT = 0
NO_PARENT = -1
NO_PLAYOUT = -1

# Bits of Tree.flags.
CHANCE = 1  # the node's children are sampled, not selected
TERMINAL = 2  # the game ended at the node
DECLARED = 4  # the node exists because a log declared it (it may have 0 visits)


class _MoveNames:
    """``tree.move[node]``: the name of the move leading into a node ("" for the root)."""

    __slots__ = ("_moves", "_ids")

    def __init__(self, moves: tuple[str, ...], ids: Sequence[int]):
        self._moves, self._ids = moves, ids

    def __getitem__(self, node: int) -> str:
        return self._moves[self._ids[node]] if node else ""

    def __len__(self) -> int:
        return len(self._ids)


class _ChildLists:
    """``tree.children[node]``: a node's children, in the node's order."""

    __slots__ = ("_start", "_list")

    def __init__(self, start: Sequence[int], kids: Sequence[int]):
        self._start, self._list = start, kids

    def __getitem__(self, node: int) -> Sequence[int]:
        return self._list[self._start[node] : self._start[node + 1]]

    def __len__(self) -> int:
        return len(self._start) - 1

    def count(self, node: int) -> int:
        """How many children ``node`` has."""
        return self._start[node + 1] - self._start[node]


class NodeKinds:
    """What a tree with ``flags`` and ``prior`` columns says of a node (the built tree and the live one)."""

    def is_chance(self, node: int) -> bool:
        return bool(self.flags[node] & CHANCE)

    def is_terminal(self, node: int) -> bool:
        return bool(self.flags[node] & TERMINAL)

    def prior_of(self, node: int) -> float | None:
        """The prior declared for this node as its parent's child (by the log or the search), None if none."""
        if self.prior is None or math.isnan(self.prior[node]):
            return None
        return self.prior[node]


@dataclass(frozen=True, eq=False)
class Tree(NodeKinds):
    """An MCTS tree.

    Attributes:
        moves: move names by id.
        parent: parent node, NO_PARENT for the root.
        move_id: the id of the move leading into the node (unused for the root).
        depth: number of moves from the root.
        visits: playouts that passed through the node.
        total: sum of their returns for the player who moved into the node.
        total_sq: sum of those returns squared (for variance-aware rules such as UCB1-Tuned).
        created_by: the playout after which the node exists (the one that created it), or
            NO_PLAYOUT when it exists before the first playout (the root, declared nodes).
        child_start: ``len + 1`` offsets into ``child_list``.
        child_list: every node's children, one node after the other.
        reached: for each playout, the deepest node it updated.
        player: who moves at the node.
        flags: CHANCE, TERMINAL and DECLARED bits.
        prior: the node's prior as its parent's child (NaN: none given); None when no node has one.
        outcome: the node's proven value for the player who moved into it (NaN: not proven);
            None when no node has one.
        players: how many players the game has.
        ties: ``"smaller"`` (exact ties go to the smaller move) or ``"first"`` (to the first child
            in the node's order).
        compact: every move is one character: paths are written without spaces.
    """

    moves: tuple[str, ...]
    parent: Sequence[int]
    move_id: Sequence[int]
    depth: Sequence[int]
    visits: Sequence[int]
    total: Sequence[float]
    total_sq: Sequence[float]
    created_by: Sequence[int]
    child_start: Sequence[int]
    child_list: Sequence[int]
    reached: Sequence[int]
    player: Sequence[int]
    flags: Sequence[int]
    prior: Sequence[float] | None = None
    outcome: Sequence[float] | None = None
    players: int = 1
    ties: str = "smaller"
    compact: bool = True

    def __len__(self) -> int:
        return len(self.parent)

    @cached_property
    def move(self) -> _MoveNames:
        """``tree.move[node]``: the move leading into ``node`` ("" for the root)."""
        return _MoveNames(self.moves, self.move_id)

    @cached_property
    def children(self) -> _ChildLists:
        """``tree.children[node]``: the node's children in its order."""
        return _ChildLists(self.child_start, self.child_list)

    @property
    def playouts(self) -> int:
        """Number of playouts the tree was built from."""
        return len(self.reached)

    @cached_property
    def visited_nodes(self) -> int:
        """Nodes with at least one visit; the others are children a log or dump declared that no
        simulation has reached yet."""
        return len(self.visits) - self.visits.count(0)

    @cached_property
    def max_depth(self) -> int:
        """Depth of the deepest node (computed once: the app shows it on every rerun)."""
        return max(self.depth)

    def mean(self, node: int) -> float:
        """Average return of a node, ``total / visits`` (the UCB1 exploitation term); NaN at 0 visits."""
        visits = self.visits[node]
        return self.total[node] / visits if visits else math.nan

    def mover(self, node: int) -> int:
        """The player whose view the node's total takes: who moved into it (the root: who moves there)."""
        return self.player[self.parent[node]] if node else self.player[ROOT]

    def outcome_of(self, node: int) -> float | None:
        """The node's proven value for the player who moved into it, None when not proven."""
        if self.outcome is None or math.isnan(self.outcome[node]):
            return None
        return self.outcome[node]

    def path_moves(self, node: int) -> tuple[str, ...]:
        """The moves from the root to ``node``."""
        moves, names, ids, parent = [], self.moves, self.move_id, self.parent
        while node != ROOT:
            moves.append(names[ids[node]])
            node = parent[node]
        return tuple(reversed(moves))

    def path(self, node: int) -> str:
        """The path to ``node`` as text: ``ba``, or ``e2e4 e7e5`` when moves have names."""
        return join_path(self.path_moves(node), self.compact)

    def format_path(self, moves: Sequence[str]) -> str:
        """Moves as text, the way :meth:`path` writes them."""
        return join_path(moves, self.compact)

    def split_path(self, text: str) -> tuple[str, ...]:
        """The moves a typed path names (characters for compact trees, else words)."""
        return split_path(text, self.compact)

    def path_nodes(self, node: int) -> list[int]:
        """Nodes from the root down to ``node``, both included."""
        nodes = [node]
        while node != ROOT:
            node = self.parent[node]
            nodes.append(node)
        return nodes[::-1]

    def child(self, node: int, move: str) -> int | None:
        """The child of ``node`` reached by ``move``, or None."""
        names, ids = self.moves, self.move_id
        for kid in self.children[node]:
            if names[ids[kid]] == move:
                return kid
        return None

    def tie_order(self, node: int) -> list[int]:
        """``node``'s children in tie order: by move name (``ties = "smaller"``) or as stored."""
        kids = list(self.children[node])
        if self.ties == "smaller":
            kids.sort(key=self.move.__getitem__)
        return kids

    def ranked_children(self, node: int) -> list[int]:
        """Children by visits, most first, ties in tie order: the order drawing caps keep them in."""
        kids = self.tie_order(node)
        return sorted(kids, key=lambda kid: -self.visits[kid])

    def deepest(self, path: str | Sequence[str]) -> tuple[int, int]:
        """The node the longest existing prefix of ``path`` reaches, and that prefix's length."""
        moves = self.split_path(path) if isinstance(path, str) else path
        node = ROOT
        for depth, move in enumerate(moves):
            kid = self.child(node, move)
            if kid is None:
                return node, depth
            node = kid
        return node, len(moves)

    def find(self, path: str | Sequence[str]) -> int:
        """The node reached from the root by ``path`` (text as :meth:`path` writes it, or moves).

        Raises:
            KeyError: with a message saying how far the path exists.
        """
        moves = self.split_path(path) if isinstance(path, str) else tuple(path)
        node, depth = self.deepest(moves)
        if depth < len(moves):
            where = f"after {self.format_path(moves[:depth])!r}" if depth else "at the root"
            raise KeyError(f"no move {moves[depth]!r} {where}")
        return node

