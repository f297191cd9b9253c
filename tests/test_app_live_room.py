"""AppTest of a live room: the teacher's view and the students' views, one AppTest per session.

AppTest cannot poll in real time: each ``run()`` is one run of the page, as a poll of its
fragment or a click makes. A student's browser reports its token (and a teacher's browser the
secrets of its rooms) through a component; here the test sets that report as the browser would.
"""

import csv
import io
import sqlite3

import pytest
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1 import app_test as app_test_module

from apptest_support import REPO, NavigationPagesManager, plain, start_app
from mcts_core import build_tree, parse_playouts
from mcts_core.analysis import breakpoints
from mcts_core.classroom import RoomRefused, RoomStore, history_csv
from mcts_core.classroom.room_codes import CODE_ALPHABET
from mcts_core.common import StoreError
from mcts_core.common.sqlite_files import failure_words
from mcts_core.inputs.examples import C_FLIPS_CHOICE

PAGE = "pages/classroom.py"
FLIP_AT = breakpoints(build_tree(parse_playouts(C_FLIPS_CHOICE)), 0.0, 10.0)[0].c  # about 2.70292
BROWSER = "_room_browser"  # the room keeper component's state: what the browser reported


def room_code(app) -> str:
    code = app.query_params["room"]
    return code[0] if isinstance(code, list) else code


def open_session(monkeypatch, code: str | None, *, token: str = "a" * 32, rooms: dict | None = None,
                 report: bool = True, teacher_link: str | None = None) -> AppTest:
    """A new browser session on /classroom?room=code (with ``&teacher=teacher_link``), its browser's
    report given (``report``)."""
    monkeypatch.setattr(app_test_module, "PagesManager", NavigationPagesManager)
    app = AppTest.from_file(str(REPO / "app.py"), default_timeout=60)
    if code is not None:
        app.query_params["room"] = code
    if teacher_link is not None:
        app.query_params["teacher"] = teacher_link
    if report:
        app.session_state[BROWSER] = {"keys": {"student": token, "rooms": rooms or {}}}
    app.switch_page(PAGE).run()
    assert not app.exception
    return app


@pytest.fixture
def teacher(monkeypatch):
    """The Classroom on "A larger C flips the choice" (C = 0.5), a live room opened."""
    app = start_app(monkeypatch, PAGE)
    app.text_area(key="playouts").input(C_FLIPS_CHOICE).run()
    app.button(key="room_open").click().run()
    assert not app.exception
    return app


def texts(app) -> str:
    return "\n".join(plain(element.value) for element in [
        *app.markdown, *app.caption, *app.success, *app.error, *app.info, *app.warning, *app.subheader])


def answer_buttons(app):
    return [button for button in app.button if button.key and button.key.startswith("room_answer_")]


def chart_rows(app) -> list[dict]:
    """The rows the page's one chart draws (its datasets, as the browser gets them)."""
    import pyarrow as pa

    (chart,) = app.get("vega_lite_chart")
    return [row for dataset in chart.proto.datasets for row in pa.ipc.open_stream(dataset.data.data).read_all().to_pylist()]


def send_c(student, typed: str) -> None:
    """Type ``typed`` in the student's C box and send it, as its browser reports a send."""
    import secrets

    student.session_state["room_answer_c"] = {"sent": {"text": typed, "id": secrets.token_hex(8)}}
    student.run()
    assert not student.exception


def c_box(app) -> dict | None:
    """The data the student's C box got this run (None: no C box)."""
    import json

    return next((json.loads(element.proto.json) for element in app.get("bidi_component")
                 if element.proto.id.endswith("-room_answer_c")), None)


def count(app) -> str:
    return next(header.value for header in app.subheader if any(word in header.value for word in ("answered", "joined", "here now")))


def test_the_teacher_opens_a_room_with_its_code_link_and_count_and_no_sidebar(teacher):
    code = room_code(teacher)
    assert dict(teacher.query_params) in ({"room": code}, {"room": [code]})  # the join link's query, nothing else
    assert len(code) == 6
    assert count(teacher) == "No one has joined yet"
    assert [button.label for button in teacher.button if button.key == "room_reveal"] == ["Reveal"]
    assert "Which child does UCB1 pick at the root?" in texts(teacher)
    assert any(element.value == f"/classroom?room={code}" for element in teacher.code)  # no browser: relative
    assert f"# {code}" in [element.value for element in teacher.markdown]
    assert len(teacher.get("image")) == 1  # the QR code
    assert not teacher.sidebar.text_area and not teacher.sidebar.selectbox  # no input widgets for the room
    assert teacher.text_input(key="c_exact").value == "0.5"  # the C control, for the next question


