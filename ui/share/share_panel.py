"""A page's "Share" button: the link to the view on screen, and the view as a bundle (zip).

Pages call :func:`render` at the end of the fragment C reruns, with what their view adds to the
input, C and rule (the inspected node, the drawing limits, the drawn picture, Compare's setting B,
Playback's k). It also puts the
view in the URL, so a reload or the back button finds it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import streamlit as st

from mcts_core import Scoring
from mcts_core.inputs import View, bundle_bytes
from ui.common import state
from ui.common.markdown import escape
from ui.setup import input_panel
from ui.setup.inputs import LoadedInput
from ui.share import share

# Session-state keys this module owns.
SHARE_BUNDLE = state.key("share_bundle")
SHARE_OPEN = state.key("share_open")


def render(loaded: LoadedInput, scoring: Scoring, page: str, *, inspected: Sequence[str] = (), limits: Mapping[str, Any] | None = None,
           dot: Callable[[], str] | None = None, b: Scoring | None = None, k: int | None = None,
           rule_path: bool | None = None) -> None:
    """Publish the view in the URL and draw the Share button (in the current container).

    Args:
        loaded: the page's input.
        scoring: the rule, C and settings on screen.
        page: the page's URL path ("" for the Explorer).
        inspected: the inspected node's moves (the Explorer).
        limits: the drawing limits by link name (``share.LIMIT_KEYS``).
        dot: gives the DOT of the picture on screen; None draws the bundle's own (the most visited
            nodes and the selected path).
        b: Compare's setting B.
        k: Playback's number of playouts replayed.
        rule_path: Playback draws the path the rule selects at C.
    """
    limits = dict(limits or {})
    params = share.view_params(loaded.input_id, scoring, analysis=loaded.read.analysis_number, b=b,
                               node=tuple(inspected) or None, k=k, rule_path=rule_path, **limits)
    share.publish(params)
    view = View(scoring, page, tuple(inspected), limits)
    data = input_panel.current_data()
    read = loaded.read
    # Its contents are made only while it is open: a commit of C reruns the page's fragment, which
    # then sends and renders none of them.
    share_box = st.popover("Share", icon=":material/share:", key=SHARE_OPEN, on_change="rerun")
    if not share_box.open:
        return
    with share_box:
        extras = "".join(part for part, given in ((", the node", inspected), (", setting B", b), (", k", k)) if given)
        st.caption(f"Link to this view (the input, C, the rule{extras}); reload and back keep it too.")
        st.code(share.link(page, params), language=None, wrap_lines=True)
        if loaded.store_problem:
            st.warning(escape(f"The link will not open this input elsewhere: {loaded.store_problem}"))
        st.download_button(
            "Download bundle (zip)",
            lambda: bundle_bytes(_as_bytes(data()), read, view, dot() if dot is not None else None),  # made on click
            file_name="mcts_view.zip",
            mime="application/zip",
            key=SHARE_BUNDLE,
            on_click="ignore",  # no rerun: it would give every file made on click a new id
            help="The input as given, the tree, every node's statistics (CSV), the picture (SVG and DOT) and "
            "these settings. Uploading the zip opens this view again.",
            width="stretch",
        )



def _as_bytes(data: str | bytes) -> bytes:
    return data.encode() if isinstance(data, str) else data
