"""The naive solver written straight from the statement (:mod:`bench.harness.reference`, which the core
benchmark times too), and its tree as the golden fixtures write it."""

from bench.harness.reference import reference_path, reference_solve, reference_tree

__all__ = ["reference_dict", "reference_path", "reference_solve", "reference_tree"]


def reference_dict(node, digits=6):
    """A node and its subtree as rounded nested dicts (the golden-fixture format)."""
    return {
        "visits": node.visits,
        "total": round(node.total, digits),
        "children": {move: reference_dict(kid, digits) for move, kid in sorted(node.children.items())},
    }
