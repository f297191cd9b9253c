"""A node and its children as a tree of their own (a star), whose statistics an analysis sets.

What selection would do at a node with other numbers (more visits to one child, the statistics
after some playout) is asked of a star: the node is its root, the chosen children its children in
the node's order, every column but the statistics copied (moves, players, flags, priors, proven
outcomes, the tie rule). The star belongs to its caller, who writes its ``visits``, ``total`` and
``total_sq`` columns between questions: a few array writes instead of a tree per question.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Sequence

from ..model.tree import NO_PARENT, NO_PLAYOUT, Tree


def node_star(tree: Tree, node: int, kids: Sequence[int]) -> Tree:
    """``node`` as the root (0) of a tree whose children are ``kids`` (1..m, in this order).

    Args:
        tree: the tree holding ``node``.
        node: the node choosing.
        kids: some of its children, in its order (all of them, or those existing at some moment).

    Returns:
        A fresh :class:`Tree` with the node's and these children's columns (statistics included,
        as they are in ``tree``); its columns are the caller's to write.
    """
    nodes = [node, *kids]
    count = len(kids)

    def optional(column):
        return None if column is None else array("d", [math.nan] + [column[kid] for kid in kids])

    return Tree(
        moves=tree.moves,
        parent=array("i", [NO_PARENT] + [0] * count),
        move_id=array("i", [0] + [tree.move_id[kid] for kid in kids]),
        depth=array("i", [0] + [1] * count),
        visits=array("q", [tree.visits[n] for n in nodes]),
        total=array("d", [tree.total[n] for n in nodes]),
        total_sq=array("d", [tree.total_sq[n] for n in nodes]),
        created_by=array("i", [NO_PLAYOUT] * (count + 1)),
        child_start=array("i", [0] + [count] * (count + 1)),
        child_list=array("i", range(1, count + 1)),
        reached=array("i"),
        player=array("b", [tree.player[n] for n in nodes]),
        flags=array("B", [tree.flags[n] for n in nodes]),
        prior=optional(tree.prior),
        outcome=optional(tree.outcome),
        players=tree.players,
        ties=tree.ties,
        compact=tree.compact,
    )
