"""Arena games on a Dask distributed cluster: the same chunks as local processes, on the cluster's workers.

Start a scheduler (``dask scheduler``) and workers (``dask worker tcp://HOST:8786``) where the
project can be imported (started from its folder or with it on ``PYTHONPATH``), and give the
scheduler's address. Each chunk is one Dask task; a worker that dies has its chunks run again on
another one by the scheduler itself (up to Dask's ``allowed-failures``), and the results do not
depend on which worker played them (:mod:`.arena_games` seeds every game from its description).
When the scheduler has had no live worker for ``no_worker_seconds`` (every one died or left, and
none joined), :class:`NoLiveWorkers` ends the run: the scheduler would hold its games forever.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from .arena_games import GameResult, GameTask, play_chunk

CONNECT_SECONDS = 5  # how long an unreachable scheduler is waited for before saying so
WORKER_SECONDS = 10  # how long a scheduler without workers is waited for
POLL_SECONDS = 0.005  # sleep between looks for finished chunks (the window keeps the workers busy meanwhile)
LOOK_SECONDS = 1.0  # how often the scheduler is asked whether any worker is alive while chunks are out


def _replayed_chunk(record: logging.LogRecord) -> bool:
    """False for the client's warning that a chunk's results were lost with a dead worker: the chunk is
    played again (a killed worker is handled), and the warning would be a stray line on the CLI's stderr."""
    return not record.getMessage().startswith("Couldn't gather")


def _gather_cut_by_close(record: logging.LogRecord) -> bool:
    """False for tornado's report of a closed connection under a results gather, once a pool has closed:
    our own close cuts such gathers short (Ctrl-C, Stop, the run's end; its chunks were cancelled
    first), and a scheduler lost during a run is :class:`NoLiveWorkers`' sentence, so the traceback
    would only be a stray on the CLI's stderr."""
    error = record.exc_info[1] if record.exc_info else None
    return type(error).__name__ not in ("CommClosedError", "StreamClosedError")


class NoLiveWorkers(ValueError):
    """The scheduler has had no live worker for the pool's ``no_worker_seconds``."""


class DaskPool:
    """Chunks of games as Dask tasks on the cluster whose scheduler is at ``address``; gives up (raises
    :class:`NoLiveWorkers` from :meth:`wait`) after ``no_worker_seconds`` without a live worker."""

    def __init__(self, address: str, no_worker_seconds: float) -> None:
        from distributed import Client, as_completed

        logging.getLogger("distributed.client").addFilter(_replayed_chunk)  # added again, it is still there once
        try:
            self._client = Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as error:
            reason = str(error).splitlines()[0] if str(error) else type(error).__name__
            raise ValueError(f"cannot reach the Dask scheduler at {address}: {reason}") from None
        try:
            self._client.wait_for_workers(1, timeout=WORKER_SECONDS)
        except (OSError, TimeoutError):
            self._client.close()
            raise ValueError(f"the Dask scheduler at {address} has no workers: start some with "
                             f"`dask worker {address}`") from None
        self.slots = max(1, sum(self._client.nthreads().values()))
        self._done = as_completed([], loop=self._client.loop, with_results=True)
        self._pending: set[Any] = set()
        self._address, self._no_worker_seconds = address, no_worker_seconds
        self._next_look, self._alone_since = time.monotonic() + LOOK_SECONDS, None

    def submit(self, chunk: list[GameTask]) -> Any:
        future = self._client.submit(play_chunk, chunk, pure=False)
        self._pending.add(future)
        self._done.add(future)
        return future

    def wait(self, timeout: float) -> list[tuple[Any, list[GameResult]]]:
        deadline = time.monotonic() + timeout
        while self._pending:
            # (future, its results or error), gathered in the client's loop: a chunk whose results were on
            # a worker that died is played again before it comes, so this thread never waits on it.
            finished = [(future, outcome) for future, outcome in self._done.next_batch(block=False)
                        if future in self._pending]
            if finished:
                self._pending.difference_update(future for future, _ in finished)
                return [(future, _result(future, outcome)) for future, outcome in finished]
            now = time.monotonic()
            if now >= self._next_look:
                self._check_workers(now)
            if now >= deadline:
                break
            time.sleep(POLL_SECONDS)
        return []

    def _check_workers(self, now: float) -> None:
        """Raises NoLiveWorkers once the scheduler has had no worker for ``no_worker_seconds``."""
        self._next_look = now + LOOK_SECONDS
        try:
            alive = bool(self._client.nthreads())
        except (OSError, TimeoutError):  # the scheduler cannot say: no worker it knows of is alive
            alive = False
        if alive:
            self._alone_since = None
            return
        if self._alone_since is None:
            self._alone_since = now
        if now - self._alone_since >= self._no_worker_seconds:
            raise NoLiveWorkers(f"the Dask cluster at {self._address} has had no live worker for "
                                f"{self._no_worker_seconds:g} s (every worker died or left)")

    def cancel(self, handles: list[Any]) -> None:
        dropped = [future for future in handles if future in self._pending]
        if dropped:
            self._client.cancel(dropped)
            self._pending.difference_update(dropped)

    def close(self) -> None:
        self.cancel(list(self._pending))
        # A gather as_completed had in flight then fails in the client's loop, which tornado logs (seen
        # once in CI on Ctrl-C); added again, the filter is still there once.
        logging.getLogger("tornado.application").addFilter(_gather_cut_by_close)
        self._client.close()


def _result(future: Any, outcome: Any) -> list[GameResult]:
    """A chunk's results (``outcome``, as gathered); a worker that cannot import the project, or a chunk
    that keeps killing workers, is one sentence."""
    from distributed import KilledWorker

    if future.status != "error":
        return outcome
    _, error, traceback = outcome  # as_completed gives an error as (type, exception, traceback)
    if isinstance(error, ModuleNotFoundError):
        raise ValueError(f"a Dask worker cannot import {error.name}: start the workers from the project's "
                         "folder or with it on PYTHONPATH") from None
    if isinstance(error, KilledWorker):
        raise ValueError("a chunk of games was running on every Dask worker that died during it (Dask's "
                         "allowed-failures): the games stored so far are kept; check the workers' memory and logs "
                         "and run again to resume") from None
    raise error.with_traceback(traceback)
