"""Shared fixtures. Helpers live in importable modules (apptest_support, cases, reference)."""

import pytest

from apptest_support import start_app


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
