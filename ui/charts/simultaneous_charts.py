"""The Simultaneous page's charts of what C does to a matrix game: exploitability, and the root strategy, against C."""

from __future__ import annotations

import altair as alt
import pandas as pd


def log_c_axis() -> alt.X:
    """C (γ for the regret-based rules) on a log scale."""
    return alt.X("C:Q", scale=alt.Scale(type="log"), title="C (γ for regret matching and EXP3)")


def exploitability_chart(exploitabilities: list[dict]) -> alt.Chart:
    """Each rule's root strategy's exploitability against C, a line per rule and player."""
    return alt.Chart(pd.DataFrame(exploitabilities)).mark_line(point=True).encode(
        x=log_c_axis(), y=alt.Y("exploitability:Q", title="exploitability of the root strategy"),
        color=alt.Color("rule:N"), strokeDash=alt.StrokeDash("who:N", title=None),
        tooltip=["rule", "who", alt.Tooltip("C:Q", format=".4g"), alt.Tooltip("exploitability:Q", format=".3f")],
    ).properties(height=260)


def strategy_chart(probabilities: list[dict]) -> alt.FacetChart:
    """Each move's probability in the root strategy against C, a panel per rule."""
    return alt.Chart(pd.DataFrame(probabilities)).mark_line(point=True).encode(
        x=log_c_axis(), y=alt.Y("probability:Q", title="probability at the root"), color=alt.Color("move:N"),
        strokeDash=alt.StrokeDash("player:N", title=None),
        tooltip=["rule", "player", "move", alt.Tooltip("C:Q", format=".4g"), alt.Tooltip("probability:Q", format=".3f")],
    ).properties(height=200, width=260).facet(column=alt.Column("rule:N", title=None)).resolve_scale(x="independent")
