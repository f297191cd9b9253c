"""What a browser keeps for live rooms: the student's token and the secrets of the rooms its teacher opened.

Both live in the browser's localStorage (``assets/room_keys.js``, no network, nothing shown), so a
reload or a server restart finds the same student and the same teacher: the token is made there
once, a room's secret is kept there when this session opens the room. The browser reports them once
per server session (a new session gets a new nonce, so the report comes again after a restart).
Until the report has come, :func:`keys` is None.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

import streamlit as st

from mcts_core.classroom import is_student_token, read_code
from ui.common import state
from ui.common.components import asset_component

# Session-state keys this module owns.
ROOM_BROWSER = state.key("_room_browser")  # the component's state: {"keys": {"student", "rooms"}}
ROOM_SESSION = state.key("_room_session")  # this session's nonce: the browser reports once per nonce

_component = asset_component("mcts_room_keys", "room/room_keys")


@dataclass(frozen=True)
class BrowserKeys:
    """The browser's student token, the secrets of the rooms it opened (by code), and whether it
    keeps them (False: storage is blocked, and a reload forgets them)."""

    student: str
    rooms: dict[str, str]
    stored: bool = True


def keys(*, keep: dict[str, str] | None = None) -> BrowserKeys | None:
    """Mount the keeper (draws nothing) and return what the browser reported, None before its report.

    ``keep``: secrets by code for the browser to keep (it keeps the last 20 rooms' secrets; a closed
    room's secret makes nobody its teacher).
    """
    nonce = st.session_state.setdefault(ROOM_SESSION, secrets.token_hex(8))
    _component(key=ROOM_BROWSER, data={"session": nonce, "keep": keep or {}},
               default={"keys": None}, on_keys_change=lambda: None, height=0)
    value = st.session_state.get(ROOM_BROWSER) or {}
    reported = value.get("keys") if hasattr(value, "get") else None
    if not hasattr(reported, "get") or not is_student_token(reported.get("student")):
        return None
    rooms = reported.get("rooms")
    rooms = {code: secret for code, secret in rooms.items()
             if read_code(code) == code and isinstance(secret, str)} if hasattr(rooms, "items") else {}
    return BrowserKeys(reported["student"], rooms, reported.get("stored") is not False)
