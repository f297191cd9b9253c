"""Selection at a simultaneous node: every registered rule per player, plus two rules of its own.

At a simultaneous node each player chooses among its own moves as if alone (decoupled UCT): the
rule sees the node's visits as N.v and the player's own-move visits and totals (from that player's
view) as each child's M.v and M.s. Every rule of :data:`~mcts_core.selection.registry.RULES` works
so, through its own formula function. Two rules exist only here, registered in
:data:`SIMULTANEOUS_RULES`: regret matching and EXP3 (:class:`~mcts_core.selection.rule.SamplingRule`,
each in its module of :mod:`mcts_core.selection.rules`, which computes its σ and its state's update).

For both, C is γ, the weight of uniform exploration (0 <= γ <= 1), and the strategy they recommend
is the **average of the sampling distributions** σ over the node's updates, not the visit shares.
Their state (regrets or estimates, and the sum of the σ) is accumulated during a search, one per
node and player (:class:`RegretState`). A log does not store it: the view recomputes it by
replaying the log's simulations through the node in order with :func:`sampling` and :func:`update`,
the very functions the search calls, so the recomputed state is the search's bit for bit
(:mod:`.scoring`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..selection.registry import RULE_REGISTRY, SIMULTANEOUS_RULES
from ..selection.rule import AVERAGE
from ..selection.scoring import Scoring

ALL_RULES: tuple[str, ...] = tuple(RULE_REGISTRY)  # every rule a simultaneous node can use

__all__ = ["ALL_RULES", "AVERAGE", "SIMULTANEOUS_RULES", "JointScoring", "RegretState", "sampling", "update"]


class JointScoring(Scoring):
    """The rule every player uses at simultaneous nodes, with its settings (C included).

    A :class:`~mcts_core.selection.Scoring` that also takes the simultaneous-only rules (regret
    matching, EXP3), whose C is γ in [0, 1]. Hashable and comparable by value, as Scoring is.
    """

    def _check(self) -> None:
        spec = RULE_REGISTRY.get(self.rule)
        if spec is None:
            raise ValueError(f"unknown rule {self.rule!r}; known: {', '.join(ALL_RULES)}")
        self._check_with(spec)

    @property
    def regret_based(self) -> bool:
        """True for the rules that keep a sampling distribution per node (regret matching, EXP3)."""
        return self.spec.simultaneous_only

    @property
    def sequential(self) -> Scoring | None:
        """The registry's :class:`Scoring` for this rule; None for regret matching and EXP3."""
        return None if self.regret_based else Scoring(self.rule, self.c, self.settings)


# --- regret matching and EXP3: the sampling distribution and its update (search and replay) ---


class RegretState:
    """One player's state at one node for regret matching or EXP3: per own move, in the node's order.

    Attributes:
        values: regrets R (regret matching) or estimates X̂ (EXP3).
        strategy_sum: the sum of the sampling distributions σ over the updates so far.
        updates: how many updates (simulations that chose here) there were.
    """

    __slots__ = ("strategy_sum", "updates", "values")

    def __init__(self, moves: int):
        self.values = [0.0] * moves
        self.strategy_sum = [0.0] * moves
        self.updates = 0

    def average(self) -> list[float]:
        """The average sampling distribution; uniform before the first update."""
        k = len(self.values)
        if not self.updates:
            return [1.0 / k] * k if k else []
        return [s / self.updates for s in self.strategy_sum]


def sampling(rule: str, state: RegretState, gamma: float, settings: Mapping[str, Any]) -> list[float]:
    """The sampling distribution σ over the node's own moves, from the state before an update
    (the rule's :meth:`~mcts_core.selection.rule.SamplingRule.sampling`)."""
    return SIMULTANEOUS_RULES[rule].sampling(state.values, gamma, settings)


def update(rule: str, state: RegretState, sigma: list[float], chosen: int, reward: float,
           settings: Mapping[str, Any]) -> None:
    """Add one simulation that played own move ``chosen`` (drawn from ``sigma``) and returned ``reward``:
    the rule updates its values (:meth:`~mcts_core.selection.rule.SamplingRule.update_values`), and
    σ joins the sum the average strategy comes from."""
    SIMULTANEOUS_RULES[rule].update_values(state.values, sigma, chosen, reward, settings)
    strategy = state.strategy_sum
    for b in range(len(strategy)):
        strategy[b] += sigma[b]
    state.updates += 1
