"""What charts on several pages share: C on a linear scale, the rule at the current C or k, the moves' colours."""

from __future__ import annotations

from typing import Any

import altair as alt
import pandas as pd

from ui.common.colours import CURRENT_COLOUR, MOVE_PALETTE, MUTED_COLOUR


def linear_c_scale(c_from: float, c_to: float) -> alt.Scale:
    """C from ``c_from`` to ``c_to`` exactly, no rounding of the ends (the live C line maps C onto the plot by them)."""
    return alt.Scale(domain=[c_from, c_to], nice=False, zero=False)


def current_rule(marker: pd.DataFrame, x: Any, tooltip: list, name: str | None = None) -> alt.Chart:
    """A red vertical rule at the page's current value (C or k): ``marker``'s one row, on ``x``.

    ``name`` names the layer (the live C line hides a layer by its name mid-drag).
    """
    rule = alt.Chart(marker, name=name or alt.Undefined).mark_rule(color=CURRENT_COLOUR, strokeWidth=2)
    return rule.encode(x=x, tooltip=tooltip)


LEGEND_MOST = 30  # moves a legend names at most (Vega cuts a longer one itself, with a console warning)


def move_colours(field: str, title: str | None = None, legend: bool = True, order: list[str] | None = None,
                 muted: str | None = None, named: list[str] | None = None) -> alt.Color:
    """Moves (or paths) in the moves' palette; the legend on top, its lines thick enough to tell the colours.

    ``order`` fixes the moves' order (legend and colours); ``muted``, one of them, is drawn grey (a group);
    ``named``: the moves the legend names, of which it keeps the first :data:`LEGEND_MOST` (the others
    are named by their tooltips).
    """
    scale = alt.Scale(range=MOVE_PALETTE)
    if order is not None:
        colours = [colour for colour in MOVE_PALETTE if colour != MUTED_COLOUR]
        scale = alt.Scale(domain=order, range=[MUTED_COLOUR if move == muted else colours[index % len(colours)]
                                               for index, move in enumerate(order)])
    return alt.Color(field, title=title or alt.Undefined, scale=scale, sort=order or alt.Undefined,
                     legend=alt.Legend(orient="top", symbolStrokeWidth=4,
                                       values=named[:LEGEND_MOST] if named is not None else alt.Undefined)
                     if legend else None)
