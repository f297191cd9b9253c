"""The exploration constant C: a slider sized to the scores, an exact box, and where the path changes."""

from __future__ import annotations

import streamlit as st

from mcts_core import Tree, parse_c
from mcts_core.analysis import fit_to_breakpoints, neighbouring_intervals, path_intervals, suggest_c_range
from ui import state
from ui.inputs import LoadedInput
from ui.markdown import code, escape

# Session-state keys this module owns.
C = state.key("c")  # a contract key (DESIGN.md)
C_EXACT = state.key("c_exact")  # a contract key (DESIGN.md)
C_EXACT_ERROR = state.key("_c_exact_error")

DEFAULT_C = 1.0


def current_c() -> float:
    """The C every page uses."""
    return st.session_state.get(C, DEFAULT_C)


def adopt_header_c(c: float | None) -> None:
    """A new input: its header's C (if any) sets C; the controls rule after that."""
    if c is not None:
        st.session_state[C] = c
    st.session_state[C_EXACT] = repr(st.session_state.get(C, DEFAULT_C))


def set_c(c: float) -> None:
    """Set C from elsewhere (a rule preset): the slider and the exact box follow."""
    st.session_state[C] = c
    st.session_state[C_EXACT] = repr(c)


def _slider_moved() -> None:
    st.session_state[C_EXACT] = repr(st.session_state[C])


def _exact_typed() -> None:
    try:
        st.session_state[C] = parse_c(st.session_state[C_EXACT])
        st.session_state.pop(C_EXACT_ERROR, None)
    except ValueError as error:
        st.session_state[C_EXACT_ERROR] = str(error)


@st.cache_resource(max_entries=16, show_spinner=False)
def _ucb1_intervals(input_key: str, max_c: float, _tree: Tree) -> list:
    """The exact UCB1 sweep over the slider's range: it does not depend on C, so once per input."""
    return path_intervals(_tree, 0.0, max_c)


def _show_nearest_changes(loaded: LoadedInput, c: float, max_c: float) -> None:
    """Under the slider: the C values nearest to the current one where the UCB1 path changes."""
    below, above = neighbouring_intervals(_ucb1_intervals(loaded.key, max_c, loaded.tree), c)
    parts = []
    if below is not None:
        parts.append(f"below C = {below.c_to:.6g} it is {code(below.path) if below.path else 'empty'}")
    if above is not None:
        parts.append(f"from C = {above.c_from:.6g} it becomes {code(above.path) if above.path else 'empty'}")
    if parts:
        st.caption("The selected path changes: " + "; ".join(parts) + ".")
    else:
        st.caption(f"The selected path is the same for every C in [0, {max_c:g}].")


def keep() -> None:
    """Keep C and the exact box across runs of pages that do not draw them (widgets drop their state)."""
    st.session_state[C] = st.session_state.get(C, DEFAULT_C)
    st.session_state[C_EXACT] = st.session_state.get(C_EXACT, repr(st.session_state[C]))


def slider_range(loaded: LoadedInput, c: float, ucb1: bool) -> tuple[float, float]:
    """(max, step) of the C slider: a few score spreads, narrowed to the UCB1 path's last breakpoint."""
    max_c, step = suggest_c_range(loaded.score_range, c)
    if not ucb1:
        return max_c, step
    intervals = _ucb1_intervals(loaded.key, max_c, loaded.tree)
    return fit_to_breakpoints(max_c, intervals[-1].c_from if len(intervals) > 1 else None, c)


def render(loaded: LoadedInput, label: str, *, show_changes: bool) -> float:
    """Draw the C slider and the exact box (in the current container); returns C.

    Args:
        loaded: the input (sizes the slider to its scores and where its UCB1 path changes).
        label: the rule's name for C (e.g. c_puct).
        show_changes: the rule is UCB1: fit the slider to the exact breakpoints and say where the
            path changes.
    """
    keep()
    max_c, step = slider_range(loaded, st.session_state[C], show_changes)
    # A new range or step makes a new slider widget, which would fall back to its minimum:
    # re-assigning the value hands the current C to whichever slider is drawn.
    st.session_state[C] = st.session_state[C]
    slider, exact = st.columns([5, 2], vertical_alignment="bottom")
    slider.slider(label, 0.0, max_c, step=step, key=C, on_change=_slider_moved, format="%.3f")
    exact.text_input("Exact C", key=C_EXACT, on_change=_exact_typed, help="Type any C >= 0.")
    if C_EXACT_ERROR in st.session_state:
        st.error(escape(st.session_state[C_EXACT_ERROR]))
    c = st.session_state[C]
    if show_changes:
        _show_nearest_changes(loaded, c, suggest_c_range(loaded.score_range, c)[0])
    return c
