"""An independent, deliberately naive solver written straight from the puzzle statement.

It shares no code with mcts_core: nodes are objects with a dict of children, selection scans the
children in letter order keeping the first strictly larger value. The tests compare mcts_core with
it; the core benchmark times it as the baseline (parse, build and select, each on its own).
"""

from __future__ import annotations

import math


class Node:
    """A node of the statement's tree: its children by move, its visits and its total score."""

    __slots__ = ("children", "visits", "total")

    def __init__(self, visits: int = 0, total: float = 0.0):
        self.children: dict[str, Node] = {}
        self.visits = visits
        self.total = total


def reference_parse(text: str) -> tuple[float, list[tuple[str, float]]]:
    """Well-formed puzzle input as C and its (word, score) rows."""
    lines = text.strip().split("\n")
    count, c = lines[0].split()
    rows = []
    for line in lines[1 : 1 + int(count)]:
        word, score = line.split()
        rows.append((word, float(score)))
    return float(c), rows


def reference_tree(rows) -> Node:
    """The statement's tree of (word, score) rows: every playout adds to the root and to each node
    it enters, creates its first missing node with its one visit and score, and stops there."""
    root = Node()
    for word, score in rows:
        node = root
        node.visits += 1
        node.total += score
        for move in word:
            child = node.children.get(move)
            if child is None:
                node.children[move] = Node(1, score)
                break
            node = child
            node.visits += 1
            node.total += score
    return root


def reference_path(root: Node, c: float) -> str:
    """The statement's UCB1 descent from ``root``: at each node the child maximising
    ``s / v + c * sqrt(ln(N.v) / v)``, the first in letter order among equal values."""
    out = []
    node = root
    while node.children:
        log_parent = math.log(node.visits)
        best_move, best_value = None, None
        for move in sorted(node.children):
            child = node.children[move]
            value = child.total / child.visits + c * math.sqrt(log_parent / child.visits)
            if best_value is None or value > best_value:
                best_move, best_value = move, value
        out.append(best_move)
        node = node.children[best_move]
    return "".join(out)


def reference_solve(text: str) -> str:
    """Solve well-formed puzzle input the plain way."""
    c, rows = reference_parse(text)
    return reference_path(reference_tree(rows), c)
