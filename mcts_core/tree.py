"""The MCTS tree as plain data, built playout by playout with the puzzle's rule.

Rule (seed 001, DESIGN.md "Puzzle semantics"): every playout adds its score and one visit to the
root, walks down its word while the next node exists (updating each node it enters), and creates the
first missing node with that one visit and score, then stops. A playout whose whole word exists
creates nothing. Scores are summed in playout order, node by node, so every total is the same float
a straightforward implementation of the statement gets.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .playouts import Playouts

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

    @property
    def max_depth(self) -> int:
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

    def find(self, path: str) -> int:
        """The node reached from the root by ``path``.

        Raises:
            KeyError: with a message saying how far the path exists.
        """
        node = ROOT
        for depth, move in enumerate(path):
            kid = self.child(node, move)
            if kid is None:
                where = f"after {path[:depth]!r}" if depth else "at the root"
                raise KeyError(f"no move {move!r} {where}")
            node = kid
        return node


def build_tree(playouts: Playouts, upto: int | None = None) -> Tree:
    """Build the tree from the first ``upto`` playouts (all of them when None).

    Args:
        playouts: parsed input.
        upto: number of playouts to use, 0 <= upto <= len(playouts).

    Returns:
        The tree after those playouts.
    """
    count = len(playouts) if upto is None else upto
    if not 0 <= count <= len(playouts):
        raise ValueError(f"upto must be between 0 and {len(playouts)}, got {upto}")

    parent, move, depth = [NO_PARENT], [""], [0]
    visits, total, total_sq = [0], [0.0], [0.0]
    created_by, children, reached = [NO_PLAYOUT], [[]], []
    # Prefix -> node: one dict probe per step instead of a scan of the children.
    index = {"": ROOT}
    words, scores = playouts.words, playouts.scores
    for p in range(count):
        word, score = words[p], scores[p]
        square = score * score
        node = ROOT
        visits[ROOT] += 1
        total[ROOT] += score
        total_sq[ROOT] += square
        for k in range(1, len(word) + 1):
            prefix = word[:k]
            kid = index.get(prefix)
            if kid is None:  # expand: the first missing node is created and the playout stops
                kid = len(parent)
                index[prefix] = kid
                parent.append(node)
                move.append(word[k - 1])
                depth.append(k)
                visits.append(1)
                total.append(score)
                total_sq.append(square)
                created_by.append(p)
                children.append([])
                children[node].append(kid)
                node = kid
                break
            visits[kid] += 1
            total[kid] += score
            total_sq[kid] += square
            node = kid
        reached.append(node)
    return Tree(parent, move, depth, visits, total, total_sq, created_by, children, reached)
