"""MCTS Explorer's pure core: parse playouts, build the MCTS tree, select, sweep, render, tabulate.

No streamlit import anywhere in this package.
"""

from .move_values import annotated_values, parse_move_values
from .playouts import MAX_PLAYOUTS, ParseError, Playouts, decode_text, format_playouts, parse_playouts
from .puzzle import solve
from .selection import (
    DEFAULT_RULE,
    PROBABILITY,
    RULE_PRESETS,
    RULES,
    ChildScore,
    Rule,
    Setting,
    Siblings,
    progressive_bias,
    puct,
    ramped_c,
    sample_threshold,
    score_children,
    select_child,
    select_path,
    selected_nodes,
    selection_key,
    ucb1,
    ucb1_tuned,
    under_threshold,
)
# The sweep function stays at mcts_core.sweep.sweep: re-exporting it here would shadow the module.
from .sweep import Breakpoint, Interval, NodeEnvelope, breakpoints, node_envelope
from .tree import NO_PARENT, NO_PLAYOUT, ROOT, Tree, build_tree

__all__ = [
    "DEFAULT_RULE",
    "MAX_PLAYOUTS",
    "NO_PARENT",
    "NO_PLAYOUT",
    "PROBABILITY",
    "ROOT",
    "RULES",
    "RULE_PRESETS",
    "ChildScore",
    "ParseError",
    "Playouts",
    "Rule",
    "Setting",
    "Siblings",
    "Tree",
    "annotated_values",
    "build_tree",
    "decode_text",
    "format_playouts",
    "parse_move_values",
    "parse_playouts",
    "progressive_bias",
    "puct",
    "ramped_c",
    "sample_threshold",
    "score_children",
    "select_child",
    "select_path",
    "selected_nodes",
    "selection_key",
    "solve",
    "ucb1",
    "ucb1_tuned",
    "under_threshold",
    "Breakpoint",
    "Interval",
    "NodeEnvelope",
    "breakpoints",
    "node_envelope",
]
