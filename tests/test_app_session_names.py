"""Names belong to the session that gave them: two sessions giving the same bytes under different
names each see their own, the store and a link show neither (only what the input is), and a failed
store save is tried again."""

import os

from apptest_support import open_share, plain, start_app
from mcts_core.inputs.store import InputStore, input_id
from test_app_share import open_link

GOOD = "ab 9\nac 2\nb 4\n# {}\n"


def upload(app, name: str, text: str):
    app.file_uploader(key="upload").set_value((name, text.encode(), "text/plain")).run()
    assert not app.exception
    return app


def sidebar_text(app) -> str:
    return " ".join(plain(element.value) for kind in ("info", "caption", "error", "warning")
                    for element in getattr(app.sidebar, kind))


def page_errors(app) -> str:
    return " ".join(plain(error.value) for error in app.error)


def test_a_bad_inputs_error_names_each_sessions_own_file(monkeypatch):
    bad = "ab 9\nthis line is bad\n# error names\n"
    alice = upload(start_app(monkeypatch), "alice_secret.txt", bad)
    bob = upload(start_app(monkeypatch), "bob.txt", bad)  # parsed once: the second session hits the cache
    assert "alice_secret.txt" in page_errors(alice)
    assert "bob.txt" in page_errors(bob) and "alice" not in page_errors(bob)


def test_the_same_upload_under_two_names_shows_each_session_its_own_and_a_link_neither(monkeypatch):
    text = GOOD.format("two names")
    alice = upload(start_app(monkeypatch), "alice_secret.txt", text)
    bob = upload(start_app(monkeypatch), "bob.txt", text)
    assert "alice_secret.txt" in sidebar_text(alice) and "bob.txt" not in sidebar_text(alice)
    assert "bob.txt" in sidebar_text(bob) and "alice" not in sidebar_text(bob)
    alice.run()  # Alice's next run does not take Bob's name either
    assert "alice_secret.txt" in sidebar_text(alice) and "bob" not in sidebar_text(alice)
    opened = open_link(monkeypatch, {"input": input_id(text.encode())})  # Bob's link, opened by a third user
    assert opened.text_area(key="playouts").value == text  # puzzle text: in the text box, to be edited
    assert "alice" not in sidebar_text(opened) and "bob" not in sidebar_text(opened)


def test_an_input_the_store_could_not_save_is_saved_on_a_later_run(monkeypatch, tmp_path):
    monkeypatch.setenv("MCTS_EXPLORER_DATA", str(tmp_path))
    (tmp_path / "inputs.sqlite3").mkdir()  # the store cannot open its database
    text = GOOD.format("store down")
    app = open_share(upload(start_app(monkeypatch), "kept.txt", text))  # the warning is about the link
    share_warning = "The link will not open this input elsewhere"
    assert any(share_warning in plain(warning.value) for warning in app.warning)
    os.rmdir(tmp_path / "inputs.sqlite3")  # the store works again
    app.run()
    assert not any(share_warning in plain(warning.value) for warning in app.warning)
    assert InputStore().load(input_id(text.encode())) == (text.encode(), "puzzle text, 3 playouts, 4 nodes")


def test_a_link_to_an_uploaded_log_says_what_it_is_and_never_the_uploaders_file_name(monkeypatch):
    log = '{"mcts_log": 1, "players": 2, "game": "rps"}\n{"path": [["R", "P"]], "returns": [-1, 1]}\n'
    carol = upload(start_app(monkeypatch), "carol_secret.jsonl", log)
    assert "carol_secret.jsonl" in sidebar_text(carol)  # her own session names her file
    key = input_id(log.encode())
    assert InputStore().load(key)[1] == "JSON Lines log of rps, 1 simulation, 2 nodes, 2 players, simultaneous moves"
    opened = open_link(monkeypatch, {"input": key})  # her link, opened by someone else
    assert "Using the linked input: JSON Lines log of rps, 1 simulation" in sidebar_text(opened)
    assert "carol" not in sidebar_text(opened) and "secret" not in sidebar_text(opened)
