"""Playing strength against C: games between our MCTS at each C and its opponents, and their statistics.

:mod:`.arena_games` plays one game from a plain, picklable task (seeded from its description
alone, so the same task gives the same game in any process or machine); :mod:`.pools` runs
chunks of games here, in local processes or on a Dask cluster (:mod:`.cluster`); :mod:`.schedule`
feeds a pool series by series; :mod:`.rows` and :mod:`.elo` turn games into Elo, LOS, pentanomial
and mean-return rows; :mod:`.arena` checks settings and runs a grid (budgets x C, or SPRTs);
:mod:`.tuner` finds the best C by successive halving; :mod:`.best_c` fits the score against log C
and names the best C with its interval; :mod:`.best_set` and :mod:`.local_peak` answer it on any
curve shape, :mod:`.best_c_answer` reports it and :mod:`.arena_csv` reads arena CSV back for a fit;
:mod:`.spsa` is fishtest's SPSA (the games from its caller) and :mod:`.spsa_games` plays them as arena
games; :mod:`.result_store` keeps finished games and SPSA steps in SQLite so a rerun resumes. May import search, selection, inputs (the data folder) and defaults.
"""

from .arena import (
    MAX_GAMES, MAX_SERIES, MAX_TOTAL_GAMES, MAX_WORKERS, arena, check_grid, parse_budgets, parse_opponent, plan,
    stored_grid,
)
from .arena_games import GameResult, GameTask, game_tasks, play_chunk, play_game
from .best_c import BestC, FitError, describe, fit_best_c
from .best_c_answer import MISFIT, BestCAnswer, answers_by_budget, describe_answer
from .elo import SprtSettings
from .result_store import ArenaKey, ResultStore
from .rows import ArenaRow, columns, wilson_interval
from .spsa import SpsaStep
from .spsa_games import SpsaPlan, games_per_iteration, spsa_columns, spsa_plan, spsa_rows, spsa_run, tunable_settings
from .sprt import llr_curve
from .tuner import HalvingRound, TuneResult, games_each, tune, tune_rounds

__all__ = [
    "MAX_GAMES", "MAX_SERIES", "MAX_TOTAL_GAMES", "MAX_WORKERS", "MISFIT", "ArenaKey", "ArenaRow", "BestC",
    "BestCAnswer", "FitError", "answers_by_budget", "describe_answer",
    "GameResult", "GameTask", "describe", "fit_best_c",
    "ResultStore", "SpsaPlan", "SpsaStep", "SprtSettings", "games_per_iteration", "spsa_columns", "spsa_plan", "spsa_rows", "spsa_run", "stored_grid", "tunable_settings", "arena", "check_grid", "columns", "game_tasks", "llr_curve", "parse_budgets", "parse_opponent",
    "plan", "play_chunk", "play_game", "HalvingRound", "TuneResult", "games_each", "tune", "tune_rounds",
    "wilson_interval",
]
