"""Where arena games run: in this process, in local worker processes, or on a Dask cluster.

A pool plays chunks of games (:func:`.arena_games.play_chunk`) and hands back each finished chunk;
all three share one small interface, so the scheduler does not care where the games run:

* ``submit(chunk)`` starts a chunk and returns its handle;
* ``wait(timeout)`` returns the ``(handle, results)`` of chunks finished by then (maybe none);
* ``cancel(handles)`` drops those chunks if they have not finished (a running local one may
  still come in); ``close()`` releases the workers.

The Dask pool lives in :mod:`.cluster`; :func:`open_pool` picks one.
"""

from __future__ import annotations

import multiprocessing
import signal
import sys
import threading
import types
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from typing import Any

from .arena_games import GameResult, GameTask, play_chunk


class InlinePool:
    """Plays each chunk in this process when waited for (one worker: no processes to start)."""

    slots = 1

    def __init__(self) -> None:
        self._queue: list[tuple[int, list[GameTask]]] = []
        self._next = 0

    def submit(self, chunk: list[GameTask]) -> int:
        self._next += 1
        self._queue.append((self._next, chunk))
        return self._next

    def wait(self, timeout: float) -> list[tuple[int, list[GameResult]]]:
        if not self._queue:
            return []
        handle, chunk = self._queue.pop(0)
        return [(handle, play_chunk(chunk))]

    def cancel(self, handles: list[int]) -> None:
        dropped = set(handles)
        self._queue = [(handle, chunk) for handle, chunk in self._queue if handle not in dropped]

    def close(self) -> None:
        self._queue.clear()


class ProcessPool:
    """Local worker processes (spawned: fork is unsafe in a threaded host such as Streamlit)."""

    def __init__(self, workers: int) -> None:
        self.slots = workers
        context = multiprocessing.get_context("spawn")
        self._pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_ignore_interrupts)
        self._pending: set[Future] = set()

    def submit(self, chunk: list[GameTask]) -> Future:
        # Workers start during submits: they inherit the held Ctrl-C, and start without the host's main script.
        with interrupts_held(), host_main_hidden():
            future = self._pool.submit(play_chunk, chunk)
        self._pending.add(future)
        return future

    def wait(self, timeout: float) -> list[tuple[Future, list[GameResult]]]:
        if not self._pending:
            return []
        done, self._pending = wait(self._pending, timeout=timeout, return_when=FIRST_COMPLETED)
        return [(future, future.result()) for future in done]

    def cancel(self, handles: list[Future]) -> None:
        for future in handles:
            if future.cancel():
                self._pending.discard(future)

    def close(self) -> None:
        """Drops the chunks not started; running ones end on their own before this returns."""
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._pending.clear()


def open_pool(workers: int, cluster: str | None, cluster_wait: float) -> Any:
    """The Dask pool when a scheduler address is given (giving up after ``cluster_wait`` seconds
    without a live worker), else local processes (inline for one worker).

    Raises:
        ValueError: the scheduler cannot be reached or has no workers.
    """
    if cluster:
        from .cluster import DaskPool

        return DaskPool(cluster, cluster_wait)
    return InlinePool() if workers == 1 else ProcessPool(workers)


@contextmanager
def host_main_hidden() -> Iterator[None]:
    """Processes spawned meanwhile start without running the host's ``__main__`` file again.

    A spawned process first runs its parent's ``__main__`` file as its own main module. Under
    Streamlit that is the app's script (each script run makes itself ``__main__``), which would import
    the app's Streamlit modules into every worker, outside any Streamlit runtime. A worker runs a
    top-level function of an importable module and needs none of it. Another thread that makes its
    own ``__main__`` meanwhile (a new script run) keeps it.
    """
    host_main = sys.modules.get("__main__")
    blank = types.ModuleType("__main__")  # no file and no spec: a spawned process imports no main
    sys.modules["__main__"] = blank
    try:
        yield
    finally:
        if sys.modules.get("__main__") is blank:
            sys.modules["__main__"] = host_main


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the parent, which cancels the pool (no traceback from each worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def interrupts_deferred() -> Iterator[Callable[[], bool]]:
    """Ctrl-C meanwhile only sets a flag, which the caller reads at safe points; leaving the block
    with the flag set raises KeyboardInterrupt (main thread only).

    A KeyboardInterrupt raised inside ``concurrent.futures.wait`` can leave a future's lock held,
    and the pool's shutdown then waits forever; inside Dask's client it can leave its loop half-way.
    The check on leaving catches a Ctrl-C that came after the caller's last look.
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
    if flag.is_set():
        raise KeyboardInterrupt


@contextmanager
def interrupts_held() -> Iterator[None]:
    """Ctrl-C meanwhile is held back (SIGINT blocked in this thread) and delivered when the block ends.

    A process started meanwhile inherits the blocked SIGINT through exec, so a Ctrl-C while a
    worker is still importing (before :func:`_ignore_interrupts` runs) cannot reach it. Ignoring
    SIGINT instead (SIG_IGN) would discard a Ctrl-C meant for this process too: the arena then
    played on to the end and exited 0.
    """
    if not hasattr(signal, "pthread_sigmask"):  # no signal masks (Windows): nothing to hold back
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
