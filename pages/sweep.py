"""C sweep: exactly where the sidebar rule's selected path changes as C moves (lines, envelopes, intervals)."""

import pandas as pd
import streamlit as st

from mcts_core import RULES, Scoring, node_envelope
from mcts_core.analysis import interval_at, range_problem
from mcts_core.tables import (
    bands_frame,
    on_path_frame,
    sweep_nodes,
    zoom_range,
)
from ui.c import c_control, live_c_marker, live_text, rule_sweep, selected_path
from ui.charts.sweep_charts import C_FORMAT, CURRENT_C_LAYER, band_strip, lines_chart
from ui.common import state
from ui.common.colours import highlight_rows
from ui.common.markdown import code, escape
from ui.common.metric_row import metric_row
from ui.common.wording import node_markdown, plural
from ui.share import share_panel
from ui.shell import sidebar

# Session-state keys this module owns.
SWEEP_FROM = state.key("sweep_from")
SWEEP_TO = state.key("sweep_to")
SWEEP_ZOOM_RANGE = state.key("_sweep_zoom")
SWEEP_RESET = state.key("sweep_reset")
SWEEP_ZOOM = state.key("sweep_zoom")
SWEEP_NODE = state.key("sweep_node")
SWEEP_NODE_PATH = state.key("sweep_node_path")
SWEEP_STRIP = state.key("sweep_strip")
SWEEP_LINES = state.key("sweep_lines")
SWEEP_STRIP_BOX = state.key("sweep_strip_box")  # charts get no st-key class: keyed containers give them one
SWEEP_LINES_BOX = state.key("sweep_lines_box")
SWEEP_LIVE_C = state.key("sweep_live_c")
SWEEP_TABLE = state.key("sweep_table")
SWEEP_CSV = state.key("sweep_csv")

C_COLUMN_PX = 115  # the intervals table's C columns: "0.0001234567" and "to C (excluded)" fit
SHOWN_INTERVALS = 6  # the summary sentence lists this many intervals at most

def reset_range(max_c: float) -> None:
    st.session_state[SWEEP_FROM], st.session_state[SWEEP_TO] = 0.0, max_c


def zoom_in() -> None:
    # The zoom was worked out by the previous run, from the range the user is looking at.
    st.session_state[SWEEP_FROM], st.session_state[SWEEP_TO] = st.session_state[SWEEP_ZOOM_RANGE]


def summary_sentence(bands: pd.DataFrame) -> str:
    """The answer in words: which path holds for which C (the first few intervals)."""
    parts = [
        f"{node_markdown(row.path)} for C in [{row.c_from:.6g}, {row.c_to:.6g})"
        for row in bands.head(SHOWN_INTERVALS).itertuples()
    ]
    more = len(bands) - SHOWN_INTERVALS
    return "; ".join(parts) + (f"; and {more} more intervals (table below)." if more > 0 else ".")


def intro(rule_name: str) -> None:
    st.title("C sweep")
    st.caption(
        f"Where the selected path changes as C moves, under the sidebar's rule, {escape(rule_name)}. "
        "At every node each child's value is a straight line in C (UCB1's: mean + C·√(ln N / n)); selection "
        "follows the highest line, so the path is constant between exact breakpoints. A breakpoint belongs to "
        "the interval on its right."
    )


def range_controls(max_c: float) -> tuple[list, float, float]:
    """The swept range's inputs and the reset button; returns (the row's columns, from, to)."""
    controls = st.columns([1, 1, 1.1, 1.6, 1.3], vertical_alignment="bottom")  # the labels fit at 1366 px
    # Made with the range in effect: a box whose value differs from the one it is made with shows that
    # one for a frame first (0, when the page opened on a range up to 100).
    c_from = controls[0].number_input("Sweep C from", value=st.session_state.get(SWEEP_FROM, 0.0), key=SWEEP_FROM,
                                      persist_state="session", format="%.6g", step=max_c / 100)
    c_to = controls[1].number_input("to", value=st.session_state.get(SWEEP_TO, max_c), key=SWEEP_TO,
                                    persist_state="session", format="%.6g", step=max_c / 100)
    controls[2].button(
        "Slider range", on_click=reset_range, args=(max_c,), key=SWEEP_RESET, width="stretch",
        help="Back to 0 … the C slider's maximum."
    )
    return controls, c_from, c_to


