"""The seven kinds of input a user brings, made as a user makes them, and the rules each page offers.

Both tours of every page with every input use them: the AppTest tour (tests/test_app_every_input.py,
every rule on every page) and the browser tour (tests/browser/test_browser_every_input.py, what only
a browser shows).
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bench.harness.browser import REPO, playout_file
from mcts_core import RULES
from mcts_core.adapters.openspiel import search_log, tree_dump
from mcts_core.simultaneous import ALL_RULES
from ui.common.navigation import PAGES


@dataclass(frozen=True)
class UserInput:
    """An input as a user brings it: an upload (or, ``statement``, the text box's statement example);
    a tree dump has no simulations to replay, an engine's analysis neither (``engine``: Playback shows
    its search over time, update by update, with no replay controls), a simultaneous log is what
    the Simultaneous page shows. ``browser``: the browser tour takes it too (one engine format
    stands for the others there: their pages are the same components)."""

    name: str
    upload: bool = True
    dump: bool = False
    engine: bool = False
    simultaneous: bool = False
    browser: bool = True


USER_INPUTS = (
    UserInput("statement", upload=False),
    UserInput("5,000 playouts"),
    UserInput("OpenSpiel MCTSBot log"),
    UserInput("OpenSpiel tree dump", dump=True),
    UserInput("our search log"),
    UserInput("simultaneous log", simultaneous=True),
    UserInput("200,000 playouts"),
    UserInput("Leela Zero search dump", engine=True, browser=False),
    UserInput("lz-analyze stream", engine=True),
    UserInput("lc0 verbose move stats", engine=True, browser=False),
    UserInput("KataGo analysis during a search", engine=True, browser=False),
    UserInput("kata-genmove_analyze transcript", engine=True, browser=False),
)
INPUT_NAMES = [given.name for given in USER_INPUTS]
BROWSER_INPUTS = tuple(given for given in USER_INPUTS if given.browser)
# Real engines' output, as recorded or quoted (tests/data/engines/README.md says how and where from).
ENGINE_FILES = {
    "Leela Zero search dump": "leela_zero_dump.txt",
    "lz-analyze stream": "leela_zero_lz_analyze.txt",
    "lc0 verbose move stats": "lc0_pr1268_node.txt",
    "KataGo analysis during a search": "katago_during_search.jsonl",
    "kata-genmove_analyze transcript": "katago_genmove_analyze.txt",
}
ENGINE_DATA = Path(__file__).resolve().parent / "data" / "engines"
BIG_INPUTS = ("200,000 playouts",)  # read and built in seconds, not in a moment

# The pages whose view the sidebar's rule sets; the Simultaneous page has its own rule.
SIDEBAR_RULE_PAGES = ("Explorer", "C sweep", "Compare", "Classroom", "Playback")
SIMULTANEOUS_PAGE = "Simultaneous"
PAGE_TITLES = [page.title for page in PAGES]
PAGE_SCRIPTS = {page.title: page.script for page in PAGES}


def offered_rules(given: UserInput, title: str) -> tuple[str, ...]:
    """The rules (keys) page ``title`` offers with ``given``: none where the page shows no view of it
    (a dump on Playback, a sequential input on the Simultaneous page: each says so in a sentence)."""
    if title in SIDEBAR_RULE_PAGES and not (title == "Playback" and given.dump):
        return tuple(RULES)
    if title == SIMULTANEOUS_PAGE and given.simultaneous:
        return tuple(ALL_RULES)
    return ()


def _openspiel_files(folder: Path) -> tuple[Path, Path]:
    """An OpenSpiel MCTSBot's connect-four search as our log (unvisited children declared) and the
    tree another of its searches returns, dumped."""
    import pyspiel
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("connect_four")
    state = game.new_initial_state()

    def bot(seed: int, simulations: int):
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
        return mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=np.random.RandomState(seed + 1))

    log = io.StringIO()
    search_log(bot(1, 400), state, log)
    log_file = folder / "openspiel_search.jsonl"
    log_file.write_text(log.getvalue())
    dump_file = folder / "openspiel_tree.json"
    dump_file.write_text(json.dumps(tree_dump(bot(3, 600).mcts_search(state), state, c=2.0)))
    return log_file, dump_file


def _search_log(file: Path, *arguments: str) -> Path:
    """Our own search's log, as a user makes it: ``python -m mcts_core search ...``."""
    with file.open("w") as out:
        subprocess.run([sys.executable, "-m", "mcts_core", "search", *arguments], stdout=out, check=True, cwd=REPO)
    return file


def make_uploads(folder: Path) -> dict[str, Path]:
    """Each uploaded input's file, made in ``folder``, by input name."""
    openspiel_log, openspiel_dump = _openspiel_files(folder)
    files = {
        "5,000 playouts": playout_file(folder / "playouts_5k.txt", 5_000, seed=5),
        "OpenSpiel MCTSBot log": openspiel_log,
        "OpenSpiel tree dump": openspiel_dump,
        "our search log": _search_log(folder / "tic_tac_toe_search.jsonl", "--game", "tic_tac_toe",
                                      "--simulations", "1500"),
        "simultaneous log": _search_log(folder / "oshi_zumo_duct.jsonl", "--game", "oshi_zumo", "--algorithm",
                                        "duct", "--simulations", "800"),
        "200,000 playouts": playout_file(folder / "playouts_200k.txt", 200_000, seed=7),
        **{name: ENGINE_DATA / file for name, file in ENGINE_FILES.items()},
    }
    assert sorted(files) == sorted(given.name for given in USER_INPUTS if given.upload)
    return files
