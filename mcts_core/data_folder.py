"""Where the app and the CLI keep what they compute once and reuse (stored arena results)."""

from __future__ import annotations

import os
from pathlib import Path

DATA_VARIABLE = "MCTS_EXPLORER_DATA"


def data_folder() -> Path:
    """The data folder: ``$MCTS_EXPLORER_DATA`` if set, else ``<repository>/data``; created on first use."""
    folder = Path(os.environ.get(DATA_VARIABLE) or Path(__file__).resolve().parent.parent / "data")
    folder.mkdir(parents=True, exist_ok=True)
    return folder
