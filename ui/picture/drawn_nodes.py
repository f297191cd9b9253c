"""The drawn set of nodes under the drawing limits: C-independent, cached per input and limits."""

from __future__ import annotations

import streamlit as st

from mcts_core import Tree
from mcts_core.drawing import visible_nodes

# The drawing limits' (lowest, highest) values. At 5,000 drawn nodes the layout and graphviz's drawing
# take about 0.7 s of CPU (1,500: 0.2 s), the picture 3-6 s in all on this busy 2-core machine
# (bench/RESULTS.md, issue 38): the most that still draws in seconds.
LIMIT_RANGES = {"budget": (10, 5000), "depth": (0, 1000), "topk": (0, 100)}
BUDGET_HELP = "At most this many nodes are drawn (the selected path and the inspected node always are); 5,000 take a few seconds."


@st.cache_resource(max_entries=32, show_spinner=False)
def _visible_nodes(
    input_key: str, budget: int, max_depth: int | None, top_k: int | None, unvisited: bool, _tree: Tree
) -> frozenset:
    """visible_nodes cached by input and limits (the tree is identified by ``input_key``)."""
    return frozenset(visible_nodes(_tree, budget=budget, max_depth=max_depth, top_k=top_k, unvisited=unvisited))


def cached_visible_nodes(
    input_key: str,
    tree: Tree,
    budget: int,
    max_depth: int | None = None,
    top_k: int | None = None,
    unvisited: bool = False,
) -> frozenset[int]:
    """The tree's nodes to draw under these limits: C-independent, so computed once per input."""
    return _visible_nodes(input_key, budget, max_depth, top_k, unvisited, tree)
