"""AppTest of the Explorer page: paste, move C, inspect; errors never become tracebacks."""


import json

from mcts_core import Scoring, selected_nodes, solve, ucb1
from mcts_core.drawing import path_json
from mcts_core.inputs import read_input
from mcts_core.inputs.examples import C_FLIPS_CHOICE, EXAMPLES, deep_tree
from apptest_support import c_slider, children_cells, children_frame, metrics, open_limits, plain, tree_view_data
from bench.harness.apptest import set_c

HEADERLESS_FLIP = "a 10\nb 8\naa 10\nab 10\naba 10\nabb 10\n"




def path_changes(app) -> str:
    """The sidebar's sentence on where the selected path changes with C."""
    return next(caption.value for caption in app.caption if "selected path" in caption.value)


def test_opens_on_the_statement_example_with_its_answer(app):
    assert app.session_state["selected_path"] == "a"
    assert app.session_state["c"] == 0.1
    assert metrics(app) == {"Selected path": "a"}  # the tree's facts are in the page's caption: C never changes them
    assert "The tree of **3** playouts, **4** nodes, depth **2**, root mean **18.000**," in app.caption[0].value


def test_selected_path_follows_the_slider_for_every_c(app):
    app.text_area(key="playouts").input(HEADERLESS_FLIP).run()
    # Fitted to where the path changes: the flip at C = 2.70, times 1.5, rounded up to 5 (three
    # score spreads would give 10).
    assert c_slider(app).max == 5.0
    seen = set()
    for c in [0.0, 0.5, 1.0, 2.0, 2.5, 2.7, 2.8, 3.0, 4.0, 5.0]:
        set_c(app, c)
        assert not app.exception
        expected = solve(HEADERLESS_FLIP, c=c)
        assert app.session_state["selected_path"] == expected, c
        assert metrics(app)["Selected path"] == expected
        seen.add(expected[0])
    assert seen == {"a", "b"}  # the range really crosses the flip


def test_table_shows_the_terms_at_the_current_c(app):
    set_c(app, 12.5)
    table = children_frame(app)
    assert list(table.columns) == ["move", "visits", "value", "total", "mean", "exploration", "visits to flip", "rank",
                                   "selected"]
    rows = {row.move: row for row in table.itertuples()}
    assert rows["b"].value == ucb1(3, 2, 34.0, c=12.5)["value"]
    assert rows["a"].exploration == ucb1(3, 1, 20.0, c=12.5)["exploration"]
    assert table[table.selected].move.tolist() == ["a"]


def test_a_whole_header_c_reads_the_same_in_the_exact_box_as_on_the_slider(app):
    # The box said "5.0" beside a slider saying "5" (issue 51).
    app.text_area(key="playouts").input("3 5\nbaa 30\nab 20\nbbb 4\n").run()
    assert c_slider(app).value == 5.0
    assert app.text_input(key="c_exact").value == "5"


def test_header_c_sets_the_slider_then_the_slider_rules(app):
    app.text_area(key="playouts").input(C_FLIPS_CHOICE).run()
    assert c_slider(app).value == 0.5
    assert app.session_state["selected_path"] == "aa"
    set_c(app, 4.0)
    app.run()  # an unrelated rerun keeps the user's C
    assert app.session_state["c"] == 4.0 and app.session_state["selected_path"] == "b"
    assert app.text_input(key="c_exact").value == "4.0"  # what the user typed stays


def test_typing_an_exact_c_moves_the_slider(app):
    app.text_area(key="playouts").input(HEADERLESS_FLIP).run()
    app.text_input(key="c_exact").input("2.7027").run()
    assert c_slider(app).value == 2.7027
    assert app.session_state["selected_path"] == solve(HEADERLESS_FLIP, c=2.7027)
    app.text_input(key="c_exact").input("-3").run()
    assert not app.exception
    assert "C must be a finite number >= 0" in plain(app.error[0].value)
    assert app.session_state["c"] == 2.7027


def test_a_c_beyond_the_slider_range_extends_it(app):
    app.text_input(key="c_exact").input("2500").run()
    assert not app.exception
    assert c_slider(app).value == 2500.0 and c_slider(app).max >= 2500


def test_bad_input_shows_the_line_and_keeps_the_text(app):
    bad = "3 0.1\nbaa 30\nab x\nbbb 4\n"
    app.text_area(key="playouts").input(bad).run()
    assert not app.exception
    assert plain(app.error[0].value) == "Line 3: score must be a number, got 'x'"
    assert app.text_area(key="playouts").value == bad
    assert app.session_state["selected_path"] is None
    app.text_area(key="playouts").input(bad.replace(" x", " 20")).run()
    assert not app.error and app.session_state["selected_path"] == "a"


