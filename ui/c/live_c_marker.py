"""A live C line over a page's C-axis charts: it follows a drag of the C slider with no server round trip.

The C control (``ui/c/c_control.js``) announces every frame of a drag in the browser; the
component here (``ui/c/live_c_marker.js``, no iframe, nothing loaded from the network, nothing
sent back) moves a red line, with the dragged C's value, over each chart's plot area and hides the
chart's own rule at the committed C until the rerun after release draws it at the new C. The charts
must be Vega SVG (``SVG_CHART`` in their ``usermeta``) with a linear C axis spanning exactly
[c_from, c_to], each in a keyed container (Streamlit gives charts no ``st-key-`` class), and their
committed-C rule a layer named ``rule_layer``.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from ui.common.colours import CURRENT_COLOUR
from ui.common.components import asset_component

# Vega-Lite's embed option for SVG: the browser can read a chart's plot area and marks from its elements.
SVG_CHART = {"embedOptions": {"renderer": "svg"}}

_component = asset_component("mcts_live_c_marker", "c/live_c_marker")


def render(
    *, key: str, c_from: float, c_to: float, containers: Sequence[str], rule_layer: str, role: str = "selected",
    value_below: Sequence[str] = (),
) -> None:
    """Follow the drag of C (``role``: the page's C, or Compare's "second") over the charts in these
    keyed ``containers``, whose C axis spans [c_from, c_to]; the marker itself takes no room.

    The line's value sits at the top of the plot, or, in the charts of ``value_below`` (those of
    ``containers`` with room under the plot and text marks in it), under the plot, off their text.
    """
    data = {
        "c_from": c_from,
        "c_to": c_to,
        "charts": [f"st-key-{name}" for name in containers],
        "value_below": [f"st-key-{name}" for name in value_below],
        "rule": f"{rule_layer}_marks",  # Vega-Lite names a layer's mark group "<name>_marks"
        "role": role,
        "colour": CURRENT_COLOUR,
    }
    _component(key=key, data=data, height=0)
    # Its element would still take a gap of the page's column (1rem); the key is ours, not user text.
    st.html(f"<style>.st-key-{key} {{ display: none; }}</style>")
