"""The tree as an outline: a list of nodes opened along the selected path and the inspected node's line.

For trees too big to draw: only the children of the open nodes are scored (one
:func:`mcts_core.analysis.outline_children` call each), so a 200,000-playout tree opens as fast as a
small one. A row click inspects its node (which opens it); a box jumps to a typed move sequence.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection

import pandas as pd
import streamlit as st

from mcts_core import ROOT, Scoring, Tree
from mcts_core.analysis import OutlineRow, outline_children
from ui import state
from ui.drawing import highlight_rows
from ui.markdown import escape

# Session-state keys this module owns.
OUTLINE_ORDER = state.key("outline_order")
OUTLINE_JUMP = state.key("outline_jump")
# One table per inspected node: a row selected in the old list must not stay selected in the new one.
OUTLINE_TABLE = state.key_family("outline_table_{}")

ORDERS = {
    "visits": lambda row: -row.visits,
    "rule's value": lambda row: -row.value if not math.isnan(row.value) else math.inf,
    "mean": lambda row: -row.mean if not math.isnan(row.mean) else math.inf,
    "move": lambda row: row.move,
}
OUTCOMES = {1.0: "win", 0.0: "draw", -1.0: "loss"}
INDENT = "\u2003"  # an em space per level: plain spaces are collapsed in the grid


def outcome_word(outcome: float | None) -> str:
    """A proven outcome for the mover in a word ("" when not proven)."""
    if outcome is None:
        return ""
    return OUTCOMES.get(outcome, f"{outcome:+g}")


def open_rows(tree: Tree, scoring: Scoring, opened: Collection[int], order: str) -> list[OutlineRow]:
    """The outline's rows, depth first: each open node's children (in ``order``) under it."""
    key = ORDERS[order]
    rows: list[OutlineRow] = []
    pending = [sorted(outline_children(tree, ROOT, scoring), key=key)]  # siblings still to list, per level
    while pending:
        if not pending[-1]:
            pending.pop()
            continue
        row = pending[-1].pop(0)
        rows.append(row)
        if row.node in opened and row.children:
            pending.append(sorted(outline_children(tree, row.node, scoring), key=key))
    return rows


def outline_frame(tree: Tree, rows: list[OutlineRow], opened: Collection[int], value_label: str) -> pd.DataFrame:
    """The rows as the table shows them: the move indented by depth with an open/closed mark."""

    def shown_move(row: OutlineRow) -> str:
        mark = ("▾ " if row.node in opened else "▸ ") if row.children else "\u2002 "
        return INDENT * (row.depth - 1) + mark + row.move

    return pd.DataFrame({
        "move": [shown_move(row) for row in rows],
        "visits": [row.visits for row in rows],
        "share": [100 * row.share for row in rows],
        "mean": [row.mean for row in rows],
        value_label: [row.value for row in rows],
        "proven": [outcome_word(row.outcome) for row in rows],
        "path": [tree.path(row.node) for row in rows],
    })


def show_outline(
    tree: Tree,
    scoring: Scoring,
    *,
    path: Collection[int],
    inspected: int,
    on_select: Callable[[int], None],
) -> None:
    """The outline, its order, and the jump box; a row click or a jump calls ``on_select(node)``.

    Open: the nodes of the selected ``path`` and the inspected node with its ancestors.
    """
    with st.container(key="outline"):  # the browser tests find the outline by this key's class
        outline_body(tree, scoring, set(path) | set(tree.path_nodes(inspected)), inspected, on_select)


def outline_body(tree: Tree, scoring: Scoring, opened: set[int], inspected: int, on_select) -> None:
    """The jump box, the order, the table."""
    controls = st.columns([3, 2])

    def jump() -> None:
        try:
            on_select(tree.find(st.session_state[OUTLINE_JUMP]))
        except KeyError:
            pass  # shown below, with the typed text kept

    controls[0].text_input(
        "Jump to moves", key=OUTLINE_JUMP, on_change=jump, placeholder="e.g. " + (tree.path(inspected) or tree.path(max(opened)) or "a"),
        help="Moves from the root, as the path box takes them: the outline opens there and the node is inspected.",
    )
    order = controls[1].selectbox("Order children by", list(ORDERS), key=OUTLINE_ORDER)
    if typed := st.session_state.get(OUTLINE_JUMP, ""):
        try:
            tree.find(typed)
        except KeyError as missing:
            st.error(escape(f"{missing.args[0]}."))
    rows = open_rows(tree, scoring, opened, order)
    value_label = scoring.spec.label("value")
    table = outline_frame(tree, rows, opened, value_label)
    key = OUTLINE_TABLE.format(inspected)

    def selected() -> None:
        chosen = st.session_state[key]["selection"]["rows"]
        if chosen:
            on_select(rows[chosen[0]].node)

    st.dataframe(
        highlight_rows(table, [row.node == inspected for row in rows]),
        hide_index=True,
        key=key,
        on_select=selected,
        selection_mode="single-row",
        height=min(36 * (len(rows) + 1) + 3, 420),
        column_order=["move", "visits", "share", "mean", value_label, "proven"],
        column_config={
            "move": st.column_config.TextColumn("move", help="Click a row to inspect its node (and open it)."),
            "visits": st.column_config.NumberColumn("visits", format="localized"),
            "share": st.column_config.NumberColumn("share", format="%.1f%%", help="Share of the parent's visits."),
            "mean": st.column_config.NumberColumn("mean", format="%.3f", help="From the view of the player who moved."),
            value_label: st.column_config.NumberColumn(value_label, format="%.4g", help="What selection maximises at this C."),
            "proven": st.column_config.TextColumn("proven", help="A proven outcome for the player who moved."),
        },
    )
    st.caption(f"{len(rows):,} rows of {len(tree):,} nodes: ▾ open, ▸ closed (click to open).")
