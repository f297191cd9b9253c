"""The sidebar input panel shared by every page: playouts in; cached tree, C and selection out.

app.py calls :func:`render` once per run before the page; pages call :func:`require_input`, and
:func:`drawn_nodes` for the C-independent set of nodes a picture of the loaded tree draws.
Parsing and building are cached by content in a process-wide store (the tree is shared, never
copied, and treated as read-only), so moving C never rebuilds the tree.
"""

from __future__ import annotations

import hashlib
import runpy
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

import streamlit as st

from mcts_core import (
    RULES,
    ParseError,
    Playouts,
    Tree,
    annotated_values,
    build_tree,
    decode_text,
    parse_playouts,
    selected_nodes,
)
from mcts_core.move_values import KEYWORDS
from mcts_core.c_range import suggest_c_range
from mcts_core.presets import PRESETS, STATEMENT_EXAMPLE
from mcts_core.render import visible_nodes
from mcts_core.sweep import neighbouring_intervals, sweep
from pages import rule_panel
from pages.markdown import code, escape

DEFAULT_C = 1.0
_LOADED = "_loaded_input"
APP_PATH = Path(__file__).resolve().parent.parent / "app.py"


@dataclass(frozen=True)
class LoadedInput:
    """What a page works with; ``error`` is set (and the rest None) when the input is bad."""

    source: str
    playouts: Playouts | None = None
    annotations: dict = field(default_factory=dict)  # #prior / #heuristic values, by keyword
    tree: Tree | None = None
    error: ParseError | None = None
    c: float = DEFAULT_C
    rule: str = "ucb1"
    settings: dict = field(default_factory=dict)  # the rule's settings except c
    path: tuple[int, ...] = ()  # selected nodes, root first
    score_range: tuple[float, ...] = ()  # (min, max) score: sizes any C control via suggest_c_range


@dataclass(frozen=True)
class _Built:
    playouts: Playouts | None
    tree: Tree | None
    error: ParseError | None
    annotations: dict = field(default_factory=dict)  # keyword -> {move: value} from #prior lines
    score_range: tuple[float, ...] = ()  # (min, max) of the scores: sizes the C slider


class _BuiltInputs:
    """Process-wide LRU of parsed and built inputs by content key, shared by all sessions.

    Not st.cache_resource on the builder itself: a miss on a large log must show progress, and a
    cached function cannot drive a progress bar.
    """

    def __init__(self, capacity: int = 8):
        self.capacity = capacity
        self.lock = threading.Lock()
        self.entries: OrderedDict[str, _Built] = OrderedDict()

    def get(self, key: str) -> _Built | None:
        with self.lock:
            if key in self.entries:
                self.entries.move_to_end(key)
            return self.entries.get(key)

    def put(self, key: str, built: _Built) -> None:
        with self.lock:
            self.entries[key] = built
            while len(self.entries) > self.capacity:
                self.entries.popitem(last=False)


@st.cache_resource
def _built_inputs() -> _BuiltInputs:
    return _BuiltInputs()


def _parse_and_build(key: str, data: str | bytes) -> _Built:
    """Parse and build once per distinct input, with progress while a miss is being built."""
    store = _built_inputs()
    built = store.get(key)
    if built is not None:
        return built
    progress = st.progress(0.0, text=f"Reading {len(data) / 1e6:.1f} MB…")
    try:
        text = decode_text(data) if isinstance(data, bytes) else data
        progress.progress(0.1, text=f"Parsing {text.count(chr(10)) + 1:,} lines…")
        playouts = parse_playouts(text)
        annotations = {keyword: annotated_values(text, keyword) for keyword in KEYWORDS}
        progress.progress(0.5, text=f"Building the tree from {len(playouts):,} playouts…")
        score_range = (min(playouts.scores), max(playouts.scores))
        built = _Built(playouts, build_tree(playouts), None, annotations, score_range)
    except ParseError as error:
        built = _Built(None, None, error)
    progress.empty()
    store.put(key, built)
    return built


@st.cache_resource(max_entries=16, show_spinner=False)
def _ucb1_intervals(input_key: str, max_c: float, _tree: Tree) -> list:
    """The exact UCB1 sweep over the slider's range: it does not depend on C, so once per input."""
    return sweep(_tree, 0.0, max_c)


def _show_nearest_changes(input_key: str, tree: Tree, c: float, max_c: float) -> None:
    """Under the slider: the C values nearest to the current one where the UCB1 path changes."""
    below, above = neighbouring_intervals(_ucb1_intervals(input_key, max_c, tree), c)
    parts = []
    if below is not None:
        parts.append(f"below C = {below.c_to:.6g} it is {code(below.path) if below.path else 'empty'}")
    if above is not None:
        parts.append(f"from C = {above.c_from:.6g} it becomes {code(above.path) if above.path else 'empty'}")
    if parts:
        st.caption("The selected path changes: " + "; ".join(parts) + ".")
    else:
        st.caption(f"The selected path is the same for every C in [0, {max_c:g}].")


def _load_preset() -> None:
    name = st.session_state.get("preset")
    if name:
        st.session_state["playouts"] = PRESETS[name]


def _slider_moved() -> None:
    st.session_state["c_exact"] = repr(st.session_state["c"])


