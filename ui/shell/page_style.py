"""The app's own static CSS (no user text in it): room for content on a 768-pixel projector."""

import streamlit as st

PAGE_CSS = """
<style>
/* Streamlit leaves 6rem above every page: a projector's 768 px need it for content. */
.stMainBlockContainer { padding-top: 2.5rem; }
/* Beside the sidebar Streamlit's wide pages keep 5rem each side from 864 px on: 2rem gives a
   1366-pixel screen's content (a left-to-right picture) 96 px more, 13 columns of labels at 12 px. */
@media (min-width: 864px) {
  .stMainBlockContainer { padding-left: 2rem; padding-right: 2rem; }
}
/* A metric value wraps rather than ending in "...": ui/common/metric_row.py gives a long one (a path) its
   own line, where it must show whole. */
[data-testid="stMetricValue"] .stMarkdownEllipsis, [data-testid="stMetricValue"] p {
  white-space: normal; overflow-wrap: anywhere; text-overflow: clip;
}
</style>
"""


def apply() -> None:
    """Add the app's CSS to this run's page."""
    st.html(PAGE_CSS)