def kept_secrets(app) -> dict:
    """The secrets this run asked the browser to keep (the room keeper's data), by code."""
    import json

    return next(json.loads(element.proto.json)["keep"] for element in app.get("bidi_component")
                if element.proto.id.endswith("-_room_browser"))


def test_a_teacher_link_is_shown_once_and_makes_another_browser_the_teacher_once(teacher, monkeypatch):
    code = room_code(teacher)
    teacher.button(key="room_make_teacher_link").click().run()
    (shown,) = [element.value for element in teacher.code if "teacher=" in element.value]
    assert shown.startswith(f"/classroom?room={code}&teacher=")
    assert "it will not be shown again" in texts(teacher) and "like a password" in texts(teacher)
    token = shown.split("teacher=")[1]
    projector = open_session(monkeypatch, code, token="d" * 32, teacher_link=token)
    assert dict(projector.query_params) in ({"room": code}, {"room": [code]})  # the token left the address bar
    assert [button.label for button in projector.button if button.key == "room_reveal"] == ["Reveal"]
    secret = kept_secrets(projector)[code]  # its browser keeps the room's key, as the opener's does
    assert secret != token and RoomStore().is_teacher(code, secret)
    teacher.button(key="room_teacher_link_done").click().run()
    assert not [element for element in teacher.code if "teacher=" in element.value]  # never shown again
    for link, said in ((token, "was used already"), ("x" * 43, "does not open room")):
        other = open_session(monkeypatch, code, token="e" * 32, teacher_link=link)
        assert said in texts(other) and len(other.error) == 1
        assert not answer_buttons(other) and not [button for button in other.button if button.key == "room_reveal"]
    teacher.run()
    assert count(teacher) == "No one has joined yet"  # a used or wrong link joins no student


def test_a_student_answers_with_a_button_per_child_and_the_teacher_counts_it(teacher, monkeypatch):
    code = room_code(teacher)
    student = open_session(monkeypatch, code)
    assert [button.label for button in answer_buttons(student)] == ["a", "b"]  # named by the moves, in move order
    assert "Which child does UCB1 pick at the root?" in texts(student)
    assert not [button for button in student.button if button.label == "Reveal"]
    assert not student.text_input and not student.get("bidi_component") or not any(
        element.proto.id.endswith("-c_live") for element in student.get("bidi_component"))  # no C control
    assert not student.sidebar.text_area
    teacher.run()  # the count's poll
    assert count(teacher) == "0 of 1 answered"  # joined when the page opened
    answer_buttons(student)[1].click().run()
    assert "Answer received: ` b `" in texts(student)
    answer_buttons(student)[0].click().run()  # changed before the reveal
    assert "Answer received: ` a `" in texts(student)
    assert [button.proto.type for button in answer_buttons(student)] == ["primary", "secondary"]
    teacher.run()
    assert count(teacher) == "1 of 1 answered"
    assert "right" not in texts(teacher) and not teacher.get("vega_lite_chart")  # hidden until the reveal


def test_the_reveal_shows_the_teacher_the_distribution_and_each_student_right_or_wrong(teacher, monkeypatch):
    code = room_code(teacher)
    right, wrong, silent = (open_session(monkeypatch, code, token=token) for token in ("a" * 32, "b" * 32, "c" * 32))
    right.button(key="room_answer_0").click().run()  # a: UCB1's pick at C = 0.5
    wrong.button(key="room_answer_1").click().run()
    teacher.run()
    teacher.button(key="room_reveal").click().run()
    assert not teacher.exception
    assert "**1 of 2 right.** UCB1 picks ` a `." in texts(teacher)
    assert "so **exploitation (the mean)** decided" in texts(teacher)  # the sentence why  # the sentence why
    assert teacher.table[0].value["move"].tolist() == ["` a ` ✔", "` b `"]  # the terms, best first
    assert chart_rows(teacher) == [{"move": "a", "answers": 1, "answer": "right"},  # a bar per child
                                   {"move": "b", "answers": 1, "answer": "other"}]
    assert not [button for button in teacher.button if button.key == "room_reveal"]
    for student, words in ((right, "Your answer ` a ` is right. UCB1 picks ` a `."),
                           (wrong, "Your answer ` b ` is wrong. UCB1 picks ` a `."),
                           (silent, "You did not answer. UCB1 picks ` a `.")):
        student.run()  # the poll
        assert words in texts(student)
        assert all(button.disabled for button in answer_buttons(student))


