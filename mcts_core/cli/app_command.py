"""``mcts-explorer app [streamlit options]``: serve the Streamlit app from a checkout or an installed copy."""

from __future__ import annotations

import os
import sys
import sysconfig
from pathlib import Path

INSTALLED_APP = Path("share") / "mcts-explorer"  # where `pip install .` puts app.py, pages/, ui/


def app_folder() -> Path | None:
    """The folder holding app.py: the checkout this package runs from, else the installed copy, else None."""
    checkout = Path(__file__).resolve().parents[2]
    candidates = [checkout, Path(sysconfig.get_path("data")) / INSTALLED_APP, Path(sys.prefix) / INSTALLED_APP]
    return next((folder for folder in candidates if (folder / "app.py").is_file()), None)


def run_app(options: list[str]) -> int:
    """Replaces this process with ``streamlit run app.py`` in the app's folder (where its config lives)."""
    folder = app_folder()
    if folder is None:
        print("error: the app's files (app.py, pages/, ui/) were not found; reinstall with `pip install .`",
              file=sys.stderr)
        return 2
    os.chdir(folder)  # Streamlit reads .streamlit/config.toml from the working folder
    os.execv(sys.executable, [sys.executable, "-m", "streamlit", "run", "app.py", *options])
    return 0  # not reached: execv does not return
