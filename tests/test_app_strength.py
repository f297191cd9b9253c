"""AppTest of the "C and strength" page: play a small grid, see rows and charts, and find them stored."""

import json
import time

import pytest

import required

required.module("pyspiel")

from apptest_support import plain, small_grid, start_app, wait_for_job  # noqa: E402

PAGE = "pages/strength.py"


@pytest.fixture(autouse=True)
def data_folder(tmp_path, monkeypatch):
    """The result store in a temporary data folder (set before the app fixture's first run)."""
    monkeypatch.setenv("MCTS_EXPLORER_DATA", str(tmp_path))
    return tmp_path


def finish(app, timeout: float = 300.0):
    """Wait for the page's background work to end (and the page to show it)."""
    return wait_for_job(app, "_strength_job", timeout)


def rows(app):
    return app.dataframe[0].value


def test_a_small_grid_gives_rows_charts_and_a_csv_and_reappears_from_the_store(app, monkeypatch, data_folder):
    small_grid(app)
    assert "No C value is finished for these settings yet: Run plays 8 games" in app.info[0].value
    app.button(key="strength_run").click().run()
    job = finish(app)
    assert job.error is None and job.total == 8 and job.done == 8
    table = rows(app)
    assert table["c"].tolist() == [0.5, 2.0] and (table["games"] == 4).all()
    assert ((table["wins"] + table["draws"] + table["losses"]) == 4).all()
    assert ((table["low"] <= table["score"]) & (table["score"] <= table["high"])).all()
    assert len(app.get("vega_lite_chart")) == 5  # Elo with error bars, the score band, entropy, depth and top share
    assert app.get("download_button")
    assert (data_folder / "arena.sqlite3").exists()

    # A new session with the same settings: the rows are there before anything is played.
    again = start_app(monkeypatch, PAGE)
    small_grid(again)
    assert "_strength_job" not in again.session_state
    assert rows(again).equals(table)
    assert any("From the result store" in caption.value for caption in again.caption)
    assert len(again.get("vega_lite_chart")) == 5


def test_a_grid_with_some_c_values_stored_plays_only_the_others(app):
    small_grid(app, c_values="0.5")
    app.button(key="strength_run").click().run()
    finish(app)
    small_grid(app, c_values="0.5, 2")
    assert "1 of 2 C values are stored for these settings; Run plays the other 1" in app.info[0].value
    assert rows(app)["c"].tolist() == [0.5]  # what is stored is shown already
    app.button(key="strength_run").click().run()
    job = finish(app)
    assert job.total == 4  # the four games of C = 2 only
    assert rows(app)["c"].tolist() == [0.5, 2.0]


def test_stop_cancels_the_games_not_started_and_a_new_run_resumes(app):
    small_grid(app, c_values="0.5, 1, 2, 4", games=30, simulations=200, game="connect_four")
    app.button(key="strength_run").click().run()
    job = app.session_state["_strength_job"]
    assert job.running and app.get("progress") and app.button(key="strength_run").disabled
    app.button(key="strength_stop").click().run()
    finish(app)
    assert job.error is None and job.done < 120  # the games not started were dropped
    stored = len(app.dataframe[0].value) if app.dataframe else 0
    assert stored < 4
    assert "Stopped with" in app.warning[0].value and "Run plays the rest" in app.warning[0].value


def test_progress_names_the_games_to_play_from_the_start(app):
    small_grid(app, c_values="0.5, 1, 2, 4", games=30, simulations=200, game="connect_four")
    app.button(key="strength_run").click().run()
    job = app.session_state["_strength_job"]
    seen = [app.get("progress")[0].proto.text]  # the page right after Run: the first 16 games take seconds
    deadline = time.monotonic() + 30
    while job.total is None:  # the game loads and the store is read
        assert time.monotonic() < deadline, "the games to play were never counted"
        app.run()
        seen.append(app.get("progress")[0].proto.text)
    app.run()
    seen.append(app.get("progress")[0].proto.text)
    assert not [text for text in seen if "of the 0 games" in text], seen
    assert all(text.startswith(("Playing: ", "Starting: loading the game")) for text in seen), seen
    assert "Playing: 0 of the 120 games" in [text.split(",")[0] for text in seen]  # counted before the first game ends
    assert "of the 120 games" in seen[-1]
    app.button(key="strength_stop").click().run()
    finish(app)


