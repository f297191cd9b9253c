"""Playback benchmark: time per step and resident memory while stepping back and forth on a large log.

Usage (from the repository root)::

    python bench/bench_playback.py                       # 1,000,000 and 2,000,000 playouts
    python bench/bench_playback.py --sizes 200000 --steps 10

Each size runs in a fresh subprocess (so resident memory is its own): parse + build the log
(bench_core's synthetic text), then, as the Playback page does with a stride of 1,000 playouts,
"Next" steps forward, "Previous" steps back, a jump to a random k, and back and forth between
two k. It prints the median seconds per kind of step and VmRSS (MiB) after the load, after the
first frame and after every further step (flat memory: the last numbers do not grow).

Nothing here is a test: numbers go into bench/RESULTS.md with the command that produced them.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def worker(count: int, steps: int) -> dict:
    from bench_core import input_file
    from mcts_core import build_tree, parse_playouts
    from mcts_core.common.memory import return_free_memory
    from mcts_core.model.playback import Playback

    text = input_file(count, 2024).read_text()
    playouts = parse_playouts(text)
    del text
    tree = build_tree(playouts)
    return_free_memory()  # as the app does after loading an input
    playback = Playback(playouts, tree)
    memory = {"loaded": rss_mib()}
    stride = 1_000
    k = count // 2
    times: dict[str, list[float]] = {}
    rss_after: list[float] = []

    def step(kind: str, to: int) -> None:
        start = time.perf_counter()
        playback.frame(to)
        times.setdefault(kind, []).append(time.perf_counter() - start)
        rss_after.append(rss_mib())

    step("first frame (jump)", k)
    memory["first frame"] = rss_mib()
    rng = random.Random(1)
    for _ in range(steps):
        step("next (+1,000)", k + stride)
        step("previous (back 1,000)", k)
        k = rng.randrange(stride, count - stride)
        step("jump (random k)", k)
    return {
        "count": count,
        "nodes": len(tree),
        "times": {kind: statistics.median(values) for kind, values in times.items()},
        "memory": memory,
        "rss_after_steps": rss_after,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000000,2000000")
    parser.add_argument("--steps", type=int, default=8, help="rounds of next, previous and a random jump")
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.worker:
        print(json.dumps(worker(arguments.worker, arguments.steps)))
        return
    for count in map(int, arguments.sizes.split(",")):
        output = subprocess.run(
            [sys.executable, __file__, "--worker", str(count), "--steps", str(arguments.steps)],
            capture_output=True, text=True, check=True,
        ).stdout
        result = json.loads(output.splitlines()[-1])
        rss = result["rss_after_steps"]
        print(f"\n{count:,} playouts, {result['nodes']:,} nodes")
        print("| step | median seconds |\n|---|---:|")
        for kind, seconds in result["times"].items():
            print(f"| {kind} | {seconds:.3f} |")
        print(f"VmRSS MiB: loaded {result['memory']['loaded']:.0f}, after the first frame "
              f"{result['memory']['first frame']:.0f}, after {len(rss)} steps: min {min(rss):.0f}, "
              f"max {max(rss):.0f}, last {rss[-1]:.0f}")


if __name__ == "__main__":
    main()
