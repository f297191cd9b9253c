"""Loading an input: parse and build once per distinct content, with progress, shared by sessions.

:func:`load` gives a :class:`LoadedInput` or an :class:`InputError`, never both; the result is
kept in a process-wide store keyed by content, and the tree is shared between sessions (read-only).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

import streamlit as st

from mcts_core import ParseError, Playouts, Tree, annotated_values, decode_text
from mcts_core.inputs import KEYWORDS, TEXT, TREE, Input, input_kind, InputStore, read_input, StoreError
from mcts_core.common import columns_bytes, return_free_memory
from ui.lru import BoundedLRU


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
    """

    key: str
    source: str
    read: Input
    annotations: dict[str, dict[str, float]]
    score_range: tuple[float, float]
    store_problem: str | None = None

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
    return columns_bytes(loaded.tree, loaded.playouts) if isinstance(loaded, LoadedInput) else 0


@st.cache_resource
def _store() -> BoundedLRU:
    """Loaded inputs by content key, shared by the sessions. Not st.cache_resource on the loader
    itself: a miss on a large log must show progress, and a cached function cannot drive a progress bar."""
    return BoundedLRU(8, CACHE_BYTES, _input_bytes)


def load(key: str, source: str, data: Callable[[], str | bytes]) -> LoadedInput | InputError:
    """Parse and build an input once per ``key`` (its content id), with progress while a miss is built.

    ``data`` gives the input's text or bytes; it is called only on a miss. A good input is also
    saved in the input store, so links can name it; when the store cannot keep it, the loaded
    input says why (``store_problem``).
    """
    cache = _store()
    loaded = cache.get(key)
    if loaded is not None:
        return loaded
    content = data()
    progress = st.progress(0.0, text=f"Reading {len(content) / 1e6:.1f} MB…")
    try:
        text = decode_text(content) if isinstance(content, bytes) else content
        progress.progress(0.1, text=f"Parsing {text.count(chr(10)) + 1:,} lines and building the tree…")
        read = read_input(text)
        text_input = input_kind(text) == TEXT
        annotations = {keyword: annotated_values(text, keyword) for keyword in KEYWORDS} if text_input else {}
        loaded = LoadedInput(key, source, read, annotations, _score_range(read), _save(content, source))
        return_free_memory()  # reading a large input leaves temporaries several times its size
    except ParseError as error:
        loaded = InputError(key, source, error)
    progress.empty()
    cache.put(key, loaded)
    return loaded


def _save(content: str | bytes, source: str) -> str | None:
    """Save an input in the store; None when saved, else why it could not be (links will not work)."""
    try:
        InputStore().save(content.encode() if isinstance(content, str) else content, source)
    except StoreError as error:
        return str(error)
    return None


def _score_range(read: Input) -> tuple[float, float]:
    """The spread of what C is weighed against: the returns, or for a tree dump its nodes' means."""
    if read.kind != TREE:
        return read.playouts.score_range()
    tree = read.tree
    means = [tree.total[node] / tree.visits[node] for node in range(len(tree)) if tree.visits[node]]
    return (min(means), max(means)) if means else (0.0, 0.0)