def test_the_flip_question_takes_a_number_and_judges_it_against_the_exact_c(teacher, monkeypatch):
    code = room_code(teacher)
    close, far = open_session(monkeypatch, code, token="a" * 32), open_session(monkeypatch, code, token="b" * 32)
    teacher.button(key="room_ask_flip").click().run()
    assert "At which C does the choice at the root flip?" in texts(teacher)
    for student, typed in ((close, "2.7"), (far, "1")):
        student.run()  # the poll finds the new question
        assert "At C = 0.5, UCB1 picks ` a ` there. Raise C" in texts(student)
        send_c(student, typed)
    assert "Answer received: C = 2.7" in texts(close)
    teacher.run()
    teacher.button(key="room_reveal").click().run()
    rows = chart_rows(teacher)
    assert sorted(row["C"] for row in rows if "answers" in row) == [1.0, 2.7]  # a dot per answer
    assert [row["C"] for row in rows if "label" in row] == [FLIP_AT]  # the exact C, marked
    assert f"The choice flips at C = {FLIP_AT:.6g}" in texts(teacher) and "**1 of 2 right.**" in texts(teacher)
    # Why: the flip, not the choice at the question's C (where the mean decides for a).
    why = next(text for text in texts(teacher).splitlines() if text.startswith("Why:"))
    assert f"They cross at C = {FLIP_AT:.6g}" in why and "` b `'s grows faster with C" in why
    assert "takes over from ` a `" in why and "decided" not in texts(teacher)
    close.run()
    far.run()
    assert "Your answer C = 2.7 is right (within 5%)" in texts(close)
    assert "Your answer C = 1 is wrong" in texts(far)


def test_a_refused_c_replaces_the_receipt_with_one_sentence_and_a_decimal_comma_is_taken(teacher, monkeypatch):
    student = open_session(monkeypatch, room_code(teacher))
    teacher.button(key="room_ask_flip").click().run()
    student.run()

    def send(typed):
        send_c(student, typed)

    send("2,7")  # a European keyboard
    assert "Answer received: C = 2.7" in texts(student)
    send("1e308")  # stretched the reveal's axis, then broke its JSON (issue 50)
    said = texts(student)
    assert "'1e308' was not taken: C must be a number from 0 to " in said and "Your answer C = 2.7 still counts." in said
    assert "Answer received" not in said  # not beside the refusal
    send("2.6")
    assert "Answer received: C = 2.6" in texts(student) and "was not taken" not in texts(student)


def test_replacing_a_question_with_answers_asks_first_and_keeps_its_answers_in_the_history(teacher, monkeypatch):
    student = open_session(monkeypatch, room_code(teacher))
    answer_buttons(student)[0].click().run()
    teacher.run()
    assert count(teacher) == "1 of 1 answered"
    teacher.button(key="room_ask_flip").click().run()  # a misclick beside Reveal
    assert count(teacher) == "1 of 1 answered" and "Which child does UCB1 pick" in texts(teacher)
    assert "Question 1 has 1 answer and is not revealed yet. Replace it?" in texts(teacher)
    teacher.button(key="room_keep").click().run()
    assert count(teacher) == "1 of 1 answered" and "Replace it?" not in texts(teacher)
    teacher.button(key="room_ask_flip").click().run()
    teacher.button(key="room_replace").click().run()
    assert not teacher.exception and "At which C does the choice at the root flip?" in texts(teacher)
    assert count(teacher) == "0 of 1 answered"
    teacher.button(key="room_ask_choice").click().run()  # no answers yet: asked at once
    assert "Replace it?" not in texts(teacher) and "Which child does UCB1 pick" in texts(teacher)
    code = room_code(teacher)
    history = history_csv(RoomStore().history(code, teacher.session_state["_room_secrets"][code]))
    assert [row[:3] for row in csv.reader(io.StringIO(history))][1:] == [["1", "choice", ""], ["2", "flip", ""], ["3", "choice", ""]]
    assert [row["answered"] for row in csv.DictReader(io.StringIO(history))] == ["1", "0", "0"]


