"""``python -m mcts_core``: the command line (:mod:`mcts_core.cli`)."""

import sys

from .cli import main

sys.exit(main(prog="python -m mcts_core"))
