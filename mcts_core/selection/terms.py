"""What a rule's formula takes and returns: a child's statistics in, its terms out.

Every formula has one signature (:class:`RuleFunction`): the parent's visit count and the child's
visits and total score come positionally, everything else is keyword-only::

    formula(parent_visits, visits, total, *, c, <settings...>, <inputs...>) -> Terms

*Settings* are what a user picks (C, W, a threshold, priors...); *inputs* are per-child data the
scoring fills in (the child's ``move``, its ``total_sq``, the ``prior`` a log declared for it, the
``siblings`` of the node choosing). A formula returns the child's terms in display order; the key
``"value"`` is what selection maximises.

Unvisited children (0 visits: a log declared them) have no mean: UCB-style values are +infinity
(so one is tried first) and PUCT's Q is 0; their ``mean`` term is NaN.

Random choices: below a sample threshold a node draws a child at random instead of maximising a
formula. Such a formula returns the key ``"probability"`` (this child's chance) and sets ``"value"``
to it, so selection follows the most likely child and can say that the choice was a draw.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

Terms = dict[str, float]
MoveValues = Mapping[str, float]

PROBABILITY = "probability"  # the term a formula returns when its choice at a node is a random draw


class RuleFunction(Protocol):
    """The shape every selection formula has."""

    def __call__(self, parent_visits: int, visits: int, total: float, /, *, c: float, **keywords) -> Terms: ...


@dataclass(frozen=True)
class Siblings:
    """The children of the node choosing, as formulas may need them (computed once per node).

    Attributes:
        moves: the children's moves in the node's order.
        min_mean: smallest mean of a visited child (0.0 when none is visited).
        max_mean: largest mean of a visited child (0.0 when none is visited).
        visits: the children's visits, summed (the parent's visits an engine's formula uses).
        visited_prior: the priors declared for the visited children, summed (the first-play
            reductions of Leela Zero, KataGo and lc0 scale with its square root).
    """

    moves: tuple[str, ...]
    min_mean: float
    max_mean: float
    visits: int = 0
    visited_prior: float = 0.0

    @property
    def count(self) -> int:
        return len(self.moves)


def value_of(values: MoveValues | None, move: str) -> float:
    """``values[move]``, 0 when the move is not listed or there are no values."""
    return values.get(move, 0.0) if values else 0.0
