"""Before/after speed of the live searches: two checkouts in one process, runs interleaved, CPU time.

Usage (from the repository root)::

    git worktree add /tmp/before <commit>   # or any checkout of the code before a change
    python bench/bench_search_ab.py --before /tmp/before --repeats 11

The machine is shared, so wall-clock numbers of separate runs swing by 2x; here both versions run
in the same process, alternately, and each case reports the minimum CPU time (``process_time``)
over the repeats, before and after, and their ratio. The "before" package is copied to a
temporary folder under another name (its imports are relative), so both can be imported at once.
Cases: the sequential search (UCB1, C = 1.4) on tic_tac_toe and connect_four with and without the
log, DUCT and Smitsimax on oshi_zumo, and DUCT on matrix_brps (one step: selection alone).
Nothing here is a test.
"""

from __future__ import annotations

import argparse
import importlib
import io
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cases(search, simultaneous, selection, states):
    """name -> a function running one search with one version's modules."""
    ucb1 = selection.Scoring("ucb1", 1.4)
    joint = simultaneous.JointScoring("ucb1", 1.4)
    return {
        "tic_tac_toe, log": lambda: search.search_state(states["tic_tac_toe"], scoring=ucb1, simulations=2000,
                                                        seed=1, out=io.StringIO()),
        "tic_tac_toe": lambda: search.search_state(states["tic_tac_toe"], scoring=ucb1, simulations=2000, seed=1),
        "connect_four, log": lambda: search.search_state(states["connect_four"], scoring=ucb1, simulations=1000,
                                                         seed=1, out=io.StringIO()),
        "connect_four": lambda: search.search_state(states["connect_four"], scoring=ucb1, simulations=1000, seed=1),
        "DUCT oshi_zumo": lambda: search.search_simultaneous("oshi_zumo", scoring=joint, simulations=1000, seed=1,
                                                             log=False),
        "Smitsimax oshi_zumo": lambda: search.search_simultaneous("oshi_zumo", algorithm="smitsimax", scoring=joint,
                                                                  simulations=500, seed=1, log=False),
        "DUCT matrix_brps": lambda: search.search_simultaneous("matrix_brps", scoring=joint, simulations=3000,
                                                               seed=1, log=False),
    }


def version(package: str) -> dict:
    search = importlib.import_module(f"{package}.search")
    simultaneous = importlib.import_module(f"{package}.simultaneous")
    selection = importlib.import_module(f"{package}.selection")
    states = {game: search.play_moves(search.load_game(game)) for game in ("tic_tac_toe", "connect_four")}
    return cases(search, simultaneous, selection, states)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", required=True, help="a checkout of the code before the change")
    parser.add_argument("--repeats", type=int, default=11)
    arguments = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench_ab_"))
    try:
        shutil.copytree(Path(arguments.before) / "mcts_core", folder / "mcts_before")
        sys.path.insert(0, str(folder))
        sys.path.insert(0, str(ROOT))
        before, after = version("mcts_before"), version("mcts_core")
        print(f"CPU time, minimum of {arguments.repeats} interleaved repeats (medians in brackets)")
        print("| case | before (ms) | after (ms) | after / before |")
        print("|---|---:|---:|---:|")
        for name in after:
            times: tuple[list[float], list[float]] = ([], [])
            for _ in range(arguments.repeats):
                for run, spent in ((before[name], times[0]), (after[name], times[1])):
                    start = time.process_time()
                    run()
                    spent.append(time.process_time() - start)
            low = [min(t) * 1000 for t in times]
            mid = [statistics.median(t) * 1000 for t in times]
            print(f"| {name} | {low[0]:.1f} ({mid[0]:.1f}) | {low[1]:.1f} ({mid[1]:.1f}) | {low[1] / low[0]:.3f} |")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
