"""AppTest of the Playback page: step through the playouts, play to the end, bad input."""


import pytest

from apptest_support import live_text, metrics, plain
from mcts_core.inputs.examples import STATEMENT_EXAMPLE


PAGE = "pages/playback.py"
INPUT = STATEMENT_EXAMPLE


def shown(app):
    """(playout, word, score, created node) as the metrics show them."""
    return tuple(plain(metric.value) for metric in app.metric)


def button_data(app, key: str) -> dict:
    """What Previous or Next got from the server: label, step, value (k), low, high, applied (clicks)."""
    from apptest_support import tree_view_data

    return tree_view_data(app, key)


def stepped(data: dict) -> int:
    return min(max(data["value"] + data["step"], data["low"]), data["high"])


def can_click(app, key: str) -> bool:
    data = button_data(app, key)
    return stepped(data) != data["value"]


def click(app, key: str):
    """Click Previous or Next as the browser does: send the value the click leads to, numbered."""
    data = button_data(app, key)
    app.session_state[key] = {"target": {"value": stepped(data), "click": data["applied"] + 1}}
    return app.run()


def path_table(app):
    """The before/after table as (node, visits before, visits after, mean before, mean after) rows."""
    table = app.dataframe[0].value
    assert list(table.columns) == ["node", "visits before", "visits after", "mean before", "mean after"]
    # "mean before" is text: "–" for no visit before (never "None"), else the mean to 3 decimals.
    return [(*row[:3], None if row[3] == "–" else float(row[3]), row[4]) for row in table.itertuples(index=False)]


def test_next_steps_from_the_first_to_the_last_playout(app):
    assert app.slider(key="playback_k").value == 1
    assert shown(app) == ("1 / 3", "baa", "30", "b")
    assert path_table(app) == [("(root)", 0, 1, None, 30.0), ("b", 0, 1, None, 30.0)]
    assert not can_click(app, "playback_prev")

    click(app, "playback_next")
    assert not app.exception
    assert shown(app) == ("2 / 3", "ab", "20", "a")
    assert path_table(app) == [("(root)", 1, 2, 30.0, 25.0), ("a", 0, 1, None, 20.0)]

    click(app, "playback_next")
    assert not app.exception
    assert shown(app) == ("3 / 3", "bbb", "4", "bb")
    assert path_table(app) == [("(root)", 2, 3, 25.0, 18.0), ("b", 1, 2, 30.0, 17.0), ("bb", 0, 1, None, 4.0)]
    assert not can_click(app, "playback_next")
    assert "created node ` bb `" in app.markdown[0].value


def test_the_slider_jumps_and_previous_goes_back(app):
    app.slider(key="playback_k").set_value(3).run()
    assert shown(app)[0] == "3 / 3"
    click(app, "playback_prev")
    assert not app.exception
    assert shown(app)[:2] == ("2 / 3", "ab")


def test_a_playout_whose_word_exists_says_no_new_node(app):
    app.text_area(key="playouts").input("a 1\nab 2\nab 4\n").run()
    app.slider(key="playback_k").set_value(3).run()
    assert not app.exception
    assert shown(app)[3] == "none"
    assert "No new node" in app.markdown[0].value and "existed" in app.markdown[0].value


def test_the_newest_click_carries_the_clicks_folded_into_it_and_an_old_one_is_ignored(app):
    app.selectbox(key="example").select("Deep tree (400 playouts)").run()
    app.number_input(key="playback_stride").set_value(1).run()
    # Three clicks on Next whose runs the server folded into one: the third's value is k after all three.
    app.session_state["playback_next"] = {"target": {"value": 4, "click": 3}}
    app.run()
    assert shown(app)[0] == "4 / 400"
    assert button_data(app, "playback_next")["applied"] == 3
    app.session_state["playback_prev"] = {"target": {"value": 2, "click": 2}}  # an old click, already counted
    app.run()
    assert shown(app)[0] == "4 / 400"
    click(app, "playback_prev")
    assert shown(app)[0] == "3 / 400"


