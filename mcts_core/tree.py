"""The MCTS tree as plain data: per-node statistics in lists indexed by node number."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

ROOT = 0
NO_PARENT = -1
NO_PLAYOUT = -1


@dataclass(frozen=True, eq=False)
class Tree:
    """An MCTS tree; node i's statistics sit at index i of each list (root = 0).

    Nodes are numbered in creation order, so a parent always has a smaller index than its
    children. Treat every list as read-only: trees are cached and shared between app sessions.

    Attributes:
        parent: parent node, NO_PARENT for the root.
        move: the move leading into the node ("" for the root).
        depth: number of moves from the root.
        visits: playouts that passed through the node.
        total: sum of those playouts' scores.
        total_sq: sum of their squared scores (for variance-aware rules such as UCB1-Tuned).
        created_by: index of the playout that created the node, NO_PLAYOUT for the root.
        children: child nodes in creation order.
        reached: for each playout used, the deepest node it updated (the node it created, or the
            end of its word if the whole word existed).
    """

    parent: list[int]
    move: list[str]
    depth: list[int]
    visits: list[int]
    total: list[float]
    total_sq: list[float]
    created_by: list[int]
    children: list[list[int]]
    reached: list[int] = field(repr=False)

    def __len__(self) -> int:
        return len(self.parent)

    @property
    def playouts(self) -> int:
        """Number of playouts the tree was built from."""
        return len(self.reached)

    @cached_property
    def max_depth(self) -> int:
        """Depth of the deepest node (computed once: the app shows it on every rerun)."""
        return max(self.depth)

    def mean(self, node: int) -> float:
        """Average score of a node, ``total / visits`` (the UCB1 exploitation term)."""
        return self.total[node] / self.visits[node]

    def path(self, node: int) -> str:
        """The word of moves from the root to ``node``."""
        moves = []
        while node != ROOT:
            moves.append(self.move[node])
            node = self.parent[node]
        return "".join(reversed(moves))

    def path_nodes(self, node: int) -> list[int]:
        """Nodes from the root down to ``node``, both included."""
        nodes = [node]
        while node != ROOT:
            node = self.parent[node]
            nodes.append(node)
        return nodes[::-1]

    def child(self, node: int, move: str) -> int | None:
        """The child of ``node`` reached by ``move``, or None."""
        for kid in self.children[node]:
            if self.move[kid] == move:
                return kid
        return None

    def ranked_children(self, node: int) -> list[int]:
        """Children by visits, most first (ties by move): the order drawing caps keep them in."""
        return sorted(self.children[node], key=lambda kid: (-self.visits[kid], self.move[kid]))

    def deepest(self, path: str) -> tuple[int, int]:
        """The node the longest existing prefix of ``path`` reaches, and that prefix's length."""
        node = ROOT
        for depth, move in enumerate(path):
            kid = self.child(node, move)
            if kid is None:
                return node, depth
            node = kid
        return node, len(path)

    def find(self, path: str) -> int:
        """The node reached from the root by ``path``.

        Raises:
            KeyError: with a message saying how far the path exists.
        """
        node, depth = self.deepest(path)
        if depth < len(path):
            where = f"after {path[:depth]!r}" if depth else "at the root"
            raise KeyError(f"no move {path[depth]!r} {where}")
        return node
