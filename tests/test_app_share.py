"""Share links and bundles in the app: a link's query opens its view, a bad one is refused in words."""

import json
import re

from streamlit.testing.v1 import AppTest
from streamlit.testing.v1 import app_test as app_test_module

from apptest_support import REPO, NavigationPagesManager, metrics, plain
from mcts_core import Scoring
from mcts_core.inputs.bundle import View, bundle_bytes
from mcts_core.inputs.examples import C_FLIPS_CHOICE, STATEMENT_EXAMPLE_EXPLAINED
from mcts_core.inputs.store import InputStore, input_id
from mcts_core.inputs.loading import read_input


def open_link(monkeypatch, params: dict[str, str]) -> AppTest:
    """A fresh session opening the app's URL with this query (a copied link, a reload)."""
    monkeypatch.setattr(app_test_module, "PagesManager", NavigationPagesManager)
    app = AppTest.from_file(str(REPO / "app.py"), default_timeout=60)
    app.query_params = dict(params)
    app.run()
    assert not app.exception
    return app


def stored(text: str) -> str:
    return InputStore().save(text.encode())


def log_text(variant: float) -> str:
    """A small two-player JSON Lines log; ``variant`` (a score) makes its bytes a test's own."""
    records = [{"mcts_log": 1, "players": 2, "ties": "first", "c": 1.4}, {"path": ["e4"], "score": variant},
               {"path": ["d4"], "score": 0}, {"path": ["e4", "e5"], "score": -1}]
    return "\n".join(json.dumps(record) for record in records) + "\n"


def warnings(app) -> str:
    return " ".join(plain(w.value) for w in app.warning)


def test_a_link_opens_its_input_c_rule_settings_node_and_drawing_limits(monkeypatch):
    text = C_FLIPS_CHOICE + "# only this test saves this\n"
    key = stored(text)
    app = open_link(monkeypatch, {
        "input": key, "c": "4", "rule": "puct", "settings": json.dumps({"normalise": "minmax"}),
        "node": json.dumps(["a"]), "budget": "77", "colour": "visits", "unvisited": "1",
    })
    state = app.session_state
    assert state["c"] == 4.0 and state["c_exact"] == "4"
    assert state["rule"] == "puct" and state["rule_puct_normalise"] == "minmax"
    assert state["inspect"] == "a"
    assert state["budget"] == 77 and state["colour_by"] == "visits" and state["show_unvisited"] is True
    assert app.text_area(key="playouts").value == text  # puzzle text opens in the text box, to be edited
    assert not app.warning and not app.error
    # The page writes the view back: the URL a reload or "Copy link" gives.
    assert app.query_params["input"] == key and app.query_params["c"] == "4.0"
    assert app.query_params["rule"] == "puct" and json.loads(app.query_params["node"]) == ["a"]
    assert json.loads(app.query_params["settings"]) == {"normalise": "minmax"}


def test_moving_c_and_inspecting_a_node_update_the_url(app):
    app.text_input(key="c_exact").input("2.5").run()
    app.text_input(key="inspect").input("a").run()
    assert not app.exception
    assert app.query_params["c"] == "2.5" and json.loads(app.query_params["node"]) == ["a"]
    # The text box's input is in the store, so the link names something another session can open.
    assert InputStore().load(app.query_params["input"])[0] == STATEMENT_EXAMPLE_EXPLAINED.encode()


def test_a_reload_puts_typed_text_back_in_the_text_box_with_its_c(monkeypatch, app):
    typed = "a 1\nb 0\nab 3\n"
    app.text_area(key="playouts").input(typed).run()
    app.text_input(key="c_exact").input("0.75").run()
    reloaded = open_link(monkeypatch, app.query_params)
    assert reloaded.text_area(key="playouts").value == typed  # editable again, not a read-only "kept" input
    assert "_kept_input" not in reloaded.session_state
    assert reloaded.session_state["c"] == 0.75
    assert reloaded.session_state["selected_path"] == app.session_state["selected_path"]


def test_bad_link_values_are_refused_one_sentence_each_and_the_rest_applies(monkeypatch):
    app = open_link(monkeypatch, {
        "c": "-1", "rule": "nope", "node": "{oops", "budget": "99999", "input": "../../etc/passwd",
        "colour": "<script>", "unvisited": "yes", "depth": "2",
    })
    text = warnings(app)
    for name in ("c", "rule", "node", "budget", "input", "colour", "unvisited"):
        assert f"The link's {name} was ignored" in text
    assert "etc/passwd" not in text  # the bad value itself is not echoed for an id
    assert app.session_state["c"] == read_input(STATEMENT_EXAMPLE_EXPLAINED).c  # the example's own C
    assert app.session_state["rule"] == "ucb1"
    assert app.session_state["max_depth"] == 2  # the good value still applies
    assert not app.error


