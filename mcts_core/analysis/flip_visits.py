"""How many more visits the selected child takes before another child's value passes it.

At a node, under a :class:`~mcts_core.selection.Scoring`, the selected child ``a`` gets ``k`` more
visits with everything else held: its mean (its total becomes ``mean * (visits + k)``, nudged to the
neighbouring float where needed so that ``total / visits`` gives the mean back to the bit; its sum
of squares likewise, so its variance holds too), every other child's statistics, every prior and
proven outcome, and the node's visits grow with it (``N + k``). Child ``b``'s count is the ``k`` at
which ``b`` first beats ``a`` when the two are compared alone, with the rule's own value and tie
break (:func:`~mcts_core.selection.child_keys`): LizGoban's "equilibrium visits", for every rule.
An unvisited selected child counts its mean as 0 once visited (as PUCT counts an unvisited Q).

A child that passes after one visit counts 1; one still behind after :data:`HORIZON` more visits
never passes (None). For the others the search doubles ``k`` until ``b`` wins, then halves the gap
back to the step where it starts to: at ``k - 1`` ``a`` still wins, at ``k`` ``b`` does. That is
the first such ``k`` whenever the comparison changes once, as it does for values falling with a
child's own visits and rising with its parent's (every rule here but where a setting makes a value
rise with its own visits: a negative heuristic, a ramp from C0 down to a smaller C; and where two
means are a unit apart or equal and a held mean cannot be written to the bit).
"""

from __future__ import annotations

import math

from ..model.tree import ROOT, Tree
from ..selection import Scoring, Siblings, child_keys, select_child, siblings_of
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
    return grown, _sum_keeping_mean(total, visits, grown), _sum_keeping_mean(total_sq, visits, grown)


def _sum_keeping_mean(total: float, visits: int, grown: int) -> float:
    """A sum over ``grown`` visits whose mean, computed as the rules compute it (``sum / visits``), is
    ``total / visits`` to the bit where a float allows it: ``mean * grown`` alone can round a mean
    one unit off, which would let two equal means part."""
    mean = total / visits
    held = mean * grown
    for _ in range(4):  # the product is within a unit or two of a sum that gives the mean back
        if held / grown == mean or not math.isfinite(held):
            break
        held = math.nextafter(held, math.inf if held / grown < mean else -math.inf)
    return held


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
    return _Flips(tree, node, kids, kids.index(selected), scoring).counts()


class _Flips:
    """The star of one node (:func:`~.node_star.node_star`) with its selected child grown by ``k``."""

    def __init__(self, tree: Tree, node: int, kids: list[int], selected: int, scoring: Scoring):
        self.star = node_star(tree, node, kids)
        self.kids = kids
        self.selected = selected
        self.scoring = scoring
        self.parent_visits = tree.visits[node]
        chosen = kids[selected]
        self.base = (tree.visits[chosen], tree.total[chosen], tree.total_sq[chosen])
        # The siblings (every visited child's mean) change only with the selected child's mean, which
        # stays put once it has a visit: made once per mean, not once per question (O(children) each).
        self.siblings: dict[str, Siblings] = {}

    def passing(self, positions: list[int], more: int) -> list[bool]:
        """Whether each child at ``positions`` beats the selected one after ``more`` visits to it.

        The selected child's key and the others' come from one scoring of the star (the node's
        formula inputs made once for all of them)."""
        star, child = self.star, self.selected + 1  # star node numbers: the root, then the children
        star.visits[ROOT] = self.parent_visits + more
        visits, total, star.total_sq[child] = held_statistics(*self.base, more)
        star.visits[child], star.total[child] = visits, total
        mean = (total / visits).hex()  # to the bit: -0.0 is not 0.0 here
        siblings = self.siblings.get(mean)
        if siblings is None:
            siblings = self.siblings[mean] = siblings_of(star, ROOT)
        held, *others = child_keys(star, ROOT, self.scoring, [self.selected, *positions], siblings)
        return [key < held for key in others]

    def counts(self) -> dict[int, int | None]:
        """Every other child's count: those passing at once (1; a value that moves at once, an unvisited
        child's, may move back), those behind at :data:`HORIZON` (None), then each of the rest."""
        others = [position for position in range(len(self.kids)) if position != self.selected]
        found: dict[int, int | None] = {}
        for position, passes in zip(others, self.passing(others, 1)):
            if passes:
                found[position] = 1
        rest = [position for position in others if position not in found]
        for position, passes in zip(rest, self.passing(rest, HORIZON) if rest else ()):
            found[position] = None if not passes else self.count(position)
        return {self.kids[position]: found[position] for position in others}

    def count(self, position: int) -> int:
        """The first ``k`` at which the child at ``position``, behind at 1 and ahead at :data:`HORIZON`,
        passes: doubling ``k``, then bisecting."""
        high = 2
        while not self.passing([position], high)[0]:
            high *= 2
        low = high // 2  # the child does not pass here
        while high - low > 1:
            middle = (low + high) // 2
            if self.passing([position], middle)[0]:
                high = middle
            else:
                low = middle
        return high
