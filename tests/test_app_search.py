"""AppTest of the Search page: set up a position, run a live search, and it becomes every page's input."""

import json

import pytest

import required

required.module("pyspiel")

from apptest_support import c_slider, children_frame, plain, wait_for_job  # noqa: E402

PAGE = "pages/search.py"


def finish(app, timeout: float = 300.0):
    """Wait for the page's background work to end (and the page to show it)."""
    return wait_for_job(app, "_search_job", timeout)


def board(app) -> str:
    """The state string shown in the monospace block."""
    return app.code[0].value


def metrics(app) -> dict[str, str]:
    return {metric.label: plain(metric.value) for metric in app.metric}


def run_search(app, simulations: int = 200, *, moves: str | None = None):
    if moves is not None:
        app.text_input(key="search_moves").input(moves).run()
    app.number_input(key="search_simulations").set_value(simulations).run()
    app.button(key="search_run").click().run()
    assert not app.exception
    return finish(app)


def test_a_small_search_becomes_the_input_and_the_explorer_shows_its_tree(app):
    job = run_search(app, 200)
    assert job.result.simulations == 200 and not job.result.stopped
    shown = metrics(app)
    assert shown["Simulations"] == "200" and shown["Best move"] == job.result.best_move
    assert int(shown["Depth reached"]) >= 2
    assert app.get("vega_lite_chart")  # the root's visit shares
    # The sidebar now uses the search's log and says so; the C slider took the search's C.
    assert "_kept_input" in app.session_state
    assert any("Using the search of tic_tac_toe" in plain(info.value) for info in app.info)
    app.switch_page("pages/explorer.py").run()
    assert not app.exception
    assert c_slider(app).value == 1.4
    assert app.session_state["selected_path"].startswith("x(")
    root_children = children_frame(app)  # the root's children, with their visits
    assert sorted(root_children["move"]) == [f"x({row},{column})" for row in range(3) for column in range(3)]
    assert root_children["visits"].sum() == 200
    for chart in app.get("graphviz_chart"):  # the picture, while it is st.graphviz_chart
        assert "x(1,1)" in chart.proto.spec
    for page in ("pages/sweep.py", "pages/compare.py", "pages/playback.py", "pages/classroom.py"):
        app.switch_page(page).run()
        assert not app.exception, page


def test_dropping_the_search_or_typing_goes_back_to_the_text_box(app):
    run_search(app, 50)
    app.button(key="kept_input_drop").click().run()
    assert not app.exception and "_kept_input" not in app.session_state
    app.switch_page("pages/explorer.py").run()
    assert app.session_state["selected_path"] == "a"  # the puzzle statement in the text box
    app.switch_page(PAGE).run()
    app.button(key="search_use_again").click().run()
    assert "_kept_input" in app.session_state
    app.text_area(key="playouts").input("a 1\nb 2\n").run()  # the newest input wins
    assert not app.exception and "_kept_input" not in app.session_state


def test_moves_are_played_by_buttons_undone_and_reset(app):
    app.button(key="search_move_4").click().run()
    assert app.text_input(key="search_moves").value == "x(1,1)"
    assert board(app).splitlines() == ["...", ".x.", "..."]
    assert app.button(key="search_move_4").disabled  # the centre is taken
    app.button(key="search_move_0").click().run()
    assert app.text_input(key="search_moves").value == "x(1,1) o(0,0)"
    app.button(key="search_undo").click().run()
    assert app.text_input(key="search_moves").value == "x(1,1)"
    app.button(key="search_reset").click().run()
    assert not app.exception
    assert app.text_input(key="search_moves").value == "" and board(app).splitlines() == ["...", "...", "..."]


def test_typed_ids_and_names_give_the_same_position(app):
    app.text_input(key="search_moves").input("4 0").run()
    by_id = board(app)
    app.text_input(key="search_moves").input("x(1,1) o(0,0)").run()
    assert not app.exception and board(app) == by_id == "o..\n.x.\n..."


def test_an_illegal_move_is_named_and_the_run_is_disabled(app):
    app.text_input(key="search_moves").input("x(1,1) x(0,0)").run()
    assert not app.exception
    message = plain(app.error[0].value)
    assert "'x(0,0)' (move 2) is not legal after x(1,1); legal: o(0,0)" in message
    assert board(app).splitlines() == ["...", ".x.", "..."]  # the position before it
    assert app.button(key="search_run").disabled
    app.button(key="search_undo").click().run()  # drops the illegal move
    assert app.text_input(key="search_moves").value == "x(1,1)" and not app.error


def test_a_finished_game_cannot_be_searched(app):
    app.text_input(key="search_moves").input("0 3 1 4 2").run()
    assert not app.exception
    assert "The game is over here" in app.warning[0].value and app.button(key="search_run").disabled


