"""Live MCTS over OpenSpiel games with our selection rules, writing our JSON Lines log as it runs.

``pyspiel`` is imported only when a game is loaded, so importing this package is cheap.
"""

from .budget import MAX_SECONDS, MAX_SIMULATIONS
from .decoupled_search import OwnMoveResult, SimultaneousResult, search_simultaneous
from .games import format_moves, load_game, parse_moves, play_moves
from .sequential_search import RootChild, SearchResult, search, search_state

__all__ = [
    "MAX_SECONDS",
    "MAX_SIMULATIONS",
    "OwnMoveResult",
    "RootChild",
    "SearchResult",
    "SimultaneousResult",
    "format_moves",
    "load_game",
    "parse_moves",
    "play_moves",
    "search",
    "search_simultaneous",
    "search_state",
]