def test_link_settings_that_do_not_fit_the_rule_are_refused(monkeypatch):
    app = open_link(monkeypatch, {"rule": "ucb1_tuned", "settings": json.dumps({"cap": "big"})})
    assert "The link's settings was ignored: cap must be a finite number" in warnings(app)
    assert app.session_state["rule"] == "ucb1_tuned" and app.session_state["rule_ucb1_tuned_cap"] == 0.25


def test_a_link_to_an_input_the_store_lacks_says_so_and_opens_the_default_example(monkeypatch):
    app = open_link(monkeypatch, {"input": "0" * 64, "c": "3"})
    assert "does not have" in warnings(app) and "default example" in warnings(app)
    assert app.text_area(key="playouts").value == STATEMENT_EXAMPLE_EXPLAINED
    assert app.session_state["c"] == 3.0 and not app.error


def test_an_uploaded_bundle_opens_its_page_input_and_view(app):
    view = View(Scoring.of("ucb1_tuned", c=3.0, cap=0.5), page="", inspected=("b",),
                limits={"budget": 40, "topk": 2, "colour": "mean"})
    data = bundle_bytes(C_FLIPS_CHOICE.encode(), read_input(C_FLIPS_CHOICE), view)
    app.file_uploader(key="upload").set_value(("view.zip", data, "application/zip")).run()
    assert not app.exception and not app.error
    state = app.session_state
    assert state["_current_input"] == input_id(C_FLIPS_CHOICE.encode())
    assert state["rule"] == "ucb1_tuned" and state["rule_ucb1_tuned_cap"] == 0.5 and state["c"] == 3.0
    assert state["inspect"] == "b" and state["budget"] == 40 and state["top_k"] == 2 and state["colour_by"] == "mean"
    assert any("Using the bundle view.zip" in plain(info.value) for info in app.sidebar.info)


def test_a_bundle_names_its_page_and_the_app_goes_there(app):
    view = View(Scoring(c=2.0), page="sweep")
    app.file_uploader(key="upload").set_value(
        ("sweep.zip", bundle_bytes(C_FLIPS_CHOICE.encode(), read_input(C_FLIPS_CHOICE), view), "application/zip")
    ).run()
    assert not app.exception
    assert app.title and app.title[0].value == "C sweep" and app.session_state["c"] == 2.0


def test_a_broken_bundle_is_refused_with_its_reason_and_the_text_box_stays(app):
    app.file_uploader(key="upload").set_value(("broken.zip", b"PK\x03\x04not really a zip", "application/zip")).run()
    assert not app.exception
    assert any("The bundle broken.zip cannot be opened" in plain(error.value) for error in app.sidebar.error)
    assert app.session_state["selected_path"]  # the text box's input is still shown


def test_a_linked_log_is_described_by_its_content_never_by_a_name_someone_gave_it(monkeypatch):
    text = log_text(0.25)
    key = stored(text)
    app = open_link(monkeypatch, {"input": key})
    infos = " ".join(plain(info.value) for info in app.sidebar.info)
    assert "Using the linked input: JSON Lines log, 3 simulations, 4 nodes, 2 players." in infos
    assert app.session_state["_current_input"] == key and app.text_area(key="playouts").value != text
    assert InputStore().describe([key])[0].about == "JSON Lines log, 3 simulations, 4 nodes, 2 players"


def test_the_recent_menu_reopens_an_input_this_browser_opened(app):
    text = log_text(0.5)
    key = stored(text)
    shown = app.session_state["_current_input"]  # the text box's example, stored when it loaded
    # What the browser's list sends (the component's state): one id is no longer in the store.
    app.session_state["_recent_list"] = {"ids": [shown, "0" * 64, key]}
    app.run()
    menu = app.selectbox(key="recent_choice")
    assert menu.options == ["an input not opened since it was saved · 1 kB"]  # read by no one yet
    menu.select(key).run()
    assert not app.exception
    assert app.session_state["_current_input"] == key
    said = "Using the recent input: JSON Lines log, 3 simulations, 4 nodes, 2 players."
    assert any(said in plain(info.value) for info in app.sidebar.info)
    menu = app.selectbox(key="recent_choice")  # now offers the example the page showed before
    assert menu.value is None and len(menu.options) == 1 and menu.options[0].startswith("puzzle text, ")



