"""Live MCTS over OpenSpiel games with our selection rules, and an arena measuring playing strength.

``pyspiel`` is imported only when a game is loaded, so importing this package is cheap.
"""

from .arena import ArenaRow, arena, wilson_interval
from .game_search import MAX_SECONDS, MAX_SIMULATIONS, RootChild, SearchResult, search, search_state
from .games import format_moves, load_game, parse_moves, play_moves
from .results import ArenaKey, ResultStore

__all__ = [
    "MAX_SECONDS",
    "MAX_SIMULATIONS",
    "ArenaKey",
    "ArenaRow",
    "ResultStore",
    "RootChild",
    "SearchResult",
    "arena",
    "format_moves",
    "load_game",
    "parse_moves",
    "play_moves",
    "search",
    "search_state",
    "wilson_interval",
]
