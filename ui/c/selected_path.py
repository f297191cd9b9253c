"""Choosing C on a page and selecting the path: the part of a page that reruns when C moves.

Pages call :func:`select` inside their ``st.fragment``: it draws the C control there, so moving C
reruns only that fragment, and it publishes the selected path (``selected_path``) for this run.
A page whose C control works on another tree (Playback's frame) calls :func:`choose`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import streamlit as st

from mcts_core import Scoring, selected_nodes
from ui.c import c_control
from ui.common import state

# Session-state keys this module owns.
SELECTED_PATH = state.key("selected_path")  # a contract key (docs/DESIGN.md)

if TYPE_CHECKING:
    from ui.setup.inputs import LoadedInput
    from ui.setup.page_setup import Setup


@dataclass(frozen=True)
class SelectedPath:
    """What C decides on a page: the scoring (the sidebar's rule at this C) and the path it selects,
    root first. The input stays the sidebar's (:class:`ui.setup.page_setup.Setup`)."""

    scoring: Scoring
    path: tuple[int, ...]


def select(setup: Setup, *, reveal_at_rest: bool = True) -> SelectedPath:
    """Draw the C control, select the path at that C, and publish it as ``selected_path``.

    ``reveal_at_rest`` False: the control names the path, ranks the children and shows where the
    path changes only while C is dragged (Classroom: students guess them at rest).
    """
    selected = choose(setup, setup.input, show_changes=True, reveal_at_rest=reveal_at_rest)
    st.session_state[SELECTED_PATH] = setup.tree.path(selected.path[-1])
    return selected


def choose(setup: Setup, loaded: LoadedInput, **control) -> SelectedPath:
    """Draw the C control for ``loaded`` (``control``: :func:`ui.c.c_control.render`'s options) and
    select the path the sidebar's rule takes at that C in ``loaded``'s tree (nothing published)."""
    scoring = c_control.render(loaded, setup.rule, setup.settings, **control)
    return SelectedPath(scoring, tuple(selected_nodes(loaded.tree, scoring)))


def clear() -> None:
    """No path this run (the input is bad)."""
    st.session_state[SELECTED_PATH] = None
