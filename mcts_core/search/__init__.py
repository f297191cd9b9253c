"""Live MCTS over OpenSpiel games with our selection rules, writing our JSON Lines log as it runs.

``pyspiel`` is imported only when a game is loaded, so importing this package is cheap.
"""

from .decoupled_search import (
    OwnMoveResult,
    SimultaneousResult,
    load_simultaneous_game,
    play_joint_moves,
    search_simultaneous,
)
from .budget import MAX_SECONDS, MAX_SIMULATIONS
from .sequential_search import RootChild, SearchResult, search, search_state
from .games import format_moves, load_game, parse_moves, play_moves

__all__ = [
    "MAX_SECONDS",
    "MAX_SIMULATIONS",
    "OwnMoveResult",
    "RootChild",
    "SearchResult",
    "SimultaneousResult",
    "format_moves",
    "load_game",
    "load_simultaneous_game",
    "parse_moves",
    "play_joint_moves",
    "play_moves",
    "search",
    "search_simultaneous",
    "search_state",
]