def test_play_advances_every_tick_and_stops_at_the_end(app):
    app.button(key="playback_play").click().run()  # the run that starts playing shows the next step
    assert not app.exception
    assert app.session_state["playback_playing"] and shown(app)[0] == "2 / 3"
    assert app.button(key="playback_play").label == "Pause"
    app.run()  # a tick
    assert not app.exception
    assert shown(app)[0] == "3 / 3"
    assert not app.session_state["playback_playing"]
    assert app.button(key="playback_play").label == "Play"
    app.button(key="playback_play").click().run()  # at the end, play starts again from the start
    assert shown(app)[0] == "2 / 3"
    app.button(key="playback_play").click().run()  # pause
    assert not app.session_state["playback_playing"] and shown(app)[0] == "2 / 3"


def test_playouts_per_step_moves_further(app):
    app.selectbox(key="example").select("Deep tree (400 playouts)").run()
    app.number_input(key="playback_stride").set_value(50).run()
    click(app, "playback_next")
    assert not app.exception
    assert shown(app)[0] == "51 / 400"


def race_charts(app) -> list:
    """The race's charts (their x is k), not the search over time's (the node's visits)."""
    import json

    return [chart for chart in app.get("vega_lite_chart") if json.loads(chart.proto.spec)["layer"][0]["encoding"]["x"]["field"] == "k"]


def test_race_chart_and_a_shorter_input_keep_k_in_range(app):
    app.slider(key="playback_k").set_value(3).run()
    assert len(race_charts(app)) == 2
    app.text_area(key="playouts").input("x 5\ny 7\n").run()
    assert not app.exception
    assert shown(app) == ("2 / 2", "y", "7", "y")


def test_a_single_playout_needs_no_slider(app):
    app.text_area(key="playouts").input("a 1\n").run()
    assert not app.exception
    assert shown(app) == ("1 / 1", "a", "1", "a")
    assert app.button(key="playback_play").disabled


def test_markup_in_moves_is_shown_not_interpreted(app):
    app.text_area(key="playouts").input("*_ 1\n").run()
    assert not app.exception
    assert app.metric[1].value == "\\*\\_"


def test_bad_input_shows_the_error_and_no_exception(app):
    app.text_area(key="playouts").input("3 0.1\nbaa 30\nab x\nbbb 4\n").run()
    assert not app.exception
    assert plain(app.error[0].value) == "Line 3: score must be a number, got 'x'"
    assert not app.metric


def chart_layers(chart) -> list[tuple[dict, object]]:
    """Each layer of an Altair chart as (its spec, its data as a DataFrame)."""
    import json

    import pyarrow as pa

    data = {d.name: pa.ipc.open_stream(d.data.data).read_all().to_pandas() for d in chart.proto.datasets}
    return [(layer, data[layer["data"]["name"]]) for layer in json.loads(chart.proto.spec)["layer"]]


def test_the_race_charts_mark_the_current_k_and_follow_it(app):
    for _ in range(2):
        click(app, "playback_next")
    assert app.slider(key="playback_k").value == 3
    charts = race_charts(app)
    assert len(charts) == 2  # visit share and mean
    for chart in charts:
        (lines, race), (rule, now) = chart_layers(chart)
        assert rule["mark"]["type"] == "rule" and list(now["k"]) == [3]
        assert set(race["move"]) == {"a", "b"}  # the root's children in the statement example
        palette = lines["encoding"]["color"]["scale"]["range"]
        assert rule["mark"]["color"] not in palette  # red means "now", never a move


def test_the_race_charts_label_the_playout_axis_with_whole_numbers(app):
    import json

    charts = [json.loads(chart.proto.spec) for chart in race_charts(app)]
    assert len(charts) == 2
    for spec in charts:
        axis = spec["layer"][0]["encoding"]["x"]["axis"]
        assert axis["tickMinStep"] == 1 and axis["format"] == ",d"  # 3 playouts: ticks 1, 2, 3, never 1.5


# The path the rule selects at C, drawn teal in the frame's tree (the toggle, off by default).

def metric(app, label: str) -> str | None:
    value = metrics(app).get(label)
    return None if value is None else plain(value)


def rule_path_shown(app) -> str:
    """The teal path as the page names it (the metric, which the caption points to) and draws it (the
    picture's second path)."""
    from apptest_support import tree_view_data

    named = metric(app, "Path at C")
    caption = live_text(app, "playback_rule_path_caption")
    assert caption.startswith("Teal, dashed: the path the sidebar's rule") and "(Path at C, above)" in caption
    drawn = tree_view_data(app, "playback_tree_view")["second"]
    assert drawn == [list(named[:depth]) for depth in range(len(named) + 1)]  # root first, one-letter moves
    return named


