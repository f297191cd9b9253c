"""AppTest of the Classroom page: predict the child UCB1 picks, reveal why, walk down to a leaf."""


from apptest_support import plain, tree_view_data
from bench.harness.apptest import set_c
from mcts_core import build_tree, parse_playouts, solve
from mcts_core.analysis import path_intervals
from mcts_core.inputs.examples import C_FLIPS_CHOICE, STATEMENT_EXAMPLE


PAGE = "pages/classroom.py"
INPUT = STATEMENT_EXAMPLE


def guess_buttons(app):
    return [button for button in app.button if button.key and button.key.startswith("class_guess_")]


def test_the_question_hides_the_terms_until_the_guess(app):
    assert "Which child does UCB1 pick at the root?" in app.markdown[0].value
    labels = [plain(button.label) for button in guess_buttons(app)]
    assert labels == ["**a** · 1 visit · mean 20", "**b** · 2 visits · mean 17"]  # move order, not rank
    assert not app.table and not app.success and not app.error
    assert len(app.latex) == 2  # the formula, with N.v and C only


def test_a_wrong_guess_reveals_the_table_and_the_deciding_term(app):
    app.button(key="class_guess_1").click().run()  # b
    assert not app.exception
    assert plain(app.error[0].value) == "Not this time: you picked ` b `, UCB1 picks ` a `."
    table = app.table[0].value
    assert list(table.columns) == ["move", "visits", "mean", "exploration", "UCB1"]
    assert table["move"].tolist() == ["` a ` ✔", "` b `"]  # best first, the pick ticked
    assert table["UCB1"].tolist() == ["20.105", "17.074"]
    assert any("**exploitation (the mean)** decided" in plain(block.value) for block in app.markdown)
    assert all(button.disabled for button in guess_buttons(app))
    assert app.session_state["class_score"] == (0, 1)
    assert len(app.latex) == 4  # plus one substituted line per child


def test_a_right_guess_then_next_node_reaches_the_leaf(app):
    app.button(key="class_guess_0").click().run()  # a
    assert not app.exception
    assert plain(app.success[0].value) == "Right: UCB1 picks ` a `."
    app.button(key="class_next").click().run()
    assert not app.exception
    assert app.session_state["class_path"] == "a"
    assert "is a leaf" in app.markdown[0].value
    assert plain(app.success[0].value) == "Selection stops here. The selected path is ` a `."
    assert not guess_buttons(app)
    assert app.session_state["class_score"] == (1, 1)


def test_restart_goes_back_to_the_root_and_clears_the_score(app):
    app.button(key="class_guess_1").click().run()
    app.button(key="class_next").click().run()
    app.button(key="class_restart").click().run()
    assert not app.exception
    assert app.session_state["class_path"] == "" and app.session_state["class_guess"] is None
    assert app.session_state["class_score"] == (0, 0)
    assert not any(button.disabled for button in guess_buttons(app))


def test_walking_a_deep_tree_follows_the_selected_path(app):
    app.selectbox(key="example").select("Deep tree (400 playouts)").run()
    selected = app.session_state["selected_path"]
    for depth, move in enumerate(selected):
        assert app.session_state["class_path"] == selected[:depth]
        app.button(key="class_guess_0").click().run()  # whatever the guess, the walk goes UCB1's way
        assert not app.exception
        assert any(f"UCB1 picks ` {move} `" in plain(alert.value) for alert in [*app.success, *app.error])
        app.button(key="class_next").click().run()
    assert app.session_state["class_path"] == selected
    assert "is a leaf" in app.markdown[0].value
    assert app.session_state["class_score"][1] == len(selected)


def test_a_new_c_starts_the_exercise_again(app):
    app.button(key="class_guess_0").click().run()
    app.button(key="class_next").click().run()
    set_c(app, 5.0)
    assert not app.exception
    assert app.session_state["class_path"] == "" and app.session_state["class_score"] == (0, 0)


def test_typing_an_exact_c_selects_the_path_at_that_c(app):
    app.text_area(key="playouts").input(C_FLIPS_CHOICE).run()
    seen = set()
    for c in (0.5, 2.7, 2.75, 4.0, 0.0):
        set_c(app, c)
        assert not app.exception
        assert app.session_state["c"] == c
        assert app.session_state["selected_path"] == solve(C_FLIPS_CHOICE, c=c), c
        seen.add(app.session_state["selected_path"])
    assert len(seen) == 2  # the values cross the flip at about C = 2.70


