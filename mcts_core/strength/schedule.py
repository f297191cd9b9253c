"""Feeding a pool with arena games, series by series, and deciding when each series is done.

A series is the games at one C and budget. Its games are handed out in index order, a few groups
(one game per seat) per chunk, with at most two chunks per worker slot in flight, so a Stop or an
SPRT verdict leaves little work to cancel. A series is done when all its games are in, or when
its stopping rule says so: the rule sees the groups in index order only (group k after groups
0..k-1), so where a series stops depends on the seeds alone, not on which games finished first.
Games already in the store are not played again; each finished game is stored within a second.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from .arena_games import GameResult, GameTask
from .pools import interrupts_deferred

CHUNK_GROUPS = 8  # groups per chunk: tic-tac-toe games take ~6 ms, too short to be a task each
WINDOW_PER_SLOT = 2  # chunks in flight per worker slot: one playing, one queued behind it
POLL_SECONDS = 0.1  # how long one wait for finished chunks lasts before Stop is checked again
SAVE_SECONDS = 1.0  # finished games are written to the store at least this often


class StopRule(Protocol):
    """Told each complete group in index order; True when the series may stop there."""

    def add(self, group: list[GameResult]) -> bool: ...


@dataclass
class Series:
    """The games at one C and budget.

    Attributes:
        games: the most games to play (a multiple of ``players``).
        make_tasks: the tasks of these indices.
        stop_rule: None plays all ``games``.
        results: finished games by index (stored ones included).
        used: once done, how many games (from index 0) the series' row is made of.
    """

    c: float
    simulations: int
    players: int
    games: int
    make_tasks: Callable[[list[int]], list[GameTask]]
    stop_rule: StopRule | None = None
    chunk_groups: int = CHUNK_GROUPS
    results: dict[int, GameResult] = field(default_factory=dict)
    used: int | None = None
    _checked: int = 0  # groups shown to the stop rule
    _next: int = 0  # the next index to hand out

    @property
    def done(self) -> bool:
        return self.used is not None

    def decide(self) -> None:
        """Shows the complete groups not yet seen to the stop rule; sets ``used`` when done."""
        p = self.players
        while self.used is None and (self._checked + 1) * p <= self.games:
            start = self._checked * p
            if any(i not in self.results for i in range(start, start + p)):
                return
            self._checked += 1
            if self.stop_rule is not None and self.stop_rule.add([self.results[i] for i in range(start, start + p)]):
                self.used = self._checked * p
        if self.used is None and self._checked * p >= self.games:
            self.used = self.games

    def next_chunk(self) -> list[int]:
        """The next indices to play (none stored), at most ``chunk_groups`` groups; [] when all are out."""
        indices: list[int] = []
        while self._next < self.games and len(indices) < self.chunk_groups * self.players:
            if self._next not in self.results:
                indices.append(self._next)
            self._next += 1
        return indices

    def extend(self, games: int) -> None:
        """Raises the most games to play (the tuner's next round); a finished series goes on."""
        self.games, self.used = games, None
        self.decide()

    def rows_games(self) -> list[GameResult]:
        """The games the row is made of."""
        return [self.results[i] for i in range(self.used or 0)]


def play_series(series: list[Series], pool_factory: Callable[[], Any], *,
                progress: Callable[[int, int], None] | None = None,
                should_stop: Callable[[], bool] | None = None,
                save: Callable[[list[GameResult]], None] | None = None) -> None:
    """Plays the series' missing games, first series first, until each is done or ``should_stop``.

    The pool is opened only if there is something to play. ``progress(done, total)`` counts the
    games finished in this call against those it may play (a stopping rule may need fewer); it is
    first called with done = 0, before the pool opens, so the total is known from the start.

    Raises:
        KeyboardInterrupt: after cancelling the games in flight and storing the finished ones.
    """
    for one in series:
        one.decide()
    total = sum(sum(1 for i in range(one.games) if i not in one.results) for one in series if not one.done)
    if total == 0 or (should_stop is not None and should_stop()):
        return
    if progress is not None:
        progress(0, total)  # opening the pool takes a while (processes start, a cluster answers)
    finished, unsaved, saved_at = 0, [], time.monotonic()
    pool = pool_factory()
    in_flight: dict[Any, Series] = {}
    late: dict[Any, Series] = {}  # chunks cancelled while they may already run
    window = WINDOW_PER_SLOT * pool.slots
    with interrupts_deferred() as interrupted:
        try:
            while not interrupted() and not (should_stop is not None and should_stop()):
                for one in series:
                    while len(in_flight) < window and not one.done:
                        indices = one.next_chunk()
                        if not indices:
                            break
                        in_flight[pool.submit(one.make_tasks(indices))] = one
                if not in_flight:
                    break  # (late chunks are not waited for)
                for handle, results in pool.wait(POLL_SECONDS):
                    one = in_flight.pop(handle, None) or late.pop(handle)
                    for result in results:
                        one.results[result.index] = result
                        finished += 1
                        if progress is not None:
                            progress(finished, total)
                    unsaved.extend(results)
                    was_done = one.done
                    one.decide()
                    if one.done and not was_done:  # its other chunks are not needed any more
                        dropped = [h for h, owner in in_flight.items() if owner is one]
                        pool.cancel(dropped)
                        for h in dropped:  # a chunk already running may still come in: kept, and stored
                            late[h] = in_flight.pop(h)
                if save is not None and unsaved and time.monotonic() - saved_at >= SAVE_SECONDS:
                    save(unsaved)
                    unsaved, saved_at = [], time.monotonic()
        finally:
            pool.cancel([*in_flight, *late])
            if save is not None:
                save(unsaved)
            pool.close()
