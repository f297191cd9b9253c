"""AppTest of the Compare page: setting B's rule and C move B's path and the split table."""

import html
import json
import re

import pytest

from mcts_core import solve
from mcts_core.inputs.examples import C_FLIPS_CHOICE, deep_tree
from apptest_support import c_slider, live_text, live_texts, metrics, plain, tree_view_data
from bench.harness.apptest import set_c


PAGE = "pages/compare.py"


def sentence(app) -> tuple[str | None, str]:
    """The verdict's sentence under the metrics: its box ("success" or "info") and its words."""
    data = live_texts(app)["compare_verdict_sentence"]
    return data["shapes"][data["shape"]]["box"], live_text(app, "compare_verdict_sentence")


def split_table(app):
    return app.dataframe[0].value  # the only table on the page


def test_opens_with_b_at_twice_a_c_and_says_the_paths_are_identical(app):
    # Statement example at C = 0.1: a's mean 20 beats b's 17 for every C (a has the larger
    # exploration too), so B at C = 0.2 agrees.
    assert app.number_input(key="cmp_c").value == 0.2
    assert metrics(app) == {"Path A": "a", "Path B": "a", "Length A": "1", "Length B": "1", "Paths": "identical"}
    assert sentence(app)[0] == "success" and "Both settings select the same path" in sentence(app)[1]
    assert not app.dataframe
    picture = tree_view_data(app, "cmp_tree_view")
    assert picture["selected"] == picture["second"] == [[], ["a"]]  # both paths drawn, on top of each other


def test_small_and_large_c_differ_at_the_root(app):
    app.text_area(key="playouts").input(C_FLIPS_CHOICE).run()
    assert not app.exception
    assert app.number_input(key="cmp_c").value == 1.0  # the header's C = 0.5, doubled
    app.number_input(key="cmp_c").set_value(5.0).run()
    assert not app.exception
    assert metrics(app) == {"Path A": "aa", "Path B": "b", "Length A": "2", "Length B": "1", "Paths": "split at root"}
    assert sentence(app) == ("info", "The paths split at root: A takes a, B takes b.")
    table = split_table(app).set_index("move")
    assert table.loc["a", "rank A"] == 1 and table.loc["a", "rank B"] == 2
    assert table.loc["b", "rank A"] == 2 and table.loc["b", "rank B"] == 1
    assert table["rank changed"].all()
    # a: 10 + 0.5 * 0.598625 = 10.299313 under A, 10 + 5 * 0.598625 = 12.993125 under B.
    assert table.loc["a", "value A"] == pytest.approx(10.299313, abs=1e-6)
    assert table.loc["a", "value B"] == pytest.approx(12.993125, abs=1e-6)
    assert table.loc["b", "Δ exploration"] == pytest.approx(4.5 * 1.338566, abs=1e-5)


def test_switching_b_rule_and_c_changes_b_path_and_the_table(app):
    app.text_area(key="playouts").input(C_FLIPS_CHOICE).run()
    app.number_input(key="cmp_c").set_value(0.5).run()
    assert metrics(app)["Paths"] == "identical"

    # B: progressive bias with H(b) = 1 keeps a at the root but prefers ab (then abb) below it.
    app.selectbox(key="cmp_rule").select("progressive_bias").run()
    app.text_area(key="cmp_rule_progressive_bias_heuristic").input("b 1").run()
    assert not app.exception
    assert metrics(app)["Path A"] == "aa" and metrics(app)["Path B"] == "abb"
    assert metrics(app)["Paths"] == "split at a"
    table = split_table(app)
    assert table.move.tolist() == ["a", "b"]  # a's children aa and ab, best under A first
    assert "bias B" in table.columns and "bias A" not in table.columns
    assert "Only B has bias" in plain(" ".join(caption.value for caption in app.caption))

    # A larger C for B goes back to the root split: b at 5 beats a even with the bias.
    app.number_input(key="cmp_c").set_value(5.0).run()
    assert metrics(app)["Path B"] == "b" and metrics(app)["Paths"] == "split at root"
    assert split_table(app).move.tolist() == ["a", "b"]

    # A rule with other terms: the sample threshold draws below T = 10 visits (a, then aa).
    app.selectbox(key="cmp_rule").select("sample_threshold").run()
    assert not app.exception
    assert metrics(app)["Path B"] == "aa" and metrics(app)["Paths"] == "identical"
    set_c(app, 5.0)  # A now takes b
    assert metrics(app)["Path A"] == "b"
    table = split_table(app)
    assert {"probability B", "heuristic B", "exploration A", "mean", "Δ value"} <= set(table.columns)
    assert "draws a child at random" in app.warning[0].value


