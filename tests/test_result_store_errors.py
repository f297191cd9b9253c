"""A result store that cannot be used is one sentence: the arena command exits 2 with one line, the
C and strength page shows it as an error, never a traceback."""

import os
import subprocess
import sys

import pytest

import required

required.module("pyspiel")

from apptest_support import REPO, plain, start_app  # noqa: E402


@pytest.fixture
def broken_data_folder(tmp_path, monkeypatch):
    (tmp_path / "arena.sqlite3").mkdir()  # the store's file is a folder: SQLite cannot open it
    monkeypatch.setenv("MCTS_EXPLORER_DATA", str(tmp_path))
    return tmp_path


def test_the_arena_command_exits_2_with_one_line_when_its_store_cannot_be_opened(broken_data_folder):
    result = subprocess.run(
        [sys.executable, "-m", "mcts_core", "arena", "--game", "tic_tac_toe", "--c", "1", "--games", "2",
         "--simulations", "5", "--workers", "1"],
        cwd=REPO, env={**os.environ}, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("error: the arena's result store") and "cannot be opened" in result.stderr
    assert result.stderr.count("\n") == 1


def test_the_strength_page_says_in_one_sentence_that_its_store_cannot_be_opened(monkeypatch, broken_data_folder):
    app = start_app(monkeypatch, "pages/strength.py")
    assert not app.exception
    assert any("result store" in plain(error.value) and "cannot be opened" in plain(error.value) for error in app.error)


def test_a_background_run_whose_store_fails_ends_with_the_stores_sentence():
    from mcts_core.common import StoreError
    from ui.common.jobs import BackgroundJob

    def work(progress, should_stop):
        raise StoreError("the arena's result store is full: free some disk space")

    job = BackgroundJob(work, name="store-fails")
    job.thread.join(10)
    assert job.error == "the arena's result store is full: free some disk space"
