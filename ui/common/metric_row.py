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


def metric_row(metrics: Sequence[tuple]):
    """Draw ``(label, value[, help[, key]])`` metrics in order; return their row (for more elements beside them).

    Short values sit side by side at their natural width and wrap onto another line when the page
    is narrow; long ones (over :data:`LONG_CHARS` characters) come first, each on a whole line where
    the value wraps (ui/shell/page_style.py lets metric values wrap). A metric with a key sits in a
    container with that key (class ``st-key-<key>``). A value with a ``show(label, help_text,
    **options)`` method draws the metric itself (a component: :mod:`ui.c.live_text`); ``str`` of it
    is its text.
    """
    long = [metric for metric in metrics if shown_length(metric[1]) > LONG_CHARS]
    for metric in long:
        _metric(st, metric)
    row = st.container(horizontal=True, vertical_alignment="center", gap="medium")
    for metric in metrics:
        if shown_length(metric[1]) <= LONG_CHARS:
            _metric(row, metric, width="content")
    return row


def _metric(parent, metric: tuple, **options) -> None:
    """One ``(label, value[, help[, key]])`` metric in ``parent``, inside a container with its key if it has one."""
    label, value, *more = metric
    help_text, key = (more + [None, None])[:2]
    if hasattr(value, "show"):
        with parent.container(key=key, **options):
            value.show(label, help_text, **options)
        return
    where = parent.container(key=key, **options) if key else parent
    where.metric(label, value, help=help_text, **options)