def core_path(text: str, k: int, c: float) -> str:
    from mcts_core import Scoring, build_tree, parse_playouts, select_path

    return select_path(build_tree(parse_playouts(text), upto=k), Scoring(c=c))


def test_the_rule_s_path_is_off_by_default_and_the_picture_keeps_the_playout_s_path(app):
    from apptest_support import tree_view_data

    assert app.toggle(key="playback_rule_path").value is False
    assert metric(app, "Path at C") is None
    assert not [box for box in app.text_input if box.key == "c_exact"]  # no C control
    picture = tree_view_data(app, "playback_tree_view")
    assert picture["second"] == [] and picture["selected"] == [[], ["b"]]  # playout 1 updated the root and b


def test_the_teal_path_is_the_core_s_path_at_the_typed_c_and_follows_k(app):
    from apptest_support import tree_view_data
    from bench.harness.apptest import set_c
    from mcts_core.inputs.examples import C_FLIPS_CHOICE

    app.text_area(key="playouts").input(C_FLIPS_CHOICE).run()
    app.toggle(key="playback_rule_path").set_value(True).run()
    app.slider(key="playback_k").set_value(6).run()
    assert not app.exception
    paths = {}
    for c in (0.5, 4.0):
        set_c(app, c)
        assert not app.exception
        paths[c] = rule_path_shown(app)
        assert paths[c] == core_path(C_FLIPS_CHOICE, 6, c)
        assert app.session_state["c"] == c and app.query_params["c"] == repr(c)  # the page's C, in the link
        assert tree_view_data(app, "playback_tree_view")["selected"] == [[], ["a"], ["a", "b"], ["a", "b", "b"]]
    assert paths[0.5] != paths[4.0]
    # The same C in an earlier tree: the path is that tree's (at k = 4, C = 4 is still below the flip).
    click(app, "playback_prev")
    click(app, "playback_prev")
    assert not app.exception and app.session_state["playback_k"] == 4
    assert rule_path_shown(app) == core_path(C_FLIPS_CHOICE, 4, 4.0) != paths[4.0]


def test_the_toggle_is_in_the_link_and_playing_keeps_the_teal_path_current(app):
    from mcts_core.inputs.examples import C_FLIPS_CHOICE

    app.text_area(key="playouts").input(C_FLIPS_CHOICE).run()
    app.toggle(key="playback_rule_path").set_value(True).run()
    assert app.query_params["rule_path"] == "1"
    c = app.session_state["c"]
    app.button(key="playback_play").click().run()  # the run that starts playing shows the next step
    for k in range(2, 7):
        assert not app.exception
        assert metric(app, "Playout") == f"{k} / 6"
        assert rule_path_shown(app) == core_path(C_FLIPS_CHOICE, k, c)
        app.run()  # a tick
    app.toggle(key="playback_rule_path").set_value(False).run()
    assert app.query_params["rule_path"] == "0" and metric(app, "Path at C") is None


def test_the_live_slider_gets_each_frame_s_own_path_changes_and_moves_the_teal_path(app):
    from apptest_support import tree_view_data
    from mcts_core import build_tree, parse_playouts
    from mcts_core.analysis import path_intervals
    from mcts_core.inputs.examples import C_FLIPS_CHOICE

    app.text_area(key="playouts").input(C_FLIPS_CHOICE).run()
    app.toggle(key="playback_rule_path").set_value(True).run()
    sent = {}
    for k in (3, 6, 3):  # back to k = 3: its cached changes, not k = 6's
        app.slider(key="playback_k").set_value(k).run()
        assert not app.exception
        data = tree_view_data(app, "c_live")
        assert data["role"] == "second"  # a drag moves the teal path; red stays the playout's
        tree = build_tree(parse_playouts(C_FLIPS_CHOICE), upto=k)
        assert data["intervals"] == [[part.c_from, part.c_to, list(part.moves)]
                                     for part in path_intervals(tree, 0.0, data["max"])]
        sent[k] = data["intervals"]
    assert sent[3] != sent[6]  # the flip is at about C = 6.5 after 3 playouts, 2.7 after 6


# An engine's log speaks of simulations, paths and returns, not of the puzzle's playouts, words and scores.

