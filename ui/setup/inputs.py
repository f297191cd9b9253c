"""Loading an input: parse and build once per distinct content, with progress, shared by sessions.

:func:`load` gives a :class:`LoadedInput` or an :class:`InputError`, never both; the result is
kept in a process-wide store keyed by content, and the tree is shared between sessions (read-only).
What names the input is the session's own: the cache keeps no source, and the input store gets only
what the input is, in words from its content (saved once per session, retried on its next run
while the store fails).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, replace

import streamlit as st

from mcts_core import ParseError, Playouts, Tree, annotated_values, decode_text
from mcts_core.inputs import KEYWORDS, TEXT, Input, engine_input, input_kind, InputStore, read_input, StoreError
from mcts_core.common import columns_bytes, return_free_memory
from ui.common import state
from ui.common.lru import BoundedLRU
from ui.common.wording import input_summary

# Session-state keys this module owns.
SAVED_INPUTS = state.key("_saved_inputs")  # the ids of the inputs this session saved in (or reopened from) the store


@dataclass(frozen=True)
class LoadedInput:
    """A read input (:class:`mcts_core.inputs.loading.Input`) as the app keeps it: what the app adds is
    its identity (the content key caches, links and the store name it by, and where it came from) and
    what the sidebar's controls need from its text (annotations, the score range).

    Attributes:
        key: identifies the content (same content, same key), so caches can key on it.
        source: where it came from, in words ("text box", "uploaded file x.txt").
        read: the parsed input: its tree, its playouts (None for a tree dump), what it states.
        annotations: ``#prior`` / ``#heuristic`` values of a text input, by keyword.
        score_range: (smallest, largest) return (a tree dump: mean), for sizing C controls.
        store_problem: why the input store could not save it (links to it will not work), or None.
        stored_as: the id of the stored input this one shows a part of (an engine file's analysis
            other than its last, whose ``key`` adds the analysis), None when ``key`` is it.
    """

    key: str
    source: str
    read: Input
    annotations: dict[str, dict[str, float]]
    score_range: tuple[float, float]
    store_problem: str | None = None
    stored_as: str | None = None

    @property
    def input_id(self) -> str:
        """The id of the stored input (what a link names)."""
        return self.stored_as or self.key

    @property
    def tree(self) -> Tree:
        """The tree (shared, read-only)."""
        return self.read.tree

    @property
    def playouts(self) -> Playouts | None:
        """The playouts the tree was built from; None for a finished tree (a tree dump)."""
        return self.read.playouts


@dataclass(frozen=True)
class InputError:
    """An input that could not be read: where it came from and the first problem."""

    key: str
    source: str
    error: ParseError

    def message(self) -> str:
        """The problem as a sentence naming the line (and the file, for an upload)."""
        where = "" if self.source == "text box" else f" in the {self.source}"
        return f"Line {self.error.line}{where}: {self.error.message}"


# Loaded inputs kept for all sessions, in bytes of their columns (the 2,000,000-playout log is about
# 170 MB); MCTS_EXPLORER_CACHE_MB moves it. The newest input is kept whatever its size.
CACHE_BYTES = int(float(os.environ.get("MCTS_EXPLORER_CACHE_MB", "400")) * 2**20)


def _input_bytes(loaded: LoadedInput | InputError) -> int:
    """An input's footprint: its columns, and for simultaneous moves the decoupled tree's and its
    replay cache's (which grows as pages replay; the cache counts it anew at each use)."""
    if not isinstance(loaded, LoadedInput):
        return 0
    records = [loaded.tree, loaded.playouts]
    simultaneous = loaded.read.simultaneous
    if simultaneous is not None:
        decoupled = simultaneous.decoupled
        records += [decoupled, decoupled.tree, decoupled.playouts, simultaneous.playouts]
    distinct = {id(record): record for record in records if record is not None}  # shared columns count once
    total = columns_bytes(*distinct.values())
    return total + (simultaneous.decoupled.cache_bytes() if simultaneous is not None else 0)


