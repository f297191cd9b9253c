"""The server's log over a short tour, as a newcomer with it open sees it: the first C sweep, a deep
link, an arena in two worker processes; no warning and no traceback. Its own server, for its own log
(the session's server logs every other test's doings)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

import required
from bench.harness.browser import LOAD_TIMEOUT, ServerMessages, eventually, metric_value, open_app, wait_idle
from bench.harness.server import REPO, start_streamlit, stop_streamlit
from .test_browser_live_room import PHONE, answer_button, open_room
from .test_browser_strength import commit

required.module("pyspiel")

# What a server log shows when something went wrong or may: any logged line but the server's start
# (Streamlit's log lines start with the time; some say no level), a traceback or a stack.
LOGGED = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ ")
EXPECTED = re.compile(r"Uvicorn server started on ")
STACK = re.compile(r"Traceback \(most recent call last\)|Stack \(most recent call last\)")


def alarming(line: str) -> bool:
    return bool(LOGGED.match(line) and not EXPECTED.search(line) or STACK.search(line))


@pytest.fixture(scope="module")
def logged_server(tmp_path_factory):
    """(the app's URL, its server's log) for this file alone."""
    log = tmp_path_factory.mktemp("server_log") / "server.log"
    process, url = start_streamlit(Path("app.py"), log, cwd=REPO)
    yield url, log
    stop_streamlit(process)


def test_a_short_tour_leaves_nothing_alarming_in_the_server_log(page, logged_server):
    url, log = logged_server
    server = ServerMessages(page)
    open_app(page, url, "/sweep")  # the first C sweep of the session
    server.settle()
    expect(metric_value(page, "Intervals")).to_be_visible()
    page.goto(url + "/playback?k=2&c=0.5")  # a deep link
    expect(metric_value(page, "Playout")).to_have_text("2 / 3")
    wait_idle(page)
    open_app(page, url, "/strength")  # an arena in two worker processes
    page.locator(".st-key-strength_game").click()
    page.get_by_role("option", name="Tic-tac-toe (mostly draws)").click()
    wait_idle(page)
    commit(page, "strength_c_values", "0.5, 2")
    commit(page, "strength_games", "4")
    commit(page, "strength_simulations", "5")
    commit(page, "strength_workers", "2")
    page.locator(".st-key-strength_run button").click()
    expect(page.get_by_role("heading", name="Elo against MCTS at C = 1.4")).to_be_visible(timeout=120_000)
    server.settle()
    text = log.read_text(errors="replace")
    assert not any(alarming(line) for line in text.splitlines()), "the server log says:\n" + text


def test_a_room_s_polls_sent_before_its_page_changed_find_their_fragments(page, logged_server, browser):
    """A poll the browser sent just before a run that changed the page (the teacher's link shown above
    the count; the room closed under a student) reaches a server that still knows the poll's fragment.
    Streamlit logged "The fragment with id ... does not exist anymore" when the count moved down the
    page with the link (a fragment's id is its place) and when the student's page called its answers
    only while it asked."""
    url, log = logged_server
    teacher = StreamRelay(page)
    link = open_room(page, url)
    student = browser.new_context(viewport=PHONE).new_page()
    socket = StreamRelay(student)
    student.goto(link)
    expect(answer_button(student, "a")).to_be_visible(timeout=LOAD_TIMEOUT)
    eventually(lambda: socket.polls > 0, True, page=student)  # a poll of the answers' fragment went out
    page.get_by_role("button", name="Teacher link").click()
    expect(page.locator(".st-key-room_teacher_link")).to_be_visible()
    eventually(lambda: teacher.running, False, page=page)  # the run that drew the link has ended
    resend_poll(teacher, log, page)  # as if sent just before that run's messages arrived
    page.get_by_role("button", name="Close room").click()
    expect(student.get_by_text("The teacher closed room")).to_be_visible(timeout=LOAD_TIMEOUT)
    eventually(lambda: socket.running, False, page=student)  # the run that stopped polling has ended
    resend_poll(socket, log, student)
    text = log.read_text(errors="replace")
    assert not any(alarming(line) for line in text.splitlines()), "the server log says:\n" + text
    student.context.close()


def resend_poll(relay: StreamRelay, log: Path, page) -> None:
    """Send the page's last poll again; wait until its fragment ran, or the server logged it could not."""
    before = relay.fragment_runs
    relay.send_last_poll()
    eventually(lambda: relay.fragment_runs > before or "does not exist anymore" in log.read_text(), True, page=page)


class StreamRelay:
    """A page's Streamlit socket relayed through Playwright: counts the fragment polls the page sends
    (keeping the last), follows whether a script runs and counts fragment runs that ended, and can
    send the last poll again. Made before the page opens the app."""

    def __init__(self, page):
        self.polls = self.fragment_runs = 0
        self.running = False
        self.last_poll = None
        self.server = None
        page.route_web_socket(re.compile(r"/_stcore/stream$"), self._route)

    def _route(self, socket) -> None:
        self.server = socket.connect_to_server()

        def to_server(message) -> None:
            back = BackMsg()
            if isinstance(message, bytes):
                back.ParseFromString(message)
                if back.WhichOneof("type") == "rerun_script" and back.rerun_script.is_auto_rerun:
                    self.polls += 1
                    self.last_poll = message
            self.server.send(message)

        def to_page(message) -> None:
            if isinstance(message, bytes):
                forward = ForwardMsg()
                forward.ParseFromString(message)
                kind = forward.WhichOneof("type")
                if kind == "session_status_changed":
                    self.running = forward.session_status_changed.script_is_running
                elif kind == "script_finished":
                    self.fragment_runs += forward.script_finished == ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY
            socket.send(message)

        socket.on_message(to_server)
        self.server.on_message(to_page)

    def send_last_poll(self) -> None:
        self.server.send(self.last_poll)
