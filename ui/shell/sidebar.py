"""The sidebar every page shares: the input and the selection rule.

app.py calls :func:`render` once per run before the page; pages call :func:`require` for what the
sidebar decided, and choose C on the page (:mod:`ui.c.selected_path`), next to what C changes.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from ui.c import c_control, selected_path
from ui.common import state
from ui.common.markdown import escape
from ui.common.routing import run_app_shell_instead
from ui.setup import input_panel, recent, rule_panel
from ui.setup.input_panel import TEXT_BOX
from ui.setup.inputs import InputError, LoadedInput
from ui.setup.page_setup import Setup
from ui.share import share

# Session-state keys this module owns.
SETUP = state.key("_setup")
ADOPTED_C = state.key("_adopted_c")  # (the input's id, the C it stated) last adopted


def render() -> None:
    """Draw the sidebar and keep what it decided for the page."""
    c_control.keep()  # C lives on the pages; it must survive runs of pages that do not draw it
    with st.sidebar:
        loaded = input_panel.render()
        recent.render(loaded.key)
        good = loaded if isinstance(loaded, LoadedInput) else None
        if good is not None and state.first_run_for_input("sidebar", good.key):
            _adopt_inputs_own(good)
        _open_linked_settings()
        st.header("Selection rule")
        rule, settings = rule_panel.render(good.annotations if good else {}, set_c=c_control.set_c)
        recent.remember(good.key if good is not None else None)  # a bad input is not worth reopening
    st.session_state[SETUP] = Setup(good, rule, settings) if good is not None else loaded


def _adopt_inputs_own(good: LoadedInput) -> None:
    """A new input's own C and rule, when it states them. Another analysis of the same file keeps
    the C on screen unless it states another one: a user comparing a search's updates at their C
    keeps it (each analysis's settings, such as its root value, are its own data)."""
    stated = (good.input_id, good.read.c)
    if st.session_state.get(ADOPTED_C) != stated:
        c_control.adopt_header_c(good.read.c)
    st.session_state[ADOPTED_C] = stated
    if good.read.rule is not None:
        rule_panel.adopt_rule(good.read.rule, good.read.settings)


def _open_linked_settings() -> None:
    """A link's C, rule and settings (after the input's own: the link is the newer word)."""
    rule, settings = share.take("rule"), share.take("settings")
    if rule is not None:
        rule_panel.adopt_rule(rule, settings or {}, reset_others=True)
    c = share.take("c")
    if c is not None:
        c_control.set_c(c)


def ensure_app_shell() -> None:
    """Run the app instead when Streamlit started this page file alone (see :mod:`ui.common.routing`)."""
    if SETUP not in st.session_state:
        run_app_shell_instead()


def rule_choice() -> tuple[str, dict[str, Any]]:
    """The sidebar's rule and its settings (the default rule when the sidebar's input is bad)."""
    setup = st.session_state.get(SETUP)
    if isinstance(setup, Setup):
        return setup.rule, {name: value for name, value in setup.settings.items() if value is not None}
    return rule_panel.sidebar_rule(), {}


def require(*, joint_tree_note: bool = True) -> Setup:
    """The sidebar's decisions for a page; shows the input's error and stops the page when it is bad.

    ``joint_tree_note``: say, for a simultaneous-move input, that the page shows its joint tree.
    """
    ensure_app_shell()
    setup = st.session_state[SETUP]
    if isinstance(setup, InputError):
        selected_path.clear()
        st.error(escape(setup.message()), icon="⚠️")
        st.caption("Your text is kept in the sidebar; fix the line and the page comes back." if setup.source == TEXT_BOX
                   else "Fix the file and upload it again, or use the text box; the page comes back.")
        st.stop()
    if joint_tree_note and setup.input.read.simultaneous is not None:
        note, link = st.columns([4, 1], vertical_alignment="center")
        note.info("Simultaneous moves: this page shows the joint tree (each joint move, such as `R|P`, is one "
                  "move; totals from the view of the node's player).", icon=":material/group:")
        link.page_link("pages/simultaneous.py", label="Each player's moves", icon=":material/arrow_forward:")
    return setup
