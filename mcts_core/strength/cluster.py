"""Arena games on a Dask distributed cluster: the same chunks as local processes, on the cluster's workers.

Start a scheduler (``dask scheduler``) and workers (``dask worker tcp://HOST:8786``) where the
project can be imported (started from its folder or with it on ``PYTHONPATH``), and give the
scheduler's address. Each chunk is one Dask task; a worker that dies has its chunks run again on
another one by the scheduler itself (up to Dask's ``allowed-failures``), and the results do not
depend on which worker played them (:mod:`.arena_games` seeds every game from its description).
"""

from __future__ import annotations

import time
from typing import Any

from .arena_games import GameResult, GameTask, play_chunk

CONNECT_SECONDS = 5  # how long an unreachable scheduler is waited for before saying so
WORKER_SECONDS = 10  # how long a scheduler without workers is waited for
POLL_SECONDS = 0.005  # sleep between looks for finished chunks (the window keeps the workers busy meanwhile)


class DaskPool:
    """Chunks of games as Dask tasks on the cluster whose scheduler is at ``address``."""

    def __init__(self, address: str) -> None:
        from distributed import Client, as_completed

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
        self._done = as_completed([], loop=self._client.loop, with_results=False)
        self._pending: set[Any] = set()

    def submit(self, chunk: list[GameTask]) -> Any:
        future = self._client.submit(play_chunk, chunk, pure=False)
        self._pending.add(future)
        self._done.add(future)
        return future

    def wait(self, timeout: float) -> list[tuple[Any, list[GameResult]]]:
        deadline = time.monotonic() + timeout
        while self._pending:
            finished = [future for future in self._done.next_batch(block=False) if future in self._pending]
            if finished:
                self._pending.difference_update(finished)
                return [(future, _result(future)) for future in finished]
            if time.monotonic() >= deadline:
                break
            time.sleep(POLL_SECONDS)
        return []

    def cancel(self, handles: list[Any]) -> None:
        dropped = [future for future in handles if future in self._pending]
        if dropped:
            self._client.cancel(dropped)
            self._pending.difference_update(dropped)

    def close(self) -> None:
        self.cancel(list(self._pending))
        self._client.close()


def _result(future: Any) -> list[GameResult]:
    """A chunk's results; a worker that cannot import the project, or a chunk that keeps killing workers, is one sentence."""
    from distributed import KilledWorker

    try:
        return future.result()
    except ModuleNotFoundError as error:
        raise ValueError(f"a Dask worker cannot import {error.name}: start the workers from the project's "
                         "folder or with it on PYTHONPATH") from None
    except KilledWorker:
        raise ValueError("a chunk of games was running on every Dask worker that died during it (Dask's "
                         "allowed-failures): the games stored so far are kept; check the workers' memory and logs "
                         "and run again to resume") from None
