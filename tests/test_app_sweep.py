"""AppTest of the C sweep page: intervals, range controls, node picking, rule notice, bad input."""

import math

import pytest

from mcts_core import RULES, Scoring, build_tree, parse_playouts, select_path, solve
from mcts_core.inputs.examples import C_FLIPS_CHOICE
from mcts_core.analysis.sweep import path_intervals
from mcts_core.tables.sweep_tables import sweep_nodes
from apptest_support import c_slider, metrics, plain
from bench.harness.apptest import set_c

FLIP = 2.702917488375908


PAGE = "pages/sweep.py"


def lines_caption(app) -> str:
    """The caption under the lines chart, which names the node drawn."""
    return next(caption.value for caption in app.caption if caption.value.startswith("Node "))


def table(app):
    return app.dataframe[0].value  # the only dataframe on the page (AppTest does not expose its key)


def flips_tree():
    return build_tree(parse_playouts(C_FLIPS_CHOICE))


def flips(app):
    app.text_area(key="playouts").input(C_FLIPS_CHOICE).run()
    assert not app.exception
    return app


def test_statement_example_is_one_interval_over_the_slider_range(app):
    assert app.number_input(key="sweep_from").value == 0.0
    assert app.number_input(key="sweep_to").value == c_slider(app).max == 100.0
    rows = table(app)
    assert rows[["c_from", "c_to", "path", "length", "leaf_visits", "leaf_mean"]].values.tolist() == [
        [0.0, 100.0, "a", 1, 1, 20.0]
    ]
    assert [metrics(app)[label] for label in ("UCB1 path at this C", "Intervals", "Breakpoints")] == ["a", "1", "0"]
    assert len(app.get("vega_lite_chart")) == 2  # the strip and the root's lines


def test_flip_shows_two_intervals_split_at_the_exact_crossing(app):
    flips(app)
    rows = table(app)
    # The range is the C slider's, fitted to the flip: 1.5 x 2.70 rounded up to 5.
    assert rows[["c_from", "c_to", "path"]].values.tolist() == [[0.0, FLIP, "aa"], [FLIP, 5.0, "b"]]
    assert rows.loc[1, ["node", "before", "after"]].tolist() == ["(root)", "a", "b"]
    assert metrics(app)["UCB1 path at this C"] == "aa"  # the header's C = 0.5 lies in the first interval
    assert "2.702917488" in plain(lines_caption(app))  # the root's crossing, in the lines caption


def test_current_path_follows_the_slider(app):
    flips(app)
    set_c(app, 4.0)
    assert not app.exception
    assert metrics(app)["UCB1 path at this C"] == "b" == solve(C_FLIPS_CHOICE, c=4.0)


def test_changing_the_range_updates_the_table(app):
    flips(app)
    app.number_input(key="sweep_to").set_value(2.0).run()
    assert not app.exception
    assert table(app)[["c_from", "c_to", "path"]].values.tolist() == [[0.0, 2.0, "aa"]]
    app.number_input(key="sweep_from").set_value(2.5).run()
    app.number_input(key="sweep_to").set_value(1000.0).run()
    assert table(app)[["c_from", "c_to", "path"]].values.tolist() == [[2.5, FLIP, "aa"], [FLIP, 1000.0, "b"]]
    app.button(key="sweep_reset").click().run()
    assert app.number_input(key="sweep_from").value == 0.0 and app.number_input(key="sweep_to").value == 5.0


def test_zoom_narrows_the_range_to_the_breakpoints(app):
    app.selectbox(key="example").select("Deep tree (400 playouts)").run()
    app.number_input(key="sweep_to").set_value(1000.0).run()  # wider than the fitted slider range
    before = table(app)
    app.button(key="sweep_zoom").click().run()
    assert not app.exception
    after = table(app)
    assert app.number_input(key="sweep_to").value < before["c_to"].iloc[-1]
    assert after["c_from"].iloc[1:].tolist() == before["c_from"].iloc[1:].tolist()  # same breakpoints
    assert after["path"].tolist() == before["path"].tolist()
    assert app.button(key="sweep_zoom").disabled  # already zoomed


@pytest.mark.parametrize(
    ("c_from", "c_to", "message"),
    [(5.0, 2.0, "must be smaller"), (3.0, 3.0, "must be smaller"), (-1.0, 2.0, "cannot be negative")],
)
def test_bad_range_shows_an_error_not_a_traceback(app, c_from, c_to, message):
    app.number_input(key="sweep_from").set_value(c_from).run()
    app.number_input(key="sweep_to").set_value(c_to).run()
    assert not app.exception
    assert message in plain(app.error[0].value)
    assert not app.dataframe  # the page stops before the sweep


