"""AppTest of the Explorer page: paste, move C, inspect; errors never become tracebacks."""


from mcts_core import solve, ucb1
from mcts_core.inputs.examples import C_FLIPS_CHOICE, EXAMPLES
from apptest_support import plain, c_slider, set_c

HEADERLESS_FLIP = "a 10\nb 8\naa 10\nab 10\naba 10\nabb 10\n"




def path_changes(app) -> str:
    """The sidebar's sentence on where the selected path changes with C."""
    return next(caption.value for caption in app.caption if "selected path" in caption.value)


def test_opens_on_the_statement_example_with_its_answer(app):
    assert app.session_state["selected_path"] == "a"
    assert app.session_state["c"] == 0.1
    assert app.metric[0].value == "a"
    assert [m.value for m in app.metric[1:]] == ["3", "4", "2", "18.000"]


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
        assert app.metric[0].value == expected
        seen.add(expected[0])
    assert seen == {"a", "b"}  # the range really crosses the flip


def test_table_shows_the_terms_at_the_current_c(app):
    set_c(app, 12.5)
    table = app.dataframe[0].value
    assert list(table.columns) == ["move", "visits", "total", "mean", "exploration", "value", "rank", "selected"]
    rows = {row.move: row for row in table.itertuples()}
    assert rows["b"].value == ucb1(3, 2, 34.0, c=12.5)["value"]
    assert rows["a"].exploration == ucb1(3, 1, 20.0, c=12.5)["exploration"]
    assert table[table.selected].move.tolist() == ["a"]


def test_header_c_sets_the_slider_then_the_slider_rules(app):
    app.text_area(key="playouts").input(C_FLIPS_CHOICE).run()
    assert c_slider(app).value == 0.5
    assert app.session_state["selected_path"] == "aa"
    set_c(app, 4.0)
    app.run()  # an unrelated rerun keeps the user's C
    assert app.session_state["c"] == 4.0 and app.session_state["selected_path"] == "b"
    assert app.text_input(key="c_exact").value == "4.0"


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
        assert app.dataframe[0].value[lambda t: t.selected].move.tolist() == [path[depth]]
    app.text_input(key="inspect").input("azz").run()
    assert not app.exception
    assert "no move 'z' after 'a'" in plain(app.error[0].value)
    assert app.text_input(key="inspect").value == "azz"


def test_markup_in_moves_is_shown_not_interpreted(app):
    app.text_area(key="playouts").input("3 1\n<b> 1\n*_ 2\n\\N 3\n").run()
    assert not app.exception
    assert app.session_state["selected_path"] == "\\"
    assert app.metric[0].value == "\\\\"  # escaped: the metric shows one literal backslash


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
