"""MCTS Explorer's pure core: parse playouts, build the MCTS tree, select, sweep, render, tabulate.

No streamlit import anywhere in this package.
"""

from .playouts import MAX_PLAYOUTS, ParseError, Playouts, decode_text, format_playouts, parse_playouts
from .puzzle import solve
from .selection import (
    DEFAULT_RULE,
    RULES,
    ChildScore,
    Rule,
    score_children,
    select_child,
    select_path,
    selected_nodes,
    selection_key,
    ucb1,
)
from .tree import NO_PARENT, NO_PLAYOUT, ROOT, Tree, build_tree

__all__ = [
    "DEFAULT_RULE",
    "MAX_PLAYOUTS",
    "NO_PARENT",
    "NO_PLAYOUT",
    "ROOT",
    "RULES",
    "ChildScore",
    "ParseError",
    "Playouts",
    "Rule",
    "Tree",
    "build_tree",
    "decode_text",
    "format_playouts",
    "parse_playouts",
    "score_children",
    "select_child",
    "select_path",
    "selected_nodes",
    "selection_key",
    "solve",
    "ucb1",
]
