"""AppTest for an st.navigation app whose pages live in a folder named ``pages/``.

AppTest (Streamlit 1.67) resets ``PagesManager.uses_pages_directory`` before every run; the
manager then sees ``pages/`` and turns the flag on, and from the second run on the script runner
takes the legacy multipage path and executes the page file alone, skipping app.py (and so the
sidebar). The real server resets the flag once and st.navigation clears it on the first run, so
only AppTest needs this: a PagesManager that clears the flag after its own detection.
"""

from streamlit.runtime.pages_manager import PagesManager


class NavigationPagesManager(PagesManager):
    """PagesManager that always uses st.navigation (v2) behaviour."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        PagesManager.uses_pages_directory = False


def set_c(app, c: float):
    """Commit C as a user does without a mouse: type it into the exact box. Returns the app, run."""
    return app.text_input(key="c_exact").input(repr(float(c))).run()
