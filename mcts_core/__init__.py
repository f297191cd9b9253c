"""MCTS Explorer's pure core, one subpackage per stage a reader follows.

``inputs`` (read any input) -> ``model`` (the tree the puzzle's rule builds) -> ``selection`` (the
rules) -> ``analysis`` (the C sweep, comparisons, why a child won, the outline) -> ``tables``
(pandas) and ``drawing`` (graphviz); beside them ``search`` (live MCTS on OpenSpiel games),
``strength`` (the arena), ``simultaneous`` (decoupled trees), ``adapters`` (real engines),
``classroom`` (live rooms: the questions, the join codes, the rooms' store), ``cli`` and ``common``. This module is the public API: solve, parse, build, select, sweep. No streamlit
import anywhere; ``tables`` and ``drawing`` are imported on their own, so the CLI and the math never
load pandas or graphviz. May import every stage but tables, drawing, search, strength and cli.
"""

from .model.build import build_tree
from .inputs.formats import (
    MAX_PLAYOUTS,
    ParseError,
    annotated_values,
    decode_text,
    format_playouts,
    parse_move_values,
    parse_playouts,
)
from .common.numbers import is_valid_c, parse_c, parse_number
from .model.playouts import Playouts
from .puzzle import solve
from .selection import (
    DEFAULT_RULE,
    PROBABILITY,
    RULE_PRESETS,
    RULES,
    UCB1,
    ChildScore,
    Rule,
    Scoring,
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


from .analysis.sweep import Breakpoint, Interval, NodeEnvelope, breakpoints, node_envelope
from .model.tree import NO_PARENT, NO_PLAYOUT, ROOT, Tree

__all__ = [
    "DEFAULT_RULE",
    "MAX_PLAYOUTS",
    "NO_PARENT",
    "NO_PLAYOUT",
    "PROBABILITY",
    "ROOT",
    "RULES",
    "RULE_PRESETS",
    "UCB1",
    "Breakpoint",
    "ChildScore",
    "Interval",
    "NodeEnvelope",
    "ParseError",
    "Playouts",
    "Rule",
    "Scoring",
    "Setting",
    "Siblings",
    "Tree",
    "annotated_values",
    "breakpoints",
    "build_tree",
    "decode_text",
    "format_playouts",
    "is_valid_c",
    "node_envelope",
    "parse_c",
    "parse_move_values",
    "parse_number",
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
]
