"""Live MCTS over OpenSpiel games with our selection rules, writing our JSON Lines log as it runs.

One skeleton (select, expand, simulate, backpropagate) that the sequential and the decoupled
searches specialise, one log writer, one rollout, one game loader, one way to name a move
(:mod:`.move_names`, which the OpenSpiel adapter uses too). May import selection, simultaneous and
model, never adapters (they import it); ``pyspiel`` only when a game is loaded, so importing this
package is cheap.
"""

from .budget import MAX_SECONDS, MAX_SIMULATIONS
from .decoupled_search import search_simultaneous
from .simultaneous_result import OwnMoveResult, SimultaneousResult
from .games import format_moves, legal_moves, load_game, matrix_game, parse_moves, play_moves, position_picture
from .sequential_search import RootChild, SearchResult, search, search_state
from .strategy_sweep import default_c_values, strategy_sweep

__all__ = [
    "MAX_SECONDS",
    "MAX_SIMULATIONS",
    "OwnMoveResult",
    "RootChild",
    "SearchResult",
    "SimultaneousResult",
    "default_c_values",
    "format_moves",
    "legal_moves",
    "load_game",
    "matrix_game",
    "parse_moves",
    "play_moves",
    "position_picture",
    "search",
    "search_simultaneous",
    "search_state",
    "strategy_sweep",
]
