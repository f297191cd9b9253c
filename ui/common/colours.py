"""The app's colours for tables and charts: row highlights readable in both themes, moves' palette, the current C."""

from __future__ import annotations

import pandas as pd

# Table highlights set both colours, so they read the same in the light and the dark theme (the
# theme changes the default text colour, not these): each pair has a contrast ratio above 4.5.
SELECTED_ROW_COLOURS = ("#b3261e", "#ffffff")  # the selected path's red, darker for white text
SECOND_ROW_COLOURS = ("#00695c", "#ffffff")  # Compare's setting B: teal
CHANGED_COLOURS = ("#fff3b0", "#111111")  # a rank that changed between A and B: yellow
# Categorical colours for moves and paths in charts: no red (red marks the selected path and the
# current C or k) and one blue only (Streamlit's default palette pairs a dark and a light blue).
MOVE_PALETTE = ["#4c78a8", "#f58518", "#54a24b", "#b279a2", "#eeca3b", "#72b7b2", "#9d755d", "#ff9da6", "#bab0ac"]
MUTED_COLOUR = MOVE_PALETTE[-1]  # grey: a group of moves (a chart's "others")
CURRENT_COLOUR = "#d62728"  # the page's C or k, red as the selected path in the pictures
SELECTED_ROW = f"background-color: {SELECTED_ROW_COLOURS[0]}; color: {SELECTED_ROW_COLOURS[1]}; font-weight: bold"
SECOND_ROW = f"background-color: {SECOND_ROW_COLOURS[0]}; color: {SECOND_ROW_COLOURS[1]}; font-weight: bold"
CHANGED_CELL = f"background-color: {CHANGED_COLOURS[0]}; color: {CHANGED_COLOURS[1]}; font-weight: bold"


def highlight_rows(table: pd.DataFrame, selected) -> "pd.io.formats.style.Styler":
    """``table`` styled with the rows where ``selected`` (booleans, one per row) holds in the path colour."""
    mask = pd.Series(list(selected), index=table.index, dtype=bool)
    return table.style.apply(lambda row: [SELECTED_ROW if mask[row.name] else ""] * len(row), axis=1)