@pytest.mark.parametrize(
    "name, message",
    [
        ("tic_tac_tow", "Unknown game 'tic_tac_tow'; did you mean tic_tac_toe"),
        ("connect_four(rowz=4)", "connect_four has no parameter 'rowz'; its parameters: columns, egocentric_obs_tensor"),
        ("go(board_size=500)", "OpenSpiel cannot set up go(board_size=500): The current Go implementation supports "
         "board size up to 19. Provided: 500"),
        ("connect_four(rows=99999999999999999999)", "connect_four's parameter 'rows' is 99999999999999999999"),
    ],
)
def test_a_bad_game_name_is_an_error_naming_the_problem(app, name, message):
    app.selectbox(key="search_game").select("other").run()
    app.text_input(key="search_game_name").input(name).run()
    assert not app.exception
    assert message in plain(app.error[0].value)
    assert app.button(key="search_run").disabled
    assert app.text_input(key="search_game_name").value == name  # kept, to be fixed


def test_a_board_openspiel_cannot_draw_as_text_is_a_note_and_a_too_wide_one_a_sentence_at_run(app):
    app.selectbox(key="search_game").select("other").run()
    app.text_input(key="search_game_name").input("breakthrough(rows=1000,columns=1000)").run()
    assert not app.exception and not app.error
    assert board(app) == "(OpenSpiel's picture of this position is not UTF-8 text, so it cannot be shown)"
    assert any("2,998 legal moves, too many for buttons" in caption.value for caption in app.caption)
    assert not [button for button in app.button if button.key.startswith("search_move_")]
    job = run_search(app, 5)
    assert job.error.startswith("this position has 2,998 moves; a search log lists at most 1,000 at a node")
    assert "This position has 2,998 moves" in plain(app.error[0].value)
    assert app.text_input(key="search_game_name").value == "breakthrough(rows=1000,columns=1000)"


def test_a_simultaneous_game_points_to_the_simultaneous_page_and_a_hidden_information_game_says_why(app):
    app.selectbox(key="search_game").select("other").run()
    app.text_input(key="search_game_name").input("goofspiel").run()
    assert not app.exception and not app.error
    text = plain(app.info[-1].value)
    assert "simultaneous-move game" in text and "The Simultaneous page searches such games" in text
    assert [link.proto.page for link in app.get("page_link")] == ["simultaneous"]
    app.text_input(key="search_game_name").input("kuhn_poker").run()
    assert not app.exception and not app.error
    text = plain(app.info[-1].value)
    assert "imperfect information" in text and "not available in the app yet" in text


def test_catch_starts_with_a_chance_move_that_can_be_played_or_searched(app):
    app.selectbox(key="search_game").select("catch").run()
    assert not app.exception
    assert any("Chance moves next" in markdown.value for markdown in app.markdown)
    app.button(key="search_move_2").click().run()  # the ball starts in column 2
    assert json.loads(app.text_input(key="search_moves").value) == ["Initialized ball to 2"]
    assert any("Player 0 to move" in markdown.value for markdown in app.markdown)
    job = run_search(app, 100, moves="")  # from the chance node itself: the search draws the outcome
    assert job.result.simulations == 100 and job.result.sampled[0].startswith("Initialized ball to")
    assert job.result.best_move in ("LEFT", "STAY", "RIGHT")  # a player's move, not the chance outcome (issue 22)


def test_stop_really_stops_a_running_search_and_keeps_what_it_found(app):
    app.selectbox(key="search_game").select("connect_four").run()
    app.number_input(key="search_simulations").set_value(200_000).run()
    app.button(key="search_run").click().run()
    job = app.session_state["_search_job"]
    assert job.running and app.get("progress") and app.button(key="search_run").disabled
    app.button(key="search_stop").click().run()
    assert not app.exception
    finish(app)
    assert job.result.stopped and 0 < job.result.simulations < 200_000
    assert "Stopped after" in app.warning[0].value
    assert "_kept_input" in app.session_state  # the partial tree is the input


def test_a_time_budget_and_the_sidebar_s_rule_are_used(app):
    app.selectbox(key="rule").select("puct").run()
    app.number_input(key="search_c").set_value(2.5).run()
    app.button_group(key="search_budget_kind").set_value("seconds").run()
    app.number_input(key="search_seconds").set_value(0.3).run()
    assert any("Rule: **PUCT (AlphaZero), C = 2.5**" in plain(caption.value) for caption in app.caption)
    app.button(key="search_run").click().run()
    job = finish(app)
    # The page hands the search its time budget (the search's own test checks it keeps to it).
    assert job.scoring.rule == "puct" and job.seconds == 0.3 and job.result.simulations > 0
    app.switch_page("pages/explorer.py").run()
    assert not app.exception
    assert app.selectbox(key="rule").value == "puct" and c_slider(app).value == 2.5  # the log's header
