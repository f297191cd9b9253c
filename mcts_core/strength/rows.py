"""One row of arena results per C and budget: what a series of games says about the MCTS side.

Two players: W/D/L, score with its 95 % Wilson interval and that interval in Elo, Elo with
cutechess-cli's symmetric 95 % error bar, LOS and draw ratio by cutechess-cli's rules, and the
pentanomial view of the game pairs (fishtest's); with an SPRT, its LLR, the bounds in effect and its verdict. One
player: the mean return with its 95 % interval. Three or more: the mean return and the win share (a
win shared by k seats counts 1/k), with intervals. Quantities that do not apply to a game's number
of players are nan (counts 0).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .arena_games import GameResult
from .elo import (
    CONTINUE, H0_ACCEPTED, H1_ACCEPTED, Outcomes, Pentanomial, SprtSettings, Z_95, elo_estimate, elo_estimate_pairs,
    elo_interval, mean_interval,
)
from .sprt import SprtTest, pair_bin

NAN = math.nan
# The sprt column's words for elo.py's verdicts (short, for a CSV cell).
VERDICTS = {H1_ACCEPTED: "H1", H0_ACCEPTED: "H0", CONTINUE: "inconclusive"}

# elo_low and elo_high came last, after pair_los, so that every older column keeps its place in the CSV.
TWO_PLAYER_COLUMNS = ("c", "games", "wins", "draws", "losses", "score", "low", "high", "elo", "elo_error", "los",
                      "draw_ratio", "pairs", "ll", "ld", "dd_wl", "wd", "ww", "pair_elo", "pair_elo_error",
                      "pair_los", "elo_low", "elo_high")
SPRT_COLUMNS = ("llr", "llr_low", "llr_high", "sprt")
ONE_PLAYER_COLUMNS = ("c", "games", "mean_return", "return_low", "return_high")
MANY_PLAYER_COLUMNS = (*ONE_PLAYER_COLUMNS, "win_share", "win_low", "win_high")
TAIL_COLUMNS = ("simulations", "entropy", "depth", "top_share")


def columns(players: int, sprt: bool = False) -> tuple[str, ...]:
    """The columns that mean something for a game of this many players, in CSV order."""
    if players == 2:
        return (*TWO_PLAYER_COLUMNS, *(SPRT_COLUMNS if sprt else ()), *TAIL_COLUMNS)
    return (*(ONE_PLAYER_COLUMNS if players == 1 else MANY_PLAYER_COLUMNS), *TAIL_COLUMNS)


@dataclass(frozen=True)
class ArenaRow:
    """The MCTS side's results at one C and budget (see the module docstring for which fields apply).

    Attributes:
        c, simulations: its exploration constant and simulations per search.
        games: games the row is made of (with an SPRT, those up to where it stopped).
        players: seats in the game.
        wins, draws, losses, score, low, high: outcomes, (W + D/2) / N and its 95 % Wilson interval.
        elo, elo_error, los, draw_ratio: cutechess-cli's estimate from W/D/L (elo_error its symmetric
            95 % "+/-", infinite on both sides when either end of its normal interval leaves (0, 1)).
        elo_low, elo_high: the score interval (low, high) in Elo (:func:`.elo.elo_interval`): the
            interval the app shows, infinite only on a side where the score interval reaches 0 or 1.
        pairs, ll, ld, dd_wl, wd, ww: game pairs by pair score (0, 0.5, 1, 1.5, 2).
        pair_elo, pair_elo_error, pair_los: fishtest's estimate from those pairs.
        llr, llr_low, llr_high, sprt: the SPRT's LLR over the pairs, the bounds in effect at the last pair
            (Wald's, moved in by fishtest's overshoot estimate, :mod:`.sprt`) and its verdict ("" without):
            H1 exactly when llr > llr_high, H0 when llr < llr_low.
        mean_return, return_low, return_high: the MCTS side's mean return and its 95 % interval.
        win_share, win_low, win_high: its mean share of the wins and the 95 % Wilson interval.
        entropy, depth, top_share: means over its first search of each game (root visit entropy in
            nats, depth reached, share of the visits on the most visited root move).
    """

    c: float
    simulations: int
    games: int
    players: int
    wins: int = 0
    draws: int = 0
    losses: int = 0
    score: float = NAN
    low: float = NAN
    high: float = NAN
    elo: float = NAN
    elo_error: float = NAN
    elo_low: float = NAN
    elo_high: float = NAN
    los: float = NAN
    draw_ratio: float = NAN
    pairs: int = 0
    ll: int = 0
    ld: int = 0
    dd_wl: int = 0
    wd: int = 0
    ww: int = 0
    pair_elo: float = NAN
    pair_elo_error: float = NAN
    pair_los: float = NAN
    llr: float = NAN
    llr_low: float = NAN
    llr_high: float = NAN
    sprt: str = ""
    mean_return: float = NAN
    return_low: float = NAN
    return_high: float = NAN
    win_share: float = NAN
    win_low: float = NAN
    win_high: float = NAN
    entropy: float = NAN
    depth: float = NAN
    top_share: float = NAN


def wilson_interval(successes: float, n: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / n``.

    With p = successes / n: ``(p + z²/2n ± z * sqrt(p(1 - p)/n + z²/4n²)) / (1 + z²/n)``. Unlike
    p ± z·sqrt(p(1 - p)/n) it stays inside [0, 1] and is not empty at p = 0 or 1. ``successes``
    may be fractional (draws counted as half a win). Source: Wilson (1927),
    https://doi.org/10.1080/01621459.1927.10502953; Newcombe (1998), method 3,
    https://doi.org/10.1002/(SICI)1097-0258(19980430)17:8<857::AID-SIM777>3.0.CO;2-E.

    Raises:
        ValueError: n < 1, or successes outside [0, n].
    """
    if n < 1 or not 0 <= successes <= n:
        raise ValueError(f"need 0 <= successes <= n and n >= 1, got {successes} of {n}")
    p = successes / n
    z2 = z * z
    centre = p + z2 / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    scale = 1 + z2 / n
    # At p = 0 the low end is exactly 0 and at p = 1 the high end exactly 1; rounding would miss them.
    low = 0.0 if successes == 0 else (centre - spread) / scale
    high = 1.0 if successes == n else (centre + spread) / scale
    return low, high


