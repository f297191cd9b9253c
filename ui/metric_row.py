"""A row of st.metric values whose columns are as wide as their values need."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

MIN_CHARS = 5  # a column never narrower than this many value characters: its label needs room too


def metric_row(metrics: Sequence[tuple], *, trailing: Sequence[float] = (), **columns_options) -> list:
    """Draw ``(label, value[, help])`` metrics side by side; return the columns after them.

    Each column's width is proportional to its value's length (at least :data:`MIN_CHARS`), so
    "2,000,000 / 2,000,000" is not cut to "2,0…" on a 1366-pixel screen while "7" takes little room.
    ``trailing`` are the widths, in value characters, of more columns for other content (a button).
    """
    widths = [max(len(str(metric[1])), MIN_CHARS) for metric in metrics] + list(trailing)
    columns = st.columns(widths, **columns_options)
    for column, (label, value, *more) in zip(columns, metrics):
        column.metric(label, value, help=more[0] if more else None)
    return columns[len(metrics):]