class FailingStore(RoomStore):
    """The room store while its disk fails: every poll raises the store's error."""

    def state(self, code, token=None):
        raise StoreError(failure_words(sqlite3.OperationalError("disk I/O error"), "the room store", "answers"))


def test_a_failing_store_is_one_sentence_in_both_views_and_they_recover_with_it(teacher, monkeypatch):
    from ui.room import live_room, room_student, room_teacher

    student = open_session(monkeypatch, room_code(teacher))
    monkeypatch.setattr(room_teacher, "RoomStore", FailingStore)  # the count's poll
    monkeypatch.setattr(room_student, "RoomStore", FailingStore)  # the student's page and poll
    teacher.run()
    student.run()
    for app in (teacher, student):
        assert not app.exception
        assert "The room store failed: disk I/O error." in texts(app)
        assert "failed: the room store failed" not in texts(app)  # said once
    monkeypatch.setattr(live_room, "RoomStore", FailingStore)  # the teacher's page too
    teacher.run()
    assert not teacher.exception and texts(teacher).count("The room store failed: disk I/O error.") == 1
    monkeypatch.undo()
    monkeypatch.setattr(app_test_module, "PagesManager", NavigationPagesManager)
    teacher.run()
    student.run()
    assert count(teacher) == "0 of 1 answered" and [button.label for button in answer_buttons(student)] == ["a", "b"]


def test_wrong_codes_from_the_same_address_only_delay_a_student_with_the_right_code(teacher, monkeypatch):
    from mcts_core.classroom import room_store
    from ui.room import live_room

    code = room_code(teacher)
    monkeypatch.setattr(live_room, "_address", lambda: "school")  # a classroom behind one NAT address
    store = RoomStore()
    for index in range(room_store.ADDRESS_FREE_CODES):  # another browser, a new token per try
        with pytest.raises(RoomRefused):
            store.join(f"ZZZZ{CODE_ALPHABET[index // 31]}{CODE_ALPHABET[index % 31]}", f"{index:032x}", "school")
    student = open_session(monkeypatch, code)
    assert "Wrong room codes were tried from this network a moment ago: trying again in" in texts(student)
    assert not answer_buttons(student) and not student.exception
    monkeypatch.setattr(room_store, "ADDRESS_PAUSE_SECONDS", 0)  # the pause is over
    student.run()  # the page's own try again
    assert [button.label for button in answer_buttons(student)] == ["a", "b"]


def test_a_student_page_waits_for_its_browser_before_joining(teacher, monkeypatch):
    student = open_session(monkeypatch, room_code(teacher), report=False)
    assert f"Opening room {room_code(teacher)}…" in texts(student) and not answer_buttons(student)
    teacher.run()
    assert count(teacher) == "No one has joined yet"  # not joined yet: the browser has not said who it is


def test_the_teacher_who_reloads_keeps_the_room_and_a_wrong_secret_is_a_student(teacher, monkeypatch):
    code = room_code(teacher)
    secret = teacher.session_state["_room_secrets"][code]
    teacher.button(key="room_ask_flip").click().run()
    reloaded = open_session(monkeypatch, code, token="d" * 32, rooms={code: secret})
    assert [button.label for button in reloaded.button if button.key == "room_reveal"] == ["Reveal"]
    assert "At which C does the choice at the root flip?" in texts(reloaded)
    assert count(reloaded) == "No one has joined yet"  # the teacher is not counted as a student
    forger = open_session(monkeypatch, code, token="e" * 32, rooms={code: secret[:-1] + "x"})
    assert not [button for button in forger.button if button.key == "room_reveal"]
    assert c_box(forger) == {"label": "Your C", "placeholder": "e.g. 2.5", "button": "Send", "disabled": False}  # a student's view


def test_markup_in_moves_is_shown_as_text_on_the_buttons(monkeypatch):
    app = start_app(monkeypatch, PAGE)
    app.text_area(key="playouts").input("2 1\n*_ 1\n<b> 2\n").run()
    app.button(key="room_open").click().run()
    student = open_session(monkeypatch, room_code(app))
    assert [button.label for button in answer_buttons(student)] == ["\\*", "\\<"]  # escaped markdown: * and <


