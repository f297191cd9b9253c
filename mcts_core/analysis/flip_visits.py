"""How many more visits the selected child takes before another child's value passes it.

At a node, under a :class:`~mcts_core.selection.Scoring`, the selected child ``a`` gets ``k`` more
visits with everything else held: its mean (its total becomes ``mean * (visits + k)``, its sum of
squares likewise, so its variance holds too), every other child's statistics, every prior and
proven outcome, and the node's visits grow with it (``N + k``). Child ``b``'s count is the ``k`` at
which ``b`` first beats ``a`` when the two are compared alone, with the rule's own value and tie
break (:func:`~mcts_core.selection.child_keys`): LizGoban's "equilibrium visits", for every rule.
An unvisited selected child counts its mean as 0 once visited (as PUCT counts an unvisited Q).

A child still behind after :data:`HORIZON` more visits never passes (None). For the others the
search doubles ``k`` until ``b`` wins, then halves the gap back to the step where it starts to: at
``k - 1`` ``a`` still wins, at ``k`` ``b`` does. That is the first such ``k`` whenever the
comparison changes once, as it does for values falling with a child's own visits and rising with
its parent's (every rule here away from its first few visits).
"""

from __future__ import annotations

from ..model.tree import ROOT, Tree
from ..selection import Scoring, child_keys, select_child
from .node_star import node_star

HORIZON = 2**53  # more visits than any search makes, and the largest count a float holds exactly


def held_statistics(visits: int, total: float, total_sq: float, more: int) -> tuple[int, float, float]:
    """A child's (visits, total, total_sq) after ``more`` visits that keep its mean and mean square.

    ``more = 0`` gives the statistics themselves; an unvisited child's mean and mean square are 0.
    """
    if not more:
        return visits, total, total_sq
    grown = visits + more
    if not visits:
        return grown, 0.0, 0.0
    return grown, total / visits * grown, total_sq / visits * grown


def visits_to_flip(tree: Tree, node: int, scoring: Scoring) -> dict[int, int | None]:
    """Each child's count at ``node``: the further visits the selected child takes before it passes.

    Args:
        tree: the tree.
        node: the node choosing.
        scoring: the rule, its C and its settings.

    Returns:
        child -> its count (module docstring), None where it never passes within :data:`HORIZON`;
        the selected child is absent. Empty at a leaf and at a chance node (nothing is selected
        there: the path follows the most visited outcome).
    """
    selected = select_child(tree, node, scoring)
    if selected is None or tree.is_chance(node):
        return {}
    kids = list(tree.children[node])
    flips = _Flips(tree, node, kids, kids.index(selected), scoring)
    return {kid: flips.count(position) for position, kid in enumerate(kids) if kid != selected}


class _Flips:
    """The star of one node (:func:`~.node_star.node_star`) with its selected child grown by ``k``."""

    def __init__(self, tree: Tree, node: int, kids: list[int], selected: int, scoring: Scoring):
        self.star = node_star(tree, node, kids)
        self.selected = selected
        self.scoring = scoring
        self.parent_visits = tree.visits[node]
        chosen = kids[selected]
        self.base = (tree.visits[chosen], tree.total[chosen], tree.total_sq[chosen])

        self.held_keys: dict[int, tuple] = {}  # more -> the selected child's key: the same for every other child
        self.grown_by = 0  # the ``more`` the star holds

    def passes(self, position: int, more: int) -> bool:
        """Whether the child at ``position`` beats the selected one after ``more`` visits to it."""
        star, child = self.star, self.selected + 1  # star node numbers: the root, then the children
        if more != self.grown_by:
            star.visits[ROOT] = self.parent_visits + more
            star.visits[child], star.total[child], star.total_sq[child] = held_statistics(*self.base, more)
            self.grown_by = more
        held = self.held_keys.get(more)
        if held is None:
            held = self.held_keys[more] = child_keys(star, ROOT, self.scoring, (self.selected,))[0]
        return child_keys(star, ROOT, self.scoring, (position,))[0] < held

    def count(self, position: int) -> int | None:
        """The first ``k`` at which the child at ``position`` passes (doubling, then bisecting); None
        when it is still behind at :data:`HORIZON`."""
        if not self.passes(position, HORIZON):
            return None
        high = 1
        while not self.passes(position, high):
            high *= 2
        low = high // 2  # the child does not pass here (0: the selected child wins as it stands)
        while high - low > 1:
            middle = (low + high) // 2
            if self.passes(position, middle):
                high = middle
            else:
                low = middle
        return high
