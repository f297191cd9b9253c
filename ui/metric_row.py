"""A row of st.metric values that never truncates one: each takes the width its label and value need,
the row wraps when they do not fit, and a long value (a path) gets a line of its own where it wraps."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

# A value longer than this many characters gets its own line: side by side it would squeeze the
# others (a 60-move path took a 1366-pixel row and cut "5,000" to "5..").
LONG_CHARS = 24


def shown_length(value) -> int:
    """How many characters a metric value shows (markdown escapes' backslashes are not shown)."""
    return len(str(value).replace("\\", ""))


def metric_row(metrics: Sequence[tuple], *, trailing: int = 0) -> list:
    """Draw ``(label, value[, help[, key]])`` metrics in order; return ``trailing`` slots after them.

    Short values sit side by side at their natural width and wrap onto another line when the page
    is narrow; long ones (over :data:`LONG_CHARS` characters) come first, each on a whole line where
    the value wraps (ui/page_style.py lets metric values wrap). A metric with a key sits in a
    container with that key (class ``st-key-<key>``), for a script in the page to find it.
    """
    long = [metric for metric in metrics if shown_length(metric[1]) > LONG_CHARS]
    for metric in long:
        _metric(st.container(key=_key(metric)) if _key(metric) else st, metric)
    row = st.container(horizontal=True, vertical_alignment="center", gap="medium")
    for metric in metrics:
        if shown_length(metric[1]) <= LONG_CHARS:
            _metric(row.container(key=_key(metric), width="content") if _key(metric) else row, metric, width="content")
    return [row.container(width="content") for _ in range(trailing)]


def _key(metric: tuple) -> str | None:
    return metric[3] if len(metric) > 3 else None


def _metric(where, metric: tuple, **options) -> None:
    label, value, *more = metric
    where.metric(label, value, help=more[0] if more else None, **options)