def make_row(c: float, simulations: int, players: int, results: Sequence[GameResult],
             sprt: SprtSettings | None = None) -> ArenaRow:
    """The row of these games (in index order: a pair is two consecutive games, seats swapped)."""
    results = sorted(results, key=lambda result: result.index)
    games = len(results)
    searches = [r.first_search for r in results if r.first_search is not None]

    def mean(i: int) -> float:
        return sum(s[i] for s in searches) / len(searches) if searches else NAN

    row = dict(c=c, simulations=simulations, games=games, players=players,
               entropy=mean(0), depth=mean(1), top_share=mean(2))
    if players == 2:
        row.update(_two_player(results, sprt))
    else:
        returns = mean_interval([r.mine for r in results])
        row.update(mean_return=returns[0], return_low=returns[1], return_high=returns[2])
        if players > 2:
            share = sum(r.win_share for r in results)
            row.update(win_share=share / games, **dict(zip(("win_low", "win_high"), wilson_interval(share, games))))
    return ArenaRow(**row)


def _two_player(results: Sequence[GameResult], sprt: SprtSettings | None) -> dict:
    wins = sum(1 for r in results if r.outcome > 0)
    draws = sum(1 for r in results if r.outcome == 0)
    games = len(results)
    outcomes = Outcomes(wins, draws, games - wins - draws)
    trinomial = elo_estimate(outcomes)
    low, high = wilson_interval(wins + draws / 2, games)
    elo_low, elo_high = elo_interval(low, high)
    row = dict(wins=wins, draws=draws, losses=outcomes.losses, score=outcomes.score, low=low, high=high,
               elo=trinomial.elo, elo_error=trinomial.error, elo_low=elo_low, elo_high=elo_high, los=trinomial.los,
               draw_ratio=trinomial.draw_ratio)
    pentanomial = pair_tally(results)
    if pentanomial.pairs:
        pairs = elo_estimate_pairs(pentanomial)
        row.update(dict(zip(("ll", "ld", "dd_wl", "wd", "ww"), pentanomial.counts)), pairs=pentanomial.pairs,
                   pair_elo=pairs.elo, pair_elo_error=pairs.error, pair_los=pairs.los)
    if sprt is not None:
        test = SprtTest(sprt)
        for pair in pair_bins(results):
            test.add(pair)
        row.update(llr=test.llr, llr_low=test.bounds[0], llr_high=test.bounds[1], sprt=VERDICTS[test.verdict])
    return row


def pair_bins(results: Sequence[GameResult]) -> list[int]:
    """The pentanomial bin (0 for LL to 4 for WW) of each complete pair among these games, in index
    order (game 2k and 2k + 1 form pair k)."""
    by_index = {r.index: r for r in results}
    return [pair_bin(by_index[i], by_index[i + 1]) for i in sorted(by_index) if i % 2 == 0 and i + 1 in by_index]


def pair_tally(results: Sequence[GameResult]) -> Pentanomial:
    """The pentanomial of the complete pairs among these games."""
    counts = [0] * 5
    for pair in pair_bins(results):
        counts[pair] += 1
    return Pentanomial(*counts)
