"""Defaults that the command line and the app share: each is set here once, and the CLI's ``--help``
states it. A flat module of named constants (the arena's come later)."""

SEARCH_C = 1.4  # exploration constant of a live search, every formula rule (CLI `search --c`, the Search page)
SEARCH_SIMULATIONS = 2000  # simulation budget of a live search when none is given (CLI), the Search page's first
SEARCH_SECONDS = 2.0  # time budget of a live search when the Search page's budget is in seconds
SEARCH_SEED = 0  # seed of every random choice of a live search (CLI `search --seed`, the Search page)
