"""The C that plays best at a budget, by successive halving over a C grid with paired games.

With n C values and G games in all, there are R = ceil(log2 n) rounds of G / R games each. In a
round every surviving C gets an equal share of the round's games (whole groups: pairs for two
players), added to the games it played before; then the better half by score (two players) or
mean return (others), over all its games so far, goes on. The best C is the best of the last
round, reported with its interval against the reference opponent. Successive halving: Karnin,
Koren and Somekh (2013), http://proceedings.mlr.press/v28/karnin13.pdf.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .arena import check_grid, plan
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


def strength(row: ArenaRow) -> float:
    """What successive halving ranks by: the score with two players, else the mean return."""
    return row.score if row.players == 2 else row.mean_return


def tune(game: Any, *, c_values: Sequence[float], games: int, simulations: int,
         on_round: Callable[[int, int, list[ArenaRow]], None] | None = None,
         progress: Callable[[int, int], None] | None = None, should_stop: Callable[[], bool] | None = None,
         store: ResultStore | None = None, **settings: Any) -> TuneResult:
    """Successive halving over ``c_values`` with ``games`` games in all at ``simulations`` per search.

    ``settings`` are :func:`.arena.plan`'s (moves, rule, settings, opponent, seed, workers, cluster).
    ``on_round(round, rounds, rows)`` is called after each round with the rows of the C values that
    played it, best first.

    Raises:
        ValueError: bad settings, or too few games for one group per C in every round.
    """
    arena_plan = plan(game, **settings)
    c_values = [float(c) for c in c_values]
    check_grid(arena_plan, c_values, games, [simulations])
    players = arena_plan.players
    rounds = max(1, math.ceil(math.log2(len(c_values))))
    per_round = games // rounds
    if per_round // len(c_values) < players:
        raise ValueError(f"{games:,} games are too few to tune {len(c_values)} C values: each round needs at "
                         f"least {players} games per C, so give at least {rounds * len(c_values) * players:,}")
    series = {c: arena_plan.series(c, simulations, 0, None, store) for c in c_values}
    survivors, last_round, target = list(c_values), {c: 0 for c in c_values}, {c: 0 for c in c_values}
    finished, ranked = True, []
    for number in range(1, rounds + 1):
        share = per_round // len(survivors) // players * players
        for c in survivors:
            target[c] += share
            series[c].extend(target[c])
            last_round[c] = number
        arena_plan.play([series[c] for c in survivors], store=store, progress=progress, should_stop=should_stop)
        if not all(series[c].done for c in survivors):
            finished = False
            break
        ranked = sorted((make_row(c, simulations, players, series[c].rows_games()) for c in survivors),
                        key=strength, reverse=True)
        if on_round is not None:
            on_round(number, rounds, ranked)
        survivors = [row.c for row in ranked[: math.ceil(len(ranked) / 2)]]
    used = {c: [series[c].results[i] for i in sorted(series[c].results) if i < target[c]] for c in c_values}
    rows = [make_row(c, simulations, players, used[c]) for c in c_values if used[c]]
    return TuneResult(ranked[0] if ranked and finished else None, rows, last_round,
                      sum(map(len, used.values())), finished)