ENGINE_LOG = "\n".join([
    '{"mcts_log": 1, "players": 2, "ties": "first", "c": 1.4}',
    '{"node": [], "player": 0, "children": ["a", "b"]}',
    '{"path": [], "returns": [0, 0]}',  # stops at the root, as a search's first simulation can
    '{"path": ["a"], "returns": [-1, 1]}',  # the declared child a's first visit
    '{"path": ["a"], "returns": [1, -1]}',  # every node on it had visits
    '{"path": ["a", "x"], "returns": [1, -1]}',  # creates a x
]) + "\n"


def labelled(app) -> dict[str, str]:
    return {metric.label: plain(metric.value) for metric in app.metric}


def test_a_log_is_replayed_in_its_own_words(app):
    app.text_area(key="playouts").input(ENGINE_LOG).run()
    assert not app.exception
    assert app.slider(key="playback_k").label == "Simulations replayed (k)"
    assert app.number_input(key="playback_stride").label == "Simulations per step"
    assert labelled(app) == {"Simulation": "1 / 4", "Path": "(empty)", "Returns (P0 / P1)": "0 / 0", "New node": "none"}
    sentence = plain(app.markdown[0].value)
    assert "stopped at the root" in sentence and "word" not in sentence
    click(app, "playback_next")
    assert labelled(app) == {"Simulation": "2 / 4", "Path": "a", "Returns (P0 / P1)": "-1 / 1", "New node": "a"}
    assert "first visit" in plain(app.markdown[0].value)
    click(app, "playback_next")
    assert labelled(app)["New node"] == "none"
    assert "already had visits" in plain(app.markdown[0].value)
    click(app, "playback_next")
    assert labelled(app) == {"Simulation": "4 / 4", "Path": "ax", "Returns (P0 / P1)": "1 / -1", "New node": "ax"}
    assert "word" not in " ".join(plain(m.value) for m in app.markdown).lower()
    assert any("the nodes this simulation updated" in plain(c.value) for c in app.caption)


def test_puzzle_text_keeps_the_puzzle_s_words(app):
    assert [metric.label for metric in app.metric] == ["Playout", "Word", "Score", "Created node"]
    assert app.number_input(key="playback_stride").label == "Playouts per step"


def test_a_whole_replay_takes_about_a_minute_by_default(app):
    import math

    from mcts_core.model.playback import REPLAY_STEPS

    app.selectbox(key="example").select("Deep tree (400 playouts)").run()
    stride = app.number_input(key="playback_stride").value
    seconds = app.select_slider(key="playback_delay").value
    assert math.ceil(400 / stride) * seconds == pytest.approx(60, rel=0.1)  # not 400 steps of a second
    assert REPLAY_STEPS * seconds == 60
    app.number_input(key="playback_stride").set_value(1).run()  # a finer step at will
    click(app, "playback_next")
    assert shown(app)[0] == "2 / 400"


# The search over time: a node's children against its visits, k marked, a click moves k.

def over_time_layers(app, key: str = "playback_over_time_share") -> dict[str, object]:
    """The search over time's chart ``key``: its layers' data by mark (rule: the changes, line, circle,
    and "now": the red rule at k)."""
    (chart,) = [chart for chart in app.get("vega_lite_chart") if chart.proto.id.endswith(key)]
    layers = chart_layers(chart)
    named = {}
    for index, (layer, data) in enumerate(layers):
        mark = layer["mark"]["type"]
        named["now" if mark == "rule" and index else mark] = data
    return named


def assert_chart_is_the_core_series(app, text_or_read, node: str = ""):
    import math

    from mcts_core.analysis import convergence
    from mcts_core.inputs import read_input

    read = read_input(text_or_read) if isinstance(text_or_read, str) else text_or_read
    series = convergence(read.tree, read.playouts, read.tree.find(node))
    want = series.grouped()
    for key, statistic in (("playback_over_time_share", "share"), ("playback_over_time_value", "value")):
        layers = over_time_layers(app, key)
        lines = layers["line"]
        assert list(lines["move"]) == want.columns["move"] and list(lines["visits"]) == want.columns["visits"]
        assert list(lines[statistic]) == want.columns[statistic]
        assert all(math.isfinite(value) for value in lines[["share", "value", "visits", "playouts"]].to_numpy().ravel())
        changes = layers["rule"]
        assert [tuple(row) for row in changes[["visits", "playouts", "before", "after"]].itertuples(index=False)] == \
            series.change_points(series.most_visited)
    return want


