"""Two selection settings on the same tree: where their paths split and why.

A setting is a :class:`~mcts_core.selection.Scoring`. Both selected paths start at the root and
end at a leaf, so two
different paths always part at a node with children where the settings pick different children;
:func:`compare_paths` scores those children under both settings and lines their terms up.

Rules name their terms differently (UCB1 has ``exploration``, PUCT ``prior`` and ``q``, a sample
threshold ``probability``...), and a sample-threshold rule returns different terms below and above
its threshold, so the terms are matched by name at the split node: the common ones are compared
(B minus A), the others are reported per side.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..selection import ChildScore, Scoring, score_children, selected_nodes
from ..model.tree import Tree


@dataclass(frozen=True)
class ChildComparison:
    """One child of the split node under both settings.

    Attributes:
        a: the child's score under setting A.
        b: the child's score under setting B.
        differences: per common term (including ``value``), B's term minus A's.
    """

    a: ChildScore
    b: ChildScore
    differences: dict[str, float]

    @property
    def node(self) -> int:
        return self.a.node

    @property
    def move(self) -> str:
        return self.a.move

    @property
    def rank_changed(self) -> bool:
        return self.a.rank != self.b.rank


@dataclass(frozen=True)
class Comparison:
    """The selected paths of two settings and the children of the node where they split.

    Attributes:
        path_a: nodes selected under A, root first, ending at a leaf.
        path_b: the same under B.
        split: the deepest node both paths contain; when the paths are identical it is their
            common leaf.
        children: the split node's children, best under A first (empty when the paths agree).
        common_terms: term names both settings return at the split node, in A's order.
        only_a: term names only A returns there.
        only_b: term names only B returns there.
    """

    path_a: tuple[int, ...]
    path_b: tuple[int, ...]
    split: int
    children: tuple[ChildComparison, ...]
    common_terms: tuple[str, ...]
    only_a: tuple[str, ...]
    only_b: tuple[str, ...]

    @property
    def identical(self) -> bool:
        return self.path_a == self.path_b

    @property
    def shared(self) -> tuple[int, ...]:
        """Nodes both paths contain: the root down to the split node."""
        return self.path_a[: self.path_a.index(self.split) + 1]

    @property
    def choice_a(self) -> int | None:
        """The child A selects at the split node (None when the paths are identical)."""
        return _after(self.path_a, self.split)

    @property
    def choice_b(self) -> int | None:
        """The child B selects at the split node (None when the paths are identical)."""
        return _after(self.path_b, self.split)


def compare_paths(tree: Tree, a: Scoring, b: Scoring) -> Comparison:
    """Select a path under each setting and compare the choice where they part.

    Args:
        tree: the tree.
        a: setting A.
        b: setting B.

    Returns:
        The :class:`Comparison`. Random draws (under a sample threshold) are compared like any other
        choice: the path follows the most likely child, and :attr:`ChildScore.random` tells.
    """
    path_a = tuple(selected_nodes(tree, a))
    path_b = tuple(selected_nodes(tree, b))
    shared = 0
    while shared < min(len(path_a), len(path_b)) and path_a[shared] == path_b[shared]:
        shared += 1
    split = path_a[shared - 1]  # both paths start at the root, so shared >= 1
    if path_a == path_b:
        return Comparison(path_a, path_b, split, (), (), (), ())

    under_a = score_children(tree, split, a)
    under_b = {child.node: child for child in score_children(tree, split, b)}
    # Every child of one node is scored by the same branch of a rule, so the first child's term
    # names are everyone's.
    names_a = list(under_a[0].terms)
    names_b = list(under_b[under_a[0].node].terms)
    common = tuple(name for name in names_a if name in names_b)
    children = []
    for child in under_a:
        other = under_b[child.node]
        children.append(ChildComparison(child, other, {name: other.terms[name] - child.terms[name] for name in common}))
    return Comparison(
        path_a,
        path_b,
        split,
        tuple(children),
        common,
        tuple(name for name in names_a if name not in common),
        tuple(name for name in names_b if name not in common),
    )


def comparison_rows(comparison: Comparison) -> list[dict[str, Any]]:
    """The split node's children as table rows, best under A first.

    Columns: ``move``, ``visits``, ``rank A``, ``rank B``, ``rank changed``; then per common term
    ``<term> A``, ``<term> B`` and ``Δ <term>`` (B minus A), or just ``<term>`` when it is the same
    for every child under both settings (the mean always is); then ``<term> A`` for A's other terms
    and ``<term> B`` for B's. Empty when the paths are identical.
    """
    same = {
        name
        for name in comparison.common_terms
        if all(child.a.terms[name] == child.b.terms[name] for child in comparison.children)
    }
    rows = []
    for child in comparison.children:
        row: dict[str, Any] = {
            "move": child.move,
            "visits": child.a.visits,
            "rank A": child.a.rank,
            "rank B": child.b.rank,
            "rank changed": child.rank_changed,
        }
        for name in comparison.common_terms:
            if name in same:
                row[name] = child.a.terms[name]
                continue
            row[f"{name} A"] = child.a.terms[name]
            row[f"{name} B"] = child.b.terms[name]
            row[f"Δ {name}"] = child.differences[name]
        row |= {f"{name} A": child.a.terms[name] for name in comparison.only_a}
        row |= {f"{name} B": child.b.terms[name] for name in comparison.only_b}
        rows.append(row)
    return rows


def _after(path: tuple[int, ...], node: int) -> int | None:
    """The node following ``node`` on ``path``, None at its end."""
    at = path.index(node) + 1
    return path[at] if at < len(path) else None