def test_a_link_without_a_room_says_so(monkeypatch):
    for code, words in (("K7M", "“K7M” is not a room code"), ("K7M2QX", "There is no room K7M2QX")):
        student = open_session(monkeypatch, code)
        assert words in texts(student) and not answer_buttons(student)


def test_closing_the_room_returns_the_teacher_to_the_classroom_and_tells_the_students(teacher, monkeypatch):
    code = room_code(teacher)
    student = open_session(monkeypatch, code)
    answer_buttons(student)[0].click().run()
    teacher.button(key="room_close").click().run()
    assert not teacher.exception and "room" not in dict(teacher.query_params)
    (history,) = [button for button in teacher.get("download_button") if button.proto.id.endswith("room_closed_history")]
    assert history.proto.label == f"Room {code}'s history (CSV)"  # its teacher downloads it after Close
    assert "Which child does UCB1 pick at the root?" in texts(teacher)  # the single-screen exercise
    assert teacher.session_state["selected_path"] == "aa"  # on the room's input, "A larger C flips the choice"
    student.run()
    assert f"The teacher closed room {code}" in texts(student) and not answer_buttons(student)


def test_a_node_with_many_children_is_answered_from_a_menu_under_any_rule(monkeypatch):
    # 30 children (a joint node of a simultaneous game has thousands), PUCT from the sidebar.
    moves = [f"m{index:02d}" for index in range(30)]
    log = "\n".join(f'{{"path": ["{move}"], "score": {index % 7}}}' for index, move in enumerate(moves))
    app = start_app(monkeypatch, PAGE)
    app.text_area(key="playouts").input('{"mcts_log": 1}\n' + log + "\n").run()
    app.selectbox(key="rule").select("puct").run()
    app.button(key="room_open").click().run()
    assert not app.exception
    assert "Which child does PUCT (AlphaZero) pick at the root?" in texts(app)
    students = [open_session(monkeypatch, room_code(app), token=f"{index:032x}") for index in range(2)]
    for index, student in enumerate(students):
        assert not answer_buttons(student)
        menu = student.selectbox(key="room_answer_menu")
        assert menu.options == moves
        menu.select(moves[index]).run()
        assert f"Answer received: ` {moves[index]} `" in texts(student)
    app.run()
    app.button(key="room_reveal").click().run()
    assert not app.exception
    bars = {bar["move"]: (bar["answers"], bar["answer"]) for bar in chart_rows(app)}  # not 30 bars: the answered and the right one
    right = app.session_state["selected_path"]
    assert bars == {"m00": (1, "right" if right == "m00" else "other"), "m01": (1, "right" if right == "m01" else "other"),
                    right: (int(right in ("m00", "m01")), "right")}


def test_a_typed_code_joins_the_room(teacher, monkeypatch):
    code = room_code(teacher)
    student = open_session(monkeypatch, None)  # the Classroom page, no link
    student.text_input(key="room_join_code").input(f" {code[:3].lower()}-{code[3:]} ").run()
    student.button(key="room_join").click().run()
    assert not student.exception and room_code(student) == code
    assert [button.label for button in answer_buttons(student)] == ["a", "b"]
    assert not [box for box in student.text_input if box.key == "room_join_code"]  # the room's page has no join box


@pytest.mark.parametrize(("ip_address", "forwarded", "address"), [
    ("192.168.1.20", "", "192.168.1.20"),  # a school's NAT address: every student's
    (None, "", "localhost"),  # this machine: every session shares it (it was one per session)
    (None, "6.6.6.6, 10.0.0.7", "forwarded 10.0.0.7"),  # a proxy on this machine appended the last one
])
def test_wrong_codes_are_counted_per_address_on_localhost_and_behind_a_proxy_too(monkeypatch, ip_address, forwarded, address):
    from types import SimpleNamespace

    from ui.room import live_room

    context = SimpleNamespace(ip_address=ip_address, headers={"X-Forwarded-For": forwarded} if forwarded else {})
    monkeypatch.setattr(live_room, "st", SimpleNamespace(context=context))
    assert live_room._address() == address