def test_the_search_over_time_charts_the_core_s_series_six_children_named_and_the_rest_grouped(app):
    text = "".join(f"{move * (1 + index % 3)} {index % 7}\n" for index, move in enumerate("abcdefghij" * 6))
    app.text_area(key="playouts").input(text).run()
    assert not app.exception
    want = assert_chart_is_the_core_series(app, text)
    assert len(want.groups) == 7 and want.groups[-1] == "(others)"


def test_the_search_over_time_of_an_openspiel_log_is_the_core_s_series(app):
    import io

    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts

    from mcts_core.adapters.openspiel import search_log

    game = pyspiel.load_game("tic_tac_toe")
    bot = mcts.MCTSBot(game, 2.0, 120, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)),
                       random_state=np.random.RandomState(2))
    log = io.StringIO()
    search_log(bot, game.new_initial_state(), log)
    app.file_uploader(key="upload").set_value(("openspiel.jsonl", log.getvalue().encode(), "text/plain")).run()
    assert not app.exception
    assert_chart_is_the_core_series(app, log.getvalue())


def test_the_k_mark_follows_playback_s_position(app):
    app.selectbox(key="example").select("Deep tree (400 playouts)").run()
    assert list(over_time_layers(app)["now"]["visits"]) == [1]  # every playout visits the root: k visits
    app.slider(key="playback_k").set_value(120).run()
    assert list(over_time_layers(app)["now"]["visits"]) == [120]
    assert list(over_time_layers(app, "playback_over_time_value")["now"]["visits"]) == [120]


def test_the_search_over_time_follows_a_deeper_node_and_marks_its_visits_at_k(app):
    from mcts_core.inputs import read_input

    app.selectbox(key="example").select("Deep tree (400 playouts)").run()
    read = read_input(app.text_area(key="playouts").value)
    node = read.tree.children[0][0]
    path = read.tree.path(node)
    app.text_input(key="playback_over_time_node").input(path).run()
    app.slider(key="playback_k").set_value(200).run()
    assert not app.exception
    assert_chart_is_the_core_series(app, read, path)
    built = __import__("mcts_core").build_tree(read.playouts, upto=200)
    assert list(over_time_layers(app)["now"]["visits"]) == [built.visits[built.find(path)]]


def test_the_series_downloads_as_the_core_s_csv(app, monkeypatch):
    from streamlit.runtime.media_file_manager import MediaFileManager

    made = {}
    original = MediaFileManager.add_deferred

    def keep(self, data_callable, *args, **kwargs):  # the file a click would make
        made[kwargs.get("element_id", "")] = data_callable
        return original(self, data_callable, *args, **kwargs)

    monkeypatch.setattr(MediaFileManager, "add_deferred", keep)
    app.run()
    (csv_of,) = [make for element_id, make in made.items() if element_id.endswith("playback_over_time_csv")]
    lines = csv_of().splitlines()
    assert lines[0] == "visits,move,child_visits,value"
    # Per sample of the root's visits, each child in the node's order (b was made first).
    assert lines[1:] == ["1,b,1,30.0", "2,b,1,30.0", "2,a,1,20.0", "3,b,2,17.0", "3,a,1,20.0"]


def test_a_tree_dump_says_it_has_no_search_over_time(app):
    import json

    dump = {"mcts_tree": 1, "root": {"move": None, "visits": 2, "total": 1, "children": [
        {"move": "x", "visits": 2, "total": 1.0}]}}
    app.text_area(key="playouts").input(json.dumps(dump)).run()
    assert not app.exception
    assert not app.get("vega_lite_chart")
    assert "nor a search over time to follow" in app.info[0].value


