"""An independent, deliberately naive solver written straight from the puzzle statement.

It shares no code with mcts_core: nodes are objects with a dict of children, selection scans the
children in letter order keeping the first strictly larger value. Tests compare mcts_core with it.
"""

import math


class _Node:
    def __init__(self):
        self.children = {}
        self.v = 0
        self.s = 0.0


def reference_tree(rows):
    """Build the statement's tree from (word, score) rows; returns the root node."""
    root = _Node()
    for word, score in rows:
        node = root
        node.v += 1
        node.s += score
        for move in word:
            if move not in node.children:
                new = _Node()
                new.v += 1
                new.s += score
                node.children[move] = new
                break
            node = node.children[move]
            node.v += 1
            node.s += score
    return root


def reference_path(root, c):
    """The statement's UCB1 descent from ``root``."""
    out = []
    node = root
    while node.children:
        best_move, best_value = None, None
        for move in sorted(node.children):
            child = node.children[move]
            value = child.s / child.v + c * math.sqrt(math.log(node.v) / child.v)
            if best_value is None or value > best_value:
                best_move, best_value = move, value
        out.append(best_move)
        node = node.children[best_move]
    return "".join(out)


def reference_solve(text):
    """Solve well-formed puzzle input the plain way."""
    lines = text.strip().split("\n")
    count, c = lines[0].split()
    rows = []
    for line in lines[1 : 1 + int(count)]:
        word, score = line.split()
        rows.append((word, float(score)))
    return reference_path(reference_tree(rows), float(c))


def reference_dict(node, digits=6):
    """A node and its subtree as rounded nested dicts (the golden-fixture format)."""
    return {
        "visits": node.v,
        "total": round(node.s, digits),
        "children": {move: reference_dict(kid, digits) for move, kid in sorted(node.children.items())},
    }
