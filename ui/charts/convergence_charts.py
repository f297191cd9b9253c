"""The search over time (Playback): a node's children's share of its visits and their values against
the node's visits on a log axis, where the choice changed, and Playback's k.

The charts are Vega-Lite specs made once per series and C (:func:`over_time_spec`), their k moved
by :func:`with_k` without Altair: a Play step then costs no chart building."""

from __future__ import annotations

import copy

import altair as alt
import pandas as pd

from mcts_core.analysis import OTHERS, GroupedSeries
from ui.charts.axes import current_rule, move_colours

CHANGES, SERIES = "changes", "series"  # the datasets of the change rules and of the lines and hover points
NOW = "k_now"  # the dataset of the red rule at Playback's k, the one :func:`with_k` changes
PICK = "pick"  # the click's selection: the sample nearest the pointer, by the playouts read there
# The rule's choice in the teal of its path, lighter than the path's own to read on a dark page too;
# the most visited child's in grey, fainter: it changes often early on and is not what C decides.
CHANGE_COLOURS = {"most visited": "#888888", "selected at C": "#26a69a"}
CHANGE_OPACITY = {"most visited": 0.4, "selected at C": 0.85}


def changes_frame(most_visited: list[tuple[int, int, str, str]],
                  selected: list[tuple[int, int, str, str]] | None) -> pd.DataFrame:
    """Where the choice changed (:meth:`~mcts_core.analysis.Convergence.change_points`), one row each,
    named by which choice: the most visited child, or the one the rule selects at C."""
    rows = [("most visited", *change) for change in most_visited]
    rows += [("selected at C", *change) for change in selected or ()]
    return pd.DataFrame(rows, columns=["choice", "visits", "playouts", "before", "after"])


def over_time_spec(series: GroupedSeries, statistic: str, title: str, number_format: str,
                   changes: pd.DataFrame, node: str, k_title: str) -> dict:
    """One statistic ("share" or "value") of each group against the node's visits (log axis), as a
    Vega-Lite spec for ``st.vega_lite_chart`` (its datasets as Arrow bytes): a rule where a choice
    changed (grey: the most visited child, teal dashed: the selected one), a click picks the nearest
    sample (:data:`PICK`, by its ``playouts``, which the tooltips call ``k_title``), and a place for the red rule at Playback's k that
    :func:`with_k` fills. Made once per series and C: Play moves k every step, and building a chart
    in Altair takes a tenth of a second."""
    rows = pd.DataFrame(series.columns)
    x = alt.X("visits:Q", title=f"visits to {node} (log)", scale=alt.Scale(type="log", nice=False),
              axis=alt.Axis(format="~s"))
    tooltip = [
        alt.Tooltip("move:N", title="child"),
        alt.Tooltip("visits:Q", title=f"visits to {node}", format=","),
        alt.Tooltip("playouts:Q", title=k_title, format=","),
        alt.Tooltip("child_visits:Q", title="its visits", format=","),
        alt.Tooltip("share:Q", format=".1%"),
        alt.Tooltip("value:Q", format=".4g"),
    ]
    # The moves in the order Vega gives the race's (ascending): a move has the same colour in both charts
    # whenever the race follows the same moves (every child of a node with at most six).
    order = sorted(group for group in series.groups if group != OTHERS) + [OTHERS] * (OTHERS in series.groups)
    colour = move_colours("move:N", title="child", order=order, muted=OTHERS)
    y = alt.Y(f"{statistic}:Q", title=title, axis=alt.Axis(format=number_format))
    marks = alt.Chart(changes).mark_rule(strokeWidth=1).encode(
        x=x,
        color=alt.Color("choice:N", scale=alt.Scale(domain=list(CHANGE_COLOURS), range=list(CHANGE_COLOURS.values())),
                        legend=None),
        opacity=alt.Opacity("choice:N", scale=alt.Scale(domain=list(CHANGE_OPACITY), range=list(CHANGE_OPACITY.values())),
                            sort=list(CHANGE_OPACITY), legend=None),  # sorted: Vega-Lite warns of an unsorted one
        strokeDash=alt.StrokeDash("choice:N", scale=alt.Scale(domain=list(CHANGE_COLOURS), range=[[1, 0], [4, 3]]),
                                  legend=None),
        tooltip=[alt.Tooltip("choice:N", title="change of"), alt.Tooltip("before:N", title="from"),
                 alt.Tooltip("after:N", title="to"), alt.Tooltip("visits:Q", title=f"visits to {node}", format=","),
                 alt.Tooltip("playouts:Q", title=k_title, format=",")],
    )
    lines = alt.Chart(rows).mark_line(strokeWidth=2).encode(x=x, y=y, color=colour)
    pick = alt.selection_point(name=PICK, on="click", nearest=True, fields=["playouts"], clear=False)
    points = alt.Chart(rows).mark_circle(size=60).encode(
        x=x, y=y, opacity=alt.value(0), tooltip=tooltip,  # invisible, uncoloured: they carry hover and click
    ).add_params(pick)
    now = current_rule(pd.DataFrame({"visits": [1]}), "visits:Q",
                       [alt.Tooltip("visits:Q", title=f"visits to {node} at k now", format=",")])
    chart = alt.layer(marks, lines, points, now).resolve_scale(color="independent")
    with alt.data_transformers.enable("default", max_rows=None):
        spec = chart.to_dict()
    # The datasets under names of ours, from the frames themselves (an empty one keeps its columns).
    for layer, name in zip(spec["layer"], (CHANGES, SERIES, SERIES, NOW)):
        layer["data"] = {"name": name}
    spec["datasets"] = {CHANGES: arrow_bytes(changes), SERIES: arrow_bytes(rows)}
    return spec


def over_time_specs(series: GroupedSeries, most_visited: list[tuple[int, int, str, str]],
                    selected: list[tuple[int, int, str, str]] | None, node: str, value_title: str,
                    k_title: str) -> tuple[dict, dict]:
    """The share chart's and the value chart's specs (:func:`over_time_spec`), both marking the same
    changes (:func:`changes_frame`)."""
    changes = changes_frame(most_visited, selected)
    return (over_time_spec(series, "share", f"share of {node}'s visits", ".0%", changes, node, k_title),
            over_time_spec(series, "value", value_title, ".3~g", changes, node, k_title))


def with_k(spec: dict, visits_now: int) -> dict:
    """A spec of :func:`over_time_spec` with its red rule at ``visits_now`` (the node's visits at
    Playback's k; no rule before its first): a new dict each time, for Streamlit takes its datasets
    out of the one it gets."""
    shown = copy.deepcopy({key: value for key, value in spec.items() if key != "datasets"})
    shown["datasets"] = dict(spec["datasets"])
    if visits_now:
        shown["datasets"][NOW] = arrow_bytes(pd.DataFrame({"visits": [visits_now]}))
    else:
        shown["layer"].pop()
    return shown


def arrow_bytes(frame: pd.DataFrame) -> bytes:
    """``frame`` as the Arrow IPC stream a chart's dataset travels as (what Streamlit makes of a frame)."""
    import pyarrow as pa

    table = pa.Table.from_pandas(frame, preserve_index=False)
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    return sink.getvalue().to_pybytes()


