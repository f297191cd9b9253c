"""AppTest of the "C and strength" page: play a small grid, see rows and charts, and find them stored."""

import time

import pytest

pytest.importorskip("pyspiel", reason="open-spiel is a test requirement (requirements.txt)")

from apptest_support import plain, start_app, wait_for_job  # noqa: E402

PAGE = "pages/strength.py"


@pytest.fixture(autouse=True)
def data_folder(tmp_path, monkeypatch):
    """The result store in a temporary data folder (set before the app fixture's first run)."""
    monkeypatch.setenv("MCTS_EXPLORER_DATA", str(tmp_path))
    return tmp_path


def small_grid(app, c_values: str = "0.5, 2", games: int = 4, simulations: int = 20, game: str = "tic_tac_toe"):
    """Settings of a grid that plays in well under a second, in this process."""
    app.selectbox(key="strength_game").select(game)
    app.text_input(key="strength_c_values").input(c_values)
    app.number_input(key="strength_games").set_value(games)
    app.number_input(key="strength_simulations").set_value(simulations)
    app.number_input(key="strength_workers").set_value(1)
    app.run()
    assert not app.exception


def finish(app, timeout: float = 30.0):
    """Wait for the page's background work to end (and the page to show it)."""
    return wait_for_job(app, "_strength_job", timeout)


def rows(app):
    return app.dataframe[0].value


def test_a_small_grid_gives_rows_charts_and_a_csv_and_reappears_from_the_store(app, monkeypatch, data_folder):
    small_grid(app)
    assert "Nothing stored for these settings yet: Run plays 8 games" in app.info[0].value
    app.button(key="strength_run").click().run()
    job = finish(app)
    assert job.error is None and job.total == 8 and job.done == 8
    table = rows(app)
    assert table["c"].tolist() == [0.5, 2.0] and (table["games"] == 4).all()
    assert ((table["wins"] + table["draws"] + table["losses"]) == 4).all()
    assert ((table["low"] <= table["score"]) & (table["score"] <= table["high"])).all()
    assert len(app.get("vega_lite_chart")) == 4  # the score band, and entropy, depth and top share
    assert app.get("download_button")
    assert (data_folder / "arena.sqlite3").exists()

    # A new session with the same settings: the rows are there before anything is played.
    again = start_app(monkeypatch, PAGE)
    small_grid(again)
    assert "_strength_job" not in again.session_state
    assert rows(again).equals(table)
    assert any("From the result store" in caption.value for caption in again.caption)
    assert len(again.get("vega_lite_chart")) == 4


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
    finish(app, timeout=20)
    assert job.error is None and job.done < 120  # the games not started were dropped
    stored = len(app.dataframe[0].value) if app.dataframe else 0
    assert stored < 4
    assert "Stopped with" in app.warning[0].value and "Run plays the rest" in app.warning[0].value


@pytest.mark.parametrize(
    "settings, message",
    [
        ({"strength_c_values": "0.5, x"}, "C value 'x': C must be a finite number >= 0"),
        ({"strength_c_values": "1, 1"}, "A C value is listed twice"),
        ({"strength_moves": "x(1,1) x(0,0)"}, "'x(0,0)' (move 2) is not legal after x(1,1)"),
        ({"strength_game": "other", "strength_game_name": "catch"}, "The arena pits two players; catch has 1"),
        ({"strength_game": "other", "strength_game_name": "tic_tac_tow"}, "did you mean tic_tac_toe"),
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
    while app.session_state["_search_job"].running:
        time.sleep(0.05)
    app.switch_page(PAGE).run()
    app.button(key="strength_from_search").click().run()
    assert not app.exception
    assert app.selectbox(key="strength_game").value == "tic_tac_toe"
    assert app.text_input(key="strength_moves").value == "x(1,1)"
