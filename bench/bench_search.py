"""Search benchmark: our MCTS (mcts_core.search) against OpenSpiel's Python MCTSBot, and the arena's wall time.

Usage (from the repository root)::

    python bench/bench_search.py                          # prints the markdown for RESULTS_search.md
    python bench/bench_search.py --simulations 1000 --repeats 3 --no-arena

Simulations per second from the empty board of tic_tac_toe and connect_four, in one process, runs
interleaved (ours with the log, ours without, OpenSpiel, then again), medians over the repeats:

* ours: :func:`mcts_core.search.search_state` with UCB1 at C, random rollouts; once writing the
  JSON Lines log to a ``StringIO`` (what ``search`` does), once with no log (what the arena does);
* OpenSpiel: ``open_spiel.python.algorithms.mcts.MCTSBot(game, C, simulations,
  RandomRolloutEvaluator(n_rollouts=1), solve=False)``, ``bot.mcts_search(state)``, the baseline;
* for context, OpenSpiel's compiled ``pyspiel.MCTSBot`` with the same settings.

The two are not the same algorithm step for step: OpenSpiel expands a leaf on its second visit
(ours on its first, the puzzle's rule) and shuffles children with numpy. Both do one random
rollout per simulation and one UCT selection per tree level.

Then the arena grid of issue 12 (7 C values, 100 games each against a random opponent, 200
simulations per search, 2 worker processes, nothing stored), timed once.
Nothing here is a test: numbers go into bench/RESULTS_search.md with the command that produced them.
"""

from __future__ import annotations

import argparse
import io
import os
import platform
import statistics
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GAMES = ("tic_tac_toe", "connect_four")
ARENA_C = (0.1, 0.5, 1, 1.4, 2, 4, 10)


def ours(game_name: str, simulations: int, c: float, seed: int, log: bool) -> float:
    """Seconds for one search of ours."""
    from mcts_core.search import load_game, play_moves, search_state
    from mcts_core.selection import Scoring

    state = play_moves(load_game(game_name))
    out = io.StringIO() if log else None
    start = time.perf_counter()
    result = search_state(state, scoring=Scoring("ucb1", c), simulations=simulations, seed=seed, out=out)
    elapsed = time.perf_counter() - start
    assert result.simulations == simulations
    return elapsed


def openspiel(game_name: str, simulations: int, c: float, seed: int) -> float:
    """Seconds for one search of OpenSpiel's Python MCTSBot."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game(game_name)
    rng = np.random.RandomState(seed)
    bot = mcts.MCTSBot(game, c, simulations, mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
                       solve=False, random_state=rng)
    return timed_search(bot, game, simulations)


def openspiel_cpp(game_name: str, simulations: int, c: float, seed: int) -> float:
    """Seconds for one search of OpenSpiel's C++ MCTSBot (for context: compiled code)."""
    import pyspiel

    game = pyspiel.load_game(game_name)
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed), c, simulations, 1000, False, seed, False)
    return timed_search(bot, game, simulations)


def timed_search(bot, game, simulations: int) -> float:
    """Seconds for one of an OpenSpiel MCTSBot's searches from the game's start, which runs every simulation."""
    state = game.new_initial_state()
    start = time.perf_counter()
    root = bot.mcts_search(state)
    elapsed = time.perf_counter() - start
    assert root.explore_count == simulations
    return elapsed


def arena_seconds(workers: int) -> float:
    from mcts_core.strength import arena

    start = time.perf_counter()
    rows = arena("tic_tac_toe", c_values=ARENA_C, games=100, simulations=200, workers=workers)
    elapsed = time.perf_counter() - start
    assert len(rows) == len(ARENA_C)
    return elapsed


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simulations", type=int, default=2000)
    parser.add_argument("--c", type=float, default=1.4)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--no-arena", action="store_true")
    args = parser.parse_args(argv)

    runners = {
        "ours, log written": lambda g, seed: ours(g, args.simulations, args.c, seed, True),
        "ours, no log": lambda g, seed: ours(g, args.simulations, args.c, seed, False),
        "OpenSpiel MCTSBot (Python)": lambda g, seed: openspiel(g, args.simulations, args.c, seed),
        "OpenSpiel MCTSBot (C++, for context)": lambda g, seed: openspiel_cpp(g, args.simulations, args.c, seed),
    }
    times: dict[tuple[str, str], list[float]] = {}
    for game in GAMES:
        for name, run in runners.items():  # warm-up: imports, game loading
            run(game, 0)
    for repeat in range(args.repeats):
        for game in GAMES:
            for name, run in runners.items():
                times.setdefault((game, name), []).append(run(game, repeat + 1))

    command = "python bench/bench_search.py " + " ".join(argv if argv is not None else sys.argv[1:])
    lines = [
        "## Live search: simulations per second, ours vs OpenSpiel's Python MCTSBot",
        "",
        f"Command: `{command.strip()}`  ",
        f"Date: {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC  ",
        f"Machine: {platform.machine()}, {os.cpu_count()} shared cores (noisy: other processes were running), "
        f"Python {platform.python_version()}, {args.simulations:,} simulations per search from the empty board, "
        f"UCB1 at C = {args.c}, random rollouts, {args.repeats} interleaved repeats, medians  ",
        "",
        "| game | search | median time | simulations/s | speed vs OpenSpiel's Python bot |",
        "|---|---|---:|---:|---:|",
    ]
    for game in GAMES:
        baseline = statistics.median(times[(game, "OpenSpiel MCTSBot (Python)")])
        for name in runners:
            median = statistics.median(times[(game, name)])
            lines.append(f"| {game} | {name} | {median * 1000:,.0f} ms | {args.simulations / median:,.0f} | "
                         f"{baseline / median:.2f}x |")
    if not args.no_arena:
        seconds = arena_seconds(args.workers)
        lines += [
            "",
            f"Arena: tic_tac_toe, C = {','.join(map(str, ARENA_C))}, 100 games each against a random opponent, "
            f"200 simulations per search, {args.workers} workers (spawned processes), nothing stored: "
            f"**{seconds:.1f} s** wall time (the CLI equivalent: `python -m mcts_core arena --game tic_tac_toe "
            f"--c {','.join(map(str, ARENA_C))} --games 100 --simulations 200 --workers {args.workers} --no-store`).",
        ]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
