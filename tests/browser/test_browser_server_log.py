"""The server's log over a short tour, as a newcomer with it open sees it: the first C sweep, a deep
link, an arena in two worker processes; no warning and no traceback. Its own server, for its own log
(the session's server logs every other test's doings)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

import required
from bench.harness.browser import ServerMessages, metric_value, open_app, wait_idle
from bench.harness.server import REPO, start_streamlit, stop_streamlit
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