@pytest.mark.parametrize(
    "settings, message",
    [
        ({"strength_c_values": "0.5, x"}, "C value 'x': C must be a finite number >= 0"),
        ({"strength_c_values": "1, 1"}, "A C value is listed twice"),
        ({"strength_moves": "x(1,1) x(0,0)"}, "'x(0,0)' (move 2) is not legal after x(1,1)"),
        ({"strength_game": "other", "strength_game_name": "pig(players=3)"},
         "Games (4) must be a multiple of 3: pig(players=3)'s games are played in groups of 3, the seats rotated"),
        ({"strength_game": "other", "strength_game_name": "tic_tac_tow"}, "did you mean tic_tac_toe"),
        ({"strength_game": "other", "strength_game_name": "go(board_size=500)"},
         "OpenSpiel cannot set up go(board_size=500): The current Go implementation supports board size up to 19"),
        ({"strength_game": "other", "strength_game_name": ""}, "Type the name of an OpenSpiel game"),
    ],
)
def test_bad_settings_are_errors_naming_the_problem(app, settings, message):
    small_grid(app)
    for key, value in settings.items():
        if key == "strength_game":
            app.selectbox(key=key).select(value).run()  # draws the game string box
        else:
            app.text_input(key=key).input(value).run()
    assert not app.exception
    assert any(message in plain(error.value) for error in app.error), [error.value for error in app.error]
    assert not app.dataframe


def test_a_simultaneous_game_points_to_the_simultaneous_page(app):
    app.selectbox(key="strength_game").select("other").run()
    app.text_input(key="strength_game_name").input("goofspiel").run()
    assert not app.exception and not app.error
    assert "The arena plays turn-taking games" in plain(app.info[0].value)
    assert [link.proto.page for link in app.get("page_link")] == ["simultaneous"]


def test_the_last_search_s_game_and_position_can_be_taken_over(app):
    app.switch_page("pages/search.py").run()
    app.text_input(key="search_moves").input("x(1,1)").run()
    app.number_input(key="search_simulations").set_value(20).run()
    app.button(key="search_run").click().run()
    wait_for_job(app, "_search_job")
    app.switch_page(PAGE).run()
    app.button(key="strength_from_search").click().run()
    assert not app.exception
    assert app.selectbox(key="strength_game").value == "tic_tac_toe"
    assert app.text_input(key="strength_moves").value == "x(1,1)"


def test_the_table_shows_elo_its_error_bar_los_and_the_pairs(app):
    small_grid(app)
    app.button(key="strength_run").click().run()
    finish(app)
    table = rows(app)
    for column in ("elo", "elo_error", "los", "draw_ratio", "pairs", "ll", "ld", "dd_wl", "wd", "ww", "pair_elo"):
        assert column in table.columns
    assert (table["pairs"] == 2).all() and ((table["los"] >= 0) & (table["los"] <= 1)).all()
    assert any("Elo against MCTS at C = 1.4" in header.value for header in app.subheader)


def test_a_row_shows_one_elo_interval_the_score_interval_in_elo(app):
    small_grid(app, c_values="0.5, 2", games=6, simulations=20)
    app.button(key="strength_run").click().run()
    finish(app)
    table = rows(app)
    row = table[table["c"] == 0.5].iloc[0]
    assert (row["wins"], row["draws"], row["losses"]) == (2, 0, 4)  # the row that read "Elo ± Infinity"
    assert (row["low"], row["high"]) == pytest.approx((0.09677, 0.70001), abs=1e-5)
    # -400 log10(1/0.09677 - 1) = -388.02 and -400 log10(1/0.70001 - 1) = +147.20, around Elo -120.41
    assert (row["elo_low"], row["elo_high"]) == pytest.approx((-388.02, 147.20), abs=0.01)
    assert row["elo_low"] < row["elo"] < row["elo_high"]
    shown = list(app.dataframe[0].proto.column_order)
    assert shown[shown.index("elo"):shown.index("elo") + 3] == ["elo", "elo_low", "elo_high"]
    assert "elo_error" not in shown and "pair_elo_error" not in shown  # one interval per row on the page
    labels = json.loads(app.dataframe[0].proto.columns)
    assert (labels["elo_low"]["label"], labels["elo_high"]["label"]) == ("Elo low", "Elo high")
    assert row["elo_error"] == float("inf")  # cutechess's symmetric ± stays in the CSV, as in the CLI's


