"""The app's own static CSS (no user text in it): room for content on a 768-pixel projector."""

import streamlit as st

PAGE_CSS = """
<style>
/* Streamlit leaves 6rem above every page: a projector's 768 px need it for content. */
.stMainBlockContainer { padding-top: 2.5rem; }
</style>
"""


def apply() -> None:
    """Add the app's CSS to this run's page."""
    st.html(PAGE_CSS)
