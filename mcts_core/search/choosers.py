"""The child a simulation steps into at a decision node: our rule, as the tree read from the log scores it.

Every chooser picks exactly the child :func:`mcts_core.selection.select_child` picks on the same
statistics with ``ties = "first"`` (the first of exactly equal values, in the engine's order):

* a rule with a fast loop takes all the children's values at once from it (UCB1's
  :attr:`~mcts_core.selection.Rule.statistics_loop`, PUCT's :meth:`~mcts_core.selection.Rule.fast_values`),
  computed with the same float operations in the same order as the rule's formula (tests compare
  the bits);
* every other rule calls :func:`~mcts_core.selection.select_child` on the live tree itself;
* below a sample threshold a rule draws instead of maximising: the chooser then draws a child
  with the seeded RNG, each with its ``probability`` term. Such a step is random: a reader of the
  log can check only that the drawn child had a chance, not which one was drawn.

With the MCTS-Solver a child with a proven outcome is worth exactly that outcome (its value for
the player choosing), as :func:`~mcts_core.selection.select_child` values it; without it no child
is proven and the fast paths skip the check.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..selection import PROBABILITY, Scoring, score_children, select_child, under_threshold
from .live_tree import LiveTree

Chooser = Callable[[LiveTree, int, random.Random], int]


def chooser_for(scoring: Scoring, *, solve: bool = False) -> Chooser:
    """The function that picks a child for ``scoring``: ``choose(tree, node, rng) -> child``.

    ``solve``: proven children may exist (the MCTS-Solver), valued at their outcome.
    """
    rule = scoring.spec
    loop = rule.statistics_loop
    if loop is not None and not solve:  # the hottest path (UCB1), without a call more per step
        c = scoring.c
        return lambda tree, node, rng: _first_best(
            kids := tree.children[node], loop(tree.visits[node], tree.visits, tree.total, kids, c=c))
    values = rule.fast_values(scoring.c, scoring.settings)
    if values is not None:
        if solve:
            return lambda tree, node, rng: _first_best(
                kids := tree.children[node], _with_outcomes(tree, kids, values(tree, node, kids)))
        return lambda tree, node, rng: _first_best(kids := tree.children[node], values(tree, node, kids))
    if PROBABILITY in rule.terms:
        return lambda tree, node, rng: _drawn_or_selected(tree, node, rng, scoring)
    return lambda tree, node, rng: select_child(tree, node, scoring)


def _first_best(kids: list[int], values: list[float]) -> int:
    """The first child of largest value (``max`` keeps the first of equal values)."""
    return kids[values.index(max(values))]


def _with_outcomes(tree: LiveTree, kids: list[int], values: list[float]) -> list[float]:
    """``values`` with each proven child's replaced by its outcome for the player choosing."""
    proven = tree.proven
    if proven:
        for position, kid in enumerate(kids):
            outcome = tree.outcome_of(kid)
            if outcome is not None:
                values[position] = outcome
    return values


def _drawn_or_selected(tree: LiveTree, node: int, rng: random.Random, scoring: Scoring) -> int:
    """Below the threshold a child drawn with its probability; otherwise the rule's choice."""
    if not under_threshold(tree, node, scoring):
        return select_child(tree, node, scoring)
    chance = {score.node: score.probability for score in score_children(tree, node, scoring)}
    kids = tree.children[node]
    return rng.choices(kids, weights=[chance[kid] for kid in kids])[0]
