"""The SPRT as a stopping rule over game pairs: stop as soon as the LLR reaches a bound.

The LLR is fishtest's normal approximation over the pentanomial of the pairs so far
(:func:`.elo.llr_pairs`), checked after every pair in index order, with cutechess's closed
bounds (:func:`.elo.sprt_status`).
"""

from __future__ import annotations

from collections.abc import Sequence

from .arena_games import GameResult
from .elo import CONTINUE, Pentanomial, SprtSettings, llr_pairs, sprt_status
from .rows import game_score


class SprtStop:
    """A :class:`.schedule.StopRule`: True once the LLR of the pairs so far reaches a bound."""

    def __init__(self, settings: SprtSettings) -> None:
        self.settings = settings
        self.counts = [0] * 5  # pairs by pair score 0, 0.5, 1, 1.5, 2

    def add(self, group: list[GameResult]) -> bool:
        self.counts[round(2 * sum(game_score(game) for game in group))] += 1
        llr = llr_pairs(Pentanomial(*self.counts), self.settings)
        return sprt_status(llr, self.settings.bounds) != CONTINUE


def llr_curve(results: Sequence[GameResult], settings: SprtSettings) -> list[tuple[int, float]]:
    """``(games, LLR)`` after each complete pair, in index order (what the test saw as it went)."""
    by_index = {result.index: result for result in results}
    rule, curve = SprtStop(settings), []
    pair = 0
    while 2 * pair in by_index and 2 * pair + 1 in by_index:
        rule.add([by_index[2 * pair], by_index[2 * pair + 1]])
        pair += 1
        curve.append((2 * pair, llr_pairs(Pentanomial(*rule.counts), settings)))
    return curve
