"""Buttons that step a number (Previous, Next) and count every click, however fast the clicks come.

Streamlit folds two clicks of one ``st.button`` that reach the server before its script yields into
one trigger, so a fast second click is lost while a slow run is under way. These buttons
(``ui/common/counted_steps.js``, no iframe, nothing from the network) send instead the value the
clicks lead to, with the click's number: the newest value the server gets carries every click.
The buttons of one group share the value clicked so far.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

import streamlit as st

from ui.common import state
from ui.common.components import asset_component

_component = asset_component("mcts_counted_steps", "common/counted_steps")
APPLIED = state.key_family("_counted_steps_applied_{}")  # a group's last click applied (its number)
SESSION = state.key("_counted_steps_session")  # this session's token: a new session starts the count anew


def _target(value) -> tuple[int, int] | None:
    """(value, click number) from a button's state, None when it has sent none (or sent nonsense)."""
    target = value.get("target") if hasattr(value, "get") else None
    if not hasattr(target, "get"):
        return None
    stepped, click = target.get("value"), target.get("click")
    if not all(isinstance(number, int) and not isinstance(number, bool) for number in (stepped, click)):
        return None
    return stepped, click


def clicked(keys: Sequence[str], group: str) -> int | None:
    """The value the group's newest click not applied yet leads to, and marks it applied; None when
    every click has been applied."""
    newest = max((target for key in keys if (target := _target(st.session_state.get(key))) is not None),
                 key=lambda target: target[1], default=None)
    if newest is None or newest[1] <= st.session_state.get(APPLIED.format(group), 0):
        return None
    st.session_state[APPLIED.format(group)] = newest[1]
    return newest[0]


def button(label: str, *, key: str, group: str, step: int, value: int, low: int, high: int) -> None:
    """A button that moves ``value`` by ``step`` within [low, high] (disabled where it cannot move);
    read the clicks with :func:`clicked` before drawing the group's buttons."""
    _component(
        key=key,
        data={"label": label, "step": step, "value": value, "low": low, "high": high, "group": group,
              "session": st.session_state.setdefault(SESSION, secrets.token_hex(8)),
              "applied": st.session_state.get(APPLIED.format(group), 0)},
        default={"target": None}, on_target_change=lambda: None, height=40,
    )