def other_game(app, name: str, games: int):
    app.selectbox(key="strength_game").select("other").run()
    app.text_input(key="strength_game_name").input(name).run()
    app.number_input(key="strength_games").set_value(games).run()


def test_a_one_player_game_shows_the_mean_return_with_its_interval(app):
    small_grid(app)
    other_game(app, "catch", 4)
    app.button(key="strength_run").click().run()
    finish(app)
    table = rows(app)
    assert list(table.columns[:5]) == ["c", "games", "mean_return", "return_low", "return_high"]
    assert ((table["return_low"] <= table["mean_return"]) & (table["mean_return"] <= table["return_high"])).all()
    assert "wins" not in table.columns
    assert any(header.value == "Mean return" for header in app.subheader)


def test_a_three_player_game_rotates_seats_and_shows_return_and_win_share(app):
    small_grid(app, c_values="1")
    other_game(app, "pig(players=3,winscore=10)", 3)
    app.button(key="strength_run").click().run()
    finish(app)
    table = rows(app)
    assert table["games"].tolist() == [3]
    assert ((table["win_low"] <= table["win_share"]) & (table["win_share"] <= table["win_high"])).all()
    assert any("win share" in header.value for header in app.subheader)


def test_sprt_mode_plots_the_llr_with_both_bounds_and_gives_a_verdict(app):
    small_grid(app, c_values="0, 1.4", games=40, simulations=20)
    app.segmented_control(key="strength_mode").set_value("sprt").run()
    app.number_input(key="strength_sprt_elo1").set_value(50.0).run()
    app.button(key="strength_run").click().run()
    finish(app)
    table = rows(app)
    assert set(table["sprt"]) <= {"H0", "H1", "inconclusive"} and "llr" in table.columns
    # Wald's bounds (±2.944), moved in by fishtest's overshoot estimate: each verdict agrees with its row.
    assert ((-2.9445 <= table["llr_low"]) & (table["llr_high"] <= 2.9445)).all()
    for row in table.itertuples():
        assert {"H1": row.llr > row.llr_high, "H0": row.llr < row.llr_low,
                "inconclusive": row.llr_low <= row.llr <= row.llr_high}[row.sprt]
    assert any(header.value.startswith("SPRT: H0 Elo = 0 against H1 Elo = 50") for header in app.subheader)
    chart = next(c for c in app.get("vega_lite_chart") if "LLR" in c.proto.spec)
    assert "upper 2.944 (H1)" in chart.proto.spec or "upper 2.944 (H1)" in str(chart.proto.datasets)
    verdicts = next(text.value for text in app.markdown if "C = 1.4: " in text.value)
    undecided = table[table["sprt"] == "inconclusive"]
    assert len(undecided) and (undecided["games"] == 40).all()  # C = 0 plays to the end without a verdict
    for c in undecided["c"]:
        assert f"C = {c:g}: no verdict after 40 games (the most allowed)" in verdicts
    decided = table[table["sprt"] != "inconclusive"]
    assert len(decided)  # C = 1.4 against itself: H0 (not 50 Elo better) before 40 games
    for row in decided.itertuples():
        meaning = "better than 0 Elo (H1 accepted)" if row.sprt == "H1" else "not 50 Elo better (H0 accepted)"
        assert f"C = {row.c:g}: {meaning} after {row.games:,} games" in verdicts


def test_sprt_in_normalised_elo_says_so_and_takes_the_llr_in_that_model(app):
    from mcts_core.strength.llr import llr_normalized

    small_grid(app, c_values="0.3", games=30, simulations=10)
    app.segmented_control(key="strength_mode").set_value("sprt").run()
    app.segmented_control(key="strength_sprt_model").set_value("normalized").run()
    app.number_input(key="strength_sprt_elo1").set_value(150.0).run()
    app.button(key="strength_run").click().run()
    finish(app)
    assert not app.exception
    (row,) = rows(app).itertuples()
    assert row.llr == pytest.approx(llr_normalized(0.0, 150.0, [row.ll, row.ld, row.dd_wl, row.wd, row.ww]), rel=1e-12)
    assert any(header.value == "SPRT: H0 normalised Elo = 0 against H1 normalised Elo = 150" for header in app.subheader)


