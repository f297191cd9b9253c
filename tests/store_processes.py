"""What the store tests' other processes do, and how they start.

The processes start as forks of one clean server process that imported this module (and with it
the stores) once: a spawned process imports them again, about 0.5 s of CPU each.
"""

from __future__ import annotations

import multiprocessing
import sqlite3
import time
from pathlib import Path

from mcts_core.common import StoreError
from mcts_core.inputs.store import InputStore
from mcts_core.strength.arena_games import GameResult
from mcts_core.strength.result_store import ArenaKey, ResultStore

RESULT_KEY = ArenaKey("tic_tac_toe", (), '{"rule": "ucb1", "settings": {}}', "random", 0)
GAME = GameResult(c=1.0, simulations=10, index=0, seat=0, returns=(1.0, -1.0), first_search=(0.5, 1, 0.5))


def forking_context() -> multiprocessing.context.BaseContext:
    """A context whose processes fork from a server that has this module imported (no threads of
    the test process's are copied, as they would be by a plain fork)."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([__name__])  # heeded when this process's server first starts
    return context


def save_result(path: str) -> str | None:
    """Open a result store and save a row; what went wrong, if anything."""
    try:
        ResultStore(Path(path)).save(RESULT_KEY, [GAME])
        return None
    except Exception as error:  # noqa: BLE001 - the test counts every failure, whatever its kind
        return f"{type(error).__name__}: {error}"


def create_slowly(path: str, locked, seconds: float) -> None:
    """Be the process that creates the file first: hold its write lock for ``seconds``, as a slow
    first opener does while it sets the file up."""
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("BEGIN IMMEDIATE")
    connection.execute("CREATE TABLE first_opener (x)")
    locked.set()
    time.sleep(seconds)
    connection.execute("COMMIT")
    connection.close()


def save_result_after(path: str, locked, errors) -> None:
    locked.wait()
    error = save_result(path)
    if error:
        errors.put(error)


def save_inputs(path: str, start: int) -> list[str]:
    """Save 20 small inputs; their ids."""
    store = InputStore(Path(path))
    return [store.save(f"{start + k} 1\n".encode(), f"p{start + k}") for k in range(20)]


def save_input(path: str) -> str | None:
    """Open an input store and save one input; the store's error, if any."""
    try:
        InputStore(Path(path)).save(b"a 1\n", "x")
        return None
    except StoreError as error:
        return str(error)