def test_the_teacher_removes_a_student_whose_page_says_so_and_who_joins_again_by_typing_the_code(teacher, monkeypatch):
    code = room_code(teacher)
    kept, removed = open_session(monkeypatch, code, token="a" * 32), open_session(monkeypatch, code, token="b" * 32)
    assert "Live room " + code + " · you are student 2" in texts(removed)
    removed.button(key="room_answer_1").click().run()
    teacher.run()
    assert count(teacher) == "1 of 2 answered"
    chosen = teacher.selectbox(key="room_student_chosen")
    assert chosen.options == ["Student 1 · here · no answer yet", "Student 2 · here · answered"]
    chosen.select(2).run()
    teacher.button(key="room_remove").click().run()
    assert not teacher.exception and count(teacher) == "0 of 1 answered"  # their answer went with them
    assert teacher.selectbox(key="room_student_chosen").options == ["Student 1 · here · no answer yet"]
    removed.run()  # the poll
    said = f"The teacher removed you from room {code}: to join again, type its code under “Join a room”."
    assert said in texts(removed) and not answer_buttons(removed)
    reloaded = open_session(monkeypatch, code, token="b" * 32)  # the link again: not enough
    assert said in texts(reloaded) and not answer_buttons(reloaded)
    reloaded.text_input(key="room_join_code").input(code).run()
    reloaded.button(key="room_join").click().run()
    assert not reloaded.exception and [button.label for button in answer_buttons(reloaded)] == ["a", "b"]
    teacher.run()
    assert count(teacher) == "0 of 2 answered"
    assert [button.label for button in answer_buttons(kept)] == ["a", "b"]


def test_joins_beyond_the_address_s_minute_wait_with_a_sentence_and_try_again_by_themselves(teacher, monkeypatch):
    from mcts_core.classroom import room_store
    from ui.room import live_room

    code = room_code(teacher)
    monkeypatch.setattr(live_room, "_address", lambda: "a school's joins")  # not slowed by another test's wrong codes
    monkeypatch.setattr(room_store, "JOINS_PER_MINUTE", 2)
    first, second = (open_session(monkeypatch, code, token=token) for token in ("a" * 32, "b" * 32))
    late = open_session(monkeypatch, code, token="c" * 32)
    assert "2 students joined from this network in the last minute: trying again in" in texts(late)
    assert not answer_buttons(late) and not late.exception
    monkeypatch.setattr(room_store, "JOINS_PER_MINUTE", 3)  # the minute is over
    late.run()  # the page's own try again
    assert [button.label for button in answer_buttons(late)] == ["a", "b"]
    teacher.run()
    assert count(teacher) == "0 of 3 answered"


def test_the_count_is_of_the_students_present(teacher, monkeypatch):
    import time

    from mcts_core.classroom import PRESENT_SECONDS
    from ui.room import room_teacher

    code = room_code(teacher)
    open_session(monkeypatch, code, token="a" * 32)
    open_session(monkeypatch, code, token="b" * 32).button(key="room_answer_0").click().run()
    teacher.run()
    assert count(teacher) == "1 of 2 answered"

    class Later(RoomStore):
        """The store a minute and more later: neither page has polled since."""

        def __init__(self):
            super().__init__(clock=lambda: time.time() + PRESENT_SECONDS + 5)

    monkeypatch.setattr(room_teacher, "RoomStore", Later)
    teacher.run()
    assert count(teacher) == "1 of 1 answered"  # the one who answered counts; the closed tab does not
    teacher.button(key="room_reveal").click().run()
    teacher.button(key="room_ask_choice").click().run()
    assert count(teacher) == "No student is here now"


def test_a_teacher_whose_browser_blocks_storage_is_told_the_room_s_key_lives_in_this_tab_only(teacher):
    teacher.session_state[BROWSER] = {"keys": {"student": "f" * 32, "rooms": {}, "stored": False}}
    teacher.run()
    assert "This browser does not keep what this site stores" in texts(teacher)
    assert "if this tab reloads or closes, you are no longer its teacher" in texts(teacher)
    assert "make a Teacher link now" in texts(teacher)  # the way to keep the room: another browser
    teacher.session_state[BROWSER] = {"keys": {"student": "f" * 32, "rooms": {}, "stored": True}}
    teacher.run()
    assert "does not keep" not in texts(teacher)