def zoom_button(column, intervals, c_from: float, c_to: float) -> None:
    st.session_state[SWEEP_ZOOM_RANGE] = zoom = zoom_range(intervals)
    column.button(
        "Zoom to breakpoints",
        on_click=zoom_in,
        key=SWEEP_ZOOM,
        width="stretch",
        disabled=zoom is None or zoom == (c_from, c_to),
        help="Narrow the range to where the path changes, with some room after the last breakpoint.",
    )


def answer(tree, selected, intervals, bands: pd.DataFrame, c_from: float, c_to: float):
    """The rule's path at this C, the counts, and which path holds where, in words; returns the slot
    for the Share button (at the top: opened at the page's end, its contents fell below the fold)."""
    c = selected.scoring.c
    # The path at C itself (also right at the range's excluded end, and outside a zoomed range): the
    # C control's, so the metric follows a drag.
    share_slot = metric_row(
        [
            (f"{selected.scoring.spec.name} path at this C",
             live_text.metric_value("sweep_path", "selected", "path", tree, selected.path, c), f"C = {c!r}"),
            ("Intervals", len(intervals)),
            ("Breakpoints", len(intervals) - 1),
            ("Swept range", f"[{c_from:.4g}, {c_to:.4g})"),
        ]
    ).container(width="content")
    st.markdown(summary_sentence(bands))
    return share_slot


def strip_section(bands: pd.DataFrame, c_from: float, c_to: float, shown_c: float | None, c: float) -> None:
    st.subheader("Selected path along C")
    with st.container(key=SWEEP_STRIP_BOX):
        st.altair_chart(band_strip(bands, c_from, c_to, shown_c), width="stretch", key=SWEEP_STRIP)
    # Its bold "C = x" follows a drag of C, as the red line does.
    live_text.text("sweep_strip", [
        live_text.plain("Each band is an interval of C with one selected path (hover for its statistics). "),
        *([live_text.plain("Red line: "), live_text.c_part("selected", c), live_text.plain(".")] if shown_c is not None
          else [live_text.plain(f"C = {c:.6g} is outside this range.")]),
    ], cs={"selected": c})


def chosen_node(tree, intervals) -> str:
    """The path of the node whose lines are drawn: picked from the swept paths' nodes, or typed."""
    options = [tree.format_path(moves) for moves in sweep_nodes(intervals)] or [""]  # a leaf root: itself
    if st.session_state.get(SWEEP_NODE) not in options:
        st.session_state[SWEEP_NODE] = options[0]  # e.g. after a new input
    picker = st.columns([2, 2, 3])
    picked = picker[0].selectbox(
        "Node on a swept path",
        options,
        key=SWEEP_NODE, persist_state="session",
        format_func=lambda path: f"{path}  (depth {len(path)})" if path else "root",
        help="Every node where some interval's path makes a choice, root first.",
    )
    typed = picker[1].text_input("…or any node path", key=SWEEP_NODE_PATH, persist_state="session", help="Moves from the root, e.g. `ab`; empty = use the list.")
    node_path = picked or ""
    if typed:
        try:
            tree.find(typed)
            node_path = typed
        except KeyError as missing:
            st.error(escape(f"{missing.args[0]}; showing {node_path or 'the root'} instead."))
    return node_path


def why_section(tree, intervals, c_from: float, c_to: float, shown_c: float | None, scoring: Scoring) -> None:
    """A node's children as lines in C under the rule: the envelope the selection follows, and where it changes."""
    st.subheader("Why: a node's children as lines in C")
    node_path = chosen_node(tree, intervals)
    node = tree.find(node_path)
    envelope = node_envelope(tree, node, c_from, c_to, scoring)
    if not envelope.lines:
        st.info(f"Node {node_markdown(node_path)} is a leaf: there is no choice to draw.")
        return
    on_path = on_path_frame(intervals, tree.path_moves(node))
    with st.container(key=SWEEP_LINES_BOX):
        st.altair_chart(lines_chart(envelope, on_path, c_from, c_to, shown_c, scoring.spec),
                        width="stretch", key=SWEEP_LINES)
    changes = ", ".join(
        f"{code(point.before_move)} → {code(point.after_move)} at C = {point.c:.10g}" for point in envelope.crossings
    )
    st.caption(
        f"Node {node_markdown(node_path)}, {plural(int(tree.visits[node]), 'visit')}. Dashed: each child's line; thick: the "
        "child selected at that C (the upper envelope); grey diamonds: where the choice changes"
        + (f" ({changes})" if changes else " (never in this range)")
        + ". Grey background: C where the selected path passes through this node."
    )


