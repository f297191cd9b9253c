"""Browser tests: one `streamlit run app.py` per session, driven by Debian's chromium via Playwright.

pytest-playwright provides the browser; its launch arguments are overridden here to run Debian's
``/usr/bin/chromium-headless-shell``. With CI=true a missing browser fails the suite; locally it skips.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

import required
from bench.harness.server import CHROMIUM_ARGS, TEST_CHROMIUM, OUTPUT, REPO, in_ci, start_streamlit, stop_streamlit

# An expectation waits for the page's state up to this long (Playwright's default is 5 s). It only
# bounds a wait that fails: a page that shows the state sooner passes sooner. On 2 cores shared by two
# test processes, their servers and chromium, a script run's result took more than 5 s to show.
expect.set_options(timeout=20_000)


@pytest.fixture(scope="session")
def app_url(tmp_path_factory) -> str:
    """Base URL of `streamlit run app.py` started from the repository root for this session."""
    required.program("dot")  # every page draws its tree with graphviz
    log_path = tmp_path_factory.mktemp("streamlit") / "server.log"
    process, url = start_streamlit(Path("app.py"), log_path, cwd=REPO)
    yield url
    stop_streamlit(process)


@pytest.fixture
def dark_app_url(app_url, page) -> str:
    """The same app in the dark theme, on the same server: the page's system theme is dark, which the
    app follows (it configures none), as a user's browser set to dark would."""
    page.emulate_media(color_scheme="dark")
    return app_url


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """pytest-playwright's launch arguments, pointed at Debian's chromium."""
    if not Path(TEST_CHROMIUM).exists():
        reason = f"chromium's headless shell not found at {TEST_CHROMIUM} (apt-get install -y chromium-headless-shell)"
        if in_ci():
            pytest.fail(f"CI=true and {reason}", pytrace=False)
        pytest.skip(reason)
    return {
        **browser_type_launch_args,
        "executable_path": TEST_CHROMIUM,
        "args": CHROMIUM_ARGS,
        "headless": True,
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": {"width": 1400, "height": 1000}, "accept_downloads": True}


@pytest.fixture(scope="session")
def visitor_context(browser, browser_context_args):
    """One browser context for the session's tests. Chromium keeps the app's scripts (served
    immutable) fetched and compiled from one test to the next; a context per test fetched and
    compiled them again each time."""
    context = browser.new_context(**browser_context_args)
    yield context
    context.close()


@pytest.fixture
def page(visitor_context, app_url):
    """A new tab for each test, as a first-time visitor: the cookies and the app's localStorage
    (Recent, a teacher's room keys) the test left are cleared when it ends."""
    tab = visitor_context.new_page()
    yield tab
    for open_tab in visitor_context.pages:
        open_tab.close()
    visitor_context.clear_cookies()
    cleaner = visitor_context.new_page()
    cleaner.goto(app_url.rstrip("/") + "/_stcore/health")  # a document of the app's origin
    cleaner.evaluate("localStorage.clear()")
    cleaner.close()


@pytest.fixture(scope="session")
def output_dir() -> Path:
    """Where screenshots go (git-ignored)."""
    OUTPUT.mkdir(exist_ok=True)
    return OUTPUT
