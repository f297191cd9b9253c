"""The sidebar every page shares: input, selection rule and C; the selection they make together.

app.py calls :func:`render` once per run before the page; pages call :func:`require`.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from mcts_core import RULES, Scoring, selected_nodes
from ui import c_control, input_panel, rule_panel, state
from ui.inputs import InputError, LoadedInput
from ui.markdown import escape
from ui.routing import run_app_shell_instead


@dataclass(frozen=True)
class Current:
    """What every page works with: the input, the scoring and the path it selects (root first)."""

    input: LoadedInput
    scoring: Scoring
    path: tuple[int, ...]

    @property
    def tree(self):
        return self.input.tree


def render() -> None:
    """Draw the sidebar, select the path, and publish it (``selected_path``) for this run."""
    with st.sidebar:
        loaded = input_panel.render()
        good = loaded if isinstance(loaded, LoadedInput) else None
        if good is not None and state.first_run_for_input("sidebar", good.key):
            c_control.adopt_header_c(good.read.c)  # a new input's own C and rule, when it states them
            if good.read.rule is not None:
                rule_panel.adopt_rule(good.read.rule)
        st.header("Selection rule")
        rule, settings = rule_panel.render(good.annotations if good else {}, set_c=c_control.set_c)
        c = c_control.render(good, RULES[rule].c_label, show_changes=rule == "ucb1")
    scoring = Scoring(rule, c, settings)
    if good is None:
        st.session_state[state.CURRENT] = loaded
        st.session_state[state.SELECTED_PATH] = None
        return
    path = tuple(selected_nodes(good.tree, scoring))
    st.session_state[state.CURRENT] = Current(good, scoring, path)
    st.session_state[state.SELECTED_PATH] = good.tree.path(path[-1])


def require() -> Current:
    """The current selection for a page; shows the input's error and stops the page when it is bad."""
    if state.CURRENT not in st.session_state:
        run_app_shell_instead()
    current = st.session_state[state.CURRENT]
    if isinstance(current, InputError):
        st.error(escape(current.message()), icon="⚠️")
        st.caption("Your text is kept in the sidebar; fix the line and the page comes back.")
        st.stop()
    return current
