"""The Search page's chart: each root move's share of the visits."""

from __future__ import annotations

import altair as alt
import pandas as pd

TOP_BARS = 30  # root moves drawn in the visit-share chart


def root_shares_chart(result) -> alt.Chart:
    """A bar per root move (the :data:`TOP_BARS` most visited, sorted, when there are more), the best move in red."""
    shares = pd.DataFrame(
        {"move": child.move, "visits": child.visits, "share": child.visits / max(result.root_visits, 1),
         "mean": child.total / child.visits if child.visits else None}
        for child in result.children
    )
    shown = shares.nlargest(TOP_BARS, "visits", keep="first") if len(shares) > TOP_BARS else shares
    return alt.Chart(shown).mark_bar().encode(
        x=alt.X("move:N", sort="-y" if len(shares) > TOP_BARS else None, title="root move",
                axis=alt.Axis(labelAngle=-45 if len(shown) > 9 else 0)),
        y=alt.Y("share:Q", title="share of the root's visits", axis=alt.Axis(format="%")),
        color=alt.condition(alt.datum.move == result.best_move, alt.value("#d62728"), alt.value("#4c78a8")),
        tooltip=["move", "visits", alt.Tooltip("share:Q", format=".1%"),
                 alt.Tooltip("mean:Q", format="+.3f", title="mean (root player's view)")],
    ).properties(height=260)
