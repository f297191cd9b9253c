"""Shared fixtures. Helpers live in importable modules (apptest_support, cases, reference)."""

import os
from pathlib import Path

import pytest

from apptest_support import start_app


@pytest.fixture(autouse=True, scope="session")
def data_folder(tmp_path_factory):
    """The store, results and everything the app saves go to a fresh folder, not the repository's data/."""
    folder = tmp_path_factory.mktemp("data")
    previous = os.environ.get("MCTS_EXPLORER_DATA")
    os.environ["MCTS_EXPLORER_DATA"] = str(folder)  # browser tests' servers inherit it
    yield folder
    if previous is None:
        os.environ.pop("MCTS_EXPLORER_DATA", None)
    else:
        os.environ["MCTS_EXPLORER_DATA"] = previous


@pytest.fixture
def app(monkeypatch, request):
    """The app after its first run, on the test module's ``PAGE`` (the Explorer if unset).

    A module's ``INPUT``, if set, is typed into the text area first.
    """
    app = start_app(monkeypatch, getattr(request.module, "PAGE", None))
    text = getattr(request.module, "INPUT", None)
    if text is not None:
        app.text_area(key="playouts").input(text).run()
        assert not app.exception
    return app


@pytest.fixture(scope="session")
def user_uploads(tmp_path_factory) -> dict[str, Path]:
    """The every-input tours' uploads (tests/user_inputs.py), made once a session."""
    from user_inputs import make_uploads  # here: what it imports (OpenSpiel, Playwright) only tours need

    return make_uploads(tmp_path_factory.mktemp("user_inputs"))


BROWSER_TESTS = Path(__file__).resolve().parent / "browser"


def pytest_collection_modifyitems(items):
    """Every test under tests/browser drives chromium: marked ``browser``, so ``-m "not browser"``
    is the quick run without them (README). They run first: a browser file takes up to minutes,
    and with the README's ``--dist loadfile`` the short files left at the end even out the two
    processes' finishing times."""
    in_browser = {id(item): BROWSER_TESTS in Path(item.fspath).parents for item in items}
    for item in items:
        if in_browser[id(item)]:
            item.add_marker(pytest.mark.browser)
    items.sort(key=lambda item: not in_browser[id(item)])  # stable: each file's own order is kept
