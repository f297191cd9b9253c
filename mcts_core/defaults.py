"""Defaults that the command line and the app share: each is set here once, and the CLI's ``--help``
states it. A flat module of named constants."""

# Live search
SEARCH_C = 1.4  # exploration constant of a live search, every formula rule (CLI `search --c`, the Search page)
SEARCH_SIMULATIONS = 2000  # simulation budget of a live search when none is given (CLI), the Search page's first
SEARCH_SECONDS = 2.0  # time budget of a live search when the Search page's budget is in seconds
SEARCH_SEED = 0  # seed of every random choice of a live search (CLI `search --seed`, the Search page)

# Arena
# MCTS at a fixed C, not a random player: against random every C wins everything (Elo +inf), while
# a same-budget reference at OpenSpiel's usual C separates the C values.
ARENA_OPPONENT = "mcts:1.4"
# C values of a grid: log-spaced around the usual 1.4, from nearly greedy to nearly uniform.
ARENA_C_VALUES = (0.1, 0.5, 1.0, 1.4, 2.0, 4.0, 10.0)
# 100 games (50 pairs) per C: the Elo error bar is then about +-70, small enough to tell C = 0.1 from 1.4.
ARENA_GAMES = 100
# 100 simulations per move: a connect_four game takes about 0.06 s, so the 700-game grid takes about a minute on two cores.
ARENA_SIMULATIONS = 100
# Seed of the first pair; the same seed replays the same games.
ARENA_SEED = 1
# Local worker processes: the two cores this app is sized for.
ARENA_WORKERS = 2
# SPRT hypotheses in Elo: H0 "no better than the reference" against H1 "50 Elo better", a difference C makes easily.
ARENA_SPRT_ELO0 = 0.0
ARENA_SPRT_ELO1 = 50.0
# SPRT error rates (cutechess's and fishtest's usual 5 %).
ARENA_SPRT_ALPHA = 0.05
ARENA_SPRT_BETA = 0.05
# SPRT Elo model: fishtest's logistic Elo (the score's); "normalized" is its normalised Elo (the score's t-value).
ARENA_SPRT_MODEL = "logistic"
# Environment variable naming a Dask scheduler (tcp://HOST:8786): set, the games run on that cluster.
ARENA_CLUSTER_VARIABLE = "MCTS_EXPLORER_CLUSTER"
# Seconds a cluster run waits while the scheduler has no live worker (all died or left) before it gives
# up with a sentence, the finished games stored: long enough for a worker to restart or a new one to join.
ARENA_CLUSTER_WAIT = 60.0
# Environment variable overriding ARENA_CLUSTER_WAIT (the CLI's --cluster-wait overrides both).
ARENA_CLUSTER_WAIT_VARIABLE = "MCTS_EXPLORER_CLUSTER_WAIT"

# SPSA (fishtest's, in ln C): the start, the range it stays in and the iterations of a run (4 games each:
# 100 iterations are 400 games, about what the grid spends on four C values).
SPSA_START_C = 1.0
SPSA_C_RANGE = (0.1, 10.0)  # the default grid's ends
SPSA_ITERATIONS = 100
# The last iteration's perturbation (0.2 in ln C: C x 1.22) and step ratio R = a / c^2: issue 52's bench
# (bench/bench_spsa.py) ends within 22% of the true best C in most runs with these.
SPSA_C_END = 0.2
SPSA_R_END = 0.05
