"""The tree as an outline: an indented, sortable list of nodes opened along the selected path and the
inspected node's line, for trees too big to draw.

Python sends the children lists of the open nodes and of their children (one level more), so the
browser opens and closes rows at once (``ui/picture/outline.js``, a components-v2 element); a row
whose list was not sent asks for it. Only listed nodes are scored (one
:func:`mcts_core.analysis.outline_children` each), so a 200,000-playout tree costs what a small one
does. A click on a row's move inspects its node; a box jumps to a typed move sequence.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection

import streamlit as st

from mcts_core import Scoring, Tree
from mcts_core.analysis import OutlineRow, outline_children
from mcts_core.drawing import path_json
from ui.common import state
from ui.common.components import asset_component
from ui.common.markdown import escape

# Session-state keys this module owns.
OUTLINE_JUMP = state.key("outline_jump")
OUTLINE_VIEW = state.key("outline_view")
OUTLINE_ASKED = state.key("_outline_asked")  # {input key: node paths the browser asked to open}

PREFETCH_ROWS = 5000  # children lists sent ahead of a click, at most this many rows in all
OUTCOMES = {1.0: "win", 0.0: "draw", -1.0: "loss"}
_component = asset_component(
    "mcts_outline", "picture/outline", '<div class="tbl-box"><table class="ol-table tbl" aria-label="Tree outline"></table></div>',
    shared_styles=("picture/table",),
)


def outcome_word(outcome: float | None) -> str:
    """A proven outcome for the mover in a word ("" when not proven)."""
    if outcome is None:
        return ""
    return OUTCOMES.get(outcome, f"{outcome:+g}")


def row_data(tree: Tree, row: OutlineRow) -> dict:
    """One row as the browser gets it (NaN, a missing mean or value, as None)."""
    return {
        "key": path_json(tree.path_moves(row.node)), "move": row.move, "n": row.children,
        "visits": row.visits, "share": row.share, "mean": None if row.mean != row.mean else row.mean,
        "value": None if row.value != row.value else row.value, "proven": outcome_word(row.outcome),
    }


def children_lists(tree: Tree, scoring: Scoring, opened: Collection[int]) -> dict[str, list[dict]]:
    """The open nodes' children lists, then their children's (while under :data:`PREFETCH_ROWS`)."""
    lists: dict[str, list[dict]] = {}
    ahead: list[int] = []
    for node in sorted(opened):
        rows = outline_children(tree, node, scoring)
        lists[path_json(tree.path_moves(node))] = [row_data(tree, row) for row in rows]
        ahead += [row.node for row in rows if row.children and row.node not in opened]
    sent = sum(len(rows) for rows in lists.values())
    for node in ahead:
        if sent >= PREFETCH_ROWS:
            break
        rows = outline_children(tree, node, scoring)
        lists[path_json(tree.path_moves(node))] = [row_data(tree, row) for row in rows]
        sent += len(rows)
    return lists


def show_outline(
    tree: Tree,
    scoring: Scoring,
    *,
    input_key: str,
    path: Collection[int],
    inspected: int,
    on_select: Callable[[int], None],
) -> None:
    """The jump box and the outline; a click on a row's move or a jump calls ``on_select(node)``.

    Open: the nodes of the selected ``path``, the inspected node and its ancestors, and any node
    whose children the browser asked for.
    """
    asked = st.session_state.setdefault(OUTLINE_ASKED, {}).setdefault(input_key, set())

    def jump() -> None:
        try:
            on_select(tree.find(st.session_state[OUTLINE_JUMP]))
        except KeyError:
            pass  # shown below, with the typed text kept

    st.text_input(
        "Jump to moves", key=OUTLINE_JUMP, on_change=jump, placeholder="e.g. " + (tree.path(max(path)) or "a"),
        help="Moves from the root, as the path box takes them: the outline opens there and the node is inspected.",
    )
    if typed := st.session_state.get(OUTLINE_JUMP, ""):
        try:
            tree.find(typed)
        except KeyError as missing:
            st.error(escape(f"{missing.args[0]}."))
    opened = set(path) | set(tree.path_nodes(inspected))
    for moves in asked:
        node, depth = tree.deepest(moves)
        if depth == len(moves):
            opened.add(node)

    def node_of(event: str) -> int | None:
        moves = tuple(json.loads(st.session_state[OUTLINE_VIEW][event]))  # a row's key: its path as JSON
        node, depth = tree.deepest(moves)
        return node if depth == len(moves) else None

    def expand() -> None:
        asked.add(tuple(json.loads(st.session_state[OUTLINE_VIEW]["expand"])))

    def inspect() -> None:
        if (node := node_of("inspect")) is not None:
            on_select(node)

    value = scoring.spec.label("value")
    data = {
        "columns": [["visits", "visits", "int"], ["share", "share", "pct"], ["mean", "mean", "num"],
                    ["value", value, "num"], ["proven", "proven", "text"]],
        "lists": children_lists(tree, scoring, opened),
        "open": [path_json(tree.path_moves(node)) for node in opened],
        "inspected": path_json(tree.path_moves(inspected)),
    }
    _component(key=OUTLINE_VIEW, data=data, height="content", on_expand_change=expand, on_inspect_change=inspect)
    st.caption(
        "▸ opens a node, ▾ closes it; click a move to inspect its node; click a header to sort each node's "
        "children. Share: of the parent's visits; mean: from the view of the player who moved; "
        f"{escape(value)}: what selection maximises at this C; proven: a proven outcome for that player."
    )