def test_with_the_rule_s_path_shown_the_charts_mark_where_the_rule_s_choice_changed_at_c(app):
    from mcts_core import Scoring
    from mcts_core.analysis import convergence, selected_over_time
    from mcts_core.inputs import read_input
    from bench.harness.apptest import set_c

    app.selectbox(key="example").select("Deep tree (400 playouts)").run()
    assert set(over_time_layers(app)["rule"]["choice"]) <= {"most visited"}  # the rule's path off: no C here
    app.toggle(key="playback_rule_path").set_value(True).run()
    set_c(app, 0.7)
    assert not app.exception
    read = read_input(app.text_area(key="playouts").value)
    series = convergence(read.tree, read.playouts)
    want = series.change_points(selected_over_time(read.tree, series, Scoring(c=0.7)))
    changes = over_time_layers(app)["rule"]
    shown = changes[changes["choice"] == "selected at C"]
    assert want and [tuple(row) for row in shown[["visits", "playouts", "before", "after"]].itertuples(index=False)] == want


# An engine's file: nothing to replay; its search over time, one sample per update the engine printed.

def open_engine_file(app, name: str):
    """Upload tests/data/engines' ``name``; returns its input as read (the last analysis shown)."""
    from pathlib import Path

    from mcts_core.inputs import read_input

    data = (Path(__file__).parent / "data" / "engines" / name).read_bytes()
    app.file_uploader(key="upload").set_value((name, data, "text/plain")).run()
    assert not app.exception and not app.error
    return read_input(data.decode())


@pytest.mark.parametrize("name, updates", [("leela_zero_lz_analyze.txt", 8), ("katago_during_search.jsonl", 13),
                                           ("katago_genmove_analyze.txt", 95)])
def test_an_engine_stream_shows_its_search_update_by_update_with_nothing_to_replay(app, name, updates):
    from mcts_core import ROOT
    from mcts_core.analysis import update_series

    read = open_engine_file(app, name)
    series = update_series(*read.search_updates())
    assert len(series.visits) == updates
    want = series.grouped()
    for key, statistic in (("playback_over_time_share", "share"), ("playback_over_time_value", "value")):
        layers = over_time_layers(app, key)
        lines = layers["line"]
        assert list(lines["move"]) == want.columns["move"] and list(lines[statistic]) == want.columns[statistic]
        assert list(lines["playouts"]) == want.columns["playouts"]  # each sample's analysis in the file
        changes = layers["rule"]
        assert [tuple(row) for row in changes[changes["choice"] == "most visited"][
            ["visits", "playouts", "before", "after"]].itertuples(index=False)] == series.change_points(series.most_visited)
        assert list(layers["now"]["visits"]) == [read.tree.visits[ROOT]]  # the analysis shown: the last
    assert not [slider for slider in app.slider if slider.key == "playback_k"] and not app.button
    assert any("no simulations to replay" in caption.value for caption in app.caption)


def test_an_engine_s_teal_rules_are_the_rule_s_choice_on_each_update_and_the_mark_follows_the_analysis(app):
    from mcts_core import ROOT, Scoring
    from mcts_core.analysis import update_series
    from mcts_core.inputs import engine_input
    from bench.harness.apptest import set_c

    read = open_engine_file(app, "leela_zero_lz_analyze.txt")
    set_c(app, 0.05)
    assert not app.exception
    scoring = Scoring(read.rule, 0.05, read.settings)
    series = update_series(*read.search_updates(), scoring=scoring)
    changes = over_time_layers(app)["rule"]
    shown = changes[changes["choice"] == "selected at C"]
    assert [tuple(row) for row in shown[["visits", "playouts", "before", "after"]].itertuples(index=False)] == \
        series.change_points(series.selected)
    app.selectbox(key="analysis").select(3).run()  # an update of the same search: the same series, marked there
    assert not app.exception
    assert list(over_time_layers(app)["line"]["share"]) == series.grouped().columns["share"]
    assert list(over_time_layers(app)["now"]["visits"]) == [engine_input(read.analyses, 2).tree.visits[ROOT]]
    # Another update of the same search keeps the C on screen; Share links to it and the update shown.
    assert app.session_state["c"] == 0.05
    assert (app.query_params["analysis"], app.query_params["c"]) == ("3", "0.05")
    assert [popover.proto.popover.label for popover in app.get("popover")] == ["Share"]


@pytest.mark.parametrize("name", ["leela_zero_dump.txt", "lc0_pr1268_node.txt"])
def test_an_engine_snapshot_says_it_has_no_order_to_show(app, name):
    open_engine_file(app, name)
    assert not app.get("vega_lite_chart")
    assert "single snapshot" in app.info[0].value and "no order of updates to show" in app.info[0].value
