"""The exact sweep of the sidebar's rule over a range of C, cached once per (input, rule, settings,
range): the C control sizes its slider and sends where the path changes from it, the C sweep page
shows it. Neither depends on C, so a commit of C reuses it.
"""

from __future__ import annotations

import streamlit as st

from mcts_core import Scoring, Tree
from mcts_core.analysis import Interval, path_intervals
from ui.setup.inputs import LoadedInput


def rule_key(scoring: Scoring) -> str:
    """The cache key of ``scoring``'s rule and settings, C left out (what a sweep depends on).

    ``repr`` of the scoring at C = 1: a Scoring holds read-only mappings, which Streamlit's cache
    cannot hash.
    """
    return repr(scoring.with_c(1.0))


@st.cache_resource(max_entries=32, show_spinner="Sweeping C…")
def _sweep(input_key: str, rule: str, c_from: float, c_to: float, _tree: Tree, _scoring: Scoring) -> list[Interval]:
    return path_intervals(_tree, c_from, c_to, _scoring)


def rule_sweep(loaded: LoadedInput, scoring: Scoring, c_from: float, c_to: float) -> list[Interval]:
    """The selected path of ``scoring``'s rule and settings over [c_from, c_to) (its C is ignored):
    :func:`mcts_core.analysis.path_intervals`, once per input, rule, settings and range."""
    return _sweep(loaded.key, rule_key(scoring), c_from, c_to, loaded.tree, scoring.with_c(1.0))
