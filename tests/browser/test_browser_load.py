"""Several browser sessions at once: each sees only its own input, at its own C, on every page.

The rule: a session never shows another session's input (its id in the URL, its tree's nodes, its
selected path, its playout count, its text), whatever the others do at the same moment; and no
session gets an exception or a console error. Three sessions in one chromium (three browser
contexts: three cookie jars, three Streamlit sessions), each with its own pasted playouts over
its own four letters, move C and switch pages. Their actions are interleaved: all three act, then
all three are awaited, so the server always has three reruns in flight at once.

The short form of ``bench/bench_load.py`` (ten sessions, round-trip latency, server CPU and
memory); both drive their sessions with :mod:`bench.harness.load_tour`. No timing assertions. The
server's memory with big uploads (released once a session closes, one copy for the same file
uploaded twice) is a figure of the benchmark's memory part, not a test.
"""

from __future__ import annotations

from bench.harness.load_tour import (
    TOUR,
    Own,
    Session,
    run_interleaved,
    session_letters,
    session_text,
)

SESSIONS = 3


def test_sessions_at_once_each_see_only_their_own_input(browser, app_url):
    """Three sessions typing, moving C and switching pages at once: each always sees its own input."""
    owns = [Own(session_text(index), session_letters(index)) for index in range(SESSIONS)]
    keys = {own.key for own in owns}
    assert len(keys) == SESSIONS
    contexts = [browser.new_context(viewport={"width": 1400, "height": 1000}) for _ in owns]
    try:
        sessions = [Session(context.new_page(), own, frozenset(keys - {own.key})) for context, own in zip(contexts, owns)]
        for session in sessions:
            session.go(app_url)
        for session in sessions:
            session.open()  # and types its input, while the next one's first run goes on
        for session in sessions:
            session.settle_input()
        run_interleaved(sessions)
        for session in sessions:
            session.watched.assert_clean()
            # Every session was checked on every page, its path on the three pages that show one.
            assert session.pages_checked == set(TOUR) and session.path_checks >= 3 and session.labels > 0
    finally:
        for context in contexts:
            context.close()
