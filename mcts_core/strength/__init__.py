"""Playing strength against C: games between our MCTS at each C and an opponent, and their statistics.

:mod:`.arena_games` plays one game from a plain, picklable task (seeded from its description
alone, so the same task gives the same game in any process); :mod:`.arena` spreads the games over
workers and scores each C; :mod:`.result_store` keeps finished results in SQLite so a rerun
resumes. May import search, selection and inputs (the data folder).
"""

from .arena import MAX_GAMES, MAX_WORKERS, ArenaRow, arena, parse_opponent, wilson_interval
from .arena_games import GameResult, GameTask, game_tasks, play_all, play_game
from .result_store import ArenaKey, ResultStore

__all__ = [
    "MAX_GAMES", "MAX_WORKERS", "ArenaKey", "ArenaRow", "GameResult", "GameTask", "ResultStore",
    "arena", "game_tasks", "parse_opponent", "play_all", "play_game", "wilson_interval",
]
