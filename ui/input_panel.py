"""The sidebar's input widgets: an example menu, the text area and the uploader."""

from __future__ import annotations

import hashlib

import streamlit as st

from mcts_core.examples import EXAMPLES, STATEMENT_EXAMPLE_EXPLAINED
from ui import state
from ui.inputs import InputError, LoadedInput, load
from ui.markdown import escape

UPLOAD_TYPES = ("txt", "log", "jsonl", "json")


def _load_example() -> None:
    name = st.session_state.get(state.EXAMPLE)
    if name:
        st.session_state[state.PLAYOUTS] = EXAMPLES[name]


def _source() -> tuple[str, str, str | bytes]:
    """(cache key, description, data) of the input in use: an upload wins over the text box."""
    upload = st.session_state.get(state.UPLOAD)
    if upload is not None:
        return f"upload:{upload.file_id}", f"uploaded file {upload.name}", upload.getvalue()
    text = st.session_state.get(state.PLAYOUTS, "")
    # Hash a text once, not on every rerun: an unchanged widget value is the same str object.
    memo = st.session_state.get(state.TEXT_DIGEST)
    if memo is None or memo[0] is not text:
        memo = (text, "text:" + hashlib.sha256(text.encode()).hexdigest())
        st.session_state[state.TEXT_DIGEST] = memo
    return memo[1], "text box", text


def render() -> LoadedInput | InputError:
    """Draw the input widgets (in the current container) and load what they hold."""
    st.session_state.setdefault(state.PLAYOUTS, STATEMENT_EXAMPLE_EXPLAINED)
    st.header("Playouts")
    st.selectbox(
        "Load an example",
        list(EXAMPLES),
        index=None,
        placeholder="Choose an example…",
        key=state.EXAMPLE,
        on_change=_load_example,
    )
    st.text_area(
        "One playout per line: `moves score`; optional header `N C`",
        key=state.PLAYOUTS,
        height=200,
        help="Puzzle format (`3 0.1` then N lines like `baa 30`) or header-less lines; blank lines "
        "and `#` comments are ignored (`#players 2`, `#ties first` set the perspective and tie "
        "order). Also a JSON Lines MCTS log (`{\"mcts_log\": 1}` first) or a JSON tree dump "
        "(`{\"mcts_tree\": 1, ...}`). For large logs use the uploader.",
    )
    st.file_uploader(
        "…or upload a large log",
        type=list(UPLOAD_TYPES),
        key=state.UPLOAD,
        help="Puzzle text, a JSON Lines log or a JSON tree dump; up to 200 MB.",
    )
    key, source, data = _source()
    if source != "text box":
        st.caption(escape(f"Using the {source}. Remove it to use the text box again."))
    return load(key, source, data)
