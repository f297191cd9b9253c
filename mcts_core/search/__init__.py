"""Live MCTS over OpenSpiel games with our selection rules, and an arena measuring playing strength.

``pyspiel`` is imported only when a game is loaded, so importing this package is cheap.
"""

from .arena import ArenaRow, arena, wilson_interval
from .decoupled import (
    OwnMoveResult,
    SimultaneousResult,
    load_simultaneous_game,
    play_joint_moves,
    search_simultaneous,
)
from .budget import MAX_SECONDS, MAX_SIMULATIONS
from .game_search import RootChild, SearchResult, search, search_state
from .games import format_moves, load_game, parse_moves, play_moves
from .results import ArenaKey, ResultStore

__all__ = [
    "MAX_SECONDS",
    "MAX_SIMULATIONS",
    "ArenaKey",
    "ArenaRow",
    "OwnMoveResult",
    "ResultStore",
    "RootChild",
    "SearchResult",
    "SimultaneousResult",
    "arena",
    "format_moves",
    "load_game",
    "load_simultaneous_game",
    "parse_moves",
    "play_joint_moves",
    "play_moves",
    "search",
    "search_simultaneous",
    "search_state",
    "wilson_interval",
]