def intervals_table(bands: pd.DataFrame, holding_c: int | None) -> None:
    st.subheader("Intervals")
    # The table names the root "(root)": an empty cell would read as "no breakpoint",
    # and the first row, which no breakpoint starts, is left blank rather than "None".
    table = bands.assign(node=bands["node"].replace("", "(root)")).fillna({"node": "", "before": "", "after": ""})
    st.dataframe(
        highlight_rows(table, table.index == holding_c),
        hide_index=True,
        key=SWEEP_TABLE,
        column_order=["c_from", "c_to", "path", "length", "leaf_visits", "leaf_mean", "node", "before", "after"],
        column_config={
            # Wide enough for 10 digits: sized by its header and first row (0), it cut "2.702917488".
            "c_from": st.column_config.NumberColumn("from C", format="%" + C_FORMAT, width=C_COLUMN_PX),
            "c_to": st.column_config.NumberColumn("to C (excluded)", format="%" + C_FORMAT, width=C_COLUMN_PX),
            "path": st.column_config.TextColumn("selected path"),
            "length": st.column_config.NumberColumn("length"),
            "leaf_visits": st.column_config.NumberColumn("leaf visits"),
            "leaf_mean": st.column_config.NumberColumn("leaf mean", format="%.4f"),
            "node": st.column_config.TextColumn("breakpoint at node", help="Where the choice changes; empty = root."),
            "before": st.column_config.TextColumn("child before"),
            "after": st.column_config.TextColumn("child from here"),
        },
    )
    st.caption("Highlighted: the interval holding the current C. Each row after the first starts at a breakpoint.")


def csv_download(bands: pd.DataFrame) -> None:
    st.download_button(
        "Download intervals (CSV)",
        lambda: bands.drop(columns=["middle", "label"]).to_csv(index=False),  # made on click
        file_name="c_sweep.csv",
        mime="text/csv",
        key=SWEEP_CSV,
        on_click="ignore",  # no rerun: it would give every file made on click a new id
    )


@st.fragment
def sweep_page(setup) -> None:
    """The whole page: the C control at its top reruns only this."""
    tree = setup.tree
    intro(RULES[setup.rule].name)
    selected = selected_path.select(setup)
    scoring = selected.scoring
    c = scoring.c
    max_c = c_control.slider_range(setup.input, scoring)[0]
    if state.first_run_for_input("sweep", f"{setup.input.key} {scoring.rule}"):
        reset_range(max_c)  # a new input or rule: sweep the slider's range, as the slider shows it
    controls, c_from, c_to = range_controls(max_c)
    problem = range_problem(c_from, c_to)
    if problem is not None:
        st.error(escape(problem), icon="⚠️")
        return
    intervals = rule_sweep.rule_sweep(setup.input, scoring, c_from, c_to)
    zoom_button(controls[3], intervals, c_from, c_to)
    bands = bands_frame(tree, intervals)
    shown_c = c if c_from <= c <= c_to else None  # the red line, also at the range's right edge
    share_slot = answer(tree, selected, intervals, bands, c_from, c_to)
    strip_section(bands, c_from, c_to, shown_c, c)
    why_section(tree, intervals, c_from, c_to, shown_c, scoring)
    live_c_marker.render(
        key=SWEEP_LIVE_C, c_from=c_from, c_to=c_to, containers=(SWEEP_STRIP_BOX, SWEEP_LINES_BOX), rule_layer=CURRENT_C_LAYER,
        value_below=(SWEEP_STRIP_BOX,),  # the strip's axis is on top: under the bands, the value covers no label
    )
    intervals_table(bands, interval_at(intervals, c))
    csv_download(bands)
    with share_slot:
        share_panel.render(setup.input, scoring, "sweep")


setup = sidebar.require()
sweep_page(setup)