def test_a_pages_link_is_built_from_the_apps_root_not_from_the_page_it_is_on():
    from ui.share.share import page_url

    params = {"c": "1.0"}
    assert page_url("http://host:8501/sweep", "sweep", params) == "http://host:8501/sweep?c=1.0"
    assert page_url("http://host:8501/app/compare/", "compare", params) == "http://host:8501/app/compare?c=1.0"
    assert page_url("http://host:8501", "", params) == "http://host:8501/?c=1.0"
    assert page_url(None, "playback", params) == "/playback?c=1.0"


def test_each_pages_link_carries_that_pages_own_state(monkeypatch):
    key = stored(C_FLIPS_CHOICE)
    compare = open_link(monkeypatch, {"page": "compare", "input": key, "c": "1", "c_b": "3.5", "rule_b": "ucb1_tuned",
                                      "settings_b": json.dumps({"cap": 0.5})})
    assert compare.session_state["cmp_rule"] == "ucb1_tuned" and compare.session_state["cmp_c"] == 3.5
    assert compare.session_state["cmp_rule_ucb1_tuned_cap"] == 0.5
    written = compare.query_params
    assert (written["c_b"], written["rule_b"], json.loads(written["settings_b"])) == ("3.5", "ucb1_tuned", {"cap": 0.5})

    playback = open_link(monkeypatch, {"page": "playback", "input": key, "k": "3", "rule_path": "1"})
    assert playback.session_state["playback_k"] == 3 and playback.query_params["k"] == "3"
    assert playback.session_state["playback_rule_path"] is True and playback.query_params["rule_path"] == "1"
    assert "Path at C" in metrics(playback)  # the toggle's path is drawn
    assert open_link(monkeypatch, {"page": "playback", "input": key, "k": "999"}).query_params["k"] == str(
        len(read_input(C_FLIPS_CHOICE).playouts))  # k beyond the input: its last playout

    classroom = open_link(monkeypatch, {"page": "classroom", "input": key, "node": json.dumps(["a"])})
    assert classroom.session_state["class_path"] == "a" and json.loads(classroom.query_params["node"]) == ["a"]
    for app in (compare, playback, classroom):
        assert not app.warning and not app.error


def test_a_classroom_link_to_a_node_the_tree_lacks_is_refused_in_words(monkeypatch):
    app = open_link(monkeypatch, {"page": "classroom", "node": json.dumps(["zz"])})
    assert "The link's node was ignored: no move 'zz'" in warnings(app)
    assert app.session_state["class_path"] == ""  # the walk starts at the root


CRAFTED = "[click](https://evil.example/) ![pixel](https://evil.example/p.png) <span style='color:red'>RED</span> **bold**"


def test_a_crafted_links_values_are_shown_as_text_in_its_messages(monkeypatch):
    app = open_link(monkeypatch, {
        "rule": "ucb1_tuned", "settings": json.dumps({"cap": CRAFTED, CRAFTED: 1}), "page": CRAFTED,
        "rule_b": "**bold**", "colour": "<span style=color:red>RED</span>",
    })
    shown = [w.value for w in app.warning]
    assert len(shown) == 1 and shown[0].count("\n- ") == 4  # one notice: what the link asked for, 4 refusals
    for markdown_text in shown:  # every markdown character escaped: no link, image, tag or emphasis
        unescaped = re.compile(r"(?<!\\)(\[click\]|\]\(|<span|\*\*|!\[)")  # a special character without its backslash
        assert not unescaped.search(markdown_text), markdown_text
    assert "[click](https://evil.example/)" in plain(" ".join(shown))  # yet the user reads what the link said


def test_huge_numbers_in_a_link_are_refused_in_words(monkeypatch):
    app = open_link(monkeypatch, {
        "rule": "ucb1_tuned", "settings": '{"cap": 1' + "0" * 400 + "}", "node": "[" + "7" * 5000 + "]",
        "k": "9" * 5000, "c": "1e400",
    })
    text = warnings(app)
    for name in ("settings", "node", "k", "c"):
        assert f"The link's {name} was ignored" in text
    assert app.session_state["rule_ucb1_tuned_cap"] == 0.25


def test_a_broken_link_s_notice_says_what_it_asked_for_and_stays_until_dismissed(monkeypatch):
    app = open_link(monkeypatch, {"input": "0" * 64, "c": "-1", "budget": "77"})
    notice = warnings(app)
    # What the link asked for, then what was ignored.
    assert "This link asked for input = 000000000000…, c = -1, budget = 77." in notice
    assert "does not have" in notice and "The link's c was ignored" in notice
    assert app.session_state["budget"] == 77  # the rest applies
    app.text_input(key="c_exact").input("2").run()  # the user goes on: the notice stays
    assert warnings(app) == notice
    app.button(key="link_notice_dismiss").click().run()
    assert not app.warning
    app.run()
    assert not app.warning
