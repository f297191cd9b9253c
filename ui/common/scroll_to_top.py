"""Back to the top of the page when a new run starts, so that what it shows is in view.

A small component (``ui/common/scroll_to_top.js``, no iframe, nothing loaded from the network,
nothing sent back, nothing shown): when its ``mark`` changes between two runs of the page, the
page's scrolling area goes back to its top. A page whose Run folds its settings away uses it: a
user who scrolled down to reach Run would otherwise look at the middle of the results.
"""

from __future__ import annotations

import streamlit as st

from ui.common.components import asset_component

_component = asset_component("mcts_scroll_to_top", "common/scroll_to_top")


def render(*, key: str, mark: str | None) -> None:
    """Scroll to the top when ``mark`` (e.g. the latest run's start) differs from the last one drawn."""
    _component(key=key, data={"mark": mark}, height=0)
    # Its element would still take a gap of the page's column (1rem); the key is ours, not user text.
    st.html(f"<style>.st-key-{key} {{ display: none; }}</style>")
