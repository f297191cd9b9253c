"""Arena games: one game between our MCTS and an opponent, and many of them in worker processes.

At each of its turns the MCTS side runs a fresh search (no log) from the current state and plays
the most visited root move. The opponent is random (a uniformly random legal move) or the same
search, rule and budget at another C. Chance outcomes are drawn with their probabilities. Every
random choice of a game comes from one RNG seeded from (seed, C, game index), so a game's result
does not depend on which process plays it or when. Game ``index`` has the MCTS side play player
``index % 2``.
"""

from __future__ import annotations

import multiprocessing
import random
import signal
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..selection import Scoring
from ..search.sequential_search import search_state
from ..search.games import load_game, play_moves

POLL_SECONDS = 0.1  # how often the pool's caller checks should_stop


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


def game_tasks(game: str, moves: Iterable[int], rule: str, settings: Mapping[str, Any], c_values: Iterable[float],
               games: int, opponent_c: float | None, simulations: int, seed: int) -> list[GameTask]:
    """The games to play, C by C; game ``index`` has the MCTS side play player ``index % 2``."""
    moves, frozen = tuple(moves), tuple(sorted(settings.items()))
    return [
        GameTask(game, moves, rule, frozen, c, opponent_c, simulations, seed, index)
        for c in c_values for index in range(games)
    ]


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


def play_all(tasks: list[GameTask], workers: int, finished: Callable[[GameResult], None],
             should_stop: Callable[[], bool] | None = None) -> None:
    """Plays the tasks (in this process when ``workers`` is 1), calling ``finished`` here for each.

    ``should_stop`` returning True, or a KeyboardInterrupt, cancels the games not started; running
    ones end on their own and the pool is shut down before this returns (or re-raises).
    """
    if workers == 1:
        for task in tasks:
            if should_stop is not None and should_stop():
                return
            finished(play_game(task))
        return
    context = multiprocessing.get_context("spawn")  # fork is unsafe in a threaded host (Streamlit)
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_ignore_interrupts)
    with _interrupts_deferred() as interrupted:
        try:
            with _interrupts_ignored():  # workers start during the submits, and inherit SIG_IGN
                pending: set[Future] = {pool.submit(play_game, task) for task in tasks}
            while pending and not interrupted():
                done, pending = wait(pending, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
                for future in done:
                    finished(future.result())
                if should_stop is not None and should_stop():
                    return
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
        if interrupted():
            raise KeyboardInterrupt


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the parent, which cancels the pool (no traceback from each worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def _interrupts_deferred() -> Iterator[Callable[[], bool]]:
    """Ctrl-C meanwhile only sets a flag, which the caller reads at safe points (main thread only).

    A KeyboardInterrupt raised inside ``concurrent.futures.wait`` can leave a future's lock held,
    and the pool's shutdown then waits forever.
    """
    if threading.current_thread() is not threading.main_thread():
        yield lambda: False
        return
    flag = threading.Event()
    previous = signal.signal(signal.SIGINT, lambda signum, frame: flag.set())
    try:
        yield flag.is_set
    finally:
        signal.signal(signal.SIGINT, previous)


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