def test_every_preset_loads_and_selects(app):
    for name, text in EXAMPLES.items():
        app.selectbox(key="example").select(name).run()
        assert not app.exception, name
        assert app.text_area(key="playouts").value == text
        assert app.session_state["selected_path"] == solve(text), name


def test_inspect_steps_into_the_selected_child_and_reports_bad_paths(app):
    app.selectbox(key="example").select("Deep tree (400 playouts)").run()
    path = app.session_state["selected_path"]
    for depth in range(1, 4):
        app.button(key="inspect_step_in").click().run()  # into the selected child
        assert app.session_state["inspect"] == path[:depth]
        assert children_frame(app)[lambda t: t.selected].move.tolist() == [path[depth]]
    app.text_input(key="inspect").input("azz").run()
    assert not app.exception
    assert "no move 'z' after 'a'" in plain(app.error[0].value)
    assert app.text_input(key="inspect").value == "azz"


def test_markup_in_moves_is_shown_not_interpreted(app):
    app.text_area(key="playouts").input("3 1\n<b> 1\n*_ 2\n\\N 3\n").run()
    assert not app.exception
    assert app.session_state["selected_path"] == "\\"
    assert metrics(app)["Selected path"] == "\\"  # text, never markup: the metric shows one literal backslash


def test_the_page_says_where_the_path_changes_near_the_current_c(app):
    app.text_area(key="playouts").input(HEADERLESS_FLIP).run()
    set_c(app, 1.0)
    assert plain(path_changes(app)) == "The selected path changes: from C = 2.70292 it becomes ` b `."
    set_c(app, 5.0)
    assert plain(path_changes(app)) == "The selected path changes: below C = 2.70292 it is ` aa `."
    app.text_area(key="playouts").input("a 1\nb 2\n").run()
    assert "the same for every C" in path_changes(app)


def test_a_new_input_with_another_slider_range_keeps_the_current_c(app):
    assert app.session_state["c"] == 0.1 and c_slider(app).max == 100.0
    app.text_area(key="playouts").input(HEADERLESS_FLIP).run()  # no header: C stays; range 0..5
    assert c_slider(app).max == 5.0
    assert app.session_state["c"] == 0.1 and app.text_input(key="c_exact").value == "0.1"
    assert app.session_state["selected_path"] == solve(HEADERLESS_FLIP, c=0.1)


ENGINE_LOG = "\n".join(json.dumps(record) for record in [
    {"mcts_log": 1, "players": 2, "ties": "first", "c": 1.4},
    {"node": [], "children": ["e2e4", "d2d4", "c2c4"], "priors": {"e2e4": 0.5, "d2d4": 0.3, "c2c4": 0.2}},
    {"path": ["e2e4"], "score": 0.6}, {"path": ["d2d4"], "score": 0.5}, {"path": ["c2c4"], "score": 0.3},
    {"path": ["e2e4", "e7e5"], "score": 0.5}, {"path": ["e2e4", "c7c5"], "score": 0.7},
    {"path": ["e2e4", "e7e5", "g1f3"], "score": 0.6}, {"path": ["e2e4", "e7e5", "g1f3", "b8c6"], "score": 0.5},
]) + "\n"  # fmt: skip
OUTLINE_TAB = "Outline (any size)"


def pv_words(app) -> list[str]:
    return [plain(m.value) for m in app.markdown if "principal variation" in m.value]


def test_the_most_visited_line_is_marked_for_an_engine_log_and_not_for_puzzle_text(app):
    assert app.toggle(key="show_pv").value is False  # the statement example: puzzle text
    assert tree_view_data(app)["pv"] is None and pv_words(app) == []
    app.text_area(key="playouts").input(ENGINE_LOG).run()
    assert not app.exception
    assert app.toggle(key="show_pv").value is True
    assert tree_view_data(app)["pv"] == [[], ["e2e4"], ["e2e4", "e7e5"], ["e2e4", "e7e5", "g1f3"], ["e2e4", "e7e5", "g1f3", "b8c6"]]
    (words,) = pv_words(app)
    assert "e2e4 e7e5 g1f3 b8c6" in words
    assert not app.session_state["selected_path"].startswith("e2e4")
    assert "leaves the selected path at the root" in words
    app.toggle(key="show_pv").set_value(False).run()
    assert not app.exception
    assert tree_view_data(app)["pv"] is None and pv_words(app) == []


