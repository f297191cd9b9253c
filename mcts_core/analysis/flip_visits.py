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
never passes (None). For the others the search narrows ``(1, HORIZON]`` down to the step where
``b`` gets ahead: at ``k - 1`` ``a`` still wins, at ``k`` ``b`` does (:meth:`_Flips.first_ahead`:
halving ``log k``, then guessing from the two ends' leads). That is the first such ``k`` whenever
the comparison changes once, as it does for values falling with a child's own visits and rising
with its parent's: every rule here, but where a setting makes a value rise with its own visits (a
negative heuristic, a ramp from C0 down to a smaller C), where two means are a unit apart or equal
and a held mean cannot be written to the bit, and past about 10^14 visits, where ``log`` and
``sqrt`` of the parent's visits move by single units and the comparison can flicker.
"""

from __future__ import annotations

import math
from dataclasses import replace

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
        # Their visits sum (the engines' rules read it) is the other children's and the selected one's.
        self.siblings: dict[str, Siblings] | None = {} if "siblings" in scoring.spec.inputs else None
        self.other_visits = sum(tree.visits[kid] for kid in kids) - tree.visits[chosen]

    def passing(self, positions: list[int], more: int) -> list[tuple[bool, float]]:
        """For each child at ``positions``, after ``more`` visits to the selected one: whether it is
        ahead of it (the rule's keys), and by how much the selected child's value leads its value.

        The selected child's key and the others' come from one scoring of the star (the node's
        formula inputs made once for all of them)."""
        star, child = self.star, self.selected + 1  # star node numbers: the root, then the children
        star.visits[ROOT] = self.parent_visits + more
        visits, total, star.total_sq[child] = held_statistics(*self.base, more)
        star.visits[child], star.total[child] = visits, total
        siblings = None
        if self.siblings is not None:
            mean = (total / visits).hex()  # to the bit: -0.0 is not 0.0 here
            siblings = self.siblings.get(mean)
            if siblings is None:
                siblings = self.siblings[mean] = siblings_of(star, ROOT)
            if self.scoring.spec.reads_sibling_visits:  # the visited priors stay: it has a visit
                siblings = replace(siblings, visits=self.other_visits + visits)
        held, *others = child_keys(star, ROOT, self.scoring, [self.selected, *positions], siblings)
        return [(key < held, key[0] - held[0]) for key in others]  # a key holds minus the value

    def counts(self) -> dict[int, int | None]:
        """Every other child's count: who passes at 1 (a value that moves at once, an unvisited
        child's, may move back), who is behind at :data:`HORIZON` (None), each question put to all the
        children it concerns at once; then each of the rest between the two (:meth:`first_ahead`)."""
        others = [position for position in range(len(self.kids)) if position != self.selected]
        found: dict[int, int | None] = {}
        at_one = dict(zip(others, self.passing(others, 1)))
        rest = [position for position in others if not at_one[position][0]]
        found.update((position, 1) for position in others if at_one[position][0])
        if rest:
            for position, (ahead, gap) in zip(rest, self.passing(rest, HORIZON)):
                found[position] = self.first_ahead(position, 1, at_one[position][1], HORIZON, gap) if ahead else None
        return {self.kids[position]: found[position] for position in others}

    def first_ahead(self, position: int, low: int, low_gap: float, high: int, high_gap: float) -> int:
        """The ``k`` in (low, high] where the child at ``position`` gets ahead: behind at ``k - 1``,
        ahead at ``k``, given that it is behind at ``low`` and ahead at ``high``.

        While the ends are more than a factor 2 apart, ask their geometric middle. Then each step
        guesses where the lead crosses 0 from the leads at the two ends (the line through them, the end
        kept twice in a row counting half: the Illinois rule) and asks the guess and its neighbour
        towards the crossing, so a guess one off ends the search; a step that does not halve the
        bracket makes the next guess its middle. As fast as bisection at worst, a few steps when the
        lead is smooth in k.
        """
        while high > 2 * low:
            guess = min(max(math.isqrt(low * high), low + 1), high - 1)
            ahead, gap = self.passing([position], guess)[0]
            if ahead:
                high, high_gap = guess, gap
            else:
                low, low_gap = guess, gap
        kept, slow = 0, 0  # kept: the end that stayed last (-1 low, 1 high); slow: steps that did not halve
        while high - low > 1:
            width = high - low
            guess = (low + high) // 2 if slow == 3 else _crossing(low, low_gap, high, high_gap)
            guess = min(max(guess, low + 1), high - 1)
            ahead, gap = self.passing([position], guess)[0]
            if ahead:
                high, high_gap = guess, gap
                if kept == -1:
                    low_gap /= 2
                kept = -1
            else:
                low, low_gap = guess, gap
                if kept == 1:
                    high_gap /= 2
                kept = 1
            slow = 0 if high - low <= width // 2 or slow == 3 else slow + 1
        return high


def _crossing(low: int, low_gap: float, high: int, high_gap: float) -> int:
    """Where the line through (low, low_gap) and (high, high_gap) crosses 0, rounded; the middle when
    the leads cannot say (not finite, or not of opposite signs)."""
    if not (math.isfinite(low_gap) and math.isfinite(high_gap)) or not low_gap > 0 > high_gap:
        return (low + high) // 2
    return low + round(low_gap / (low_gap - high_gap) * (high - low))
