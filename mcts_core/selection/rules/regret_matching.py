"""Regret matching with exploration, at simultaneous nodes only.

The player samples ``σ(a) = (1 - γ) R⁺(a) / ΣR⁺ + γ / K`` (uniform while no regret is positive);
after the simulation returns ``x`` for it, every own move b gets ``R(b) += x̃(b) - x`` with
``x̃(a) = x / σ(a)`` for the move played and 0 for the others. C is γ. Sources: Lanctot, Lisý,
Winands (2013), "Monte Carlo Tree Search in Simultaneous Move Games with Applications to Goofspiel";
Lisý et al. (2013), "Convergence of Monte Carlo Tree Search in Simultaneous Move Games", NIPS.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from ..rule import AVERAGE, GAMMA, SamplingRule
from ..terms import PROBABILITY


class RegretMatching(SamplingRule):
    """Regret matching (module docstring); its state per own move is the regret R."""

    key = "regret_matching"
    name = "Regret matching (γ-exploration)"
    formula = (r"\sigma(a) = (1-\gamma)\frac{R^+(a)}{\sum_b R^+(b)} + \frac{\gamma}{K},\quad "
               r"R(b) \mathrel{+}= \tilde{x}(b) - x,\ \tilde{x}(a) = \frac{x}{\sigma(a)}")
    source = (
        "Lanctot, Lisý, Winands (2013), Monte Carlo Tree Search in Simultaneous Move Games with "
        "Applications to Goofspiel, https://doi.org/10.1007/978-3-319-05428-5_3; Lisý et al. (2013), "
        "Convergence of MCTS in Simultaneous Move Games, NIPS"
    )
    settings = (GAMMA,)
    terms = ("mean", "regret", PROBABILITY, AVERAGE, "value")
    state_term = "regret"

    def sampling(self, values: Sequence[float], gamma: float, settings: Mapping[str, Any]) -> list[float]:
        k = len(values)
        positive = [r if r > 0.0 else 0.0 for r in values]
        total = math.fsum(positive)
        if total > 0.0:
            return [(1.0 - gamma) * p / total + gamma / k for p in positive]
        return [1.0 / k] * k

    def update_values(self, values: list[float], sigma: Sequence[float], chosen: int, reward: float,
                      settings: Mapping[str, Any]) -> None:
        p = sigma[chosen]
        estimate = reward / p if p > 0.0 else 0.0  # a foreign log may play a move σ gave no chance
        for b in range(len(values)):
            values[b] += (estimate if b == chosen else 0.0) - reward


RULE = RegretMatching()
