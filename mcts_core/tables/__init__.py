"""Pandas tables of what the analysis found: a node's children with every term, the sweep, own moves.

The only part of the core besides ``drawing`` that imports a heavy library (pandas), so it is
imported on its own (``mcts_core`` does not import it). May import model, selection, analysis,
simultaneous and inputs (an engine's own columns).
"""

from .children_table import VISITS_TO_FLIP, children_table, engine_table, next_flip
from .own_move_tables import joint_children_table, own_moves_table
from .sweep_tables import (
    band_label,
    bands_frame,
    crossings_frame,
    envelope_frame,
    intervals_frame,
    lines_frame,
    on_path_frame,
    sweep_nodes,
    zoom_range,
)

__all__ = [
    "VISITS_TO_FLIP", "band_label", "bands_frame", "children_table", "crossings_frame", "engine_table", "envelope_frame",
    "intervals_frame", "joint_children_table", "lines_frame", "next_flip", "on_path_frame", "own_moves_table",
    "sweep_nodes", "zoom_range",
]