def test_presentation_view_opens_the_legend_and_keeps_c_in_reach(app):
    app.toggle(key="class_presentation").set_value(True).run()
    assert not app.exception
    expanders = {expander.label: expander.proto.expanded for expander in app.expander}
    assert expanders == {"Legend and formula": True, "How MCTS builds this tree": False}
    # The C control is on the page, not folded into an expander a drag would close.
    assert not any(expander.text_input or expander.get("bidi_component") for expander in app.expander)
    assert app.text_input(key="c_exact").value == "0.1"
    assert app.get("html")
    assert tree_view_data(app, "class_projector_tree_view")["label_px"] == 18  # the tree's labels grow with the text


def page_text(app) -> str:
    return "\n".join(element.value for element in [*app.markdown, *app.caption, *app.success, *app.error])


def test_at_rest_nothing_says_where_the_selected_path_changes(app):
    """Students guess: no sentence names a C where the path changes, nor that it changes."""
    app.text_area(key="playouts").input(C_FLIPS_CHOICE).run()
    flips = [interval.c_from for interval in path_intervals(build_tree(parse_playouts(C_FLIPS_CHOICE)), 0.0, 10.0)[1:]]
    assert flips, "the example's path changes with C"
    for presentation in (False, True):
        app.toggle(key="class_presentation").set_value(presentation).run()
        assert not app.exception
        text = page_text(app)
        assert "Which child does UCB1 pick at the root?" in text
        assert "path changes" not in text and "path is the same" not in text
        assert not any(f"{flip:.6g}" in text for flip in flips), text


def test_the_guessed_button_is_marked_after_the_guess(app):
    app.button(key="class_guess_1").click().run()  # b
    assert not app.exception
    marked = [plain(button.label) for button in guess_buttons(app) if button.label.startswith("Your guess")]
    assert marked == ["Your guess: **b** · 2 visits · mean 17"]


def test_the_explainer_tells_the_first_playouts_with_their_numbers(app):
    story = next(block.value for block in app.markdown if "Playout 1" in block.value)
    assert "Playout 1 ` baa 30 ` created node ` b ` with 1 visit and mean 30" in story
    assert "Playout 3 ` bbb 4 ` walked through ` b ` and created node ` bb `" in story
    assert "The root now has 3 visits, mean 18." in story


def test_markup_in_moves_is_shown_not_interpreted(app):
    app.text_area(key="playouts").input("2 1\n*_ 1\n<b> 2\n").run()
    assert not app.exception
    labels = [button.label for button in guess_buttons(app)]
    assert labels == ["**\\*** · 1 visit · mean 1", "**\\<** · 1 visit · mean 2"]  # escaped, by move


def test_bad_input_shows_the_error_and_no_exception(app):
    app.text_area(key="playouts").input("3 0.1\nbaa 30\nab x\nbbb 4\n").run()
    assert not app.exception
    assert plain(app.error[0].value) == "Line 3: score must be a number, got 'x'"
    assert not guess_buttons(app)


def test_a_node_with_more_children_than_buttons_is_guessed_from_a_menu_and_the_reveal_stays_short(app):
    # 30 children (a joint node of a simultaneous game has thousands): one menu, not 30 buttons.
    moves = [f"m{index:02d}" for index in range(30)]
    text = "\n".join(f'{{"path": ["{move}"], "score": {index % 7}}}' for index, move in enumerate(moves))
    app.text_area(key="playouts").input('{"mcts_log": 1}\n' + text + "\n").run()
    assert not app.exception and not guess_buttons(app)
    menu = app.selectbox(key="class_guess_menu")
    assert menu.options == [f"{move} · 1 visit · mean {index % 7}" for index, move in enumerate(moves)]
    menu.select("m00").run()  # a mean of 0: far from the best
    assert not app.exception
    assert plain(app.error[0].value).startswith("Not this time: you picked ` m00 `")
    shown = app.table[0].value["move"].tolist()
    assert len(shown) == 11 and shown[-1] == "` m00 `"  # the best 10, then the guess
    assert any("The best 10 of 30 children and your guess" in plain(caption.value) for caption in app.caption)
    app.button(key="class_restart").click().run()
    assert app.selectbox(key="class_guess_menu").value is None and not app.table
