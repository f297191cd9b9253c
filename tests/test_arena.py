"""The arena: MCTS at several C against an opponent, its counts, Elo and intervals, pairs, stored games, the CLI."""

import importlib
import csv
import io
import math
import os
import re
import signal
import subprocess
import sys

import pytest

import required

required.module("pyspiel")

from apptest_support import REPO  # noqa: E402
data_folder_module = importlib.import_module("mcts_core.inputs.data_folder")  # the module, not the function
from mcts_core.inputs.data_folder import data_folder  # noqa: E402
from mcts_core.strength import ResultStore, arena, wilson_interval  # noqa: E402
from mcts_core.strength.arena_games import game_tasks, play_game  # noqa: E402
from mcts_core.strength.elo import Outcomes, elo_estimate  # noqa: E402
from mcts_core.strength.pools import interrupts_deferred, interrupts_held  # noqa: E402


@pytest.mark.parametrize(
    "successes, n, low, high",
    [  # Newcombe (1998), Statistics in Medicine 17:857, Table I, method 3 (Wilson score)
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_interval_matches_published_values(successes, n, low, high):
    got = wilson_interval(successes, n)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_wilson_interval_takes_half_wins_and_stays_in_the_unit_interval():
    low, high = wilson_interval(5.5, 10)  # 5 wins and a draw in 10 games
    assert low < 0.55 < high
    assert wilson_interval(10, 10)[1] == 1.0 and wilson_interval(0, 10)[0] == 0.0
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def test_counts_add_up_and_the_sides_alternate():
    rows = arena("tic_tac_toe", c_values=[0.5, 4.0], games=6, simulations=30, workers=1, opponent="random")
    assert [row.c for row in rows] == [0.5, 4.0]
    for row in rows:
        assert row.wins + row.draws + row.losses == row.games == 6
        assert row.score == (row.wins + row.draws / 2) / 6
        assert (row.low, row.high) == wilson_interval(row.wins + row.draws / 2, 6)
        assert row.low <= row.score <= row.high
        assert 0 < row.entropy <= 2.2 and row.depth >= 1 and 0 < row.top_share <= 1
    tasks = game_tasks("tic_tac_toe()", (), "ucb1", {}, 0.5, None, 30, 1, 2, range(6))
    results = [play_game(task) for task in tasks]
    assert [result.seat for result in results] == [0, 1, 0, 1, 0, 1]
    assert sum(result.outcome > 0 for result in results) == rows[0].wins
    assert sum(result.outcome == 0 for result in results) == rows[0].draws


def test_each_row_carries_cutechess_elo_and_the_pentanomial_of_its_pairs():
    row, = arena("tic_tac_toe", c_values=[0.1], games=12, simulations=20, workers=1, opponent="mcts:1.4")
    assert (row.elo, row.elo_error, row.los) == pytest.approx(
        tuple(getattr(elo_estimate(Outcomes(row.wins, row.draws, row.losses)), name) for name in ("elo", "error", "los")))
    assert row.draw_ratio == row.draws / 12
    assert row.pairs == 6 == row.ll + row.ld + row.dd_wl + row.wd + row.ww
    # each pair adds its two games' scores: the pairs' total is the games' total
    assert 0.5 * row.ld + row.dd_wl + 1.5 * row.wd + 2 * row.ww == row.wins + row.draws / 2
    assert row.pair_elo == pytest.approx(row.elo)  # same score, another error bar


def test_a_pair_plays_the_same_seed_with_the_seats_swapped():
    first, second = (play_game(task) for task in game_tasks("tic_tac_toe()", (), "ucb1", {}, 1.0, None, 10, 3, 2, [4, 5]))
    assert (first.seat, second.seat) == (0, 1)
    again = play_game(game_tasks("tic_tac_toe()", (), "ucb1", {}, 1.0, None, 10, 3, 2, [5])[0])
    assert again == second  # a game depends on its description alone, not on its partner being played


def test_at_the_opponents_own_c_the_two_games_of_a_pair_are_not_mirrors():
    """Issue 51: at C = the opponent's C, one RNG shared by both sides gave each seat the other's seeds,
    so every pair was the same game with the seats swapped (one win, one loss: no information), and
    the SPRT decided on them. Each side now has its own RNG: some pairs are won or lost twice."""
    tasks = game_tasks("tic_tac_toe()", (), "ucb1", {}, 1.4, 1.4, 10, 3, 2, range(40))
    ours = [play_game(task).returns[task.seat] for task in tasks]
    pairs = list(zip(ours[::2], ours[1::2]))
    assert any(first == second != 0 for first, second in pairs), pairs


def test_one_player_games_report_the_mean_return_with_its_interval():
    rows = arena("catch", c_values=[0.0, 2.0], games=6, simulations=15, workers=1)
    for row in rows:
        assert row.players == 1 and row.games == 6
        assert row.return_low <= row.mean_return <= row.return_high
        assert -1 <= row.mean_return <= 1


def test_three_player_games_rotate_the_seats_and_report_return_and_win_share():
    row, = arena("pig(players=3,winscore=10)", c_values=[1.0], games=6, simulations=10, workers=1, opponent="random")
    tasks = game_tasks("pig(players=3,winscore=10)", (), "ucb1", {}, 1.0, None, 10, 1, 3, range(6))
    results = [play_game(task) for task in tasks]
    assert [result.seat for result in results] == [0, 1, 2, 0, 1, 2]
    assert row.mean_return == pytest.approx(sum(result.mine for result in results) / 6)
    assert row.return_low <= row.mean_return <= row.return_high
    assert row.win_share == pytest.approx(sum(result.win_share for result in results) / 6)
    assert row.win_low <= row.win_share <= row.win_high


def test_more_games_reuse_the_stored_ones(tmp_path):
    store = ResultStore(tmp_path / "arena.sqlite3")
    totals = []
    settings = dict(c_values=[0.5], simulations=15, workers=1, store=store, progress=lambda done, total: totals.append(total))
    first = arena("tic_tac_toe", games=4, **settings)
    totals.clear()
    more = arena("tic_tac_toe", games=8, **settings)
    assert set(totals) == {4}  # only games 4 to 7 were played
    assert more[0].games == 8 and more[0].wins >= first[0].wins


def test_results_do_not_depend_on_the_number_of_workers():
    settings = dict(c_values=[1.0, 3.0], games=6, simulations=25, opponent="mcts:1.4", seed=9)
    assert arena("tic_tac_toe", workers=1, **settings) == arena("tic_tac_toe", workers=2, **settings)


def test_a_stored_grid_reappears_and_an_interrupted_grid_resumes(tmp_path):
    store = ResultStore(tmp_path / "arena.sqlite3")
    totals = []
    settings = dict(games=4, simulations=20, workers=1, store=store, progress=lambda done, total: totals.append(total))
    first = arena("tic_tac_toe", c_values=[0.5], **settings)
    totals.clear()
    both = arena("tic_tac_toe", c_values=[0.5, 2.0], **settings)
    assert set(totals) == {4}  # only C = 2 was played
    assert both[0] == first[0]
    totals.clear()
    assert arena("tic_tac_toe", c_values=[2.0, 0.5], **settings) == both[::-1] and totals == []
    other_seed = arena("tic_tac_toe", c_values=[0.5], seed=2, **settings)
    assert totals and other_seed != first


def test_progress_names_the_games_to_play_before_the_first_one_ends():
    calls = []
    arena("tic_tac_toe", c_values=[0.5, 2.0], games=4, simulations=5, workers=1,
          progress=lambda done, total: calls.append((done, total)))
    assert calls[0] == (0, 8) and calls[-1] == (8, 8)  # a page shows "0 of 8", never "0 of 0"


@pytest.mark.parametrize("workers", [1, 2])
def test_a_stop_callback_cancels_the_pending_games_and_keeps_finished_rows(workers):
    # Six series of one chunk each, and a window of at most four chunks (two per worker): the stop after
    # the first finished chunk leaves at least two never started, however fast the workers play.
    finished = []
    rows = arena("tic_tac_toe", c_values=[0.5, 1.0, 2.0, 3.0, 4.0, 5.0], games=4, simulations=50, workers=workers,
                 progress=lambda done, total: finished.append(done), should_stop=lambda: len(finished) >= 4)
    assert max(finished) < 24  # the games not started were dropped
    assert all(row.wins + row.draws + row.losses == row.games == 4 for row in rows)
    if workers == 1:  # games end in order here: the first C's four games are done
        assert [row.c for row in rows] == [0.5]


@pytest.mark.parametrize(
    "settings, message",
    [
        ({"game": "goofspiel"}, "goofspiel is a simultaneous-move game"),
        ({"games": 3}, "games (3) must be a multiple of 2: tic_tac_toe()'s games are played in pairs, the seats swapped"),
        ({"game": "pig(players=3)", "games": 4}, "must be a multiple of 3: pig(players=3)'s games are played in groups of 3"),
        ({"simulations": [10, 10]}, "a simulation budget is listed twice"),
        ({"simulations": list(range(1, 30)), "c_values": [float(c) for c in range(10)]},
         "29 budgets x 10 C values make 290 series; the limit is 200"),
        ({"opponent": "mcts:x"}, "opponent 'mcts:x': C must be a finite number >= 0"),
        ({"opponent": "alphazero"}, 'opponent must be "random" or "mcts:<C>"'),
        ({"games": 0}, "games must be a whole number from 1 to 100,000"),
        ({"workers": 0}, "workers must be a whole number from 1"),
        ({"simulations": 0}, "simulations must be from 1"),
        ({"c_values": []}, "at least one"),
        ({"c_values": [1.0, 1.0]}, "listed twice"),
        ({"settings": {"w": 2}}, "UCB1 has no setting 'w'; it has only C"),
    ],
)
def test_bad_arena_settings_are_refused(settings, message):
    arguments = {"game": "tic_tac_toe", "c_values": [1.0], "games": 2, "simulations": 5, "workers": 1, **settings}
    with pytest.raises(ValueError) as error:
        arena(arguments.pop("game"), **arguments)
    assert message in str(error.value)


def test_data_folder_follows_the_environment_else_sits_next_to_the_app_else_in_the_users_data(tmp_path, monkeypatch):
    monkeypatch.setenv("MCTS_EXPLORER_DATA", str(tmp_path / "a" / "b"))
    assert data_folder() == tmp_path / "a" / "b" and data_folder().is_dir()
    monkeypatch.delenv("MCTS_EXPLORER_DATA")
    # <repository>/data, seen from a package placed in tmp_path (the real repository stays untouched)
    monkeypatch.setattr(data_folder_module, "__file__", str(tmp_path / "repo" / "mcts_core" / "inputs" / "data_folder.py"))
    (tmp_path / "repo").mkdir()
    (tmp_path / "repo" / "app.py").write_text("")
    assert data_folder() == tmp_path / "repo" / "data" and data_folder().is_dir()
    # An installed package (no app.py beside it) keeps its data in the user's data folder.
    monkeypatch.setattr(data_folder_module, "__file__", str(tmp_path / "site" / "mcts_core" / "inputs" / "data_folder.py"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert data_folder() == tmp_path / "xdg" / "mcts-explorer" and data_folder().is_dir()


def cli(tmp_path, *args: str, **popen) -> subprocess.Popen:
    environment = {**os.environ, "MCTS_EXPLORER_DATA": str(tmp_path)}
    return subprocess.Popen([sys.executable, "-m", "mcts_core", "arena", *args], cwd=REPO, env=environment,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **popen)


def test_cli_arena_prints_csv_with_the_elo_and_pair_columns(tmp_path):
    process = cli(tmp_path, "--game", "tic_tac_toe", "--c", "0.5,2", "--games", "4", "--simulations", "20",
                  "--opponent", "mcts:1", "--workers", "1")
    out, err = process.communicate(timeout=120)
    assert (process.returncode, err) == (0, "")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert out.splitlines()[0].startswith("c,games,wins,draws,losses,score,low,high,elo,elo_error,los,draw_ratio,"
                                          "pairs,ll,ld,dd_wl,wd,ww,pair_elo,pair_elo_error,pair_los")
    assert [float(row["c"]) for row in rows] == [0.5, 2.0]
    for row in rows:
        assert int(row["wins"]) + int(row["draws"]) + int(row["losses"]) == int(row["games"]) == 4
        assert float(row["low"]) <= float(row["score"]) <= float(row["high"])
        estimate = elo_estimate(Outcomes(int(row["wins"]), int(row["draws"]), int(row["losses"])))
        assert (float(row["elo"]), float(row["elo_error"]), float(row["los"])) == pytest.approx(
            (estimate.elo, estimate.error, estimate.los))
        assert int(row["pairs"]) == 2
        assert float(row["elo_low"]) <= float(row["elo"]) <= float(row["elo_high"])
        assert (float(row["elo_low"]), float(row["elo_high"])) == pytest.approx(
            tuple(-400 * math.log10(1 / float(row[end]) - 1) if 0 < float(row[end]) < 1 else
                  math.copysign(math.inf, float(row[end]) - 0.5) for end in ("low", "high")))
    assert (tmp_path / "arena.sqlite3").exists()


def test_cli_arena_bad_options_exit_2_with_one_line(tmp_path):
    process = cli(tmp_path, "--game", "tic_tac_toe", "--c", "1,x")
    out, err = process.communicate(timeout=60)
    assert (process.returncode, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("error: ") and "C must be a finite number >= 0" in err


def test_cli_arena_stops_on_ctrl_c_with_status_130_and_one_line(tmp_path):
    process = cli(tmp_path, "--game", "tic_tac_toe", "--c", "0.5,1,2", "--games", "400", "--simulations", "200",
                  "--opponent", "random",
                  "--progress", start_new_session=True)
    seen = ""
    while not re.search(r"arena: [1-9]", seen):  # games are under way, workers too ("arena: 0/..." comes first)
        seen += process.stderr.read(1)
    os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C in a terminal does: the whole group
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130 and out == ""
    assert "Traceback" not in err
    last_line = err.rstrip("\n").splitlines()[-1]
    assert err.endswith("\n") and last_line.startswith("interrupted; finished games are stored")


# The CLI test above sends its Ctrl-C at a moment of the OS's choosing; these two put it in the two
# windows where the arena used to lose it (and then played on to the end and exited 0).

def test_ctrl_c_while_a_worker_process_starts_still_stops_the_arena():
    with pytest.raises(KeyboardInterrupt):
        with interrupts_deferred():
            with interrupts_held():  # how the local pool starts its worker processes
                os.kill(os.getpid(), signal.SIGINT)


def test_ctrl_c_after_the_arenas_last_look_at_it_still_stops_the_arena():
    with pytest.raises(KeyboardInterrupt):
        with interrupts_deferred() as interrupted:
            assert not interrupted()  # the last look: the games are over
            os.kill(os.getpid(), signal.SIGINT)


def run_cli(tmp_path, *args):
    process = cli(tmp_path, *args)
    out, err = process.communicate(timeout=300)
    return process.returncode, out, err


def test_cli_one_player_game_prints_the_mean_return_columns(tmp_path):
    status, out, err = run_cli(tmp_path, "--game", "catch", "--c", "0.5,2", "--games", "4", "--simulations", "10",
                               "--workers", "1")
    assert (status, err) == (0, "")
    assert out.splitlines()[0] == "c,games,mean_return,return_low,return_high,simulations,entropy,depth,top_share"
    for row in csv.DictReader(io.StringIO(out)):
        assert float(row["return_low"]) <= float(row["mean_return"]) <= float(row["return_high"])


def test_cli_three_player_game_prints_return_and_win_share_columns(tmp_path):
    status, out, err = run_cli(tmp_path, "--game", "pig(players=3,winscore=10)", "--c", "1", "--games", "6",
                               "--simulations", "10", "--opponent", "random", "--workers", "1")
    assert (status, err) == (0, "")
    header = out.splitlines()[0].split(",")
    assert header[:8] == ["c", "games", "mean_return", "return_low", "return_high", "win_share", "win_low", "win_high"]
    row, = csv.DictReader(io.StringIO(out))
    assert float(row["win_low"]) <= float(row["win_share"]) <= float(row["win_high"]) and row["games"] == "6"


def test_cli_sprt_stops_each_c_at_its_verdict(tmp_path):
    status, out, err = run_cli(tmp_path, "--game", "tic_tac_toe", "--c", "0,1.4", "--games", "400", "--simulations",
                               "20", "--sprt", "--sprt-elo0", "0", "--sprt-elo1", "300", "--workers", "1")
    assert (status, err) == (0, "")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {"llr", "llr_low", "llr_high", "sprt"} <= set(rows[0])
    stopped = [row for row in rows if row["sprt"] in ("H0", "H1")]
    assert stopped, rows  # a 300 Elo question is settled well before 400 games
    for row in stopped:
        assert int(row["games"]) < 400
        llr = float(row["llr"])
        assert llr > float(row["llr_high"]) if row["sprt"] == "H1" else llr < float(row["llr_low"])


def test_cli_sprt_model_normalized_takes_the_llr_in_normalised_elo(tmp_path):
    from mcts_core.strength.llr import llr_logistic, llr_normalized

    common = ("--game", "tic_tac_toe", "--c", "0.3", "--games", "40", "--simulations", "10", "--sprt",
              "--sprt-elo1", "150", "--workers", "1")
    rows = {}
    for model in ("logistic", "normalized"):
        status, out, err = run_cli(tmp_path, *common, "--sprt-model", model)
        assert (status, err) == (0, "")
        (rows[model],) = csv.DictReader(io.StringIO(out))
    for model, exact in (("logistic", llr_logistic), ("normalized", llr_normalized)):
        row = rows[model]
        counts = [int(row[name]) for name in ("ll", "ld", "dd_wl", "wd", "ww")]
        assert float(row["llr"]) == pytest.approx(exact(0.0, 150.0, counts), rel=1e-12)
    assert rows["logistic"]["llr"] != rows["normalized"]["llr"]


def test_cli_fit_adds_the_fitted_curve_and_each_budgets_best_c(tmp_path):
    from mcts_core.strength import arena
    from mcts_core.strength.best_c import fit_best_c, points_from_rows
    from mcts_core.strength.best_c_answer import ANSWER_COLUMNS, answers_by_budget, describe_answer

    settings = ["--game", "tic_tac_toe", "--c", "0,0.2,1,5", "--games", "12", "--simulations", "8,16", "--workers", "1"]
    status, out, err = run_cli(tmp_path, *settings, "--fit")
    assert status == 0
    header = out.splitlines()[0].split(",")
    assert header[-len(ANSWER_COLUMNS):] == list(ANSWER_COLUMNS)
    rows = list(csv.DictReader(io.StringIO(out)))
    played = arena("tic_tac_toe", c_values=[0, 0.2, 1, 5], games=12, simulations=[8, 16], workers=1)
    answers = answers_by_budget(played)
    for budget in (8, 16):
        fit = fit_best_c(points_from_rows([row for row in played if row.simulations == budget]))
        assert f"fit: {budget:,} simulations: {describe_answer(answers[budget])}" in err.splitlines()
        for row in (row for row in rows if row["simulations"] == str(budget)):
            assert float(row["fit_best_c"]) == pytest.approx(fit.best) and float(row["fit_safe_c"]) == pytest.approx(
                fit.conservative)
            if row["c"] == "0.0":
                assert row["fit_score"] == "nan"  # log 0: outside the fit
            else:
                low, score, high = (float(row[name]) for name in ("fit_low", "fit_score", "fit_high"))
                assert low <= score <= high and score == pytest.approx(fit.curve.score_at(float(row["c"]))[0])
    status, plain, _ = run_cli(tmp_path, *settings)
    assert status == 0 and [line.split(",")[:len(header) - len(ANSWER_COLUMNS)] for line in out.splitlines()] == [
        line.split(",") for line in plain.splitlines()]  # --fit only adds columns


def test_cli_several_budgets_print_one_row_per_budget_and_c(tmp_path):
    status, out, err = run_cli(tmp_path, "--game", "tic_tac_toe", "--c", "0.5,2", "--games", "2", "--simulations",
                               "5,10", "--workers", "1")
    assert (status, err) == (0, "")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(row["simulations"], row["c"]) for row in rows] == [("5", "0.5"), ("5", "2.0"), ("10", "0.5"), ("10", "2.0")]


def test_cli_tune_names_the_best_c_and_the_round_each_c_reached(tmp_path):
    status, out, err = run_cli(tmp_path, "--game", "tic_tac_toe", "--c", "0,0.5,1.4,4", "--games", "16",
                               "--simulations", "10", "--workers", "1", "--tune")
    assert status == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [row["round"] for row in rows].count("2") == 2 and [row["best"] for row in rows].count("1") == 1
    best = next(row for row in rows if row["best"] == "1")
    assert best["round"] == "2" and f"tune: best C = {float(best['c']):g} after 16 games" in err
    assert "tune: fitted over every C's games: " in err  # the fit over all four C values' games, in words
    assert sum(int(row["games"]) for row in rows) == 16


@pytest.mark.parametrize("args, message", [
    (["--sprt", "--sprt-elo0", "10", "--sprt-elo1", "5"], "error: elo0 (10.0) must be smaller than elo1 (5.0)."),
    (["--sprt", "--sprt-alpha", "1.5"], "error: alpha (1.5) must be between 0 and 1, both excluded."),
    (["--sprt", "--sprt-beta", "0"], "error: beta (0.0) must be between 0 and 1, both excluded."),
    (["--sprt", "--sprt-model", "bayeselo"], "error: argument --sprt-model: invalid choice: 'bayeselo'"),
    (["--sprt", "--sprt-model", "normalized", "--sprt-elo1", "300"],
     "error: normalized elo0 and elo1 (0, 300) must be between -200 and 200"),
    (["--simulations", ",".join(str(n) for n in range(1, 31)), "--c", ",".join(str(c) for c in range(10))],
     "error: 30 budgets x 10 C values make 300 series; the limit is 200"),
    (["--simulations", "10,x"], "error: simulation budget 'x' is not a whole number"),
    (["--game", "goofspiel"], "error: goofspiel is a simultaneous-move game"),
    (["--fit", "--c", "0,1,2"], "error: fitting the best C needs at least 3 C values above 0 (log C has no 0)"),
    (["--fit", "--c", "1,2,3", "--game", "catch"], "error: the fit follows the score of two-player games; catch() "
     "has 1 player"),
    (["--game", "go(board_size=500)"], "error: OpenSpiel cannot set up go(board_size=500): The current Go "
     "implementation supports board size up to 19"),
    (["--game", "connect_four(rows=0)"], "error: OpenSpiel crashed (SIGSEGV) setting up connect_four(rows=0)"),
    (["--cluster-wait", "0"], "error: the cluster wait must be a number of seconds > 0, got 0.0"),
    (["--games", "5"], "error: games (5) must be a multiple of 2"),
])
def test_cli_bad_settings_exit_2_with_one_line(tmp_path, args, message):
    status, out, err = run_cli(tmp_path, "--game", "tic_tac_toe", "--c", "1", "--games", "2", *args)
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith(message)
    assert not (tmp_path / "arena.sqlite3").exists()  # nothing opened, nothing stored is touched


def test_cli_help_states_the_defaults_and_names_sprt_and_cluster():
    result = subprocess.run([sys.executable, "-m", "mcts_core", "arena", "--help"], cwd=REPO, capture_output=True,
                            text=True, timeout=60)
    text = " ".join(result.stdout.split())
    from mcts_core import defaults

    assert "--sprt" in text and "--cluster" in text and "--sprt-model {logistic,normalized}" in text
    assert f"(default {defaults.ARENA_SPRT_MODEL})" in text
    assert f"default {defaults.ARENA_GAMES}" in text and f"default {defaults.ARENA_SIMULATIONS}" in text
    assert f"default {defaults.ARENA_OPPONENT}" in text
    assert "default " + ",".join(f"{c:g}" for c in defaults.ARENA_C_VALUES) in text
    from mcts_core.strength.best_c_answer import ANSWER_COLUMNS

    # The columns --fit writes, a space after each comma (argparse wraps there, not inside a name).
    assert "adds the columns " + ", ".join(ANSWER_COLUMNS) + " " in text


def test_the_stored_grid_is_each_c_values_row_over_its_stored_games(tmp_path):
    from mcts_core.strength import plan, stored_grid

    store = ResultStore(tmp_path / "arena.sqlite3")
    rows = arena("tic_tac_toe", c_values=[0.5, 2.0], games=4, simulations=10, workers=1, store=store)
    arena("tic_tac_toe", c_values=[4.0], games=2, simulations=10, workers=1, store=store)
    grid = stored_grid(plan("tic_tac_toe"), [0.5, 2.0, 4.0, 8.0], 10, store)
    assert grid[:2] == rows and [(row.c, row.games) for row in grid] == [(0.5, 4), (2.0, 4), (4.0, 2)]  # 8: none
