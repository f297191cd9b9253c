"""The exact sweep of the sidebar's rule over a range of C, cached once per (input, rule, settings,
range): the C control sizes its slider and sends where the path changes from it, the C sweep page
shows it. Neither depends on C, so a commit of C reuses it.
"""

from __future__ import annotations

import streamlit as st

from mcts_core import Scoring
from mcts_core.analysis import Interval, path_intervals
from ui.common.lru import BoundedLRU
from ui.setup.inputs import LoadedInput


def rule_key(scoring: Scoring) -> str:
    """The cache key of ``scoring``'s rule and settings, C left out (what a sweep depends on).

    ``repr`` of the scoring at C = 1: one text for equal rules and settings, whatever their order.
    """
    return repr(scoring.with_c(1.0))


@st.cache_resource
def _sweeps() -> BoundedLRU:
    """Sweeps by (input, rule and settings, range), shared by the sessions."""
    return BoundedLRU(32)


def rule_sweep(loaded: LoadedInput, scoring: Scoring, c_from: float, c_to: float) -> list[Interval]:
    """The selected path of ``scoring``'s rule and settings over [c_from, c_to) (its C is ignored):
    :func:`mcts_core.analysis.path_intervals`, once per input, rule, settings and range."""
    key = (loaded.key, rule_key(scoring), c_from, c_to)
    sweeps = _sweeps()
    intervals = sweeps.get(key)
    if intervals is None:
        with st.spinner("Sweeping C…"):
            intervals = sweeps.get_or_make(key, lambda: path_intervals(loaded.tree, c_from, c_to, scoring.with_c(1.0)))
    return intervals
