"""The SQLite store of inputs: content ids, limits, sharing between processes, nothing half-written."""

import pytest

from mcts_core.inputs.store import StoredInput, InputStore, StoreError, input_id, is_input_id
from store_processes import forking_context, save_input, save_inputs


@pytest.fixture
def store(tmp_path):
    return InputStore(tmp_path / "inputs.sqlite3", max_bytes=1000, max_input_bytes=600)


def test_an_input_is_saved_once_under_the_hash_of_its_bytes_with_what_it_is(store):
    key = store.save(b"a 1\nb 2\n")
    assert key == input_id(b"a 1\nb 2\n") and is_input_id(key)
    assert store.load(key) == (b"a 1\nb 2\n", "")  # not described until someone read it
    assert store.reopen(key, "puzzle text, 2 playouts") and store.load(key)[1] == "puzzle text, 2 playouts"
    assert store.save(b"a 1\nb 2\n", "other words") == key  # the same bytes: saved once, words kept
    assert [item for item in store.describe([key, "0" * 64])] == [StoredInput(key, "puzzle text, 2 playouts", 8)]
    assert not store.reopen("0" * 64, "z")


def test_a_store_from_before_forgets_the_names_users_gave_once(tmp_path):
    import sqlite3

    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as old:  # a store as the version before wrote it: a user's file name
        old.execute("CREATE TABLE inputs (id TEXT PRIMARY KEY, name TEXT NOT NULL, size INTEGER NOT NULL, "
                    "saved REAL NOT NULL, opened REAL NOT NULL, data BLOB NOT NULL)")
        old.execute("INSERT INTO inputs VALUES (?, 'uploaded file secret.jsonl', 4, 0, 0, ?)", (input_id(b"a 1\n"), b"a 1\n"))
    store = InputStore(path)
    assert store.describe([input_id(b"a 1\n")]) == [StoredInput(input_id(b"a 1\n"), "", 4)]
    store.reopen(input_id(b"a 1\n"), "puzzle text, 1 playout")
    assert InputStore(path).load(input_id(b"a 1\n"))[1] == "puzzle text, 1 playout"  # blanked once only


def test_ids_that_are_not_ids_or_not_saved_find_nothing(store):
    assert store.load("../../etc/passwd") is None
    assert store.load("f" * 64) is None
    assert store.describe(["x", ""]) == []


def test_an_input_over_the_limit_is_refused_with_a_message(store):
    with pytest.raises(StoreError, match="inputs up to"):
        store.save(b"x" * 700, "big")


def test_the_store_forgets_the_least_recently_opened_inputs_beyond_its_size(store):
    first = store.save(b"a" * 400, "first")
    second = store.save(b"b" * 400, "second")
    store.load(first)  # opened again: now the most recent
    third = store.save(b"c" * 400, "third")
    assert store.load(second) is None and store.load(first) is not None and store.load(third) is not None


def test_several_processes_can_save_at_once(tmp_path):
    path = str(tmp_path / "shared.sqlite3")
    with forking_context().Pool(2) as pool:
        keys = [key for batch in pool.starmap(save_inputs, [(path, 0), (path, 100)]) for key in batch]
    store = InputStore(tmp_path / "shared.sqlite3")
    assert len(store.describe(keys)) == 40


def test_processes_opening_a_new_store_together_all_save(tmp_path):
    # Four server processes meeting a store that does not exist yet: each must wait, not fail.
    errors = []
    with forking_context().Pool(4) as pool:
        for k in range(60):  # one new store at a time, opened by all four at once
            path = str(tmp_path / str(k) / "inputs.sqlite3")
            errors += [error for error in pool.map(save_input, [path] * 4, chunksize=1) if error]
    assert errors == []


def test_an_unwritable_data_folder_is_reported_not_raised_as_os_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(StoreError, match="cannot be opened"):
        InputStore(blocker / "inputs.sqlite3").save(b"a 1\n", "x")
