"""The command line: ``mcts-explorer`` (or ``python -m mcts_core``) and its subcommands.

:mod:`.main` parses the arguments and runs the puzzle commands (solve, sweep, tree, export);
:mod:`.game_commands` runs ``search``, ``arena`` and (by :mod:`.spsa_command`) ``spsa``, with
:mod:`.game_output`'s progress and Ctrl-C lines; ``mcts-explorer app`` serves the Streamlit
app. May import every other part of the core, lazily, so that solving the puzzle stays fast.
"""

from .main import main

__all__ = ["main"]
