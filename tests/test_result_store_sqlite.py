"""The arena's SQLite result store shared by processes: fresh files opened together, errors in words."""

import multiprocessing
import sqlite3
import time
from pathlib import Path

import pytest

from mcts_core.common import StoreError
from mcts_core.strength.arena_games import GameResult
from mcts_core.strength.result_store import ArenaKey, ResultStore

KEY = ArenaKey("tic_tac_toe", (), '{"rule": "ucb1", "settings": {}}', "random", 0)
GAME = GameResult(c=1.0, simulations=10, index=0, seat=0, returns=(1.0, -1.0), first_search=(0.5, 1, 0.5))


def _open_and_save(path: str) -> str | None:
    """Open a result store and save a row; what went wrong, if anything."""
    try:
        ResultStore(Path(path)).save(KEY, [GAME])
        return None
    except Exception as error:  # noqa: BLE001 - the test counts every failure, whatever its kind
        return f"{type(error).__name__}: {error}"


def _create_slowly(path: str, locked, seconds: float) -> None:
    """Be the process that creates the file first: hold its write lock for ``seconds``, as a slow
    first opener does while it sets the file up."""
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("BEGIN IMMEDIATE")
    connection.execute("CREATE TABLE first_opener (x)")
    locked.set()
    time.sleep(seconds)
    connection.execute("COMMIT")
    connection.close()


def _open_after(path: str, locked, errors) -> None:
    locked.wait()
    error = _open_and_save(path)
    if error:
        errors.put(error)


def test_processes_opening_a_new_result_store_together_all_save(tmp_path):
    # Arena processes meeting a result file another process is still creating: each must wait, not fail
    # (SQLite refuses the switch to WAL at once, without the busy timeout, while the file is locked).
    context = multiprocessing.get_context("spawn")
    for k in range(3):
        path = str(tmp_path / f"{k}.sqlite3")
        locked, errors = context.Event(), context.Queue()
        processes = [context.Process(target=_create_slowly, args=(path, locked, 0.5))]
        processes += [context.Process(target=_open_after, args=(path, locked, errors)) for _ in range(3)]
        for process in processes:
            process.start()
        for process in processes:
            process.join(timeout=120)
        failures = []
        while not errors.empty():
            failures.append(errors.get())
        assert failures == [] and all(process.exitcode == 0 for process in processes)
        assert ResultStore(Path(path)).load(KEY, 10, 1.0) == {0: GAME}


def test_a_result_store_that_cannot_be_opened_is_reported_in_words(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(StoreError, match="the arena's result store at .* cannot be opened"):
        ResultStore(blocker / "arena.sqlite3")
    (tmp_path / "not_sqlite.sqlite3").write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="the arena's result store failed"):
        ResultStore(tmp_path / "not_sqlite.sqlite3")
