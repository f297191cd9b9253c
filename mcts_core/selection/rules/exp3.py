"""EXP3 with exploration, at simultaneous nodes only.

``σ(a) = (1 - γ) exp(η X̂(a)) / Σ exp(η X̂(b)) + γ / K`` with η = γ / K unless set; the played move
gets ``X̂(a) += x' / σ(a)``, x' the return mapped from [low, high] to [0, 1]. C is γ. Sources: Auer
et al. (2002), "The nonstochastic multiarmed bandit problem"; in SM-MCTS as in Lanctot et al. (2013).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from ..rule import AVERAGE, GAMMA, SamplingRule, Setting
from ..terms import PROBABILITY


class EXP3(SamplingRule):
    """EXP3 (module docstring); its state per own move is the estimate X̂."""

    key = "exp3"
    name = "EXP3 (γ-exploration)"
    formula = (r"\sigma(a) = (1-\gamma)\frac{e^{\eta \hat{X}(a)}}{\sum_b e^{\eta \hat{X}(b)}} + \frac{\gamma}{K},"
               r"\quad \hat{X}(a) \mathrel{+}= \frac{x'}{\sigma(a)}")
    source = "Auer et al. (2002), https://doi.org/10.1137/S0097539701398375; SM-MCTS: Lanctot et al. (2013)"
    settings = (
        GAMMA,
        Setting("eta", "learning rate η (0 = γ/K)", "float", 0.0, low=0.0, high=10.0,
                help="weight of the estimates in the exponent; 0 takes γ / K"),
        Setting("low", "lowest return", "float", -1.0, high=1_000.0,
                help="returns are mapped from [low, high] to [0, 1]"),
        Setting("high", "highest return", "float", 1.0, high=1_000.0,
                help="returns are mapped from [low, high] to [0, 1]"),
    )
    terms = ("mean", "estimate", PROBABILITY, AVERAGE, "value")
    labels = MappingProxyType({**SamplingRule.labels, "estimate": "X̂"})
    state_term = "estimate"

    def _combined_problem(self, settings: Mapping[str, Any]) -> str | None:
        low, high = settings["low"], settings["high"]
        return None if low < high else f"low must be smaller than high, got {low!r} and {high!r}"

    def for_returns(self, settings: Mapping[str, Any], lowest: float, highest: float) -> Mapping[str, Any]:
        """Returns are mapped to [0, 1] from the game's own range unless ``low`` or ``high`` is set."""
        if {"low", "high"} & set(settings):
            return settings
        return {**settings, "low": float(lowest), "high": float(highest)}

    def sampling(self, values: Sequence[float], gamma: float, settings: Mapping[str, Any]) -> list[float]:
        k = len(values)
        eta = settings.get("eta", 0.0) or gamma / k
        top = max(values)
        weights = [math.exp(eta * (x - top)) for x in values]  # shifted: no overflow for large estimates
        total = math.fsum(weights)
        return [(1.0 - gamma) * w / total + gamma / k for w in weights]

    def update_values(self, values: list[float], sigma: Sequence[float], chosen: int, reward: float,
                      settings: Mapping[str, Any]) -> None:
        p = sigma[chosen]
        low, high = settings.get("low", -1.0), settings.get("high", 1.0)
        scaled = (reward - low) / (high - low)
        values[chosen] += scaled / p if p > 0.0 else 0.0


RULE = EXP3()
