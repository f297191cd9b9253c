"""AppTest of "C and strength"'s SPSA mode: C over the iterations beside the grid's fitted best C, Stop, a CSV,
and a run that reappears from the store."""

import pytest

import required

required.module("pyspiel")

from apptest_support import plain, small_grid, start_app, wait_for_job  # noqa: E402

PAGE = "pages/strength.py"
FIT_GRID = "0.02, 0.3, 3, 30"  # tic-tac-toe at 20 simulations against C = 1.4: the score peaks inside it


@pytest.fixture(autouse=True)
def data_folder(tmp_path, monkeypatch):
    """The result store in a temporary data folder (set before the app fixture's first run)."""
    monkeypatch.setenv("MCTS_EXPLORER_DATA", str(tmp_path))
    return tmp_path


def settings(app, mode: str, games: int, game: str = "tic_tac_toe", simulations: int = 20):
    """The mode, then a small grid's settings: in SPSA mode ``games`` are its iterations."""
    app.segmented_control(key="strength_mode").set_value(mode)
    small_grid(app, FIT_GRID, games, simulations, game)


def run(app):
    app.button(key="strength_run").click().run()
    return wait_for_job(app, "_strength_job")


def spsa_chart(app):
    return next(chart for chart in app.get("vega_lite_chart") if "C after" in chart.proto.spec)


def test_spsa_draws_c_over_its_iterations_beside_the_grids_best_c_and_reappears_from_the_store(app, monkeypatch):
    from mcts_core.strength import answers_by_budget, plan, spsa_plan, spsa_rows, spsa_run, stored_grid
    from mcts_core.strength import ResultStore, describe_answer

    settings(app, "grid", 16)
    run(app)
    settings(app, "spsa", 10)
    assert "No iteration is stored for these settings yet: Run plays 10 iterations of 2 games (20 games)" in (
        app.info[0].value)
    job = run(app)
    assert job.error is None and (job.done, job.total) == (10, 10)
    expected = spsa_plan("tic_tac_toe", c_range=[0.02, 30], iterations=10, simulations=20, workers=1)
    end = spsa_rows(expected, spsa_run(expected))[-1]["after"]
    assert plain(app.success[0].value) == f"SPSA: C = {end:.3g} after 10 iterations (20 games), from C = 1."
    grid = stored_grid(plan("tic_tac_toe"), [0.02, 0.3, 3, 30], 20, ResultStore())
    answer = answers_by_budget(grid)[20]
    assert any(plain(text.value) == f"The grid's stored games (4 C values): {describe_answer(answer)}."
               for text in app.markdown)
    chart = spsa_chart(app)
    data = " ".join(map(str, chart.proto.datasets))
    assert "the grid's best C" in chart.proto.spec and "C+ played" in chart.proto.spec  # its interval, shaded
    assert "nan" not in data.lower() and "inf" not in data.lower()  # every number the chart gets is finite
    assert any(button.proto.label == "Download the iterations (CSV)" for button in app.get("download_button"))

    again = start_app(monkeypatch, PAGE)  # a new session: the run is read back, nothing played
    settings(again, "spsa", 10)
    assert "_strength_job" not in again.session_state
    assert plain(again.success[0].value) == plain(app.success[0].value) and spsa_chart(again)


def test_stop_ends_spsa_after_its_last_finished_iteration_and_run_goes_on_from_there(app):
    settings(app, "spsa", 400, game="connect_four", simulations=200)
    app.button(key="strength_run").click().run()
    job = app.session_state["_strength_job"]
    assert job.running and "iterations" in app.get("progress")[0].proto.text
    app.button(key="strength_stop").click().run()
    wait_for_job(app, "_strength_job")
    assert job.error is None and job.done < 400
    if job.done:  # an iteration or more finished before Stop: they are stored and shown
        assert plain(app.warning[0].value) == (f"Stopped after {job.done:,} of 400 iterations; Run goes on from "
                                               "there.")
        assert any(f"after {job.done:,} of 400 iterations." in plain(text.value) for text in app.markdown)


def test_a_start_c_outside_the_c_values_range_is_one_sentence(app):
    settings(app, "spsa", 10)
    app.number_input(key="strength_spsa_start").set_value(50.0).run()
    assert [plain(error.value) for error in app.error] == ["The start C 50 is outside SPSA's range 0.02 to 30"]
    assert not app.get("vega_lite_chart")
    run(app)  # Run says it once too
    assert [plain(error.value) for error in app.error] == ["The start C 50 is outside SPSA's range 0.02 to 30"]


def test_spsa_needs_two_c_values_above_zero_for_its_range(app):
    settings(app, "spsa", 10)
    app.text_input(key="strength_c_values").input("0, 1").run()
    assert any("SPSA keeps C between two finite C values above 0" in plain(error.value) for error in app.error)


def test_a_rules_second_constant_can_be_tuned_beside_c_and_gets_its_own_chart(app):
    from mcts_core.strength import spsa_plan, spsa_rows, spsa_run

    app.selectbox(key="rule").select("katago").run()
    settings(app, "spsa", 6, simulations=30)
    app.checkbox(key="strength_spsa_second").check().run()
    job = run(app)
    assert job.error is None
    expected = spsa_plan("tic_tac_toe", c_range=[0.02, 30], iterations=6, simulations=30, workers=1, rule="katago",
                         tune_setting="cpuct_base")
    end = spsa_rows(expected, spsa_run(expected))[-1]["cpuct_base_after"]
    assert any(plain(text.value) == f"**cpuctExplorationBase** ends at {end:.4g}, tuned beside C: each side played "
               "its own cpuctExplorationBase as well as its own C (on a log scale, as C)." for text in app.markdown)
    assert len(app.get("vega_lite_chart")) == 2 and "cpuctExplorationBase after" in app.get("vega_lite_chart")[1].proto.spec
    app.selectbox(key="rule").select("ucb1").run()  # a rule without one: no checkbox
    assert not app.get("checkbox") or all(box.key != "strength_spsa_second" for box in app.checkbox)


def test_each_side_against_the_opponent_plays_pairs_of_four_games_and_the_opponent_counts(app):
    from mcts_core.strength import spsa_plan, spsa_rows, spsa_run

    settings(app, "spsa", 4, simulations=10)
    assert app.segmented_control(key="strength_opponent").disabled  # head to head: no opponent plays
    assert "C+ against C−" in " ".join(plain(caption.value) for caption in app.caption)
    app.checkbox(key="strength_spsa_against_opponent").check().run()
    assert not app.segmented_control(key="strength_opponent").disabled
    job = run(app)
    assert job.error is None
    expected = spsa_plan("tic_tac_toe", c_range=[0.02, 30], iterations=4, simulations=10, workers=1,
                         head_to_head=False)
    end = spsa_rows(expected, spsa_run(expected))[-1]["after"]
    assert plain(app.success[0].value) == f"SPSA: C = {end:.3g} after 4 iterations (16 games), from C = 1."