def test_the_children_table_headers_are_short_and_the_value_comes_third(app):
    app.text_area(key="playouts").input(ENGINE_LOG).run()
    columns = {column["name"]: column for column in tree_view_data(app, "children_table")["columns"]}
    assert columns["mean"]["label"] == "mean (P0)" and columns["declared prior"]["label"] == "prior"
    assert list(columns)[:3] == ["move", "visits", "value"]


def outline(app) -> dict:
    """What the outline got this run: its children lists by parent path (JSON) and the open nodes."""
    return tree_view_data(app, "outline_view")


def test_the_outline_opens_along_the_selected_path_and_jumps_to_a_typed_line(app):
    app.text_area(key="playouts").input(ENGINE_LOG).run()
    app.session_state["details_tab"] = OUTLINE_TAB
    set_c(app, 0.0)
    assert not app.exception
    tree = read_input(ENGINE_LOG).tree
    path = selected_nodes(tree, Scoring(c=0.0))
    assert len(path) >= 3
    data = outline(app)
    for node in path[:-1]:  # every node on the path is open with its children listed
        key = path_json(tree.path_moves(node))
        assert key in data["open"]
        assert [row["move"] for row in data["lists"][key]] == [tree.move[kid] for kid in tree.ranked_children(node)]
    app.text_input(key="outline_jump").input("e2e4 e7e5 g1f3").run()
    assert not app.exception
    assert app.text_input(key="inspect").value == "e2e4 e7e5 g1f3"
    data = outline(app)
    assert data["inspected"] == '["e2e4","e7e5","g1f3"]' and data["inspected"] in data["open"]
    assert [row["move"] for row in data["lists"][data["inspected"]]] == ["b8c6"]
    app.text_input(key="outline_jump").input("e2e4 h7h5").run()
    assert not app.exception
    assert "h7h5" in plain(app.error[0].value) and app.text_input(key="outline_jump").value == "e2e4 h7h5"
    assert app.text_input(key="inspect").value == "e2e4 e7e5 g1f3"  # a bad jump moves nothing


def test_totals_show_enough_digits_to_read_them_whole(app):
    app.text_area(key="playouts").input("a 76095.4\nb 3.25\n").run()
    assert not app.exception
    total = list(children_frame(app).columns).index("total")
    assert sorted(row[total] for row in children_cells(app)) == ["3.2", "76095.4"]  # not 7.61e+04 or 76100


def test_the_drawing_limits_hold_while_their_panel_is_closed(app):
    app.text_area(key="playouts").input(deep_tree()).run()
    drawn = tree_view_data(app)["svg"].count("data-path=")  # at the default budget, 300
    open_limits(app).number_input(key="budget").set_value(20).run()
    small = tree_view_data(app)
    assert small["svg"].count("data-path=") < drawn / 2
    app.session_state["limits_open"] = False
    set_c(app, 3.0)  # a commit of C with the panel closed: its widgets are not drawn
    assert not app.exception and not app.number_input
    assert tree_view_data(app)["layout"] == small["layout"]  # still drawn at budget 20
    assert open_limits(app).number_input(key="budget").value == 20


def test_the_children_table_counts_the_visits_until_each_child_passes_the_selected_one(app):
    from mcts_core import ROOT
    from mcts_core.analysis import visits_to_flip

    app.text_area(key="playouts").input(HEADERLESS_FLIP).run()
    tree = read_input(HEADERLESS_FLIP).tree
    for c in (1.0, 2.0, 4.0):
        set_c(app, c)
        assert not app.exception
        frame = children_frame(app).set_index("move")
        flips = {tree.move[kid]: count for kid, count in visits_to_flip(tree, ROOT, Scoring(c=c)).items()}
        selected = frame.index[frame["selected"]][0]
        assert selected not in flips and frame.at[selected, "visits to flip"] != frame.at[selected, "visits to flip"]
        assert {move: frame.at[move, "visits to flip"] for move in flips} == \
            {move: float("inf") if count is None else count for move, count in flips.items()}
        passing = min(flips, key=lambda move: float("inf") if flips[move] is None else flips[move])
        words = [caption.value for caption in app.caption if "more visit" in caption.value or "passes" in caption.value]
        if flips[passing] is None:
            assert words == [f"No other child passes ` {selected} `, however many more visits it takes (up to 2^53), "
                             "every mean and prior held."]
        else:
            visits = "1 more visit" if flips[passing] == 1 else f"{flips[passing]:,} more visits"
            assert words == [f"` {passing} ` is next after {visits} to ` {selected} `, every mean and prior held."]
