"""The tree as an outline a person can open node by node, and the most visited line through it.

An outline lists a node's children with what an engine GUI shows for candidate moves: visits, the
share of the parent's visits, the mean from the mover's view, the rule's value and any proven
outcome. It needs no drawing, so it works on trees far too large to draw: opening a node costs one
scoring of its children.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..model.tree import ROOT, Tree
from ..selection import Scoring, score_children


def principal_variation(tree: Tree, start: int = ROOT) -> list[int]:
    """The most visited line from ``start`` (included): at each node the child with the most visits.

    Ties go to the tree's tie order (the smaller move, or the engine's order with ``ties: "first"``);
    the line stops at a node whose children all have 0 visits (or that has none).
    """
    line = [start]
    node = start
    while True:
        ranked = tree.ranked_children(node)
        if not ranked or not tree.visits[ranked[0]]:
            return line
        node = ranked[0]
        line.append(node)


@dataclass(frozen=True)
class OutlineRow:
    """One child in the outline.

    Attributes:
        node, move, depth: the child, the move leading into it, its depth (the root's children: 1).
        visits: its visits; share: its share of the parent's visits (0 when the parent has none).
        mean: its mean from the view of ``mover`` (the player to move at the parent); NaN at 0 visits.
        value: the rule's value at the scoring's C (what selection maximises); rank 1 is selected.
        outcome: the proven outcome for ``mover``, None when not proven.
        children: how many children it has (0: nothing to open).
    """

    node: int
    move: str
    depth: int
    visits: int
    share: float
    mover: int
    mean: float
    value: float
    rank: int
    outcome: float | None
    children: int


def outline_children(tree: Tree, node: int, scoring: Scoring) -> list[OutlineRow]:
    """``node``'s children as outline rows, most visited first (ties in the tree's tie order)."""
    scores = {score.node: score for score in score_children(tree, node, scoring)}
    parent_visits = tree.visits[node]
    rows = []
    for kid in tree.ranked_children(node):
        visits = tree.visits[kid]
        score = scores.get(kid)
        rows.append(OutlineRow(
            node=kid, move=tree.move[kid], depth=tree.depth[kid], visits=visits,
            share=visits / parent_visits if parent_visits else 0.0, mover=tree.mover(kid),
            mean=tree.total[kid] / visits if visits else math.nan,
            value=score.value if score is not None else math.nan,
            rank=score.rank if score is not None else 0,
            outcome=tree.outcome_of(kid), children=tree.children.count(kid),
        ))
    return rows

