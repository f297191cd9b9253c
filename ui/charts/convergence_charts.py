"""The search over time (Playback): a node's children's share of its visits and their values against
the node's visits on a log axis, where the choice changed, and Playback's k."""

from __future__ import annotations

import altair as alt
import pandas as pd

from mcts_core.analysis import OTHERS, GroupedSeries
from ui.charts.axes import current_rule, move_colours
from ui.common.colours import SECOND_PATH_COLOUR

PICK = "pick"  # the click's selection: the sample nearest the pointer, by the playouts read there
CHANGE_COLOURS = {"most visited": "#888888", "selected at C": SECOND_PATH_COLOUR}
CHANGE_COLUMNS = ["visits", "playouts", "choice", "before", "after"]


def changes_frame(most_visited: list[tuple[int, int, str, str]],
                  selected: list[tuple[int, int, str, str]] | None) -> pd.DataFrame:
    """Where the choice changed (:meth:`~mcts_core.analysis.Convergence.change_points`), one row each,
    named by which choice: the most visited child, or the one the rule selects at C."""
    rows = [("most visited", *change) for change in most_visited]
    rows += [("selected at C", *change) for change in selected or ()]
    frame = pd.DataFrame(rows, columns=["choice", "visits", "playouts", "before", "after"])
    return frame[CHANGE_COLUMNS]


def over_time_chart(series: GroupedSeries, statistic: str, title: str, number_format: str,
                    changes: pd.DataFrame, visits_now: int | None, node: str, run: str) -> alt.LayerChart:
    """One statistic ("share" or "value") of each group against the node's visits (log axis): a rule
    where a choice changed (grey: the most visited child, teal dashed: the selected one), the red rule
    at Playback's k (``visits_now``, the node's visits then; none before its first), and a click on it
    picks the nearest sample (:data:`PICK`, by its ``playouts``)."""
    rows = pd.DataFrame(series.columns)
    x = alt.X("visits:Q", title=f"visits to {node} (log)", scale=alt.Scale(type="log", nice=False),
              axis=alt.Axis(format="~s"))
    tooltip = [
        alt.Tooltip("move:N", title="child"),
        alt.Tooltip("visits:Q", title=f"visits to {node}", format=","),
        alt.Tooltip("playouts:Q", title=f"{run}s read", format=","),
        alt.Tooltip("child_visits:Q", title="its visits", format=","),
        alt.Tooltip("share:Q", format=".1%"),
        alt.Tooltip("value:Q", format=".4g"),
    ]
    colour = move_colours("move:N", title="child", order=list(series.groups), muted=OTHERS)
    unlabelled = move_colours("move:N", order=list(series.groups), muted=OTHERS, legend=False)  # one legend: the lines'
    y = alt.Y(f"{statistic}:Q", title=title, axis=alt.Axis(format=number_format))
    # Faint: an early search changes its choice often, and the lines must stay readable in front.
    marks = alt.Chart(changes).mark_rule(strokeWidth=1, opacity=0.45).encode(
        x=x,
        color=alt.Color("choice:N", scale=alt.Scale(domain=list(CHANGE_COLOURS), range=list(CHANGE_COLOURS.values())),
                        legend=None),
        strokeDash=alt.StrokeDash("choice:N", scale=alt.Scale(domain=list(CHANGE_COLOURS), range=[[1, 0], [4, 3]]),
                                  legend=None),
        tooltip=[alt.Tooltip("choice:N", title="change of"), alt.Tooltip("before:N", title="from"),
                 alt.Tooltip("after:N", title="to"), alt.Tooltip("visits:Q", title=f"visits to {node}", format=","),
                 alt.Tooltip("playouts:Q", title=f"{run}s read", format=",")],
    )
    lines = alt.Chart(rows).mark_line(strokeWidth=2).encode(x=x, y=y, color=colour)
    pick = alt.selection_point(name=PICK, on="click", nearest=True, fields=["playouts"], clear=False)
    points = alt.Chart(rows).mark_circle(size=60).encode(
        x=x, y=y, color=unlabelled, opacity=alt.value(0), tooltip=tooltip,  # invisible: they carry hover and click
    ).add_params(pick)
    layers = [marks, lines, points]
    if visits_now:
        layers.append(current_rule(pd.DataFrame({"visits": [visits_now]}), "visits:Q",
                                   [alt.Tooltip("visits:Q", title=f"visits to {node} at k now", format=",")]))
    return alt.layer(*layers).resolve_scale(color="independent")
