"""The C sweep's charts: the selected path as bands along C, and a node's children as lines in C.

Both are Vega SVG with the same fixed y-axis width, their C axes over the same range, and their
rule at the current C a layer named :data:`CURRENT_C_LAYER`, as the live C line needs.
"""

from __future__ import annotations

import altair as alt
import pandas as pd

from mcts_core.selection import Rule
from mcts_core.tables import crossings_frame, envelope_frame, lines_frame
from ui.c import live_c_marker
from ui.charts.axes import current_rule, linear_c_scale, move_colours

CROSSING_COLOUR = "#808080"  # mid grey: seen on the light and the dark theme's plot (black vanished on dark)
AXIS_WIDTH = 70  # a fixed y-axis width keeps the strip's and the lines chart's C axes aligned
C_FORMAT = ".10g"  # tooltips and the table: enough digits to tell a breakpoint from its neighbours
LABEL_ROOM = 0.1  # share of the C axis left of a crossing its value's label needs
CURRENT_C_LAYER = "current_c"  # the red rule's layer: the live marker hides it mid-drag


def current_c_layer(scale: alt.Scale, c: float) -> alt.Chart:
    """A red vertical rule at the page's C, its value in the tooltip."""
    marker = pd.DataFrame({"c": [c], "what": ["current C"]})
    return current_rule(
        marker, alt.X("c:Q", scale=scale),
        [alt.Tooltip("what:N", title=" "), alt.Tooltip("c:Q", title="C", format=C_FORMAT)], name=CURRENT_C_LAYER,
    )


def c_axis_chart(layers: list[alt.Chart], height: int) -> alt.LayerChart:
    """The layers as one SVG chart the live C line can follow, its y axis :data:`AXIS_WIDTH` wide."""
    return (
        alt.layer(*layers)
        .properties(height=height, usermeta=live_c_marker.SVG_CHART)
        .configure_axisY(minExtent=AXIS_WIDTH, maxExtent=AXIS_WIDTH)
    )


def band_strip(bands: pd.DataFrame, c_from: float, c_to: float, c: float | None) -> alt.LayerChart:
    """The selected path as colour bands along C, labelled where wide enough; a red rule at ``c`` unless None."""
    scale = linear_c_scale(c_from, c_to)
    # A one-category y axis gives the strip the same left margin as the lines chart below it.
    base = alt.Chart(bands).transform_calculate(row="'path'")
    rects = base.mark_rect(stroke="white", strokeWidth=1).encode(
        x=alt.X("c_from:Q", scale=scale, title="C", axis=alt.Axis(orient="top")),
        x2="c_to:Q",
        y=alt.Y("row:N", title="path", axis=alt.Axis(labels=False, ticks=False, domain=False)),
        color=move_colours("path:N", legend=False),
        tooltip=[
            alt.Tooltip("path:N", title="selected path"),
            alt.Tooltip("c_from:Q", title="from C", format=C_FORMAT),
            alt.Tooltip("c_to:Q", title="to C", format=C_FORMAT),
            alt.Tooltip("length:Q", title="length"),
            alt.Tooltip("leaf_visits:Q", title="leaf visits"),
            alt.Tooltip("leaf_mean:Q", title="leaf mean", format=".4f"),
        ],
    )
    labels = base.mark_text(fontSize=13, fontWeight="bold", color="black").encode(
        x="middle:Q", y="row:N", text="label:N"
    )
    layers = [rects, labels] + ([current_c_layer(scale, c)] if c is not None else [])
    return c_axis_chart(layers, height=110)  # Streamlit fits the whole chart, axis included, into this height


