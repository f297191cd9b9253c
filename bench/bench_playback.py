"""Playback benchmark: snapshots by checkpoint replay against rebuilding the tree at every k.

Usage (from the repository root)::

    python bench/bench_playback.py                     # 500, 200k and 1M playouts
    python bench/bench_playback.py --sizes 200000 --frames 20

For each size it times, on the same seeded synthetic log as bench/bench_core.py:

* building the checkpoints of a :class:`~mcts_core.playback.Playback` (one replay of the log) and the
  memory the checkpoints hold (tracemalloc, on top of the full tree the app has anyway);
* ``frame(k)`` (tree after k playouts + the step record) for random k, against
  ``build_tree(playouts, upto=k)`` for the same k;
* :func:`~mcts_core.playback.race` (one pass) against the naive k rebuilds it replaces, the latter
  estimated from a few timed rebuilds because running it in full would take hours at 1M.

Medians are reported. Nothing here is a test: numbers go into bench/RESULTS.md with the command.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "bench"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from bench_core import input_file  # noqa: E402  (the same seeded logs as the core benchmark)

from mcts_core import build_tree, parse_playouts  # noqa: E402
from mcts_core.playback import Playback, race  # noqa: E402


def timed(function, *args, **kwargs):
    """(result, seconds) of one call."""
    start = time.perf_counter()
    result = function(*args, **kwargs)
    return result, time.perf_counter() - start


def median_time(function, arguments) -> float:
    """Median seconds of ``function(argument)`` over the arguments."""
    return statistics.median(timed(function, argument)[1] for argument in arguments)


def measure(count: int, seed: int, frames: int) -> dict[str, float]:
    """All timings for one log size, in seconds (memory in MiB)."""
    playouts = parse_playouts(input_file(count, seed).read_text())
    tree = build_tree(playouts)
    playback = Playback(playouts, tree)
    checkpoints, build_seconds = timed(playback.checkpoints)
    tracemalloc.start()  # a second build, traced: tracing would distort the timing above
    traced = Playback(playouts, tree).checkpoints()
    checkpoint_mib = tracemalloc.get_traced_memory()[0] / 2**20
    tracemalloc.stop()
    del traced
    rng = random.Random(seed)
    ks = [rng.randint(1, count - 1) for _ in range(frames)]
    rebuild_seconds = [timed(build_tree, playouts, upto=k)[1] for k in ks[: max(3, frames // 4)]]
    # Rebuilding at every k costs sum over k of build(k), about count/2 times build(count/2).
    naive_race = statistics.median(s / k for s, k in zip(rebuild_seconds, ks)) * count * (count + 1) / 2
    return {
        "playouts": count,
        "nodes": len(tree),
        "interval": playback.interval,
        "checkpoints": len(checkpoints),
        "build": build_seconds,
        "checkpoint_mib": checkpoint_mib,
        "frame": median_time(playback.frame, ks),
        "rebuild": statistics.median(rebuild_seconds),
        "race": timed(race, tree, playouts)[1],
        "naive_race": naive_race,
    }


def report(rows: list[dict[str, float]], command: str) -> str:
    """The markdown block for bench/RESULTS.md."""
    lines = [
        f"Command: `{command}` ({platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()}, 2 shared cores). Seconds unless noted; medians.",
        "",
        "| playouts | nodes | checkpoints (interval) | Playback.checkpoints() | checkpoint memory | frame(k) random k "
        "| build_tree(upto=k) same k | race(), one pass | race by rebuilding at every k (estimate) |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        lines.append(
            f"| {row['playouts']:,} | {row['nodes']:,} | {row['checkpoints']} ({row['interval']:,}) "
            f"| {row['build']:.3f} | {row['checkpoint_mib']:.0f} MiB | {row['frame']:.4f} "
            f"| {row['rebuild']:.4f} | {row['race']:.3f} | {row['naive_race']:,.3g} |"
        )
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="500,200000,1000000", help="comma-separated playout counts")
    parser.add_argument("--frames", type=int, default=12, help="random k timed per size")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)
    rows = []
    for count in (int(size) for size in args.sizes.split(",")):
        rows.append(measure(count, args.seed, args.frames))
        print(rows[-1], file=sys.stderr)
    print(report(rows, "python " + " ".join(["bench/bench_playback.py", *(argv or sys.argv[1:])])))


if __name__ == "__main__":
    main()
