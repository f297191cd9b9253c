"""The sidebar's input widgets (an example menu, the text area, the uploader) and the input they give.

Inputs are named by their content (:func:`mcts_core.inputs.store.input_id`) and saved in the input
store, so a link can name them. Besides the widgets, an input can be *kept*: a finished search
(pages/search.py), an input a link or the Recent list opens, the input of an uploaded bundle.
:func:`keep_input` keeps it under ``KEPT_INPUT`` (owned here); the newest input wins: while
one is kept it is the input (over an upload and the text box); typing in the text box, choosing an
example, uploading a file or the "Use the text box again" button drops it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

import streamlit as st

from mcts_core import ParseError
from mcts_core.inputs import (
    EXAMPLES,
    TEXT,
    input_kind,
    STATEMENT_EXAMPLE_EXPLAINED,
    input_id,
    InputStore,
    is_bundle,
    read_bundle,
    StoreError,
)
from ui.common import state
from ui.common.markdown import escape
from ui.common.wording import input_summary
from ui.setup.inputs import InputError, LoadedInput, load, with_analysis
from ui.share import share

# Session-state keys this module owns.
PLAYOUTS = state.key("playouts")  # a contract key (docs/DESIGN.md)
UPLOAD = state.key("upload")  # a contract key (docs/DESIGN.md)
EXAMPLE = state.key("example")
TEXT_DIGEST = state.key("_text_digest")
UPLOAD_DIGEST = state.key("_upload_digest")
KEPT_INPUT = state.key("_kept_input")  # the input the pages show when no text or file is given
KEPT_INPUT_DROP = state.key("kept_input_drop")
CURRENT_INPUT = state.key("_current_input")  # the id of the input every page shows now
CURRENT_INPUT_DATA = state.key("_current_input_data")  # a function giving its bytes
BUNDLE_OPENED = state.key("_bundle_opened")
BUNDLE_PROBLEM = state.key("_bundle_problem")
ANALYSIS = state.key("analysis")  # which analysis of an engine's file the pages show (1-based)
ANALYSIS_OF = state.key("_analysis_of")  # the input that choice was made for

UPLOAD_TYPES = ("txt", "log", "jsonl", "json", "zip")
TEXT_BOX = "text box"  # the source name of the text box's input
TEXT_BOX_BYTES = 2**20  # a linked input typed in the text box returns there up to this size


@dataclass(frozen=True)
class KeptInput:
    """An input kept in place of the widgets: its id, how the sidebar names it, its bytes when the
    store could not keep them (None: read them from the store), and whether the sidebar adds what
    it is (an input this session did not give, from a link or Recent: no one's name is shown)."""

    key: str
    source: str
    data: bytes | None = None
    by_content: bool = False


def keep_input(data: bytes | str, source: str) -> str:
    """Use ``data`` as every page's input until the user gives another; returns its id.

    Args:
        data: the input's bytes (a str is UTF-8 encoded).
        source: how the sidebar names it ("search of tic_tac_toe (2,000 simulations, ...)").
    """
    raw = data.encode() if isinstance(data, str) else data
    try:
        InputStore().save(raw)  # what it is is noted when it is read; the source is this session's
        kept = KeptInput(input_id(raw), source)
    except StoreError:  # keep it in the session instead; links to it will not work
        kept = KeptInput(input_id(raw), source, raw)
    st.session_state[KEPT_INPUT] = kept
    return kept.key


def keep_stored(key: str, source: str, *, by_content: bool = False) -> None:
    """Use an input the store holds as every page's input until the user gives another (``by_content``:
    the sidebar says what it is, see :class:`KeptInput`)."""
    st.session_state[KEPT_INPUT] = KeptInput(key, source, by_content=by_content)


def kept_key() -> str | None:
    """The id of the kept input, None while the widgets give the input."""
    kept = st.session_state.get(KEPT_INPUT)
    return None if kept is None else kept.key


def drop_kept() -> None:
    """Back to the uploader or the text box."""
    st.session_state.pop(KEPT_INPUT, None)


def _upload_changed() -> None:
    if st.session_state.get(UPLOAD) is not None:  # a new file, not its removal
        drop_kept()


def _load_example() -> None:
    drop_kept()
    name = st.session_state.get(EXAMPLE)
    if name:
        st.session_state[PLAYOUTS] = EXAMPLES[name]


def _open_linked_input() -> None:
    """The input a link names: kept from the store, or, when the store lacks it, the default example."""
    key = share.take("input")
    if key is None or key == st.session_state.get(CURRENT_INPUT):
        return
    found = _stored(key)
    if found is None:
        share.problem(
            "The link names an input this server does not have (it may have been removed): showing "
            "the default example instead. Upload the input again to see it."
        )
        drop_kept()
        st.session_state[PLAYOUTS] = STATEMENT_EXAMPLE_EXPLAINED
        return
    data = found[0]
    if len(data) <= TEXT_BOX_BYTES and input_kind(text := data.decode(errors="replace")) == TEXT:
        drop_kept()  # puzzle text goes to the text box, to be edited
        st.session_state[PLAYOUTS] = text
    else:
        keep_stored(key, "linked input", by_content=True)


def _stored(key: str) -> tuple[bytes, str] | None:
    try:
        return InputStore().load(key)
    except StoreError:
        return None


def _open_bundle(upload) -> None:
    """An uploaded bundle: keep its input and ask for its view, once per upload."""
    if st.session_state.get(BUNDLE_OPENED) == upload.file_id:
        return
    st.session_state[BUNDLE_OPENED] = upload.file_id
    try:
        bundle = read_bundle(upload.getvalue())
    except ParseError as error:
        st.session_state[BUNDLE_PROBLEM] = f"The bundle {upload.name} cannot be opened: {error.message}"
        return
    st.session_state.pop(BUNDLE_PROBLEM, None)
    keep_input(bundle.input_bytes, f"bundle {upload.name}")
    view = bundle.view
    # The bundle's view is checked as a link's query is: a bad value is refused with a message.
    limits = {name: value for name, value in view.limits.items() if name in share.LIMIT_KEYS}
    share.open_view(share.view_params(None, view.scoring, page=view.page, node=view.inspected, **limits))


def _source(upload) -> tuple[str, str, Callable[[], str | bytes]] | None:
    """(id, description, a function giving the data) of the input in use: a kept input, else an
    upload, else the text box. The data is read only when the input is not loaded yet.

    None when the kept input's bytes are gone from the store (the caller says so and drops it).
    """
    kept = st.session_state.get(KEPT_INPUT)
    if kept is not None:
        if kept.data is not None:
            return kept.key, kept.source, lambda: kept.data
        if not InputStore().describe([kept.key]):
            return None
        return kept.key, kept.source, lambda: _stored(kept.key)[0]
    if upload is not None and not _is_bundle(upload):
        # Hash an upload once, not on every rerun. getvalue, never getbuffer: the upload is a BytesIO
        # sharing Streamlit's bytes, and exporting a buffer makes it copy them (the whole file, per session).
        memo = st.session_state.get(UPLOAD_DIGEST)
        if memo is None or memo[0] != upload.file_id:
            memo = (upload.file_id, hashlib.sha256(upload.getvalue()).hexdigest())
            st.session_state[UPLOAD_DIGEST] = memo
        return memo[1], f"uploaded file {upload.name}", _upload_bytes(st.session_state.get(UPLOAD, upload))
    text = st.session_state.get(PLAYOUTS, "")
    # Hash a text once, not on every rerun: an unchanged widget value is the same str object.
    memo = st.session_state.get(TEXT_DIGEST)
    if memo is None or memo[0] is not text:
        memo = (text, input_id(text.encode()))
        st.session_state[TEXT_DIGEST] = memo
    return memo[1], TEXT_BOX, lambda: text


def _upload_bytes(held) -> Callable[[], bytes]:
    """The bytes of the upload as Streamlit holds it in the session state, which shares the upload's
    bytes. Not the uploader's return value: Streamlit deep-copies it on every run (a whole copy of
    the file), and a function kept for the session (the Share bundle's data) would keep that copy."""
    return held.getvalue


def _is_bundle(upload) -> bool:
    return is_bundle(upload.getvalue()[:4])  # not getbuffer: see _source


def _widgets():
    """The example menu, the text area and the uploader; returns the uploaded file (or None)."""
    st.selectbox(
        "Load an example",
        list(EXAMPLES),
        index=None,
        placeholder="Choose an example…",
        key=EXAMPLE,
        on_change=_load_example,
    )
    st.text_area(
        "One playout per line: `moves score`; optional header `N C`",
        key=PLAYOUTS,
        height=200,
        on_change=drop_kept,
        help="Puzzle format (`3 0.1` then N lines like `baa 30`) or header-less lines; blank lines "
        "and `#` comments are ignored (`#players 2`, `#ties first` set the perspective and tie "
        "order). Also a JSON Lines MCTS log (`{\"mcts_log\": 1}` first) or a JSON tree dump "
        "(`{\"mcts_tree\": 1, ...}`). For large logs use the uploader.",
    )
    # Streamlit refuses other file types itself (before the script runs) when a request bypasses
    # the browser's file picker.
    return st.file_uploader(
        "…or upload a large log",
        type=list(UPLOAD_TYPES),
        key=UPLOAD,
        on_change=_upload_changed,
        help="Puzzle text, a JSON Lines log, a JSON tree dump, or a bundle (.zip) the app or "
        "`python -m mcts_core export` wrote; up to 200 MB.",
    )


def _open_upload(upload) -> None:
    """Open an uploaded bundle (its problem, if any, stays shown until another upload)."""
    if upload is None and st.session_state.get(UPLOAD) is not None:
        # The widget remembers a file the server no longer has (it restarted since the upload).
        st.warning("The uploaded file was lost when the server restarted: upload it again, or open it from Recent.")
    if upload is not None and _is_bundle(upload):
        _open_bundle(upload)
    else:
        st.session_state.pop(BUNDLE_PROBLEM, None)
    if BUNDLE_PROBLEM in st.session_state:
        st.error(escape(st.session_state[BUNDLE_PROBLEM]))


def _say_which(kept: KeptInput | None, name: str, loaded: LoadedInput | InputError) -> None:
    """Which input is in use, when it is not the text box's."""
    if kept is not None:
        what = f": {input_summary(loaded.read)}" if kept.by_content and isinstance(loaded, LoadedInput) else ""
        st.info(escape(f"Using the {kept.source}{what}.") + " Typing below, an example or an upload replaces it.",
                icon=":material/play_arrow:")
        st.button("Use the text box again", key=KEPT_INPUT_DROP, on_click=drop_kept, width="stretch")
    elif name != TEXT_BOX:
        engine = loaded.read.engine if isinstance(loaded, LoadedInput) else None
        what = f": {engine.title}" if engine is not None else ""  # an engine's file says what it is
        st.caption(escape(f"Using the {name}{what}. Remove it to use the text box again."))


def render() -> LoadedInput | InputError:
    """Draw the input widgets (in the current container) and load what they hold."""
    st.session_state.setdefault(PLAYOUTS, STATEMENT_EXAMPLE_EXPLAINED)
    _open_linked_input()
    st.header("Playouts")
    banner = st.container()  # says which input is in use, once the uploader has been read
    upload = _widgets()
    _open_upload(upload)
    kept = st.session_state.get(KEPT_INPUT)
    source = _source(upload)
    if source is None:
        st.warning(escape(f"The {kept.source} is no longer in the store: showing the text box's input."))
        drop_kept()
        kept, source = None, _source(upload)
    key, name, data = source
    # A kept input is in the store already (its keeper saved it, or it came from there), unless the
    # store failed then: its bytes are in the session and saving is tried again.
    loaded = load(key, name, data, save=kept is None or kept.data is not None)
    if isinstance(loaded, LoadedInput) and len(loaded.read.analyses) > 1:
        loaded = _chosen_analysis(loaded)
    with banner:
        _say_which(kept, name, loaded)
    st.session_state[CURRENT_INPUT] = key
    st.session_state[CURRENT_INPUT_DATA] = data
    return loaded


def _chosen_analysis(loaded: LoadedInput) -> LoadedInput | InputError:
    """The analysis of an engine's file the user picks (several positions, queries or updates of a
    stream): the last at first, or the one a link names."""
    analyses = loaded.read.analyses
    linked = share.take("analysis")
    if st.session_state.get(ANALYSIS_OF) != loaded.key or linked is not None:
        st.session_state[ANALYSIS_OF] = loaded.key
        st.session_state[ANALYSIS] = min(linked or len(analyses), len(analyses))
    number = st.selectbox(
        f"Analysis ({len(analyses):,} in the file)", range(1, len(analyses) + 1), key=ANALYSIS,
        format_func=lambda n: f"{n}. {analyses[n - 1].title}",
        help="The file holds several analyses (positions, queries, or updates of one search): the pages "
        "show the one chosen here. The last is the search's end.",
    )
    try:
        return with_analysis(loaded, number)
    except ParseError as error:
        return InputError(f"{loaded.key}#{number}", loaded.source, error)


def show_analysis(number: int) -> None:
    """Show the current engine file's analysis ``number`` (1-based) from the next run on, as if picked
    in the Analysis menu (call it from a widget's callback: the menu is drawn later in the run)."""
    st.session_state[ANALYSIS] = number


def current_data() -> Callable[[], str | bytes]:
    """A function giving the current input as given (text or bytes), for a download made on click."""
    return st.session_state[CURRENT_INPUT_DATA]
