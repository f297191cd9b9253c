"""What the game commands (``search``, ``arena``, ``spsa``) share on stderr: the progress line and Ctrl-C's line."""

from __future__ import annotations

import argparse
import sys

INTERRUPTED = 130  # 128 + SIGINT, as shells report it


def progress_wanted(arguments: argparse.Namespace) -> bool:
    """Progress goes to stderr when it is a terminal or with ``--progress``."""
    return arguments.progress or sys.stderr.isatty()


def stopped(arguments: argparse.Namespace, message: str) -> None:
    """The one line Ctrl-C leaves on stderr (after ending the progress line, if one is shown)."""
    print(("\n" if progress_wanted(arguments) else "") + message, file=sys.stderr)
