"""What the pages' pictures and tables share: the C-independent set of drawn nodes, row highlights."""

from __future__ import annotations

import math
from collections.abc import Iterable

import pandas as pd
import streamlit as st

from mcts_core import Tree
from mcts_core.drawing import visible_nodes

# Table highlights set both colours, so they read the same in the light and the dark theme (the
# theme changes the default text colour, not these): each pair has a contrast ratio above 4.5.
SELECTED_ROW_COLOURS = ("#b3261e", "#ffffff")  # the selected path's red, darker for white text
SECOND_ROW_COLOURS = ("#00695c", "#ffffff")  # Compare's setting B: teal
CHANGED_COLOURS = ("#fff3b0", "#111111")  # a rank that changed between A and B: yellow
# Categorical colours for moves and paths in charts: no red (red marks the selected path and the
# current C or k) and one blue only (Streamlit's default palette pairs a dark and a light blue).
MOVE_PALETTE = ["#4c78a8", "#f58518", "#54a24b", "#b279a2", "#eeca3b", "#72b7b2", "#9d755d", "#ff9da6", "#bab0ac"]
CURRENT_COLOUR = "#d62728"  # the page's C or k, red as the selected path in the pictures
# The drawing limits' (lowest, highest) values. At 5,000 drawn nodes the layout and graphviz's drawing
# take about 0.7 s of CPU (1,500: 0.2 s), the picture 3-6 s in all on this busy 2-core machine
# (bench/RESULTS.md, issue 38): the most that still draws in seconds.
LIMIT_RANGES = {"budget": (10, 5000), "depth": (0, 1000), "topk": (0, 100)}
BUDGET_HELP = "At most this many nodes are drawn (the selected path and the inspected node always are); 5,000 take a few seconds."
SELECTED_ROW = f"background-color: {SELECTED_ROW_COLOURS[0]}; color: {SELECTED_ROW_COLOURS[1]}; font-weight: bold"
SECOND_ROW = f"background-color: {SECOND_ROW_COLOURS[0]}; color: {SECOND_ROW_COLOURS[1]}; font-weight: bold"
CHANGED_CELL = f"background-color: {CHANGED_COLOURS[0]}; color: {CHANGED_COLOURS[1]}; font-weight: bold"


@st.cache_resource(max_entries=32, show_spinner=False)
def _visible_nodes(
    input_key: str, budget: int, max_depth: int | None, top_k: int | None, unvisited: bool, _tree: Tree
) -> frozenset:
    """visible_nodes cached by input and limits (the tree is identified by ``input_key``)."""
    return frozenset(visible_nodes(_tree, budget=budget, max_depth=max_depth, top_k=top_k, unvisited=unvisited))


def cached_visible_nodes(
    input_key: str,
    tree: Tree,
    budget: int,
    max_depth: int | None = None,
    top_k: int | None = None,
    unvisited: bool = False,
) -> frozenset[int]:
    """The tree's nodes to draw under these limits: C-independent, so computed once per input."""
    return _visible_nodes(input_key, budget, max_depth, top_k, unvisited, tree)


def mean_header(tree: Tree, node: int) -> str:
    """The children's mean column header, short enough to show whole: whose view the means take."""
    return f"mean (P{tree.player[node]})" if tree.players > 1 else "mean"


def total_format(values: Iterable[float], significant: int = 6) -> str:
    """A fixed-point format showing the largest of ``values`` with ``significant`` digits (76,095.4
    as 76095.4, not 7.61e+04 or 76100), and at least 1 decimal (never more than 4) for the small ones."""
    largest = max((abs(value) for value in values if math.isfinite(value)), default=0.0)
    integer_digits = len(str(int(largest))) if largest >= 1 else 1
    return f"%.{min(max(significant - integer_digits, 1), 4)}f"


def highlight_rows(table: pd.DataFrame, selected) -> "pd.io.formats.style.Styler":
    """``table`` styled with the rows where ``selected`` (booleans, one per row) holds in the path colour."""
    mask = pd.Series(list(selected), index=table.index, dtype=bool)
    return table.style.apply(lambda row: [SELECTED_ROW if mask[row.name] else ""] * len(row), axis=1)
