"""C sweep benchmark: exact sweep of the selected path over a C range on deep random trees.

Usage (from the repository root)::

    python bench/bench_sweep.py                       # 500, 20k, 200k playouts over [0, 1000), 7 repeats
    python bench/bench_sweep.py --sizes 200000 --repeats 3 --c-max 100
    python bench/bench_sweep.py --payload             # the browser's drag data: 5,000 playouts, 1,500 drawn

Two families of seeded trees, both built once per size (building is not timed):

* ``deep``: :func:`mcts_core.inputs.examples.deep_tree`, the app's "Deep tree" example scaled up: biased
  words of 6..14 moves over ``abc``, a deep and lopsided tree;
* ``core``: bench/bench_core.py's log, words of 1..49 moves over ``abcdefgh``, scores in (-100, 100).

For each it times :func:`mcts_core.analysis.sweep.path_intervals` and, separately, the sweep page's table
(:func:`mcts_core.tables.sweep_tables.bands_frame`, one ``tree.find`` per interval plus pandas). With
``--payload`` it instead builds :func:`mcts_core.analysis.drag_payload.drag_payload` for every rule
(the nodes :func:`mcts_core.drawing.visible_nodes` draws within ``--drawn``, the selected path, the
root inspected; C from 0 to the slider's suggested maximum) and reports its build time and its JSON size.
Medians of the repeats are reported. Nothing here is a test: numbers go into bench/RESULTS.md with the command.
"""

from __future__ import annotations

import argparse
import gzip
import json
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

from mcts_core import Scoring, build_tree, parse_playouts  # noqa: E402
from mcts_core.analysis import drag_payload, suggest_c_range  # noqa: E402
from mcts_core.drawing import drawn_nodes, visible_nodes  # noqa: E402
from mcts_core.inputs.examples import deep_tree  # noqa: E402
from mcts_core.analysis.sweep import path_intervals  # noqa: E402
from mcts_core.selection import RULE_PRESETS, selected_nodes  # noqa: E402
from mcts_core.tables.sweep_tables import bands_frame  # noqa: E402

FAMILIES = {
    "deep": lambda count, seed: deep_tree(count, seed),
    "core": lambda count, seed: input_file(count, seed).read_text(),
}


def median_seconds(function, repeats: int, clock=time.perf_counter) -> float:
    """Median time of ``function()`` over ``repeats`` calls: wall time, or ``time.process_time`` for
    this process's CPU time (the machine is shared)."""
    times = []
    for _ in range(repeats):
        start = clock()
        function()
        times.append(clock() - start)
    return statistics.median(times)


def fmt(seconds: float) -> str:
    return f"{seconds * 1000:,.2f} ms" if seconds < 0.1 else f"{seconds * 1000:,.0f} ms"


PAYLOAD_SCORINGS = {
    "UCB1": Scoring(),
    "UCB1-Tuned": Scoring.of("ucb1_tuned"),
    "PUCT raw": Scoring.of("puct"),
    **{f"preset {number}": scoring for number, scoring in enumerate(RULE_PRESETS.values(), start=1)},
}


def payload_table(args) -> list[str]:
    """Rows of the drag-payload table: build time and JSON size per family and rule."""
    lines = [
        "| tree | playouts | nodes | drawn | rule | intervals | build (wall) | build (CPU) | JSON | gzipped |",
        "|---|---:|---:|---:|---|---:|---:|---:|---:|---:|",
    ]
    for family in args.families.split(","):
        tree = build_tree(parse_playouts(FAMILIES[family](args.payload_playouts, args.seed)))
        means = [tree.mean(node) for node in range(1, len(tree)) if tree.visits[node]]
        c_max = suggest_c_range([min(means), max(means)])[0]
        for name, scoring in PAYLOAD_SCORINGS.items():
            path = selected_nodes(tree, scoring)
            drawn = drawn_nodes(tree, visible_nodes(tree, budget=args.drawn), path, inspected=path[0])

            def build():
                return drag_payload(tree, scoring, 0.0, c_max, drawn, path[0])

            payload = build()
            text = json.dumps(payload, separators=(",", ":"), allow_nan=False).encode()
            wall, cpu = median_seconds(build, args.repeats), median_seconds(build, args.repeats, time.process_time)
            lines.append(
                f"| {family} | {args.payload_playouts:,} | {len(tree):,} | {len(drawn):,} | {name} "
                f"| {len(payload['intervals'])} | {fmt(wall)} | {fmt(cpu)} | {len(text) / 1000:,.0f} kB "
                f"| {len(gzip.compress(text)) / 1000:,.0f} kB |"
            )
            print(f"{family} {name} done", file=sys.stderr)
    return lines


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="500,20000,200000", help="comma-separated playout counts")
    parser.add_argument("--families", default="deep,core", help=f"comma-separated, of {', '.join(FAMILIES)}")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--c-min", type=float, default=0.0)
    parser.add_argument("--c-max", type=float, default=1000.0)
    parser.add_argument("--payload", action="store_true", help="measure the browser's drag data instead")
    parser.add_argument("--payload-playouts", type=int, default=5000)
    parser.add_argument("--drawn", type=int, default=1500, help="drawn-node budget for --payload")
    args = parser.parse_args(argv)
    if args.payload:
        print(f"Command: `{('python bench/bench_sweep.py ' + ' '.join(sys.argv[1:])).strip()}`  ")
        print(f"Machine: {platform.machine()}, {os.cpu_count()} shared cores, Python {platform.python_version()}, "
              f"seed {args.seed}, median of {args.repeats} repeats, C from 0 to the suggested slider maximum; "
              f"presets: {'; '.join(f'{n} = {name}' for n, name in enumerate(RULE_PRESETS, start=1))}  \n")
        print("\n".join(payload_table(args)))
        return

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
