"""Playing strength against C: our MCTS at each C plays a series of games against an opponent.

How one game is played is :mod:`.arena_games`: each is seeded from (seed, C, game index) alone,
so the results do not depend on how games are spread over worker processes, and the MCTS side
plays player 0 in even-numbered games and player 1 in odd-numbered ones.

A game is a win for the MCTS side when its return is larger than the opponent's, a draw when they
are equal, a loss otherwise. The score counts a draw as half a win: ``(wins + draws / 2) / games``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..common.numbers import is_valid_c, parse_c
from ..selection import Scoring
from .arena_games import GameResult, GameTask, game_tasks, play_all
from ..search.budget import check_budget
from ..search.games import load_game, play_moves

if TYPE_CHECKING:
    from .result_store import ArenaKey, ResultStore

Z_95 = 1.959963984540054  # the standard normal's 97.5% quantile: a two-sided 95% interval
MAX_GAMES = 100_000
MAX_WORKERS = 64


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


@dataclass(frozen=True)
class ArenaRow:
    """The MCTS side's results at one C.

    Attributes:
        c: its exploration constant.
        games, wins, draws, losses: games played and how they ended for the MCTS side.
        score: ``(wins + draws / 2) / games``.
        low, high: the 95% Wilson score interval of the score (:func:`wilson_interval`).
        entropy: mean visit entropy (natural log, nats) of the root moves in the MCTS side's
            first search of each game.
        depth: mean depth reached by those searches.
        top_share: mean share of those searches' visits on the most visited root move.
    """

    c: float
    games: int
    wins: int
    draws: int
    losses: int
    score: float
    low: float
    high: float
    entropy: float
    depth: float
    top_share: float


def parse_opponent(opponent: str) -> float | None:
    """The opponent's C for ``"mcts:<C>"``, None for ``"random"``.

    Raises:
        ValueError: anything else.
    """
    if opponent == "random":
        return None
    if opponent.startswith("mcts:"):
        try:
            return parse_c(opponent.removeprefix("mcts:"))
        except ValueError as error:
            raise ValueError(f"opponent {opponent!r}: {error}") from None
    raise ValueError(f'opponent must be "random" or "mcts:<C>" (like "mcts:1.4"), got {opponent!r}')


def arena(
    game: Any,
    *,
    moves: Iterable[int | str] = (),
    c_values: Sequence[float],
    games: int = 100,
    simulations: int = 200,
    rule: str = "ucb1",
    settings: Mapping[str, Any] | None = None,
    opponent: str = "random",
    seed: int = 1,
    workers: int = 2,
    progress: Callable[[int, int], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    store: ResultStore | None = None,
) -> list[ArenaRow]:
    """Plays ``games`` games at each C in ``c_values`` and returns one row per C, in that order.

    Args:
        game: a two-player sequential game of perfect information (a ``pyspiel.Game`` or string).
        moves: the start position (action ids or names), the same for every game.
        c_values: the MCTS side's exploration constants.
        games: games per C; the MCTS side plays player 0 in half of them (the even-numbered).
        simulations: each search's budget.
        rule: the selection rule (a registry key); ``settings`` its other settings.
        opponent: ``"random"`` or ``"mcts:<C>"``.
        seed: with C and the game index, seeds each game.
        workers: processes playing games; 1 plays them in this process.
        progress: called as ``progress(games done, games to play)``.
        should_stop: polled while games run; True cancels the games not started and returns the
            rows of the C values finished so far.
        store: a :class:`~mcts_core.strength.result_store.ResultStore`: C values it holds for these
            settings are not played again, and each finished C is saved at once.

    Raises:
        ValueError: bad settings (the message says which).
        KeyboardInterrupt: after cancelling the pending games and shutting the pool down.
    """
    game = load_game(game)
    if game.num_players() != 2:
        raise ValueError(f"the arena pits two players; {game.get_type().short_name} has {game.num_players()}")
    start = play_moves(game, moves)
    if start.is_terminal():
        raise ValueError("the game is over in this position: there is nothing to play")
    opponent_c = parse_opponent(opponent)
    check_budget(simulations, None)
    _check_count("games", games, MAX_GAMES)
    _check_count("workers", workers, MAX_WORKERS)
    c_values = [float(c) for c in c_values]
    if not c_values or not all(is_valid_c(c) for c in c_values):
        raise ValueError(f"C values must be finite numbers >= 0, at least one, got {c_values}")
    if len(set(c_values)) < len(c_values):
        raise ValueError(f"a C value is listed twice: {c_values}")
    settings = dict(settings or {})
    try:
        Scoring(rule, c_values[0], settings)
    except TypeError as error:  # an unknown setting
        raise ValueError(str(error)) from None
    opponent = "random" if opponent_c is None else f"mcts:{opponent_c!r}"
    key = store_key(game, start, rule, settings, simulations, games, opponent, seed)
    done_rows = {row.c: row for row in store.load(key)} if store is not None else {}
    tasks = game_tasks(str(game), start.history(), rule, settings, [c for c in c_values if c not in done_rows],
                       games, opponent_c, simulations, seed)
    on_row = (lambda row: store.save(key, row)) if store is not None else None
    rows = _play(tasks, games, workers, progress, should_stop, on_row)
    done_rows.update(rows)
    return [done_rows[c] for c in c_values if c in done_rows]


def store_key(game: Any, start: Any, rule: str, settings: Mapping[str, Any], simulations: int,
              games: int, opponent: str, seed: int) -> ArenaKey:
    """The key arena rows with these settings are stored under."""
    from .result_store import ArenaKey, canonical_rule

    return ArenaKey(str(game), tuple(start.history()), canonical_rule(rule, settings), simulations, games,
                    opponent, seed)


def _check_count(name: str, value: int, most: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= most:
        raise ValueError(f"{name} must be a whole number from 1 to {most:,}, got {value!r}")


def _play(tasks: list[GameTask], games: int, workers: int, progress, should_stop, on_row) -> dict[float, ArenaRow]:
    """Plays the tasks; the rows of the C values whose games all finished."""
    results: dict[float, list[GameResult]] = {}
    rows: dict[float, ArenaRow] = {}

    def finished(result: GameResult) -> None:
        results.setdefault(result.c, []).append(result)
        if len(results[result.c]) == games:
            rows[result.c] = row = _row(result.c, results.pop(result.c))
            if on_row is not None:
                on_row(row)
        if progress is not None:
            progress(sum(map(len, results.values())) + len(rows) * games, len(tasks))

    play_all(tasks, workers, finished, should_stop)
    return rows


def _row(c: float, results: list[GameResult]) -> ArenaRow:
    wins = sum(1 for r in results if r.outcome > 0)
    draws = sum(1 for r in results if r.outcome == 0)
    games = len(results)
    low, high = wilson_interval(wins + draws / 2, games)
    searches = [r.first_search for r in sorted(results, key=lambda r: r.index) if r.first_search is not None]

    def mean(i: int) -> float:
        return sum(s[i] for s in searches) / len(searches) if searches else math.nan

    return ArenaRow(c, games, wins, draws, games - wins - draws, (wins + draws / 2) / games, low, high,
                    mean(0), mean(1), mean(2))