def _exact_typed() -> None:
    text = st.session_state["c_exact"].strip()
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if value >= 0 and value != float("inf"):
        st.session_state["c"] = value
        st.session_state.pop("_c_exact_error", None)
    else:
        st.session_state["_c_exact_error"] = f"C must be a finite number >= 0, got {text!r}"


def _read_source() -> tuple[str, str, str | bytes]:
    """(description, cache key, data) of the input in use: an upload wins over the text box."""
    upload = st.session_state.get("upload")
    if upload is not None:
        return f"uploaded file {upload.name}", f"upload:{upload.file_id}", upload.getvalue()
    text = st.session_state.get("playouts", "")
    # Hash a text once, not on every rerun: an unchanged widget value is the same str object.
    memo = st.session_state.get("_text_digest")
    if memo is None or memo[0] is not text:
        memo = (text, "text:" + hashlib.sha256(text.encode()).hexdigest())
        st.session_state["_text_digest"] = memo
    return "text box", memo[1], text


def render() -> LoadedInput:
    """Draw the sidebar panel and load the input; stores the result for :func:`require_input`."""
    st.session_state.setdefault("playouts", STATEMENT_EXAMPLE)
    st.session_state.setdefault("c", DEFAULT_C)
    with st.sidebar:
        st.header("Playouts")
        st.selectbox(
            "Load an example",
            list(PRESETS),
            index=None,
            placeholder="Choose an example…",
            key="preset",
            on_change=_load_preset,
        )
        st.text_area(
            "One playout per line: `moves score`; optional header `N C`",
            key="playouts",
            height=200,
            help="Puzzle format (`3 0.1` then N lines like `baa 30`) or header-less lines. "
            "Blank lines and `#` comments are ignored. For large logs use the uploader.",
        )
        st.file_uploader("…or upload a large log", key="upload", help="Same format; up to 200 MB.")
        source, key, data = _read_source()
        if source != "text box":
            st.caption(escape(f"Using the {source}. Remove it to use the text box again."))
        built = _parse_and_build(key, data)

        if built.error is None and st.session_state.get("_input_key") != key:
            # A new input: its header's C sets the slider; the slider rules after that.
            st.session_state["_input_key"] = key
            if built.playouts.c is not None:
                st.session_state["c"] = built.playouts.c
            st.session_state["c_exact"] = repr(st.session_state["c"])
        st.session_state.setdefault("c_exact", repr(st.session_state["c"]))

        st.header("Selection rule")
        rule, settings = rule_panel.render(built.annotations)

        st.header("Exploration constant")
        max_c, step = suggest_c_range(built.score_range, st.session_state["c"])
        c_label = RULES[rule].settings[0].label if RULES[rule].settings else "C"
        # A new range or step makes a new slider widget, which would fall back to its minimum:
        # re-assigning the value hands the current C to whichever slider is drawn.
        st.session_state["c"] = st.session_state["c"]
        st.slider(c_label, 0.0, max_c, step=step, key="c", on_change=_slider_moved, format="%.3f")
        st.text_input("Exact C", key="c_exact", on_change=_exact_typed, help="Type any C >= 0.")
        if "_c_exact_error" in st.session_state:
            st.error(escape(st.session_state["_c_exact_error"]))
        if built.tree is not None and rule == "ucb1":
            _show_nearest_changes(key, built.tree, st.session_state["c"], max_c)  # max_c covers C

    c = st.session_state["c"]
    if built.error is not None:
        loaded = LoadedInput(source, error=built.error, c=c, rule=rule, settings=settings)
        st.session_state["selected_path"] = None
    else:
        path = tuple(selected_nodes(built.tree, rule=rule, c=c, **settings))
        loaded = LoadedInput(
            source, built.playouts, built.annotations, built.tree, None, c, rule, settings, path, built.score_range
        )
        st.session_state["selected_path"] = "".join(built.tree.move[node] for node in path[1:])
    st.session_state[_LOADED] = loaded
    return loaded


@st.cache_resource(max_entries=32, show_spinner=False)
def _visible_nodes(input_key: str, budget: int, max_depth: int | None, top_k: int | None, _tree: Tree) -> frozenset:
    """visible_nodes cached by input and limits (the tree is identified by ``input_key``)."""
    return frozenset(visible_nodes(_tree, budget=budget, max_depth=max_depth, top_k=top_k))


def drawn_nodes(budget: int, max_depth: int | None = None, top_k: int | None = None) -> frozenset[int]:
    """The loaded tree's nodes to draw under these limits: C-independent, so once per input."""
    return _visible_nodes(st.session_state["_input_key"], budget, max_depth, top_k, st.session_state[_LOADED].tree)


def require_input() -> LoadedInput:
    """The loaded input for a page; shows the parse error and stops the page when it is bad."""
    if _LOADED not in st.session_state:
        # Streamlit ran this page file alone: on a fresh server, a first request to a page's URL
        # takes the legacy pages/-folder route, which skips app.py. Run the app instead; its
        # st.navigation turns that route off for the process and runs this page inside the shell.
        runpy.run_path(str(APP_PATH), run_name="__main__")
        st.stop()
    loaded = st.session_state[_LOADED]
    if loaded.error is not None:
        where = "" if loaded.source == "text box" else f" in the {loaded.source}"
        st.error(escape(f"Line {loaded.error.line}{where}: {loaded.error.message}"), icon="⚠️")
        st.caption("Your text is kept in the sidebar; fix the line and the page comes back.")
        st.stop()
    return loaded
