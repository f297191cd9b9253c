"""Where the app and the CLI keep what they compute once and reuse (stored inputs, arena results)."""

from __future__ import annotations

import os
from pathlib import Path

DATA_VARIABLE = "MCTS_EXPLORER_DATA"


def data_folder() -> Path:
    """The data folder, created on first use.

    ``$MCTS_EXPLORER_DATA`` if set; else ``data/`` beside ``app.py`` when running from a checkout;
    else (an installed package) ``$XDG_DATA_HOME/mcts-explorer``, by default
    ``~/.local/share/mcts-explorer``.
    """
    chosen = os.environ.get(DATA_VARIABLE)
    if chosen:
        folder = Path(chosen)
    else:
        checkout = Path(__file__).resolve().parents[2]
        if (checkout / "app.py").is_file():
            folder = checkout / "data"
        else:
            folder = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "mcts-explorer"
    folder.mkdir(parents=True, exist_ok=True)
    return folder
