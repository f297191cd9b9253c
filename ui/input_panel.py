"""The sidebar's input widgets: an example menu, the text area and the uploader.

A finished live search (pages/search.py) can stand in for both: the Search page hands its log to
:func:`use_search`, which keeps it under ``state.SEARCH_INPUT`` (owned here) until it is dropped.
The newest input wins: while a search is kept it is the input (over an upload and the text box);
typing in the text box, choosing an example, uploading a file or the "Use the text box again"
button drops it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import streamlit as st

from mcts_core.examples import EXAMPLES, STATEMENT_EXAMPLE_EXPLAINED
from ui import state
from ui.inputs import InputError, LoadedInput, load
from ui.markdown import escape

UPLOAD_TYPES = ("txt", "log", "jsonl", "json")


@dataclass(frozen=True)
class SearchInput:
    """A search's JSON Lines log used as the input: its store key, how the sidebar names it, the log."""

    key: str
    source: str
    log: str


def use_search(key: str, source: str, log: str) -> None:
    """Use a search's log as every page's input until the user gives another (the Search page's hook).

    Args:
        key: its key in the input store (:func:`ui.inputs.load`), e.g. ``"search:<sha256>"``.
        source: how the sidebar names it ("search of tic_tac_toe (2,000 simulations, ...)").
        log: the log itself, so it can be loaded again after the store has dropped it.
    """
    st.session_state[state.SEARCH_INPUT] = SearchInput(key, source, log)


def drop_search() -> None:
    """Back to the uploader or the text box."""
    st.session_state.pop(state.SEARCH_INPUT, None)


def _upload_changed() -> None:
    if st.session_state.get(state.UPLOAD) is not None:  # a new file, not its removal
        drop_search()


def _load_example() -> None:
    drop_search()
    name = st.session_state.get(state.EXAMPLE)
    if name:
        st.session_state[state.PLAYOUTS] = EXAMPLES[name]


def _source() -> tuple[str, str, str | bytes]:
    """(cache key, description, data) of the input in use: a kept search, else an upload, else the text box."""
    searched = st.session_state.get(state.SEARCH_INPUT)
    if searched is not None:
        return searched.key, searched.source, searched.log
    upload = st.session_state.get(state.UPLOAD)
    if upload is not None:
        # Keyed by content, not by upload: the same file uploaded twice is read once. Hash it once
        # per upload, not on every rerun.
        memo = st.session_state.get(state.UPLOAD_DIGEST)
        if memo is None or memo[0] != upload.file_id:
            memo = (upload.file_id, "upload:" + hashlib.sha256(upload.getvalue()).hexdigest())
            st.session_state[state.UPLOAD_DIGEST] = memo
        return memo[1], f"uploaded file {upload.name}", upload.getvalue()
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
    searched = st.session_state.get(state.SEARCH_INPUT)
    if searched is not None:
        st.info(escape(f"Using the {searched.source}.") + " Typing below, an example or an upload replaces it.",
                icon=":material/play_arrow:")
        st.button("Use the text box again", key=state.SEARCH_INPUT_DROP, on_click=drop_search, width="stretch")
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
        on_change=drop_search,
        help="Puzzle format (`3 0.1` then N lines like `baa 30`) or header-less lines; blank lines "
        "and `#` comments are ignored (`#players 2`, `#ties first` set the perspective and tie "
        "order). Also a JSON Lines MCTS log (`{\"mcts_log\": 1}` first) or a JSON tree dump "
        "(`{\"mcts_tree\": 1, ...}`). For large logs use the uploader.",
    )
    st.file_uploader(
        "…or upload a large log",
        type=list(UPLOAD_TYPES),
        key=state.UPLOAD,
        on_change=_upload_changed,
        help="Puzzle text, a JSON Lines log or a JSON tree dump; up to 200 MB.",
    )
    key, source, data = _source()
    if source != "text box" and searched is None:
        st.caption(escape(f"Using the {source}. Remove it to use the text box again."))
    return load(key, source, data)