def test_identical_settings_say_identical(app):
    app.text_area(key="playouts").input(C_FLIPS_CHOICE).run()
    app.number_input(key="cmp_c").set_value(0.5).run()  # A's C
    assert metrics(app)["Path A"] == metrics(app)["Path B"] == solve(C_FLIPS_CHOICE) == "aa"
    assert metrics(app)["Paths"] == "identical"
    assert sentence(app)[0] == "success" and "Both settings select the same path" in sentence(app)[1]
    assert not app.dataframe


def test_b_preset_sets_b_rule_and_c_only(app):
    app.text_area(key="playouts").input(C_FLIPS_CHOICE).run()
    app.selectbox(key="cmp_rule_preset").select("AlphaZero PUCT (c = 1.25, min-max Q)").run()
    assert not app.exception
    assert app.selectbox(key="cmp_rule").value == "puct" and app.number_input(key="cmp_c").value == 1.25
    assert app.selectbox(key="rule").value == "ucb1" and c_slider(app).value == 0.5


def test_bad_input_shows_the_error_and_no_exception(app):
    app.text_area(key="playouts").input("3 0.1\nbaa 30\nab x\nbbb 4\n").run()
    assert not app.exception
    assert plain(app.error[0].value) == "Line 3: score must be a number, got 'x'"
    assert not metrics(app) and not app.dataframe
    app.text_area(key="playouts").input(C_FLIPS_CHOICE).run()
    assert not app.exception and metrics(app)["Path A"] == "aa"


def test_markup_in_moves_is_shown_not_interpreted(app):
    app.text_area(key="playouts").input("3 1\n<b> 1\n*_ 2\n\\N 3\n").run()
    app.number_input(key="cmp_c").set_value(0.0).run()
    assert not app.exception
    assert metrics(app)["Path A"] == "\\"  # text, never markup: the metric shows the move as typed
    assert sentence(app)[1] == "Both settings select the same path, \\. Change B's rule or C to see where they start to disagree."


def drawn_paths(app) -> set[tuple[str, ...]]:
    """The moves of every node the picture draws (its SVG, sent again by forgetting the page has it)."""
    app.session_state["_tree_view_sent"] = {}
    app.run()
    svg = tree_view_data(app, "cmp_tree_view")["svg"]
    return {tuple(json.loads(html.unescape(path))) for path in re.findall(r"<g [^>]*class=\"node\" [^>]*data-path='([^']*)'", svg)}


def prefixes(path: str) -> set[tuple[str, ...]]:
    return {tuple(path[:depth]) for depth in range(len(path) + 1)}


def test_a_path_b_s_slider_selects_with_another_rule_is_drawn_before_b_gets_there(app):
    app.text_area(key="playouts").input(C_FLIPS_CHOICE).run()
    # B: progressive bias with H(b) = 1 at C = 5 takes b; at C = 0.5, on B's slider, it takes abb.
    app.selectbox(key="cmp_rule").select("progressive_bias").run()
    app.text_area(key="cmp_rule_progressive_bias_heuristic").input("b 1").run()
    app.number_input(key="cmp_c").set_value(5.0).run()
    assert metrics(app)["Path B"] == "b"
    drawn = drawn_paths(app)
    assert prefixes("abb") <= drawn and ("a", "b", "a") in drawn  # abb and the choice it faced at ab
    layout = tree_view_data(app, "cmp_tree_view")["layout"]
    app.number_input(key="cmp_c").set_value(0.5).run()
    assert not app.exception and metrics(app)["Path B"] == "abb"
    assert tree_view_data(app, "cmp_tree_view")["layout"] == layout  # B's new C reuses the drawing


@pytest.mark.parametrize("around_paths", [True, False])
def test_every_path_either_slider_selects_is_drawn_at_every_c_in_one_layout_per_path_a(app, around_paths):
    """The drawing holds every path both sliders can select; it is laid out along A's path (straight),
    so only a new path A lays it out again, never B's C."""
    app.text_area(key="playouts").input(deep_tree()).run()
    if not around_paths:
        app.toggle(key="cmp_around_paths").set_value(False).run()
        app.number_input(key="cmp_budget").set_value(10).run()
    drawn = drawn_paths(app)
    layouts = {metrics(app)["Path A"]: tree_view_data(app, "cmp_tree_view")["layout"]}
    b_max, a_max = tree_view_data(app, "cmp_c_live")["max"], c_slider(app).max
    seen = set()
    for share in [i / 20 for i in range(21)]:
        app.number_input(key="cmp_c").set_value(b_max * share).run()
        set_c(app, a_max * share)
        assert not app.exception
        for name in ("Path A", "Path B"):
            assert prefixes(metrics(app)[name]) <= drawn, f"{name} at {share:.0%} of its slider"
            seen.add(metrics(app)[name])
        layout = tree_view_data(app, "cmp_tree_view")["layout"]
        assert layouts.setdefault(metrics(app)["Path A"], layout) == layout
    assert len(seen) >= 3, "the sliders must reach paths the first drawing did not need"
