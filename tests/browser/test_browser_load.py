"""Several browser sessions at once: each sees only its own input, at its own C, on every page.

The rule: a session never shows another session's input (its id in the URL, its tree's nodes, its
selected path, its playout count, its text), whatever the others do at the same moment; and no
session gets an exception or a console error. Three sessions in one chromium (three browser
contexts: three cookie jars, three Streamlit sessions), each with its own pasted playouts over
its own four letters, move C and switch pages. Their actions are interleaved: all three act, then
all three are awaited, so the server always has three reruns in flight at once.

The short form of ``bench/bench_load.py`` (ten sessions, round-trip latency, server CPU and
memory); both drive their sessions with :mod:`bench.harness.load_tour`. No timing assertions.
"""

from __future__ import annotations

from playwright.sync_api import expect

from bench.harness.load_tour import TOUR, Own, Session, run_interleaved, session_letters, session_text


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


def _rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        return int(status.read().split("VmRSS:")[1].split()[0]) / 1024


def _settled_rss_mib(pid: int, timeout: float = 20.0) -> float:
    """The server's resident memory once it has stopped changing (within 1 MiB for a second).

    Taking in an upload passes through up to three copies of the file for a moment (the request's
    chunks, the body, the run's copy); what a session holds is what is left once they are freed.
    """
    import time

    samples = [_rss_mib(pid)]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        time.sleep(0.25)
        samples.append(_rss_mib(pid))
        last = samples[-5:]
        if len(last) == 5 and max(last) - min(last) < 1:
            return last[-1]
    raise AssertionError(f"the server's memory did not settle in {timeout:.0f} s: {[round(s) for s in samples[-12:]]} MiB")


def test_an_upload_leaves_the_server_once_its_session_has_closed(browser, tmp_path):
    import time
    from pathlib import Path

    from bench.harness.browser import open_app, playout_file, tree_facts, wait_idle
    from bench.harness.server import REPO, start_streamlit, stop_streamlit

    upload = playout_file(tmp_path / "big.txt", 1_000_000, seed=3, moves="wxyz")  # 32 MiB
    size_mib = upload.stat().st_size / 2**20
    process, url = start_streamlit(Path("app.py"), tmp_path / "server.log", cwd=REPO,
                                   options=("--server.disconnectedSessionTTL", "2"))
    try:
        context = browser.new_context()
        page = context.new_page()
        open_app(page, url)
        page.locator('.st-key-upload input[type="file"]').set_input_files(upload)
        expect(tree_facts(page)).to_contain_text("The tree of 1,000,000 playouts,", timeout=300_000)
        wait_idle(page)
        with_upload = _settled_rss_mib(process.pid)
        context.close()
        time.sleep(4)  # past the 2 s the closed session is kept for reconnecting
        other = browser.new_context()
        try:
            open_app(other.new_page(), url)  # a run of any session releases what closed ones held
        finally:
            other.close()
        released = with_upload - _settled_rss_mib(process.pid)
        # The parsed input stays cached for everyone; the upload's bytes (the file, once) go.
        assert released > 0.8 * size_mib, f"{released:.0f} MiB released of a {size_mib:.0f} MiB upload"
    finally:
        stop_streamlit(process)


def test_a_second_session_uploading_the_same_file_adds_the_file_once_not_twice(browser, tmp_path):
    from pathlib import Path

    from bench.harness.browser import open_app, playout_file, tree_facts, wait_idle
    from bench.harness.server import REPO, start_streamlit, stop_streamlit

    upload = playout_file(tmp_path / "same.txt", 2_000_000, seed=4, moves="wxyz")  # 63 MiB
    size_mib = upload.stat().st_size / 2**20
    process, url = start_streamlit(Path("app.py"), tmp_path / "server.log", cwd=REPO)
    contexts = []
    try:
        rss = []
        for _ in range(2):
            contexts.append(browser.new_context())
            page = contexts[-1].new_page()
            open_app(page, url)
            page.locator('.st-key-upload input[type="file"]').set_input_files(upload)
            expect(tree_facts(page)).to_contain_text("The tree of 2,000,000 playouts,", timeout=300_000)
            wait_idle(page)
            rss.append(_settled_rss_mib(process.pid))
        # Parsed once; the second session holds Streamlit's copy of its upload, not a second one of ours.
        added = rss[1] - rss[0]
        assert added < 1.5 * size_mib, (
            f"the second session added {added:.0f} MiB for a {size_mib:.0f} MiB file "
            f"(server: {rss[0]:.0f} MiB with one session, {rss[1]:.0f} MiB with two)"
        )
    finally:
        for context in contexts:
            context.close()
        stop_streamlit(process)
