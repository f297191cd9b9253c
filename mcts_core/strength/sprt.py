"""The SPRT as a stopping rule over game pairs, decided as fishtest's ``update_SPRT`` decides.

After every pair, in index order (fishtest's batch of one pair), the LLR is the exact GSPRT of all
the pairs so far (:meth:`.elo.SprtSettings.llr`, logistic or normalised Elo), and the test stops once
the LLR passes a bound moved in by fishtest's estimate of the overshoot: H0 when LLR < lower + o0,
H1 when LLR > upper - o1 (strict, as fishtest). Each time the LLR reaches a new low (from 0 at the
start), the drop below the old low is a ladder height h; o0 = sum h^2 / (2 |sum h|), Siegmund's
expected overshoot over a bound (Sequential Analysis, Corollary 8.33), and o1 likewise from the new
highs. The LLR moves in jumps (one pair moves it by 0.1 to 0.7 at elo1 = 50), so it ends past a
bound by about half a jump; Wald's bounds assume it lands on them, and without the correction the
test would accept H0 or H1 later than its alpha and beta need.

fishtest's other bookkeeping (batches of several pairs; updates lost or repeated, after which it
drops the overshoot estimate) has nothing to do here: the arena shows the test every pair once, in
order, so its verdicts are those of ``update_SPRT`` called after each pair with ``batch_size=1``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .arena_games import GameResult, game_score
from .elo import CONTINUE, SprtSettings, sprt_status


class SprtTest:
    """One SPRT fed pair by pair: the pentanomial so far, its LLR, the bounds in effect and the verdict.

    Attributes:
        counts: pairs by pair score 0, 0.5, 1, 1.5, 2.
        llr: the LLR of those pairs (0 before the first).
        verdict: :data:`.elo.CONTINUE` until the LLR passes a bound, then H0's or H1's (it is not
            fed after that: the series stops there).
    """

    def __init__(self, settings: SprtSettings) -> None:
        self.settings = settings
        self.counts = [0] * 5
        self.llr = 0.0
        self.verdict = CONTINUE
        self._low = self._high = 0.0  # the lowest and highest LLR so far (fishtest's ref0, ref1)
        self._drops = self._drops_squared = 0.0  # sums of the ladder heights down (m0 <= 0, sq0)
        self._rises = self._rises_squared = 0.0  # and up (m1 >= 0, sq1)

    def add(self, pair_score_bin: int) -> str:
        """Adds one pair (its bin: 0 for LL up to 4 for WW) and returns the verdict."""
        self.counts[pair_score_bin] += 1
        self.llr = self.settings.llr(tuple(self.counts))
        if self.llr < self._low:
            drop = self.llr - self._low
            self._drops, self._drops_squared, self._low = self._drops + drop, self._drops_squared + drop**2, self.llr
        if self.llr > self._high:
            rise = self.llr - self._high
            self._rises, self._rises_squared, self._high = self._rises + rise, self._rises_squared + rise**2, self.llr
        self.verdict = sprt_status(self.llr, self.bounds)
        return self.verdict

    @property
    def bounds(self) -> tuple[float, float]:
        """Wald's bounds moved in by the overshoot estimates: (lower + o0, upper - o1)."""
        lower, upper = self.settings.bounds
        under = -self._drops_squared / self._drops / 2 if self._drops else 0.0
        over = self._rises_squared / self._rises / 2 if self._rises else 0.0
        return lower + under, upper - over


def pair_bin(first: GameResult, second: GameResult) -> int:
    """A pair's pentanomial bin: twice its score, 0 (LL) to 4 (WW)."""
    return round(2 * (game_score(first) + game_score(second)))


class SprtStop:
    """A :class:`.schedule.StopRule`: True once the pairs so far decide the SPRT."""

    def __init__(self, settings: SprtSettings) -> None:
        self.test = SprtTest(settings)

    def add(self, group: list[GameResult]) -> bool:
        return self.test.add(pair_bin(*group)) != CONTINUE


class SprtPoint(NamedTuple):
    """The test after one more pair: games so far, LLR, and the bounds in effect."""

    games: int
    llr: float
    lower: float
    upper: float


def llr_curve(results: Sequence[GameResult], settings: SprtSettings) -> list[SprtPoint]:
    """The test after each complete pair, in index order (what it saw as it went), up to its verdict."""
    by_index = {result.index: result for result in results}
    test, curve = SprtTest(settings), []
    pair = 0
    while 2 * pair in by_index and 2 * pair + 1 in by_index and test.verdict == CONTINUE:
        test.add(pair_bin(by_index[2 * pair], by_index[2 * pair + 1]))
        pair += 1
        curve.append(SprtPoint(2 * pair, test.llr, *test.bounds))
    return curve
