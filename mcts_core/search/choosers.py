"""The child a simulation steps into at a decision node: our rule, as the tree read from the log scores it.

Every chooser picks exactly the child :func:`mcts_core.selection.select_child` picks on the same
statistics with ``ties = "first"`` (the first of exactly equal values, in the engine's order):

* UCB1 takes all the children's values at once from :func:`mcts_core.selection.formulas.ucb1_values`;
  PUCT has a loop of its own, for speed; both compute every value with the same float operations
  in the same order as :mod:`mcts_core.selection.formulas` (tests compare the bits);
* every other rule calls :func:`~mcts_core.selection.select_child` on the live tree itself;
* below a sample threshold a rule draws instead of maximising: the chooser then draws a child
  with the seeded RNG, each with its ``probability`` term. Such a step is random: a reader of the
  log can check only that the drawn child had a chance, not which one was drawn.

With the MCTS-Solver a child with a proven outcome is worth exactly that outcome (its value for
the player choosing), as :func:`~mcts_core.selection.select_child` values it; without it no child
is proven and the fast paths skip the check.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from ..selection import PROBABILITY, Scoring, score_children, select_child, under_threshold
from ..selection.formulas import NORMALISATIONS, ucb1_values, value_of
from .live_tree import LiveTree

Chooser = Callable[[LiveTree, int, random.Random], int]


def chooser_for(scoring: Scoring, *, solve: bool = False) -> Chooser:
    """The function that picks a child for ``scoring``: ``choose(tree, node, rng) -> child``.

    ``solve``: proven children may exist (the MCTS-Solver), valued at their outcome.
    """
    if scoring.rule == "ucb1" and not solve:  # the hottest path, without a call more per step
        c = scoring.c
        return lambda tree, node, rng: _first_best(
            kids := tree.children[node], ucb1_values(tree.visits[node], tree.visits, tree.total, kids, c=c))
    values = _fast_values(scoring)
    if values is not None:
        if solve:
            return lambda tree, node, rng: _first_best(
                kids := tree.children[node], _with_outcomes(tree, kids, values(tree, node, kids)))
        return lambda tree, node, rng: _first_best(kids := tree.children[node], values(tree, node, kids))
    if PROBABILITY in scoring.spec.terms:
        return lambda tree, node, rng: _drawn_or_selected(tree, node, rng, scoring)
    return lambda tree, node, rng: select_child(tree, node, scoring)


def _fast_values(scoring: Scoring) -> Callable[[LiveTree, int, list[int]], list[float]] | None:
    """``values(tree, node, kids)``: the children's values by a fast loop (UCB1, PUCT), else None."""
    c = scoring.c
    if scoring.rule == "ucb1":
        return lambda tree, node, kids: ucb1_values(tree.visits[node], tree.visits, tree.total, kids, c=c)
    if scoring.rule == "puct":
        normalise = scoring.settings.get("normalise", "raw")
        if normalise not in NORMALISATIONS:
            raise ValueError(f"normalise must be one of {NORMALISATIONS}, got {normalise!r}")
        priors = scoring.settings.get("priors")
        return lambda tree, node, kids: puct_values(tree, node, c, normalise=normalise, priors=priors)
    return None


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


def puct_values(tree: LiveTree, node: int, c: float, *, normalise: str = "raw",
                priors: dict[str, float] | None = None) -> list[float]:
    """Each child's ``Q + C * P * sqrt(N.v) / (1 + M.v)`` as :func:`puct` computes it.

    Q is the mean (``"raw"``) or min-max normalised over the visited children, 0 at 0 visits; P
    is the child's declared prior, else ``priors[move]``, else uniform.
    """
    visits, total, kids = tree.visits, tree.total, tree.children[node]
    sqrt_n = math.sqrt(visits[node])
    uniform = 1.0 / len(kids)
    if normalise == "minmax":
        means = [total[kid] / visits[kid] for kid in kids if visits[kid]]
        low, high = min(means, default=0.0), max(means, default=0.0)
        spread = high - low
    values = []
    for kid in kids:
        v = visits[kid]
        if not v:
            q = 0.0
        elif normalise == "raw":
            q = total[kid] / v
        else:
            q = (total[kid] / v - low) / spread if spread > 0 else 0.5
        prior = tree.prior_of(kid)
        if prior is None:
            prior = value_of(priors, tree.move[kid]) if priors else uniform
        values.append(q + c * prior * sqrt_n / (1 + v))
    return values


def _drawn_or_selected(tree: LiveTree, node: int, rng: random.Random, scoring: Scoring) -> int:
    """Below the threshold a child drawn with its probability; otherwise the rule's choice."""
    if not under_threshold(tree, node, scoring):
        return select_child(tree, node, scoring)
    chance = {score.node: score.probability for score in score_children(tree, node, scoring)}
    kids = tree.children[node]
    return rng.choices(kids, weights=[chance[kid] for kid in kids])[0]