@pytest.mark.parametrize("elo0, elo1, alpha, message", [
    (10.0, 5.0, 0.05, "elo0 (10.0) must be smaller than elo1 (5.0)"),
    (0.0, 50.0, 1.0, "Alpha (1.0) must be between 0 and 1, both excluded"),
])
def test_bad_sprt_settings_are_one_sentence(app, elo0, elo1, alpha, message):
    small_grid(app)
    app.segmented_control(key="strength_mode").set_value("sprt").run()
    app.number_input(key="strength_sprt_elo0").set_value(elo0).run()
    app.number_input(key="strength_sprt_elo1").set_value(elo1).run()
    app.number_input(key="strength_sprt_alpha").set_value(alpha).run()
    assert not app.exception
    assert [plain(error.value) for error in app.error] == [message + "."]


def test_the_budget_map_shows_a_heatmap_with_each_budgets_best_c(app):
    small_grid(app)
    app.segmented_control(key="strength_mode").set_value("map").run()
    app.text_input(key="strength_budgets").input("10, 20").run()
    app.button(key="strength_run").click().run()
    finish(app)
    table = rows(app)
    assert sorted(zip(table["simulations"], table["c"])) == [(10, 0.5), (10, 2.0), (20, 0.5), (20, 2.0)]
    assert any("budget × C" in header.value for header in app.subheader)
    caption = next(c.value for c in app.caption if c.value.startswith("★ marks each budget's best C"))
    for budget in (10, 20):
        best = table[table["simulations"] == budget].sort_values(["elo", "c"], ascending=[False, True]).iloc[0]
        assert f"{budget:,} simulations: C = {best['c']:g}" in caption


FIT_GRID = "0.02, 0.3, 3, 30"  # tic-tac-toe at 20 simulations against C = 1.4: the score peaks inside it


def fitted(table, budget=None):
    """The answer from the table's rows (those of one budget), from their counts: what the page should say."""
    from types import SimpleNamespace

    from mcts_core.strength import answers_by_budget

    chosen = table if budget is None else table[table["simulations"] == budget]
    (answer,) = answers_by_budget([SimpleNamespace(**row) for row in chosen.to_dict("records")]).values()
    return answer


def test_a_grid_draws_the_score_fitted_against_log_c_and_names_the_best_c(app):
    from mcts_core.strength import describe_answer

    small_grid(app, c_values=FIT_GRID, games=16, simulations=20)
    app.button(key="strength_run").click().run()
    finish(app)
    assert not app.exception
    answer = fitted(rows(app))
    assert answer.fit.interior and answer.near_best
    assert any(header.value == "Score against MCTS at C = 1.4, and the best C fitted to it" for header in app.subheader)
    sentence = next(plain(text.value).strip("*") for text in app.markdown if text.value.startswith("**Fit: "))
    assert sentence == f"Fit: {describe_answer(answer)}."
    assert "Not significantly below the best measured C" in sentence  # the model-free set, beside the fit
    chart = next(c for c in app.get("vega_lite_chart") if "fitted score" in c.proto.spec)
    data = " ".join(map(str, chart.proto.datasets)) + chart.proto.spec
    assert answer.verdict in data and "conservative C" in data  # the best C's interval and the triangle
    assert "not significantly below the best" in data  # the rings' tooltip
    assert len(app.get("vega_lite_chart")) == 5  # the fitted chart takes the score chart's place


def test_a_grid_without_three_c_values_above_zero_says_why_there_is_no_fit(app):
    small_grid(app, c_values="0, 1")
    app.button(key="strength_run").click().run()
    finish(app)
    assert any(header.value == "Score against MCTS at C = 1.4" for header in app.subheader)
    assert any("No fitted best C: fitting the best C needs at least 3 C values above 0" in plain(caption.value)
               for caption in app.caption)


def test_the_budget_map_names_each_budgets_fitted_best_c(app):
    from mcts_core.strength import describe_answer

    small_grid(app, c_values=FIT_GRID, games=16)
    app.segmented_control(key="strength_mode").set_value("map").run()
    app.text_input(key="strength_budgets").input("10, 20").run()
    app.button(key="strength_run").click().run()
    finish(app)
    assert not app.exception
    table = rows(app)
    text = next(plain(text.value) for text in app.markdown if "Fitted best C per budget" in text.value)
    for budget in (10, 20):
        assert f"{budget:,} simulations: {describe_answer(fitted(table, budget))}" in text
    found = sum(fitted(table, budget).found for budget in (10, 20))
    assert any("best C (log scale)" in chart.proto.spec for chart in app.get("vega_lite_chart")) == (found == 2)


