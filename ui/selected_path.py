"""Choosing C on a page and selecting the path: the part of a page that reruns when C moves.

Pages call :func:`select` inside their ``st.fragment``: it draws the C control there, so moving C
reruns only that fragment, and it publishes the selected path (``selected_path``) for this run.
"""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass
from typing import TYPE_CHECKING

import streamlit as st

from mcts_core import Scoring, selected_nodes
from ui import c_control, state

# Session-state keys this module owns.
SELECTED_PATH = state.key("selected_path")  # a contract key (DESIGN.md)

if TYPE_CHECKING:
    from ui.sidebar import Setup


@dataclass(frozen=True)
class SelectedPath:
    """What C decides on a page: the scoring (the sidebar's rule at this C) and the path it selects,
    root first. The input stays the sidebar's (:class:`ui.sidebar.Setup`)."""

    scoring: Scoring
    path: tuple[int, ...]


def select(setup: Setup, *, compact: bool = False, reveal_at_rest: bool = True) -> SelectedPath:
    """Draw the C control, select the path at that C, and publish it as ``selected_path``.

    ``compact`` folds the C control into an expander (a projector's screen has little room);
    ``reveal_at_rest`` False: the control names the path and ranks the children only while C is
    dragged (Classroom: students guess them at rest).
    """
    rule = Scoring(setup.rule, c_control.current_c(), setup.settings)
    with st.expander(f"C = {rule.c:.6g} (change)") if compact else nullcontext():
        c = c_control.render(setup.input, rule, show_changes=setup.rule == "ucb1", reveal_at_rest=reveal_at_rest)
    scoring = rule.with_c(c)
    path = tuple(selected_nodes(setup.tree, scoring))
    st.session_state[SELECTED_PATH] = setup.tree.path(path[-1])
    return SelectedPath(scoring, path)


def clear() -> None:
    """No path this run (the input is bad)."""
    st.session_state[SELECTED_PATH] = None
