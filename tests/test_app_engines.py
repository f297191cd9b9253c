"""AppTest: real engines' logs and tree dumps in the app (named moves, two players, facts)."""

import json

from apptest_support import c_slider, children_frame, open_limits, plain, tree_view_data
from bench.harness.apptest import set_c
from mcts_core.adapters.openspiel import log_search

GAME_LOG = "\n".join(
    [
        '{"mcts_log": 1, "players": 2, "ties": "first", "c": 1.4}',
        '{"node": [], "player": 0, "children": ["e4", "d4", "Nf3"], "priors": {"e4": 0.5, "d4": 0.3, "Nf3": 0.2}}',
        '{"path": [], "score": 0}',
        '{"path": ["e4"], "score": 1}',
        '{"path": ["d4"], "score": -1}',
        '{"path": ["e4", "e5"], "score": 1}',
        '{"path": ["e4", "c5"], "score": -1}',
    ]
) + "\n"


def table_of(app):
    return children_frame(app)


def test_a_json_log_in_the_text_box_shows_named_moves_and_whose_view(app):
    app.text_area(key="playouts").input(GAME_LOG).run()
    assert not app.exception
    # Nf3 is unvisited: UCB1 tries it first (+infinity), in the engine's order.
    assert app.session_state["selected_path"] == "Nf3"
    assert c_slider(app).value == 1.4
    table = table_of(app)
    assert table["move"].tolist()[0] == "Nf3" and table.loc[0, "visits"] == 0
    assert "declared prior" in table.columns
    app.text_input(key="inspect").input("e4").run()
    assert not app.exception
    sentence = next(m.value for m in app.markdown if m.value.startswith("Node "))
    assert "player 1 to move" in plain(sentence) and "mean for player 0" in plain(sentence)
    # At e4 player 1 moves: c5 (player 0's -1) is better for player 1 than e5 (+1).
    set_c(app, 0.0)
    assert table_of(app)["move"].tolist() == ["c5", "e5"]


def test_unvisited_children_are_drawn_only_on_request(app):
    declared_below = GAME_LOG.replace('"c": 1.4', '"c": 0') + (
        '{"path": ["Nf3"], "score": 0}\n{"node": ["d4"], "children": ["d5", "Nf6"]}\n'
    )
    app.text_area(key="playouts").input(declared_below).run()
    assert app.session_state["selected_path"] == "e4 c5"
    svg = tree_view_data(app)["svg"]  # a new input: a new layout, sent to the page
    assert "+2 unvisited" in svg and "Nf6" not in svg
    open_limits(app).toggle(key="show_unvisited").set_value(True).run()
    assert not app.exception
    svg = tree_view_data(app)["svg"]  # more nodes drawn: a new layout
    assert "Nf6" in svg and "unvisited" not in svg


def test_a_tree_dump_opens_on_every_page_and_playback_says_why_it_cannot_replay(app):
    dump = {"mcts_tree": 1, "players": 2, "ties": "first", "c": 0.5, "root": {"move": None, "visits": 4, "total": 1, "children": [
        {"move": "x", "visits": 3, "total": 2.0, "children": [{"move": "y", "visits": 2, "total": -1.0}]},
        {"move": "z", "visits": 1, "total": 0.5},
    ]}}
    app.text_area(key="playouts").input(json.dumps(dump, indent=2)).run()
    assert not app.exception and app.session_state["selected_path"]
    for page in ("pages/sweep.py", "pages/compare.py", "pages/classroom.py", "pages/playback.py"):
        app.switch_page(page).run()
        assert not app.exception, page
    assert "no simulations to replay" in app.info[0].value


def test_a_bad_log_line_is_reported_with_its_key_and_the_text_is_kept(app):
    bad = GAME_LOG.replace('"score": -1}', '"score": "lots"}', 1)
    app.text_area(key="playouts").input(bad).run()
    assert not app.exception
    message = plain(app.error[0].value)
    assert message.startswith("Line 5") and 'key "score": expected a number' in message
    assert app.text_area(key="playouts").value == bad


def test_a_real_openspiel_search_opens_with_the_engines_rule_and_c(app):
    lines, root = log_search("tic_tac_toe", simulations=120, uct_c=2.0, seed=3, puct=True)
    app.text_area(key="playouts").input("\n".join(lines)).run()
    assert not app.exception
    assert app.selectbox(key="rule").value == "puct" and c_slider(app).value == 2.0
    for page in ("pages/sweep.py", "pages/compare.py", "pages/playback.py", "pages/classroom.py"):
        app.switch_page(page).run()
        assert not app.exception, page


def tree_facts_line(app) -> str:
    lines = (plain(caption.value).replace("**", "") for caption in app.caption)
    return next(line for line in lines if line.startswith("The tree of "))


def test_the_first_line_says_what_its_numbers_count_for_logs_and_dumps(app):
    # A log: simulations; its declared children with no visit apart from the visited nodes.
    app.text_area(key="playouts").input(GAME_LOG).run()
    assert tree_facts_line(app).startswith("The tree of 5 simulations, 5 visited nodes and 1 declared child not visited yet,")
    # A dump records no playouts: the root's visits say how big the search was.
    dump = {"mcts_tree": 1, "players": 2, "root": {"move": None, "visits": 4, "total": 1, "children": [
        {"move": "x", "visits": 4, "total": 2.0, "children": [{"move": "y", "visits": 0, "total": 0}]}]}}
    app.text_area(key="playouts").input(json.dumps(dump)).run()
    assert tree_facts_line(app).startswith(
        "The tree of a finished search (a tree dump: the root has 4 visits), 2 visited nodes and 1 declared child")
    # Puzzle text: playouts and nodes, as before (every node has a visit).
    app.text_area(key="playouts").input("ab 1\nb 2\n").run()
    assert tree_facts_line(app).startswith("The tree of 2 playouts, 3 nodes, depth 1,")