def test_a_too_large_budget_map_is_refused_in_one_sentence(app):
    small_grid(app, c_values=", ".join(str(c) for c in range(1, 21)))
    app.segmented_control(key="strength_mode").set_value("map").run()
    app.text_input(key="strength_budgets").input(", ".join(str(b) for b in range(10, 21))).run()
    assert not app.exception
    assert any("11 budgets x 20 C values make 220 series; the limit is 200" in plain(e.value) for e in app.error)


def test_the_tuner_reports_the_best_c_with_its_interval_and_the_games_spent(app):
    small_grid(app, c_values="0, 0.5, 1.4, 4", games=16, simulations=10)
    app.segmented_control(key="strength_mode").set_value("tune").run()
    app.button(key="strength_run").click().run()
    job = finish(app)
    result = job.result
    assert result.finished and result.games == 16  # 2 rounds of 8 games: 4 C values x 2, then 2 x 4
    assert [caption.value.split(":")[0] for caption in app.caption if caption.value.startswith("Round")] == [
        "Round 1 of 2", "Round 2 of 2"]
    message = app.success[0].value
    assert f"Best C = {result.best.c:g}: Elo" in message and "16 games in all" in message
    assert rows(app)["round"].tolist().count(2) == 2


def test_the_tuner_also_fits_the_score_over_every_c_it_played(app):
    from mcts_core.strength import describe_answer

    small_grid(app, c_values=FIT_GRID, games=32, simulations=20)
    app.segmented_control(key="strength_mode").set_value("tune").run()
    app.button(key="strength_run").click().run()
    finish(app)
    assert not app.exception
    answer = fitted(rows(app))  # every C's games, 4 to 12 each: the fit weighs them by their games
    assert any(plain(text.value) == f"Fitted over every C's games: {describe_answer(answer)}." for text in app.markdown)
    assert any("fitted score" in chart.proto.spec for chart in app.get("vega_lite_chart"))


def test_the_tuner_plays_every_game_asked_for_and_says_how_before_it_starts(app):
    small_grid(app, c_values="0, 0.3, 0.7, 1.4, 3, 10", games=48, simulations=5)
    app.segmented_control(key="strength_mode").set_value("tune").run()
    assert app.info[0].value == (
        "Run plays 48 games in all over 6 C values at 5 simulations per move, in 3 successive-halving rounds: "
        "6 C values × 2 games, 3 × 6, then 2 × 8 and 2 more for the best so far.")
    app.button(key="strength_run").click().run()
    job = finish(app)
    assert job.result.finished and "; 48 games in all." in app.success[0].value  # it played 40
    table = rows(app)
    assert table["games"].sum() == 48 and sorted(table["games"]) == [2, 2, 2, 8, 16, 18]
    assert [caption.value for caption in app.caption if caption.value.startswith("Round 3 of 3")][0].startswith(
        "Round 3 of 3: 2 C values with 16 to 18 games each")


def test_too_few_games_for_the_tuner_is_one_sentence_before_run(app):
    small_grid(app, c_values="0, 0.3, 0.7, 1.4, 3", games=10, simulations=5)
    app.segmented_control(key="strength_mode").set_value("tune").run()
    assert not app.exception and not app.info
    assert any("10 games are too few to tune 5 C values" in plain(error.value) and "give at least 30" in error.value
               for error in app.error)


def test_an_unreachable_cluster_is_one_sentence_and_nothing_is_played(app, data_folder):
    small_grid(app)
    app.text_input(key="strength_cluster").input("tcp://127.0.0.1:9").run()
    app.button(key="strength_run").click().run()
    job = finish(app)
    assert job.error.startswith("cannot reach the Dask scheduler at tcp://127.0.0.1:9")
    assert any(plain(error.value).startswith("Cannot reach the Dask scheduler at tcp://127.0.0.1:9")
               for error in app.error)
    assert not app.dataframe


def test_the_page_starts_from_the_same_defaults_as_the_cli(app):
    from mcts_core import defaults

    assert app.number_input(key="strength_games").value == defaults.ARENA_GAMES
    assert app.number_input(key="strength_simulations").value == defaults.ARENA_SIMULATIONS
    opponent = f"{app.segmented_control(key='strength_opponent').value}:{app.number_input(key='strength_opponent_c').value!r}"
    assert opponent == defaults.ARENA_OPPONENT
    assert app.number_input(key="strength_seed").value == defaults.ARENA_SEED
    assert [float(c) for c in app.text_input(key="strength_c_values").value.split(",")] == list(defaults.ARENA_C_VALUES)
