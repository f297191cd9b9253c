"""Selection rules as pure functions, a registry of them, and the selected path.

Every rule has one signature: the parent's visit count and the child's visits and total score come
positionally, settings are keyword-only. It returns the child's terms in display order; the key
``"value"`` is what selection maximises. Ties between exactly equal values go to the smaller move
(:func:`selection_key`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from .tree import ROOT, Tree

Terms = dict[str, float]


def ucb1(parent_visits: int, visits: int, total: float, *, c: float) -> Terms:
    """UCB1 as the puzzle defines it: ``M.s / M.v + C * sqrt(ln(N.v) / M.v)``.

    Source: the puzzle statement (seeds/001) and Auer, Cesa-Bianchi, Fischer (2002),
    https://doi.org/10.1023/A:1013689704352. The value is computed in exactly the statement's form
    so that it is the same float a C++ or Python solution of the puzzle gets.

    Args:
        parent_visits: N.v, visits of the node choosing a child.
        visits: M.v, visits of the child (>= 1).
        total: M.s, sum of the child's scores.
        c: the exploration constant C >= 0.

    Returns:
        ``mean`` (exploitation), ``exploration`` and their sum ``value``.
    """
    mean = total / visits
    exploration = c * math.sqrt(math.log(parent_visits) / visits)
    return {"mean": mean, "exploration": exploration, "value": mean + exploration}


@dataclass(frozen=True)
class Rule:
    """A registered selection rule: the function plus what the UI needs to present it."""

    name: str
    function: Callable[..., Terms]
    formula: str  # LaTeX
    source: str


RULES: dict[str, Rule] = {
    "ucb1": Rule(
        name="UCB1",
        function=ucb1,
        formula=r"\frac{M.s}{M.v} + C\sqrt{\frac{\ln N.v}{M.v}}",
        source="https://www.codingame.com/training/hard/monte-carlo-tree-search-exercise",
    ),
}
DEFAULT_RULE = "ucb1"


def selection_key(value: float, move: str) -> tuple[float, str]:
    """Sort key putting the child that selection picks first.

    Larger value first; exactly equal floats tie, and a tie goes to the smaller move character (by
    code point, so ``a`` before ``b``, ``0`` before ``a``), as the puzzle statement requires.
    """
    return (-value, move)


@dataclass(frozen=True)
class ChildScore:
    """One child's statistics and terms under a rule; ``rank`` 1 is the child selection picks."""

    node: int
    move: str
    visits: int
    total: float
    terms: Terms
    rank: int

    @property
    def value(self) -> float:
        return self.terms["value"]

    @property
    def selected(self) -> bool:
        return self.rank == 1


def score_children(tree: Tree, node: int, *, rule: str = DEFAULT_RULE, **settings) -> list[ChildScore]:
    """Score every child of ``node``, best first.

    Args:
        tree: the tree.
        node: the node choosing a child.
        rule: a key of :data:`RULES`.
        **settings: the rule's keyword settings (for UCB1: ``c``).

    Returns:
        One :class:`ChildScore` per child, sorted by :func:`selection_key` (empty for a leaf).
    """
    function = RULES[rule].function
    parent_visits = tree.visits[node]
    scored = [
        (kid, function(parent_visits, tree.visits[kid], tree.total[kid], **settings))
        for kid in tree.children[node]
    ]
    scored.sort(key=lambda item: selection_key(item[1]["value"], tree.move[item[0]]))
    return [
        ChildScore(kid, tree.move[kid], tree.visits[kid], tree.total[kid], terms, rank)
        for rank, (kid, terms) in enumerate(scored, start=1)
    ]


def select_child(tree: Tree, node: int, *, rule: str = DEFAULT_RULE, **settings) -> int | None:
    """The child selection picks at ``node``, or None at a leaf."""
    function = RULES[rule].function
    parent_visits = tree.visits[node]
    best, best_key = None, None
    for kid in tree.children[node]:
        value = function(parent_visits, tree.visits[kid], tree.total[kid], **settings)["value"]
        key = selection_key(value, tree.move[kid])
        if best_key is None or key < best_key:  # no "best so far = 0": values may be negative
            best, best_key = kid, key
    return best


def selected_nodes(tree: Tree, *, rule: str = DEFAULT_RULE, start: int = ROOT, **settings) -> list[int]:
    """Nodes on the selected path from ``start`` down to a leaf, both included."""
    nodes = [start]
    kid = select_child(tree, start, rule=rule, **settings)
    while kid is not None:
        nodes.append(kid)
        kid = select_child(tree, kid, rule=rule, **settings)
    return nodes


def select_path(tree: Tree, *, rule: str = DEFAULT_RULE, **settings) -> str:
    """The moves selection follows from the root to a leaf (the puzzle's answer)."""
    return "".join(tree.move[node] for node in selected_nodes(tree, rule=rule, **settings)[1:])
