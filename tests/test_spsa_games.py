"""SPSA with arena games: each iteration plays the arena's pair between C+ and C- (or each against the
opponent), is stored as it ends, and a stopped run resumes to end where an uninterrupted one ends."""

import csv
import io
import math

import pytest

import required

required.module("pyspiel")

from mcts_core.strength import ResultStore, game_tasks, play_game  # noqa: E402
from mcts_core.strength.spsa_games import spsa_columns, spsa_plan, spsa_rows, spsa_run  # noqa: E402

SETTINGS = dict(iterations=12, simulations=10, workers=1, seed=4)


def test_a_run_stopped_and_started_again_ends_where_an_uninterrupted_run_ends(tmp_path):
    whole = spsa_run(spsa_plan("tic_tac_toe", **SETTINGS))
    store = ResultStore(tmp_path / "arena.sqlite3")
    played = []
    first = spsa_run(spsa_plan("tic_tac_toe", **SETTINGS), store=store, on_step=played.append,
                     should_stop=lambda: len(played) >= 5)
    assert len(first) == 5 and first == whole[:5]
    again = []
    resumed = spsa_run(spsa_plan("tic_tac_toe", **SETTINGS), store=store, on_step=again.append)
    assert resumed == whole and [step.k for step in again] == list(range(6, 13))  # only the rest was played
    assert spsa_run(spsa_plan("tic_tac_toe", **SETTINGS), store=store, on_step=again.append) == whole
    assert len(again) == 7  # a finished run is read back, not played


def test_against_the_opponent_each_iteration_plays_the_arenas_pair_at_c_plus_and_at_c_minus_against_it():
    plan = spsa_plan("tic_tac_toe", **{**SETTINGS, "iterations": 3}, opponent="mcts:1.4", head_to_head=False)
    steps = spsa_run(plan)
    for step in steps:
        scores = []
        for values in (step.plus, step.minus):
            tasks = game_tasks("tic_tac_toe", (), "ucb1", {}, math.exp(values[0]), 1.4, 10, 4, 2,
                               [2 * step.k - 2, 2 * step.k - 1])
            scores.append(sum(play_game(task).outcome for task in tasks))
        assert step.result == scores[0] - scores[1]
    rows = spsa_rows(plan, steps)
    assert list(rows[0]) == list(spsa_columns(plan))
    assert rows[0]["theta"] == pytest.approx(1.0) and rows[0]["plus"] * rows[0]["minus"] == pytest.approx(1.0)


def test_by_default_the_plus_side_plays_the_minus_side_one_pair_an_iteration_as_fishtest_does(tmp_path):
    plan = spsa_plan("tic_tac_toe", **{**SETTINGS, "iterations": 3})
    steps = spsa_run(plan)
    for step in steps:
        tasks = game_tasks("tic_tac_toe", (), "ucb1", {}, math.exp(step.plus[0]), math.exp(step.minus[0]), 10, 4, 2,
                           [2 * step.k - 2, 2 * step.k - 1])
        assert step.result == sum(play_game(task).outcome for task in tasks)  # the plus side's W - L, -2 to 2
    # Stored apart from the runs against an opponent; its key names no opponent.
    store = ResultStore(tmp_path / "arena.sqlite3")
    assert spsa_run(plan, store=store) == steps
    against = spsa_plan("tic_tac_toe", **{**SETTINGS, "iterations": 3}, head_to_head=False)
    assert store.load_spsa_steps(against.run_key()) == [] and '"opponent": null' in plan.run_key()


def test_a_rules_second_constant_is_tuned_beside_c_in_its_range():
    plan = spsa_plan("tic_tac_toe", **{**SETTINGS, "simulations": 30}, rule="katago", tune_setting="cpuct_base")
    steps = spsa_run(plan)
    rows = spsa_rows(plan, steps)
    assert rows[0]["cpuct_base"] == pytest.approx(500.0)  # the rule's default
    for step, row in zip(steps, rows):  # the plus side at its own cpuct_base, the minus side at its own
        game = plan.chunks(step.k, step.plus, step.minus)[0][0]
        assert dict(game.settings)["cpuct_base"] == row["cpuct_base_plus"]
        assert dict(game.opponent_settings)["cpuct_base"] == row["cpuct_base_minus"]
    assert all(10.0 <= row["cpuct_base_after"] <= 100000.0 for row in rows)
    assert any(row["cpuct_base_after"] != row["cpuct_base"] for row in rows)


