"""The exploration constant C: a slider sized to the scores, an exact box, and where the path changes.

Every formula rule is affine in C (its module says its value as a line in C), so the slider is a
custom component (``ui/c/c_control.js``, no iframe, nothing loaded from the network): the browser gets where
the selected path changes over the slider's range once per (input, rule, settings, range) and
follows a drag by itself on every animation frame (the path, the picture's red path, the inspected
node's ranked children, and the page's live texts, :mod:`ui.c.live_text`, which hear the frame's
event); C is committed only when the drag ends or the keys rest. One exact sweep of
the rule over a few score spreads sizes the slider (to its last breakpoint), says where the path
changes next to C, and is cut to the slider's range for the browser. Keys move C by a round step that follows the
range (:func:`mcts_core.analysis.key_step`; ten of them with Page Up/Down or Shift, Home/End to
the ends); a drag keeps the slider's finer step.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any

import streamlit as st

from mcts_core import Scoring, Tree, parse_c
from mcts_core.analysis import fit_to_breakpoints, intervals_below, key_step, neighbouring_intervals, suggest_c_range
from ui.c.rule_sweep import rule_key, rule_sweep
from ui.common import state
from ui.common.components import asset_component
from ui.common.markdown import code, escape
from ui.setup.inputs import LoadedInput

# Session-state keys this module owns.
C = state.key("c")  # a contract key (docs/DESIGN.md)
C_EXACT = state.key("c_exact")  # a contract key (docs/DESIGN.md)
C_EXACT_ERROR = state.key("_c_exact_error")
C_LIVE = state.key("c_live")  # the live slider component (inside the container keyed C: class st-key-c)

DEFAULT_C = 1.0
# What only a commit brings up to date (a table, a sentence at the committed C): containers whose
# key starts with this prefix and a role ("any": either control) are dimmed from the first frame of
# that control's drag (or key press) until the server has the C it committed. The one protocol
# between c_control.js and the page's own elements: the script names it AT_COMMITTED_C too (a test
# checks both). What follows a drag is a component of its own (ui/c/live_text.py).
AT_COMMITTED_C = "at_committed_c"

_HTML = """
<div class="cc-root">
  <div class="cc-head"><span class="cc-name"></span><output class="cc-value" data-testid="stSliderThumbValue"></output></div>
  <div class="cc-track"><div class="cc-marks"></div><input type="range"></div>
  <div class="cc-live">
    <span><span class="cc-path-label"></span>: <span class="cc-path"></span></span>
    <span class="cc-children" hidden></span>
  </div>
