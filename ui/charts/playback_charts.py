"""Playback's chart: a statistic of the root's children against the playouts replayed, k now marked."""

from __future__ import annotations

import altair as alt
import pandas as pd

from ui.charts.axes import current_rule, move_colours


def race_chart(frame: pd.DataFrame, value: str, title: str, number_format: str, k: int) -> alt.LayerChart:
    """One statistic of the root's children against k, with a red rule at the current k."""
    lines = alt.Chart(frame).mark_line().encode(
        x=alt.X("k:Q", title="playouts replayed (k)", axis=alt.Axis(format=",d", tickMinStep=1)),  # whole playouts
        y=alt.Y(f"{value}:Q", title=title, axis=alt.Axis(format=number_format)),
        color=move_colours("move:N", title="root child"),
        tooltip=["move:N", "k:Q", alt.Tooltip(f"{value}:Q", format=number_format)],
    )
    now = current_rule(pd.DataFrame({"k": [k]}), "k:Q", [alt.Tooltip("k:Q", title="k now")])
    return lines + now
