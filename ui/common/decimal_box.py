"""A box for a number that raises a phone's numeric keypad, with its Send button.

A Streamlit text input cannot say ``inputmode="decimal"``, and a script that set it on Streamlit's
own input would write outside its component. So this component (``ui/common/decimal_box.js``, no
iframe, nothing loaded from the network) draws its own box and button in its own root. A Send (the
button, or Enter) reports the box's text with a new random id; :func:`sent` takes each send once,
before the page reads what the send changes.
"""

from __future__ import annotations

import streamlit as st

from ui.common import state
from ui.common.components import asset_component

_component = asset_component("mcts_decimal_box", "common/decimal_box")
TAKEN = state.key_family("_decimal_box_taken_{}")  # the id of a box's last send taken


def sent(key: str) -> str | None:
    """The text of the box ``key``'s newest send not taken yet, and marks it taken; None when there is none."""
    value = st.session_state.get(key)
    send = value.get("sent") if hasattr(value, "get") else None
    if not hasattr(send, "get") or not isinstance(send.get("text"), str) or not isinstance(send.get("id"), str):
        return None
    if send["id"] == st.session_state.get(TAKEN.format(key)):
        return None
    st.session_state[TAKEN.format(key)] = send["id"]
    return send["text"][:200]  # the longest answer worth reading


def box(label: str, *, key: str, placeholder: str = "", button: str = "Send", disabled: bool = False) -> None:
    """Draw the box and its button (read its sends with :func:`sent`, before)."""
    _component(key=key, data={"label": label, "placeholder": placeholder, "button": button, "disabled": disabled},
               default={"sent": None}, on_sent_change=lambda: None, height="content")