</div>
"""

_component = asset_component("mcts_c_control", "c/c_control", _HTML)


def at_committed_c(role: str, name: str):
    """A container (``with`` it) for what only a commit of the ``role`` control's C updates (role
    "selected", "second", or "any"): dimmed while that C is dragged and until its commit has run."""
    return st.container(key=f"{AT_COMMITTED_C}_{role}_{name}")


def current_c() -> float:
    """The C every page uses."""
    return st.session_state.get(C, DEFAULT_C)


def exact_text(c: float) -> str:
    """C as the Exact C box writes it: the shortest digits that read back as ``c`` (Python's repr), a
    whole number without ".0", as the slider writes it (5, not 5.0)."""
    text = repr(c)
    return text.removesuffix(".0")


def adopt_header_c(c: float | None) -> None:
    """A new input: its header's C (if any) sets C; the controls rule after that."""
    if c is not None:
        st.session_state[C] = c
    st.session_state[C_EXACT] = exact_text(st.session_state.get(C, DEFAULT_C))


def set_c(c: float) -> None:
    """Set C from elsewhere (a rule preset, the slider): the slider and the exact box follow, and
    an error about what was typed in the box before goes with that text."""
    st.session_state[C] = c
    st.session_state[C_EXACT] = exact_text(c)
    st.session_state.pop(C_EXACT_ERROR, None)


def _exact_typed() -> None:
    try:
        st.session_state[C] = parse_c(st.session_state[C_EXACT])
        st.session_state.pop(C_EXACT_ERROR, None)
    except ValueError as error:
        st.session_state[C_EXACT_ERROR] = str(error)


ENGINE_REACH = 3  # an engine's analysis: the slider reaches this many times the engine's own cpuct


def _reach(loaded: LoadedInput, c: float) -> float:
    """The C a slider at ``c`` must reach: ``c``, and for an engine's analysis a few times the
    engine's cpuct (its values are winrates or utilities, whose small spread alone gave a slider
    ending at the engine's C: nothing above it could be tried)."""
    read = loaded.read
    return max(c, ENGINE_REACH * read.c) if read.engine is not None and read.c is not None else c


def _widest_range(loaded: LoadedInput, c: float) -> float:
    """The end of the range a slider at ``c`` is sized from (a few score spreads, and ``c``)."""
    return suggest_c_range(loaded.score_range, _reach(loaded, c))[0]


def _show_nearest_changes(loaded: LoadedInput, scoring: Scoring) -> None:
    """Under the slider: the C values nearest to ``scoring``'s where the rule's path changes."""
    c = scoring.c
    max_c = _widest_range(loaded, c)
    below, above = neighbouring_intervals(rule_sweep(loaded, scoring, 0.0, max_c), c)
    parts = []
    if below is not None:
        parts.append(f"below C = {below.c_to:.6g} it is {code(below.path) if below.path else 'empty'}")
    if above is not None:
        parts.append(f"from C = {above.c_from:.6g} it becomes {code(above.path) if above.path else 'empty'}")
    with at_committed_c("selected", "changes"):  # the changes nearest the committed C
        if parts:
            st.caption("The selected path changes: " + "; ".join(parts) + ".")
        else:
            st.caption(f"The selected path is the same for every C in [0, {max_c:g}].")


def keep() -> None:
    """Keep C and the exact box across runs of pages that do not draw them (widgets drop their state)."""
    st.session_state[C] = st.session_state.get(C, DEFAULT_C)
    st.session_state[C_EXACT] = st.session_state.get(C_EXACT, exact_text(st.session_state[C]))


def slider_range(loaded: LoadedInput, scoring: Scoring) -> tuple[float, float]:
    """(max, step) of the C slider at ``scoring``'s C: a few score spreads, narrowed to the rule's
    last breakpoint."""
    c = scoring.c
    max_c, step = suggest_c_range(loaded.score_range, _reach(loaded, c))
    intervals = rule_sweep(loaded, scoring, 0.0, max_c)
    return fit_to_breakpoints(max_c, intervals[-1].c_from if len(intervals) > 1 else None, _reach(loaded, c))


def _path_changes(loaded: LoadedInput, scoring: Scoring, max_c: float) -> list:
    """Where the selected path changes over [0, max_c), as the browser gets it: the sweep the slider
    was sized from (over a few score spreads at the committed C), cut at ``max_c``."""
    widest = max(_widest_range(loaded, scoring.c), max_c)
    return intervals_below(rule_sweep(loaded, scoring, 0.0, widest), max_c)


# At most this many nodes are added to a drawing so that every path the slider can select is drawn
# whole (past it, a path that leaves the drawing is drawn anew when C is committed).
SLIDER_PATHS_MAX_EXTRA = 300


@st.cache_resource(max_entries=32, show_spinner=False)
def _nodes_on_slider_paths(input_key: str, rule: str, max_c: float, _tree: Tree, _intervals: list) -> frozenset:
    nodes: set[int] = set()
    for interval in _intervals:
        nodes.update(_tree.path_nodes(_tree.find(interval.moves)))
    return frozenset(nodes)


def slider_path_nodes(
    loaded: LoadedInput, scoring: Scoring, visible: Collection[int], *, max_c: float | None = None
) -> frozenset[int]:
    """Every node on a path the C slider can select over its whole range, when they add at most
    :data:`SLIDER_PATHS_MAX_EXTRA` nodes to ``visible``; else none.

    Drawn with the picture, they make a drag's red path whole at every C and a commit reuse the
    drawing (its layout depends on the drawn nodes, not on C). ``scoring``: the rule, its settings
    and the slider's committed C; ``max_c``: the slider's end (it starts at 0); None: the page's C
    slider's (:func:`slider_range`).
    """
    if max_c is None:
        max_c, _ = slider_range(loaded, scoring)
    intervals = _path_changes(loaded, scoring, max_c)
    nodes = _nodes_on_slider_paths(loaded.key, rule_key(scoring), max_c, loaded.tree, intervals)
    return nodes if len(nodes.difference(visible)) <= SLIDER_PATHS_MAX_EXTRA else frozenset()


def _commit(c: float) -> None:
    """The browser committed a C for the page's own C (the drag ended or the keys rested)."""
    set_c(c)


def live_slider(
    loaded: LoadedInput,
    scoring: Scoring,
    *,
    max_c: float,
    step: float,
    key: str,
    on_commit: Callable[[float], None],
    role: str = "selected",
    label: str | None = None,
    path_label: str = "Selected path",
    reveal_at_rest: bool = True,
    exact: str | None = None,
    exact_digits: int | None = None,
) -> None:
    """The slider that follows a drag in the browser (module docstring).

    Args:
        loaded: the input.
        scoring: the rule, its settings and the committed C.
        max_c: the slider's end (it starts at 0); step: its step for a drag (keys take
            :func:`mcts_core.analysis.key_step` of the range).
        key: the component's widget key.
        on_commit: called with the C the browser committed, before the rerun's script runs.
        role: which path of the page follows the drag (its tree picture's, its live texts'):
            "selected", or "second" (Compare's setting B, Playback's path at C).
        label: the slider's label; None: the rule's name for C.
        path_label: what the live line calls the path it names (the page's name for that path).
        reveal_at_rest: False: the live line (the path, the ranked children) and the ticks where
            the path changes show only while C is dragged.
        exact: the widget key of the box holding this C exactly: while C is dragged it shows the
            live C (rewritten in the browser), or None.
        exact_digits: the box is a number box showing C to this many significant digits
            (``format="%.6g"`` for 6); None: a text box showing C as Python's repr writes it.
    """
    data = {
        "c": scoring.c,
        "max": max_c,
        "step": step,
        "key_step": key_step(max_c),
        "label": label or scoring.spec.c_label,
        "path_label": path_label,
        "intervals": [[part.c_from, part.c_to, list(part.moves)] for part in _path_changes(loaded, scoring, max_c)],
        "compact": loaded.tree.compact,
        "role": role,
        "reveal_at_rest": reveal_at_rest,
    }
    if exact is not None:
        data["exact"] = f".st-key-{exact} input"
        data["exact_digits"] = exact_digits

    def committed() -> None:
        c = st.session_state[key]["commit"]
        if c is not None:
            on_commit(float(c))

    _component(key=key, data=data, height="content", on_commit_change=committed)


def render(
    loaded: LoadedInput,
    rule: str,
    settings: Mapping[str, Any],
    *,
    show_changes: bool,
    role: str = "selected",
    path_label: str = "Selected path",
    reveal_at_rest: bool = True,
) -> Scoring:
    """Draw the C slider and the exact box (in the current container); returns the scoring at the
    committed C (the one place a page gets C from).

    Args:
        loaded: the input (sizes the slider to its scores and where the rule's path changes).
        rule, settings: the rule and its settings.
        show_changes: fit the slider to the rule's exact breakpoints and (unless ``reveal_at_rest``
            is False) say where the path changes.
        role, path_label, reveal_at_rest: see :func:`live_slider`.
    """
    keep()
    # The widgets' callbacks (a commit, a typed C) ran before this script: C is final here.
    scoring = Scoring(rule, current_c(), settings)
    max_c, step = (slider_range(loaded, scoring) if show_changes
                   else suggest_c_range(loaded.score_range, _reach(loaded, scoring.c)))
    slider, exact = st.columns([5, 2], vertical_alignment="bottom")
    # A keyed container gives the contract's class st-key-c; C itself stays a plain float in state.
    with slider, st.container(key=C):
        live_slider(loaded, scoring, max_c=max_c, step=step, key=C_LIVE, on_commit=_commit,
                    role=role, path_label=path_label, reveal_at_rest=reveal_at_rest, exact=C_EXACT)
    exact.text_input("Exact C", key=C_EXACT, on_change=_exact_typed, help="Type any C >= 0.")
    if C_EXACT_ERROR in st.session_state:
        st.error(escape(st.session_state[C_EXACT_ERROR]))
    if show_changes and reveal_at_rest:
        _show_nearest_changes(loaded, scoring)
    return scoring
