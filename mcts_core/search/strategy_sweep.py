"""What C does at a simultaneous root: DUCT on a matrix game at several C, each player's strategy and its exploitability.

For every (rule, C) one seeded DUCT search of the matrix game runs (no log); the root strategy is
the visit shares, or the average sampling distribution for regret matching and EXP3, and its
exploitability is computed exactly from the payoffs (:func:`mcts_core.simultaneous.exploitability`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..simultaneous.matrix import MatrixGame, exploitability
from ..simultaneous.rules import JointScoring
from .decoupled_search import search_simultaneous
from .games import matrix_game

# C values a sweep tries by default: the registered rules' C spans orders of magnitude; γ is in [0, 1].
C_VALUES = (0.05, 0.2, 0.5, 1.0, 2.0, 5.0, 20.0, 100.0)
GAMMA_VALUES = (0.01, 0.05, 0.1, 0.2, 0.4, 0.7, 1.0)


@dataclass(frozen=True)
class SweepPoint:
    """One search of the sweep: its rule and C, each player's root strategy and the exploitability."""

    rule: str
    c: float
    strategy: tuple[dict[str, float], ...]
    per_player: tuple[float, float] | None
    nash_conv: float

    @property
    def exploitability(self) -> float:
        return self.nash_conv / 2


def default_c_values(rule: str) -> tuple[float, ...]:
    """The C values a sweep of ``rule`` tries: γ values for regret matching and EXP3."""
    return GAMMA_VALUES if JointScoring.of(rule).regret_based else C_VALUES


def strategy_sweep(game: str | MatrixGame, rule: str, c_values: Sequence[float] | None = None, *,
                   simulations: int = 4000, seed: int = 0, settings: dict | None = None) -> list[SweepPoint]:
    """DUCT with ``rule`` on a matrix game at each C: the root strategies and their exploitability.

    Raises:
        ValueError: not a matrix game, or a bad rule, C or budget.
    """
    matrix = game if isinstance(game, MatrixGame) else matrix_game(game)
    points = []
    for c in c_values if c_values is not None else default_c_values(rule):
        scoring = JointScoring(rule, float(c), dict(settings or {}))
        result = search_simultaneous(matrix.name, scoring=scoring, simulations=simulations, seed=seed, log=False)
        measured = exploitability(matrix, result.strategy)
        points.append(SweepPoint(rule, float(c), result.strategy, measured.per_player, measured.nash_conv))
    return points
