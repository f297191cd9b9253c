"""Simultaneous moves: DUCT's simulations per second, and reading a decoupled log against a sequential one.

Usage (from the repository root)::

    python bench/bench_simultaneous.py                                  # defaults below
    python bench/bench_simultaneous.py --records 200000 --repeats 3 --simulations 2000

* Search speed: DUCT (UCB1, C = 1.4, random rollouts) on ``oshi_zumo`` from the initial position,
  with the log written (to a ``StringIO``) and without, and Smitsimax for context; also
  ``matrix_brps`` (one step, no rollout: the cost of selection itself). Interleaved repeats, medians.
* Reading: the same seeded playouts (bench_core's synthetic log: words of 1..49 moves over 8
  letters, scores with two decimals) as a **sequential** JSON Lines log (``{"path": ["a", "c"],
  "score": x}``, 2 players) and as a **simultaneous** one where each letter is a joint move of two
  players (``{"path": [["a", "x"], ["b", "x"]], "score": x}``; 8 letters <-> 4 x 2 joint moves, so
  both logs give trees of exactly the same shape). Each is read and built with ``read_input`` (the
  simultaneous one also gets its own-move statistics per node and player); repetitions
  interleaved, medians and their ratio (target: simultaneous <= 3x sequential).

Nothing here is a test: numbers go into bench/RESULTS_simultaneous.md with the command that made them.
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_core import make_text  # noqa: E402

from mcts_core.inputs.loading import read_input  # noqa: E402
from mcts_core.search import search_simultaneous  # noqa: E402
from mcts_core.simultaneous import JointScoring  # noqa: E402

JOINT = {letter: [player0, player1] for letter, (player0, player1) in
         zip("abcdefgh", [(a, b) for a in "abcd" for b in "xy"])}


def logs(text: str) -> tuple[str, str]:
    """The playouts of puzzle ``text`` as a sequential and as a simultaneous JSON Lines log."""
    lines = text.splitlines()
    header = json.dumps({"mcts_log": 1, "players": 2, "c": float(lines[0].split()[1])})
    sequential, simultaneous = [header], [header]
    joint = {letter: json.dumps(pair) for letter, pair in JOINT.items()}
    for line in lines[1:]:
        word, score = line.split()
        sequential.append(f'{{"path": {json.dumps(list(word))}, "score": {score}}}')
        simultaneous.append(f'{{"path": [{", ".join(joint[m] for m in word)}], "score": {score}}}')
    return "\n".join(sequential) + "\n", "\n".join(simultaneous) + "\n"


def timed(text: str) -> tuple[float, float, object]:
    """Wall seconds, CPU seconds of the process (every thread: pyarrow parses on 2) and the input read."""
    gc.collect()
    start, cpu = time.perf_counter(), time.process_time()
    read = read_input(text)
    return time.perf_counter() - start, time.process_time() - cpu, read


def search_speed(game: str, algorithm: str, simulations: int, log: bool) -> float:
    start = time.perf_counter()
    result = search_simultaneous(game, algorithm=algorithm, scoring=JointScoring("ucb1", 1.4),
                                 simulations=simulations, seed=1, out=io.StringIO() if log else None, log=log)
    elapsed = time.perf_counter() - start
    assert result.simulations == simulations
    return simulations / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--simulations", type=int, default=5_000, help="per search")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--skip-read", action="store_true")
    parser.add_argument("--skip-search", action="store_true")
    arguments = parser.parse_args()

    if not arguments.skip_search:
        runs = {
            ("oshi_zumo", "duct", True): [], ("oshi_zumo", "duct", False): [],
            ("oshi_zumo", "smitsimax", True): [], ("matrix_brps", "duct", True): [],
        }
        for key in runs:  # warm-up: imports, game loading
            search_speed(key[0], key[1], 50, key[2])
        for _ in range(arguments.repeats):
            for key in runs:
                runs[key].append(search_speed(key[0], key[1], arguments.simulations, key[2]))
        print(f"{arguments.simulations:,} simulations per search, UCB1 at C = 1.4, medians of {arguments.repeats}")
        print("| game | search | log | simulations/s |\n|---|---|---|---:|")
        for (game, algorithm, log), speeds in runs.items():
            print(f"| {game} | {algorithm} | {'written' if log else 'none'} | {statistics.median(speeds):,.0f} |")
        print()

    if arguments.skip_read:
        return
    text = make_text(arguments.records, 2024)
    sequential, simultaneous = logs(text)
    del text
    for small in logs(make_text(20_000, 1)):  # pay the imports once, outside the timings
        read_input(small)
    times = {"sequential": [], "simultaneous": []}
    cpu = {"sequential": [], "simultaneous": []}
    shapes = {}
    for rep in range(arguments.repeats):
        for name in (["sequential", "simultaneous"] if rep % 2 == 0 else ["simultaneous", "sequential"]):
            seconds, cpu_seconds, read = timed(sequential if name == "sequential" else simultaneous)
            times[name].append(seconds)
            cpu[name].append(cpu_seconds)
            shapes[name] = (len(read.tree), list(read.tree.visits[:50]))
            if name == "simultaneous":
                decoupled = read.simultaneous.decoupled
                slots = len(decoupled.slot_move)
            del read
    assert shapes["sequential"] == shapes["simultaneous"], "the two logs must give trees of one shape"
    seq, sim = statistics.median(times["sequential"]), statistics.median(times["simultaneous"])
    best_seq, best_sim = min(times["sequential"]), min(times["simultaneous"])
    pairs = [b / a for a, b in zip(times["sequential"], times["simultaneous"])]  # each repeat ran both back to back
    print(f"{arguments.records:,} records ({len(sequential) / 1e6:.0f} MB sequential, {len(simultaneous) / 1e6:.0f} MB "
          f"simultaneous), {shapes['sequential'][0]:,} nodes, {slots:,} own-move slots; {arguments.repeats} repeats")
    print("| log | read + build, median (s) | best (s) | ratio of medians | ratio of bests |\n|---|---:|---:|---:|---:|")
    print(f"| sequential | {seq:.2f} | {best_seq:.2f} | 1.00 | 1.00 |")
    print(f"| simultaneous (joint tree + own moves per player) | {sim:.2f} | {best_sim:.2f} | {sim / seq:.2f} | "
          f"{best_sim / best_seq:.2f} |")
    print(f"median of the per-repeat ratios: {statistics.median(pairs):.2f} (all {[round(r, 2) for r in pairs]})")
    seq_cpu, sim_cpu = statistics.median(cpu["sequential"]), statistics.median(cpu["simultaneous"])
    print(f"CPU time (all threads), medians: sequential {seq_cpu:.2f} s, simultaneous {sim_cpu:.2f} s, "
          f"ratio {sim_cpu / seq_cpu:.2f}")
    print(f"all sequential CPU: {[round(t, 2) for t in cpu['sequential']]}, "
          f"all simultaneous CPU: {[round(t, 2) for t in cpu['simultaneous']]}")
    print(f"all sequential: {[round(t, 2) for t in times['sequential']]}, "
          f"all simultaneous: {[round(t, 2) for t in times['simultaneous']]}")


if __name__ == "__main__":
    main()
