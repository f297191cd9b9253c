"""C sweep benchmark: exact sweep of the selected path over a C range on deep random trees.

Usage (from the repository root)::

    python bench/bench_sweep.py                       # 500, 20k, 200k playouts over [0, 1000), 7 repeats
    python bench/bench_sweep.py --sizes 200000 --repeats 3 --c-max 100

Two families of seeded trees, both built once per size (building is not timed):

* ``deep``: :func:`mcts_core.inputs.examples.deep_tree`, the app's "Deep tree" example scaled up: biased
  words of 6..14 moves over ``abc``, a deep and lopsided tree;
* ``core``: bench/bench_core.py's log, words of 1..49 moves over ``abcdefgh``, scores in (-100, 100).

For each it times :func:`mcts_core.analysis.sweep.sweep` and, separately, the sweep page's table
(:func:`mcts_core.tables.sweep_tables.bands_frame`, one ``tree.find`` per interval plus pandas). Medians of
the repeats are reported. Nothing here is a test: numbers go into bench/RESULTS.md with the command.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "bench"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from bench_core import input_file  # noqa: E402  (the same seeded logs as the core benchmark)

from mcts_core import build_tree, parse_playouts  # noqa: E402
from mcts_core.inputs.examples import deep_tree  # noqa: E402
from mcts_core.analysis.sweep import path_intervals  # noqa: E402
from mcts_core.tables.sweep_tables import bands_frame  # noqa: E402

FAMILIES = {
    "deep": lambda count, seed: deep_tree(count, seed),
    "core": lambda count, seed: input_file(count, seed).read_text(),
}


def median_seconds(function, repeats: int) -> float:
    """Median wall time of ``function()`` over ``repeats`` calls."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def fmt(seconds: float) -> str:
    return f"{seconds * 1000:,.2f} ms" if seconds < 0.1 else f"{seconds * 1000:,.0f} ms"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="500,20000,200000", help="comma-separated playout counts")
    parser.add_argument("--families", default="deep,core", help=f"comma-separated, of {', '.join(FAMILIES)}")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--c-min", type=float, default=0.0)
    parser.add_argument("--c-max", type=float, default=1000.0)
    args = parser.parse_args(argv)

    lines = [
        f"Command: `{('python bench/bench_sweep.py ' + ' '.join(sys.argv[1:])).strip()}`  ",
        f"Machine: {platform.machine()}, {os.cpu_count()} shared cores (other sessions were running), Python "
        f"{platform.python_version()}, seed {args.seed}, range [{args.c_min:g}, {args.c_max:g}), "
        f"median of {args.repeats} repeats  ",
        "",
        "| tree | playouts | nodes | depth | intervals | sweep | page table (bands_frame) |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for family in args.families.split(","):
        for count in (int(size) for size in args.sizes.split(",")):
            tree = build_tree(parse_playouts(FAMILIES[family](count, args.seed)))
            intervals = path_intervals(tree, args.c_min, args.c_max)
            sweep_time = median_seconds(lambda: path_intervals(tree, args.c_min, args.c_max), args.repeats)
            table_time = median_seconds(lambda: bands_frame(tree, intervals), args.repeats)
            lines.append(
                f"| {family} | {count:,} | {len(tree):,} | {tree.max_depth} | {len(intervals):,} "
                f"| {fmt(sweep_time)} | {fmt(table_time)} |"
            )
            print(f"{family} {count:,} done", file=sys.stderr)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