@st.cache_resource
def _store() -> BoundedLRU:
    """Loaded inputs by content key, shared by the sessions. Not st.cache_resource on the loader
    itself: a miss on a large log must show progress, and a cached function cannot drive a progress bar."""
    return BoundedLRU(8, CACHE_BYTES, _input_bytes)


def load(key: str, source: str, data: Callable[[], str | bytes], *, save: bool = True) -> LoadedInput | InputError:
    """Parse and build an input once per ``key`` (its content id), with progress while a miss is built;
    named ``source`` for this session.

    ``data`` gives the input's text or bytes; it is called on a miss, and for a good input this
    session has not saved in the input store yet (so links can name it; ``save`` False: the input
    came from the store, which only notes what it is). When the store cannot keep it, the loaded
    input says why (``store_problem``).
    """
    cache = _store()
    loaded = cache.get(key)
    content = None
    if loaded is None:
        content = data()
        loaded = _read(key, content)
        cache.put(key, loaded)
    if isinstance(loaded, InputError):
        return replace(loaded, source=source)
    problem = _saved(key, input_summary(loaded.read), content if content is not None else data, save=save)
    return replace(loaded, source=source, store_problem=problem)


def with_analysis(loaded: LoadedInput, number: int) -> LoadedInput:
    """``loaded`` (an engine's file) showing its analysis ``number`` (1-based, file order): the last
    is ``loaded`` itself; another has its own key, so that every cache keeps its tree apart.

    Raises:
        ParseError: that analysis's numbers do not make a tree.
    """
    analyses = loaded.read.analyses
    if number == len(analyses):
        return loaded
    key = f"{loaded.key}#{number}"
    derived = _store().get_or_make(key, lambda: replace(loaded, key=key, read=engine_input(analyses, number - 1)))
    return replace(derived, source=loaded.source, store_problem=loaded.store_problem, stored_as=loaded.key)


def _read(key: str, content: str | bytes) -> LoadedInput | InputError:
    """Parse and build, with a progress bar; the result names no source (each session gives its own)."""
    progress = st.progress(0.0, text=f"Reading {len(content) / 1e6:.1f} MB…")
    try:
        text = decode_text(content) if isinstance(content, bytes) else content
        progress.progress(0.1, text=f"Parsing {text.count(chr(10)) + 1:,} lines and building the tree…")
        read = read_input(text)
        text_input = input_kind(text) == TEXT
        annotations = {keyword: annotated_values(text, keyword) for keyword in KEYWORDS} if text_input else {}
        loaded = LoadedInput(key, "", read, annotations, _score_range(read))
        del text  # the decoded copy of an upload goes before memory is handed back
        return_free_memory()  # reading a large input leaves temporaries several times its size
    except ParseError as error:
        loaded = InputError(key, "", error)
    progress.empty()
    return loaded


def _saved(key: str, about: str, content: str | bytes | Callable[[], str | bytes], *, save: bool) -> str | None:
    """Save an input in the store with what it is (``save`` False: only note that, it is there
    already), once per session; None when done, else why it could not be (links will not work; the
    next run tries again)."""
    saved = st.session_state.setdefault(SAVED_INPUTS, set())
    if key in saved:
        return None
    try:
        if not InputStore().reopen(key, about) and save:  # read the bytes only when the store lacks them
            content = content() if callable(content) else content
            InputStore().save(content.encode() if isinstance(content, str) else content, about)
    except StoreError as error:
        if not save:
            return None  # the keeper saw to it; nothing a link would miss now
        return str(error)
    saved.add(key)
    return None


def _score_range(read: Input) -> tuple[float, float]:
    """The spread of what C is weighed against: the returns, or for a tree dump or an engine's
    analysis its nodes' means."""
    if read.playouts is not None:
        return read.playouts.score_range()
    tree = read.tree
    means = [tree.total[node] / tree.visits[node] for node in range(len(tree)) if tree.visits[node]]
    return (min(means), max(means)) if means else (0.0, 0.0)