def crossing_layers(crossings: pd.DataFrame, scale: alt.Scale) -> list[alt.Chart]:
    """Where the chosen child changes: a dashed rule, a diamond and the C value at each crossing."""
    crossing_tooltip = [
        alt.Tooltip("c:Q", title="C", format=C_FORMAT),
        alt.Tooltip("before:N", title="chosen below"),
        alt.Tooltip("after:N", title="chosen from here"),
    ]
    rules = (
        alt.Chart(crossings)
        .mark_rule(color=CROSSING_COLOUR, strokeDash=[2, 2])
        .encode(x=alt.X("c:Q", scale=scale), tooltip=crossing_tooltip)
    )
    points = (
        alt.Chart(crossings)
        .mark_point(filled=True, size=120, color=CROSSING_COLOUR, shape="diamond")
        .encode(x=alt.X("c:Q", scale=scale), y="value:Q", tooltip=crossing_tooltip)
    )

    def values(at: pd.DataFrame, align: str, dx: int, dy: int) -> alt.Chart:
        return (
            alt.Chart(at)
            .mark_text(align=align, dx=dx, dy=dy, fontWeight="bold", color=CROSSING_COLOUR)  # read on both themes
            .encode(x=alt.X("c:Q", scale=scale), y="value:Q", text=alt.Text("c:Q", format=".5g"))
        )

    if crossings.empty:
        return []
    # Above-left of its crossing, where no line passes (the values rise with C, so further left the
    # upper envelope is lower); right of the crossing the new child's steeper line crossed it. Near
    # the range's left edge there is no room on the left: above-right, higher. Split here, not by a
    # Vega filter: a layer left with no rows made Vega warn "Infinite extent for field value" in the
    # browser's console.
    c_from, c_to = scale.domain
    room_left = crossings["c"] >= c_from + LABEL_ROOM * (c_to - c_from)
    sides = [(crossings[room_left], "right", -7, -10), (crossings[~room_left], "left", 7, -18)]
    return [rules, points, *(values(at, *place) for at, *place in sides if not at.empty)]


def value_axis_title(rule: Rule) -> str:
    """The lines' axis: the rule's value as its value at C = 0 plus C times a slope, the value at
    C = 0 named as the rule names it when it is one term (UCB1's mean)."""
    term = rule.intercept_term
    return f"{rule.label('value')} = {rule.label(term) if term else 'value at C = 0'} + C·slope"


def lines_chart(envelope, on_path: pd.DataFrame, c_from: float, c_to: float, c: float | None,
                rule: Rule) -> alt.LayerChart:
    """The node's children as lines in C (their value under ``rule``), the envelope thick, crossings
    marked, ``on_path``'s intervals of C shaded; a red rule at ``c`` unless None."""
    scale = linear_c_scale(c_from, c_to)
    # A joint node can have more children than a legend names: the most visited first.
    named = [line.move for line in sorted(envelope.lines, key=lambda line: -line.visits)]
    move = move_colours("move:N", title="child", named=named)
    shading = (
        alt.Chart(on_path)
        .mark_rect(color="grey", opacity=0.12)  # see-through: the same light tint on a light or a dark plot
        .encode(x=alt.X("c_from:Q", scale=scale), x2="c_to:Q")
    )
    lines = (
        alt.Chart(lines_frame(envelope, c_from, c_to))
        .mark_line(strokeWidth=1.5, strokeDash=[5, 3], clip=True)
        .encode(
            x=alt.X("c:Q", scale=scale, title="C"),
            y=alt.Y("value:Q", title=value_axis_title(rule), scale=alt.Scale(zero=False)),
            color=move,
            tooltip=[
                alt.Tooltip("move:N", title="child"),
                alt.Tooltip("visits:Q"),
                alt.Tooltip("intercept:Q", title="value at C = 0", format=".6g"),
                alt.Tooltip("slope:Q", format=".6g"),
            ],
        )
    )
    envelope_line = (
        alt.Chart(envelope_frame(envelope))
        .mark_line(strokeWidth=6, clip=True)
        .encode(x=alt.X("c:Q", scale=scale), y="value:Q", color=move, detail="segment:N",
                tooltip=[alt.Tooltip("move:N", title="chosen child")])
    )
    crossings = crossing_layers(crossings_frame(envelope), scale)
    layers = [shading, lines, envelope_line, *crossings] + (
        [current_c_layer(scale, c)] if c is not None else []
    )
    return c_axis_chart(layers, height=380)
