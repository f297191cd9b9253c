"""The one guard against Streamlit running a page file without the app shell."""

from __future__ import annotations

import runpy

import streamlit as st

from ui.common.navigation import APP_PATH


def run_app_shell_instead() -> None:
    """Run app.py in place of the page that was started alone, then stop the page.

    On a fresh server, a first request to a page's URL takes Streamlit's legacy pages/-folder
    route, which runs the page file without app.py (no sidebar, no loaded input). app.py's
    st.navigation turns that route off for the process and runs the page inside the shell.
    """
    runpy.run_path(str(APP_PATH), run_name="__main__")
    st.stop()
