"""AppTest of the C control: what the live slider is sent, and what C commits."""

from apptest_support import tree_view_data
from bench.harness.apptest import set_c
from mcts_core import ROOT, Scoring, build_tree, parse_playouts, solve
from mcts_core.analysis import child_lines, nice_ceiling, path_intervals
from mcts_core.inputs.examples import C_FLIPS_CHOICE


def test_the_live_slider_is_sent_where_the_path_changes_over_its_range(app):
    app.text_area(key="playouts").input(C_FLIPS_CHOICE).run()
    data = tree_view_data(app, "c_live")
    tree = build_tree(parse_playouts(C_FLIPS_CHOICE))
    expected = [[part.c_from, part.c_to, list(part.moves)] for part in path_intervals(tree, 0.0, data["max"])]
    assert data["intervals"] == expected and len(expected) >= 2
    assert data["c"] == 0.5 and data["label"] == "exploration constant C"
    assert not [slider for slider in app.slider if slider.key == "c"]  # no second, server-side slider
    set_c(app, 4.0)
    assert tree_view_data(app, "c_live")["c"] == 4.0 and app.session_state["selected_path"] == solve(C_FLIPS_CHOICE, c=4.0)


def test_a_typing_error_goes_once_c_is_set_another_way_and_not_before(app):
    app.text_input(key="c_exact").input("1,5").run()
    assert [error.value for error in app.error] and app.text_input(key="c_exact").value == "1,5"  # kept, said
    app.text_area(key="playouts").input(C_FLIPS_CHOICE).run()
    assert [error.value for error in app.error]  # another edit does not hide it
    app.selectbox(key="rule_preset").select("AlphaZero PUCT (c = 1.25, min-max Q)").run()
    assert not app.exception and not app.error
    assert app.text_input(key="c_exact").value == "1.25" and app.session_state["c"] == 1.25


def test_the_value_lines_go_to_the_page_once_per_drawing_and_rule(app):
    app.text_area(key="playouts").input(C_FLIPS_CHOICE).run()
    first = tree_view_data(app)
    tree = build_tree(parse_playouts(C_FLIPS_CHOICE))
    b = next(line for line in child_lines(tree, ROOT, Scoring(c=1.0)) if line.move == "b")
    assert first["lines"]['["b"]'] == [b.intercept, b.slope] and b.slope > 0
    set_c(app, 4.0)
    committed = tree_view_data(app)
    # The page holds the lines (drags follow them); only the values at the new C come again.
    assert "lines" not in committed and committed["lines_id"] == first["lines_id"]
    assert committed["values"]['["b"]'] != first["values"]['["b"]']
    app.selectbox(key="rule").select("ucb1_tuned").run()
    tuned = tree_view_data(app)
    assert tuned["lines_id"] != first["lines_id"] and set(tuned["lines"]) == set(first["lines"])


def test_every_rule_sizes_the_slider_to_its_own_breakpoints_and_says_where_its_path_changes(app):
    # Only UCB1 did: under PUCT the slider kept the scores' range and said nothing.
    tree = build_tree(parse_playouts(C_FLIPS_CHOICE))
    for rule, flip in (("ucb1", 2.702917488375908), ("puct", 4.898979485566359)):
        app.text_area(key="playouts").input(C_FLIPS_CHOICE).run()
        app.selectbox(key="rule").select(rule).run()
        assert not app.exception
        slider = tree_view_data(app, "c_live")
        assert slider["max"] == nice_ceiling(1.5 * flip)  # the last breakpoint and some room
        swept = path_intervals(tree, 0.0, slider["max"], Scoring.of(rule))
        assert slider["intervals"] == [[part.c_from, part.c_to, list(part.moves)] for part in swept]
        assert swept[1].c_from == flip
        changes = [caption.value for caption in app.caption if caption.value.startswith("The selected path changes")]
        assert changes == [f"The selected path changes: from C = {flip:.6g} it becomes ` b `."], rule
