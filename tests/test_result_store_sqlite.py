"""The arena's SQLite result store shared by processes: fresh files opened together, errors in words."""

from pathlib import Path

import pytest

from mcts_core.common import StoreError
from mcts_core.strength.result_store import ResultStore
from store_processes import GAME, RESULT_KEY as KEY, create_slowly, forking_context, save_result_after


def test_processes_opening_a_new_result_store_together_all_save(tmp_path):
    # Arena processes meeting a result file another process is still creating: each must wait, not fail
    # (SQLite refuses the switch to WAL at once, without the busy timeout, while the file is locked).
    context = forking_context()
    for k in range(3):
        path = str(tmp_path / f"{k}.sqlite3")
        locked, errors = context.Event(), context.Queue()
        processes = [context.Process(target=create_slowly, args=(path, locked, 0.5))]
        processes += [context.Process(target=save_result_after, args=(path, locked, errors)) for _ in range(3)]
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
