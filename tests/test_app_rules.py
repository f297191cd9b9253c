"""AppTest of the sidebar's selection-rule controls and their effect on the Explorer."""

import math


from mcts_core import Scoring, build_tree, parse_playouts, select_path, solve
from mcts_core.inputs.examples import STATEMENT_EXAMPLE
from apptest_support import c_slider, children_frame, plain

PRIORS_INPUT = "3 1\n#prior b 0.9\n#prior a 0.1\nbaa 30\nab 20\nbbb 4\n"




def test_ucb1_is_the_default_and_matches_the_cli(app):
    assert app.selectbox(key="rule").value == "ucb1"
    for c in (0.0, 0.1, 9.0, 50.0):
        app.text_input(key="c_exact").input(repr(c)).run()
        assert app.session_state["selected_path"] == solve(STATEMENT_EXAMPLE, c=c)


def test_switching_rules_changes_the_table_columns_and_the_c_label(app):
    app.selectbox(key="rule").select("puct").run()
    assert not app.exception
    assert children_frame(app).columns.tolist() == [
        "move", "visits", "value", "total", "mean", "q", "prior", "exploration", "visits to flip", "rank", "selected"
    ]
    assert c_slider(app).label == "c_puct"
    app.selectbox(key="rule").select("ucb1_tuned").run()
    assert "variance" in children_frame(app).columns
    assert c_slider(app).label == "exploration constant C"


def test_rule_settings_drive_the_selected_path(app):
    app.selectbox(key="rule").select("progressive_bias").run()
    app.number_input(key="rule_progressive_bias_w").set_value(100.0).run()
    app.text_area(key="rule_progressive_bias_heuristic").input("b 1\n").run()
    assert not app.exception
    tree = build_tree(parse_playouts(STATEMENT_EXAMPLE))
    expected = select_path(tree, Scoring.of("progressive_bias", c=0.1, w=100.0, heuristic={"b": 1.0}))
    assert expected.startswith("b")  # a heuristic for b outweighs a's better mean
    assert app.session_state["selected_path"] == expected


def test_seed_004_preset_sets_rule_constants_and_shows_the_draw_as_probabilities(app):
    app.selectbox(key="rule_preset").select("Contest bot: random below 1000 visits, then UCB + progressive bias (W = 34)").run()
    assert not app.exception
    assert app.selectbox(key="rule").value == "sample_threshold"
    assert app.session_state["c"] == math.sqrt(7)
    assert app.number_input(key="rule_sample_threshold_t").value == 1000
    warning = plain(app.warning[0].value)
    assert "draws a child at random" in warning and "50%" in warning


def test_prior_annotations_in_the_input_feed_puct(app):
    app.text_area(key="playouts").input(PRIORS_INPUT).run()
    app.selectbox(key="rule").select("puct").run()
    assert "Using the 2 #prior lines of the input." in [plain(c.value) for c in app.sidebar.caption]
    table = children_frame(app).set_index("move")
    assert table.loc["b", "prior"] == 0.9 and table.loc["a", "prior"] == 0.1


def test_a_bad_priors_line_is_reported_with_its_line_and_ignored(app):
    app.selectbox(key="rule").select("puct").run()
    app.text_area(key="rule_puct_priors").input("a 1\nb x\n").run()
    assert not app.exception
    assert plain(app.sidebar.error[0].value).startswith("prior P per move, line 2: value must be a number")
    assert app.text_area(key="rule_puct_priors").value == "a 1\nb x\n"
    table = children_frame(app).set_index("move")
    assert table.loc["a", "prior"] == 0.5  # uniform while the box is bad


def test_a_bad_annotation_is_an_input_error_naming_its_line(app):
    app.text_area(key="playouts").input("2 1\nab 1\n#prior a x\nb 2\n").run()
    assert not app.exception
    assert plain(app.error[0].value).startswith("Line 3:")
