"""The sidebar's Recent list: the inputs this browser opened lately, reopened from the store.

The list of ids lives in the browser (localStorage, through a small component with no network
access and nothing to show), so it is per browser and survives reloads and server restarts; the
inputs themselves come from the store. The browser reports its list once per page load; the
inputs opened after that are tracked here.
"""

from __future__ import annotations


import streamlit as st

from mcts_core.inputs import InputStore, StoreError, StoredInput
from ui.common import state
from ui.common.components import asset_component
from ui.setup import input_panel

# Session-state keys this module owns.
RECENT_LIST = state.key("_recent_list")  # the browser's list of input ids (a component's state)
RECENT_CHOICE = state.key("recent_choice")
RECENT_SEEN = state.key("_recent_seen")  # the inputs this session opened, newest first

LIMIT = 10  # ids the browser keeps

_component = asset_component("mcts_recent_inputs", "setup/recent")


def remember(current: str | None) -> None:
    """Add the current input's id to this browser's list (draws nothing)."""
    if current is not None:
        seen = st.session_state.get(RECENT_SEEN, [])
        st.session_state[RECENT_SEEN] = [current, *(key for key in seen if key != current)][:LIMIT]
    _component(key=RECENT_LIST, data={"current": current, "limit": LIMIT}, default={"ids": []},
                on_ids_change=lambda: None, height=0)


def _ids() -> list[str]:
    """This session's inputs, newest first, then the browser's list as it was when the page loaded."""
    value = st.session_state.get(RECENT_LIST) or {}
    browser = value.get("ids") if hasattr(value, "get") else None
    browser = [key for key in browser if isinstance(key, str)] if isinstance(browser, list) else []
    return list(dict.fromkeys([*st.session_state.get(RECENT_SEEN, []), *browser]))[:LIMIT]


def _entries(current: str | None) -> list[StoredInput]:
    try:
        return [entry for entry in InputStore().describe(_ids()) if entry.id != current]
    except StoreError:
        return []


def _open() -> None:
    key = st.session_state.get(RECENT_CHOICE)
    st.session_state[RECENT_CHOICE] = None  # the menu is an action, not a setting
    for entry in _entries(None):
        if entry.id == key:
            input_panel.keep_stored(key, "recent input", by_content=True)


def render(current: str | None) -> None:
    """The Recent menu (in the current container), when this browser opened other stored inputs."""
    entries = _entries(current)
    if not entries:
        return
    names = {entry.id: f"{_name(entry)} · {_size(entry.size)}" for entry in entries}
    st.selectbox(
        "Recent inputs", list(names), index=None, format_func=names.__getitem__, key=RECENT_CHOICE,
        on_change=_open, placeholder="Reopen an input from this browser…",
        help="The last inputs this browser opened, kept on the server; they survive reloads and restarts.",
    )


def _name(entry: StoredInput) -> str:
    """What the input is, as the store has it from its content (it keeps no one's name)."""
    return entry.about or "an input not opened since it was saved"


def _size(size: int) -> str:
    return f"{size / 2**20:.1f} MB" if size >= 2**20 else f"{max(1, round(size / 1024))} kB"
