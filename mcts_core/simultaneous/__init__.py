"""Simultaneous moves: decoupled trees (DUCT), Smitsimax trees, selection per player, matrix games.

A log or dump with joint moves (one move per player, ``["R", "P"]``) reads into a joint tree, an
ordinary :class:`~mcts_core.model.tree.Tree` whose moves are joint (``R|P``), plus what only a
simultaneous node has: each player's own moves with their visits and totals from that player's
view (:class:`DecoupledTree`). From the same log, :func:`smitsimax_trees` gives one tree per player
over its own moves. Selection scores each player's own moves with any registered rule, or with
regret matching or EXP3 (the registry's simultaneous-only rules, :data:`SIMULTANEOUS_RULES`); the joint choice is the tuple of the players'
choices. :func:`exploitability` measures a strategy profile of a matrix game exactly.

May import model and selection; never the format readers (they import it) or search (it
imports this package; a matrix game is read from OpenSpiel there, :func:`mcts_core.search.matrix_game`).
"""

from .decoupled_tree import DecoupledTree, OwnMove, build_decoupled
from .joint import ALGORITHMS, JointMoves, SimultaneousFact, SimultaneousLog, joint_name
from .matrix import Exploitability, MatrixGame, exploitability, game_value
from .reading import SimultaneousInput, simultaneous_input
from .rules import (
    ALL_RULES,
    SIMULTANEOUS_RULES,
    JointScoring,
    RegretState,
    sampling,
    update,
)
from .joint_selection import (
    JointStep,
    OwnScore,
    own_terms,
    replay,
    score_own_moves,
    select_joint,
    selected_path,
    sequential_choice,
    strategy,
)
from .smitsimax_trees import project, smitsimax_trees
from .strategy_profiles import MATRIX_GAMES, candidate_games, fits, is_one_shot, measure, profile_rows, root_profiles, sweep_rows
from .selection_view import players_draw, selected_moves, smitsimax_path, starting_c

__all__ = [
    "ALGORITHMS",
    "ALL_RULES",
    "SIMULTANEOUS_RULES",
    "DecoupledTree",
    "Exploitability",
    "JointMoves",
    "JointScoring",
    "JointStep",
    "MatrixGame",
    "OwnMove",
    "OwnScore",
    "RegretState",
    "SimultaneousFact",
    "SimultaneousInput",
    "SimultaneousLog",
    "build_decoupled",
    "exploitability",
    "game_value",
    "joint_name",
    "own_terms",
    "project",
    "replay",
    "sampling",
    "score_own_moves",
    "select_joint",
    "selected_path",
    "sequential_choice",
    "simultaneous_input",
    "smitsimax_trees",
    "strategy",
    "update",
]
__all__ += ["MATRIX_GAMES", "candidate_games", "fits", "is_one_shot", "measure", "profile_rows", "root_profiles",
            "sweep_rows", "players_draw", "selected_moves", "smitsimax_path", "starting_c"]
