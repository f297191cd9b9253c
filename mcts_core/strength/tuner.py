"""The C that plays best at a budget, by successive halving over a C grid with paired games.

With n C values and G games in all there are R = ceil(log2 n) rounds, and exactly G games are
played. Each round spends an equal part of the games still to play (G / R in the first), shared
equally by its C values in whole groups (pairs for two players) and added to the games each
played before; what does not divide evenly is carried to the next round, and the last round's
remainder goes one group each to its C values best ranked so far (in the grid's order when there is
only one round). After each round the better half
by score (two players) or mean return (others), over all its games so far, goes on. The best C is
the best of the last round, reported with its interval against the reference opponent. Successive
halving: Karnin, Koren and Somekh (2013), http://proceedings.mlr.press/v28/karnin13.pdf.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .arena import ArenaPlan, check_grid, plan
from .rows import ArenaRow, make_row

if TYPE_CHECKING:
    from .result_store import ResultStore


@dataclass(frozen=True)
class TuneResult:
    """What successive halving found.

    Attributes:
        best: the best C's row (None when stopped before the first round ended).
        rows: each C's row over all its games, in the grid's order.
        rounds: the last round each C played (1-based), by C.
        games: games the tuner used, all C values together (stored ones included).
        finished: False when stopped early.
    """

    best: ArenaRow | None
    rows: list[ArenaRow]
    rounds: dict[float, int]
    games: int
    finished: bool


@dataclass(frozen=True)
class HalvingRound:
    """One round of successive halving, planned before any game.

    Attributes:
        c_values: how many C values play it.
        games: the games each of them adds.
        extra: how many of them (the best ranked first) add one group more: the budget's last
            games, which do not divide evenly (the last round only).
        players: games in a group (one per seat).
    """

    c_values: int
    games: int
    extra: int
    players: int

    @property
    def total(self) -> int:
        """The games the round plays."""
        return self.c_values * self.games + self.extra * self.players


def halving_rounds(c_values: int, games: int, players: int) -> list[HalvingRound]:
    """The rounds that spend exactly ``games`` games on ``c_values`` C values (see the module docstring).

    Raises:
        ValueError: too few games for one group per C value in every round (one sentence).
    """
    rounds = max(1, math.ceil(math.log2(c_values)))
    left, playing, planned = games // players, c_values, []  # counted in groups
    for number in range(1, rounds + 1):
        share = left // (rounds - number + 1) // playing
        if share < 1:
            raise ValueError(f"{games:,} games are too few to tune {c_values} C values: each round needs at "
                             f"least {players} games per C, so give at least {rounds * c_values * players:,}")
        left -= share * playing
        extra = left if number == rounds else 0  # fewer than `playing` groups
        planned.append(HalvingRound(playing, share * players, extra, players))
        playing = math.ceil(playing / 2)
    return planned


def games_each(rows: Sequence[ArenaRow]) -> str:
    """The games per C of these rows: "8", or "8 to 10" where the last round's extra groups went."""
    fewest, most = min(row.games for row in rows), max(row.games for row in rows)
    return f"{fewest:,}" if fewest == most else f"{fewest:,} to {most:,}"


def strength(row: ArenaRow) -> float:
    """What successive halving ranks by: the score with two players, else the mean return."""
    return row.score if row.players == 2 else row.mean_return


def tune_rounds(game: Any, *, c_values: Sequence[float], games: int, simulations: int,
                **settings: Any) -> list[HalvingRound]:
    """The rounds :func:`tune` would play with these settings, checked as it checks them, without playing.

    Raises:
        ValueError: bad settings, or too few games for one group per C in every round.
    """
    return _checked_rounds(plan(game, **settings), [float(c) for c in c_values], games, simulations)


def _checked_rounds(arena_plan: ArenaPlan, c_values: list[float], games: int, simulations: int) -> list[HalvingRound]:
    check_grid(arena_plan, c_values, games, [simulations])
    return halving_rounds(len(c_values), games, arena_plan.players)


def tune(game: Any, *, c_values: Sequence[float], games: int, simulations: int,
         on_round: Callable[[int, int, list[ArenaRow]], None] | None = None,
         progress: Callable[[int, int], None] | None = None, should_stop: Callable[[], bool] | None = None,
         store: ResultStore | None = None, **settings: Any) -> TuneResult:
    """Successive halving over ``c_values`` with exactly ``games`` games in all at ``simulations`` per search.

    ``settings`` are :func:`.arena.plan`'s (moves, rule, settings, opponent, seed, workers, cluster).
    ``on_round(round, rounds, rows)`` is called after each round with the rows of the C values that
    played it, best first. The rounds are :func:`halving_rounds`'.

    Raises:
        ValueError: bad settings, or too few games for one group per C in every round.
    """
    arena_plan = plan(game, **settings)
    c_values = [float(c) for c in c_values]
    planned = _checked_rounds(arena_plan, c_values, games, simulations)
    players = arena_plan.players
    series = {c: arena_plan.series(c, simulations, 0, None, store) for c in c_values}
    survivors, last_round, target = list(c_values), {c: 0 for c in c_values}, {c: 0 for c in c_values}
    finished, ranked = True, []
    for number, this_round in enumerate(planned, start=1):
        for rank, c in enumerate(survivors):  # survivors are best first after the first round
            target[c] += this_round.games + (players if rank < this_round.extra else 0)
            series[c].extend(target[c])
            last_round[c] = number
        arena_plan.play([series[c] for c in survivors], store=store, progress=progress, should_stop=should_stop)
        if not all(series[c].done for c in survivors):
            finished = False
            break
        ranked = sorted((make_row(c, simulations, players, series[c].rows_games()) for c in survivors),
                        key=strength, reverse=True)
        if on_round is not None:
            on_round(number, len(planned), ranked)
        survivors = [row.c for row in ranked[: math.ceil(len(ranked) / 2)]]
    used = {c: [series[c].results[i] for i in sorted(series[c].results) if i < target[c]] for c in c_values}
    rows = [make_row(c, simulations, players, used[c]) for c in c_values if used[c]]
    return TuneResult(ranked[0] if ranked and finished else None, rows, last_round,
                      sum(map(len, used.values())), finished)