@pytest.mark.parametrize("settings, words", [
    (dict(game="pig(players=3,winscore=10)"), "two players"),
    (dict(start_c=20.0), "outside SPSA's range"),
    (dict(c_range=(0.0, 10.0)), "two finite C values above 0"),
    (dict(iterations=0), "iterations"),
    (dict(tune_setting="cpuct_base"), "no second constant"),
    (dict(rule="katago", tune_setting="fpu"), "cpuct_base"),
    (dict(rule="katago", settings={"cpuct_base": 2e5}, tune_setting="cpuct_base"), "cpuct_base 200000 is outside"),
    (dict(c_end=float("inf")), "c_end and r_end"),
])
def test_bad_settings_are_one_sentence(settings, words):
    with pytest.raises(ValueError, match=words):
        spsa_plan(**{"game": "tic_tac_toe", **settings})


def spsa_cli(capsys, *args: str) -> tuple[int, str, str]:
    from mcts_core.cli import main

    try:
        status = main(["spsa", "--game", "tic_tac_toe", "--simulations", "10", "--workers", "1", "--seed", "4", *args])
    except SystemExit as exit:  # argparse's refusals
        status = exit.code
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_prints_a_row_per_iteration_and_the_end_point_and_resumes_from_its_store(capsys, tmp_path):
    store = str(tmp_path / "spsa.sqlite3")
    status, out, err = spsa_cli(capsys, "--iterations", "12", "--store", store)
    assert status == 0 and err == f"spsa: C = {float(out.splitlines()[-1].split(',')[-1])!r} after 12 iterations\n"
    rows = list(csv.DictReader(io.StringIO(out)))
    assert out.splitlines()[0] == "k,c_k,theta,plus,minus,result,after" and [row["k"] for row in rows] == [
        str(k) for k in range(1, 13)]
    whole = spsa_run(spsa_plan("tic_tac_toe", **SETTINGS))
    assert [float(row["after"]) for row in rows] == [math.exp(step.after[0]) for step in whole]
    assert spsa_cli(capsys, "--iterations", "12", "--store", store) == (status, out, err)  # read back: the same
    status, out, _ = spsa_cli(capsys, "--iterations", "3", "--no-store", "--against-opponent")
    against = spsa_run(spsa_plan("tic_tac_toe", **{**SETTINGS, "iterations": 3}, head_to_head=False))
    assert status == 0 and [int(row["result"]) for row in csv.DictReader(io.StringIO(out))] == [
        step.result for step in against]


@pytest.mark.parametrize("args, words", [
    (("--iterations", "0"), "iterations must be"),
    (("--c", "50"), "the start C 50 is outside"),
    (("--c-range", "1"), "--c-range takes two"),
    (("--opponent", "strong"), "opponent must be"),
    (("--tune-setting", "cpuct_base"), "no second constant"),
    (("--c", "-1"), "--c"),
])
def test_cli_bad_input_exits_2_with_one_line(capsys, tmp_path, args, words):
    status, out, err = spsa_cli(capsys, "--store", str(tmp_path / "spsa.sqlite3"), *args)
    assert (status, out) == (2, "") and err.startswith("error: ") and words in err and err.count("\n") == 1


def test_cli_ctrl_c_keeps_the_finished_iterations_and_exits_130(tmp_path):
    import os
    import signal
    import subprocess
    import sys

    from bench.harness.dask_processes import REPO

    store = tmp_path / "spsa.sqlite3"
    process = subprocess.Popen(
        [sys.executable, "-m", "mcts_core", "spsa", "--game", "connect_four", "--iterations", "500", "--simulations",
         "50", "--workers", "1", "--store", str(store)], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    header, first = process.stdout.readline(), process.stdout.readline()  # an iteration is done and stored
    os.kill(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130 and header.startswith("k,c_k,") and first.startswith("1,")
    assert err == f"interrupted; finished iterations are stored in {store} and a rerun resumes\n"
    done = 1 + len(out.splitlines())
    plan = spsa_plan("connect_four", iterations=500, simulations=50, workers=1)
    assert len(ResultStore(store).load_spsa_steps(plan.run_key())) == done
