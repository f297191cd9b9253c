"""Playing strength against C: our MCTS at each C plays a series of games against an opponent.

Each game is independent and seeded from (seed, C, game index) alone, so the results do not depend
on how games are spread over worker processes. The MCTS side plays player 0 in even-numbered games
and player 1 in odd-numbered ones; at each of its turns it runs a fresh search (no log) from the
current state and plays the most visited root move. The opponent is ``"random"`` (a uniformly
random legal move) or ``"mcts:<C>"`` (the same search, rule and budget at another C). Chance
outcomes are drawn with their probabilities from the game's RNG.

A game is a win for the MCTS side when its return is larger than the opponent's, a draw when they
are equal, a loss otherwise. The score counts a draw as half a win: ``(wins + draws / 2) / games``.
"""

from __future__ import annotations

import math
import multiprocessing
import random
import signal
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..numbers import is_valid_c, parse_c
from ..selection import Scoring
from .game_search import check_budget, search_state
from .games import load_game, play_moves

if TYPE_CHECKING:
    from .results import ArenaKey, ResultStore

Z_95 = 1.959963984540054  # the standard normal's 97.5% quantile: a two-sided 95% interval
MAX_GAMES = 100_000
POLL_SECONDS = 0.1  # how often the pool's caller checks should_stop


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
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


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


@dataclass(frozen=True)
class GameTask:
    """One arena game, as plain picklable values (a worker process rebuilds the rest)."""

    game: str
    moves: tuple[int, ...]
    rule: str
    settings: tuple[tuple[str, Any], ...]
    c: float
    opponent_c: float | None  # None: a random opponent
    simulations: int
    seed: int
    index: int


@dataclass(frozen=True)
class GameResult:
    """How one game ended for the MCTS side, and its first search's statistics (None if it never moved)."""

    c: float
    index: int
    side: int  # the player the MCTS side played
    outcome: int  # 1 win, 0 draw, -1 loss
    first_search: tuple[float, int, float] | None  # (visit entropy, depth, top share)


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
        store: a :class:`~mcts_core.search.results.ResultStore`: C values it holds for these
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
    _check_count("workers", workers, 64)
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


def game_tasks(game: str, moves: Iterable[int], rule: str, settings: Mapping[str, Any], c_values: Iterable[float],
               games: int, opponent_c: float | None, simulations: int, seed: int) -> list[GameTask]:
    """The games to play, C by C; game ``index`` has the MCTS side play player ``index % 2``."""
    moves, frozen = tuple(moves), tuple(sorted(settings.items()))
    return [
        GameTask(game, moves, rule, frozen, c, opponent_c, simulations, seed, index)
        for c in c_values for index in range(games)
    ]


def store_key(game: Any, start: Any, rule: str, settings: Mapping[str, Any], simulations: int,
              games: int, opponent: str, seed: int) -> ArenaKey:
    """The key arena rows with these settings are stored under."""
    from .results import ArenaKey, canonical_rule

    return ArenaKey(str(game), tuple(start.history()), canonical_rule(rule, settings), simulations, games, opponent, seed)


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

    if workers == 1:
        for task in tasks:
            if should_stop is not None and should_stop():
                break
            finished(play_game(task))
        return rows
    context = multiprocessing.get_context("spawn")  # fork is unsafe in a threaded host (Streamlit)
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_ignore_interrupts)
    try:
        with _interrupts_ignored():  # workers start during the submits, and inherit SIG_IGN
            pending: set[Future] = {pool.submit(play_game, task) for task in tasks}
        while pending:
            done, pending = wait(pending, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
            for future in done:
                finished(future.result())
            if should_stop is not None and should_stop():
                break
    finally:
        # Also on KeyboardInterrupt: games not started are dropped, running ones end on their own.
        pool.shutdown(wait=True, cancel_futures=True)
    return rows


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the parent, which cancels the pool (no traceback from each worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def _interrupts_ignored() -> Iterator[None]:
    """Ctrl-C ignored meanwhile (main thread only: others cannot set handlers).

    A process started meanwhile inherits SIG_IGN through exec and Python keeps it, so a Ctrl-C
    while a worker is still importing (before :func:`_ignore_interrupts` runs) cannot reach it.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


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


@lru_cache(maxsize=8)
def _loaded(game: str) -> Any:
    """The game, loaded once per process."""
    return load_game(game)


def play_game(task: GameTask) -> GameResult:
    """Plays one arena game (a top-level function, so a spawned worker can run it)."""
    state = play_moves(_loaded(task.game), task.moves)
    rng = random.Random(f"arena/{task.seed}/{task.c!r}/{task.index}")  # str seeds hash the same everywhere
    settings = dict(task.settings)
    ours = Scoring(task.rule, task.c, settings)
    theirs = Scoring(task.rule, task.opponent_c, settings) if task.opponent_c is not None else None
    side = task.index % 2
    first_search = None
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        elif state.current_player() == side or theirs is not None:
            scoring = ours if state.current_player() == side else theirs
            result = search_state(state, scoring=scoring, simulations=task.simulations, seed=rng.getrandbits(64))
            if first_search is None and scoring is ours:
                first_search = (result.visit_entropy, result.depth, result.top_share)
            state.apply_action(result.best_action)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    returns = state.returns()
    mine, other = returns[side], returns[1 - side]
    return GameResult(task.c, task.index, side, (mine > other) - (mine < other), first_search)