def test_picking_a_node_draws_its_envelope(app):
    app.selectbox(key="example").select("Deep tree (400 playouts)").run()
    assert not app.exception
    tree = build_tree(parse_playouts(app.text_area(key="playouts").value))
    intervals = path_intervals(tree, 0.0, app.number_input(key="sweep_to").value)
    assert table(app)["path"].tolist() == [interval.path for interval in intervals]
    nodes = [tree.format_path(moves) for moves in sweep_nodes(intervals)]
    assert app.selectbox(key="sweep_node").options[0] == "root" and len(nodes) > 2
    picked = nodes[2]  # a node below the root's first choice
    app.selectbox(key="sweep_node").select(picked).run()
    assert not app.exception
    assert app.session_state["sweep_node"] == picked
    assert f"Node ` {picked} `" in lines_caption(app)
    assert len(app.get("vega_lite_chart")) == 2


def test_typed_node_path_wins_and_bad_paths_are_reported(app):
    flips(app)
    app.text_input(key="sweep_node_path").input("ab").run()
    assert not app.exception
    assert "Node ` ab `" in lines_caption(app)
    app.text_input(key="sweep_node_path").input("b").run()
    assert "is a leaf" in app.info[0].value
    app.text_input(key="sweep_node_path").input("zz").run()
    assert not app.exception
    assert "no move 'z' at the root" in plain(app.error[0].value)
    assert "Node **root**" in lines_caption(app)  # falls back to the list's node


def test_the_page_sweeps_the_sidebars_rule(app):
    # It swept UCB1 whatever the rule: with PUCT at C = 3 the C control's path was aa and the
    # page's "UCB1 path at this C" b, two paths on one screen.
    flips(app)
    app.selectbox(key="rule").select("puct").run()
    set_c(app, 3.0)
    assert not app.exception and not app.info
    assert app.session_state["selected_path"] == "aa" == select_path(flips_tree(), Scoring.of("puct", c=3.0))
    assert metrics(app)["PUCT (AlphaZero) path at this C"] == "aa"
    puct_flip = 4.898979485566359  # 2 sqrt(6): a's Q 10 + C/2 sqrt(6)/6 meets b's 8 + C/2 sqrt(6)/2
    assert table(app)[["c_from", "c_to", "path"]].values.tolist() == [[0.0, puct_flip, "aa"], [puct_flip, 10.0, "b"]]
    assert f"{puct_flip:.10g}" in plain(lines_caption(app))


@pytest.mark.parametrize("rule", list(RULES))
def test_every_rule_sweeps_to_its_own_paths(app, rule):
    flips(app)
    app.selectbox(key="rule").select(rule).run()
    assert not app.exception
    c_to = app.number_input(key="sweep_to").value
    swept = path_intervals(flips_tree(), 0.0, c_to, Scoring.of(rule))
    assert table(app)[["c_from", "c_to", "path"]].values.tolist() == [[p.c_from, p.c_to, p.path] for p in swept]


def test_bad_playouts_show_the_parse_error(app):
    app.text_area(key="playouts").input("3 0.1\nbaa 30\nab x\nbbb 4\n").run()
    assert not app.exception
    assert plain(app.error[0].value) == "Line 3: score must be a number, got 'x'"
    assert not app.dataframe


def test_markup_in_moves_stays_text(app):
    app.text_area(key="playouts").input("3 1\n<b> 1\n*_ 2\n\\N 3\n").run()
    assert not app.exception
    assert table(app)["path"].tolist()[-1] == "\\"
    assert all(math.isfinite(value) for value in table(app)["c_to"])


def test_the_lines_chart_has_no_opaque_light_or_black_marks_that_vanish_in_a_theme(app):
    import json

    lines = json.loads(app.get("vega_lite_chart")[-1].proto.spec)
    marks = [layer["mark"] for layer in lines["layer"] if isinstance(layer.get("mark"), dict)]
    shading = [mark for mark in marks if mark["type"] == "rect"]
    assert shading and all(mark.get("opacity", 1) < 0.5 for mark in shading)  # a tint, not a light plot area
    assert not [mark for mark in marks if mark.get("color") in ("black", "white", "#f0f0f0")]


@pytest.mark.parametrize("rule, title", [
    ("ucb1", "UCB1 = mean + C·slope"),  # the intercept is one term, named as the rule names it
    ("puct", "value = q + C·slope"),
    ("progressive_bias", "value = value at C = 0 + C·slope"),  # mean + bias: not one term
])
def test_the_lines_chart_s_value_axis_names_the_rule_s_intercept(app, rule, title):
    import json

    app.selectbox(key="rule").select(rule).run()
    assert not app.exception
    lines = json.loads(app.get("vega_lite_chart")[-1].proto.spec)
    titles = [layer["encoding"]["y"].get("title") for layer in lines["layer"] if "y" in layer.get("encoding", {})]
    assert title in titles
