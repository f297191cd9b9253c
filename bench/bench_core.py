"""Core benchmark: parse + build + select of mcts_core against a plain dict-of-children trie
(bench/harness/reference.py, the solver the tests compare with too).

Usage (from the repository root)::

    python bench/bench_core.py                       # 200k and 1M playouts, 5 repeats, RSS at 1M
    python bench/bench_core.py --sizes 200000 --repeats 3 --no-rss
    python bench/bench_core.py --profile 1000000     # cProfile of ours, parse + build + select

The synthetic logs are deterministic (seeded): puzzle format with a header ``N 1.4``, words of 1..49
moves over ``abcdefgh``, scores with two decimals in (-100, 100). Both implementations get the same
text in the same process; repetitions are interleaved (ours, baseline, ours, baseline, ...) and the
medians are reported, so the ratio is comparable even on a noisy shared machine. Peak RSS is measured
in a fresh subprocess per implementation (the child reports its own VmHWM).

Nothing here is a test: numbers go into bench/RESULTS.md with the command that produced them.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.harness.reference import reference_parse, reference_path, reference_tree  # noqa: E402
from mcts_core import Scoring, build_tree, parse_playouts, select_path  # noqa: E402

C = 1.4
ALPHABET = "abcdefgh"
CACHE = Path(tempfile.gettempdir()) / "mcts_bench_cache"


# --------------------------------------------------------------------------------------------------
# Synthetic input


def make_text(count: int, seed: int) -> str:
    """Puzzle text with ``count`` playouts: words of 1..49 moves over ALPHABET, scores in (-100, 100)."""
    rng = random.Random(seed)
    choices, randint, uniform = rng.choices, rng.randint, rng.uniform
    lines = [f"{count} {C}"]
    for _ in range(count):
        word = "".join(choices(ALPHABET, k=randint(1, 49)))
        score = round(uniform(-99.99, 99.99), 2)
        lines.append(f"{word} {score}")
    return "\n".join(lines) + "\n"


def input_file(count: int, seed: int) -> Path:
    """The synthetic text for (count, seed), generated once and cached in the temp directory."""
    CACHE.mkdir(exist_ok=True)
    path = CACHE / f"playouts_{count}_{seed}.txt"
    if not path.exists():
        tmp = path.with_suffix(".tmp")
        tmp.write_text(make_text(count, seed))
        tmp.replace(path)
    return path


# --------------------------------------------------------------------------------------------------
# One run of each implementation: (path, {phase: seconds})


def run_ours(text):
    t0 = time.perf_counter()
    parsed = parse_playouts(text)
    t1 = time.perf_counter()
    tree = build_tree(parsed)
    t2 = time.perf_counter()
    path = select_path(tree, Scoring(c=C))
    t3 = time.perf_counter()
    return path, {"parse": t1 - t0, "build": t2 - t1, "select": t3 - t2, "total": t3 - t0}


def run_baseline(text):
    t0 = time.perf_counter()
    c, rows = reference_parse(text)
    t1 = time.perf_counter()
    root = reference_tree(rows)
    t2 = time.perf_counter()
    path = reference_path(root, c)
    t3 = time.perf_counter()
    return path, {"parse": t1 - t0, "build": t2 - t1, "select": t3 - t2, "total": t3 - t0}


RUNNERS = {"ours": run_ours, "baseline": run_baseline}


def time_size(count, seed, repeats):
    """Interleaved repetitions on one text; returns {impl: {phase: [seconds, ...]}}."""
    text = input_file(count, seed).read_text()
    times = {name: {} for name in RUNNERS}
    paths = {}
    for rep in range(repeats):
        order = list(RUNNERS) if rep % 2 == 0 else list(reversed(RUNNERS))
        for name in order:
            gc.collect()
            path, phases = RUNNERS[name](text)
            paths.setdefault(name, path)
            if paths[name] != path:
                raise SystemExit(f"{name} is not deterministic")
            for phase, seconds in phases.items():
                times[name].setdefault(phase, []).append(seconds)
            del path, phases
            gc.collect()
    if paths["ours"] != paths["baseline"]:
        raise SystemExit(f"disagreement: ours {paths['ours']!r}, baseline {paths['baseline']!r}")
    return times, paths["ours"]


def peak_rss_kib():
    """This process's peak RSS (VmHWM) in KiB.

    ru_maxrss is not used: on Linux it survives fork+exec, so a child started from this (big)
    benchmark process would report the parent's peak. VmHWM belongs to the new address space.
    """
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def worker(name, count, seed):
    """Run one implementation once in this (fresh) process; print its peak RSS in KiB."""
    text = input_file(count, seed).read_text()
    before = peak_rss_kib()
    if name != "read-only":
        RUNNERS[name](text)
    after = peak_rss_kib()
    print(before, after)


def measure_rss(name, count, seed):
    out = subprocess.run(
        [sys.executable, __file__, "--worker", name, "--sizes", str(count), "--seed", str(seed)],
        check=True, capture_output=True, text=True,
    ).stdout.split()
    return int(out[0]), int(out[1])


# --------------------------------------------------------------------------------------------------
# Report


def fmt(seconds):
    return f"{seconds * 1000:,.0f} ms"


def report(args, results, rss):
    lines = []
    command = "python bench/bench_core.py " + " ".join(sys.argv[1:])
    lines.append(f"Command: `{command.strip()}`  ")
    lines.append(f"Date: {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC  ")
    lines.append(
        f"Machine: {platform.machine()}, {os.cpu_count()} shared cores (noisy: other processes were"
        f" running), Python {platform.python_version()}, seed {args.seed}, {args.repeats} interleaved"
        " repeats, medians  "
    )
    lines.append("")
    lines.append("| playouts | phase | ours | baseline | ours/baseline |")
    lines.append("|---:|---|---:|---:|---:|")
    for count, (times, path) in results.items():
        for phase in ("parse", "build", "select", "total"):
            ours = statistics.median(times["ours"][phase])
            base = statistics.median(times["baseline"][phase])
            label = "parse+build+select" if phase == "total" else phase
            ratio = f"**{ours / base:.2f}**" if phase == "total" else f"{ours / base:.2f}"
            lines.append(f"| {count:,} | {label} | {fmt(ours)} | {fmt(base)} | {ratio} |")
    lines.append("")
    for count, (times, path) in results.items():
        spread = {
            name: f"{fmt(min(times[name]['total']))}..{fmt(max(times[name]['total']))}"
            for name in times
        }
        lines.append(
            f"- {count:,}: selected path `{path}` (both agree); total range ours {spread['ours']},"
            f" baseline {spread['baseline']}"
        )
    if rss:
        lines.append("")
        lines.append("Peak RSS, fresh subprocess each, parse+build+select once (VmHWM of the child):")
        lines.append("")
        lines.append("| playouts | run | peak RSS | of which input text read |")
        lines.append("|---:|---|---:|---:|")
        for (name, count), (before, after) in rss.items():
            lines.append(f"| {count:,} | {name} | {after / 1024:,.0f} MiB | {before / 1024:,.0f} MiB |")
    return "\n".join(lines)


def profile(count, seed):
    import cProfile
    import pstats

    text = input_file(count, seed).read_text()
    profiler = cProfile.Profile()
    profiler.enable()
    run_ours(text)
    profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(20)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="200000,1000000", help="comma-separated playout counts")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--rss-size", type=int, default=1_000_000)
    parser.add_argument("--no-rss", action="store_true")
    parser.add_argument("--profile", type=int, metavar="N", help="cProfile ours on N playouts")
    parser.add_argument("--worker", choices=[*RUNNERS, "read-only"], help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    sizes = [int(size) for size in args.sizes.split(",")]

    if args.worker:
        worker(args.worker, sizes[0], args.seed)
        return
    if args.profile:
        profile(args.profile, args.seed)
        return

    results = {}
    for count in sizes:
        input_file(count, args.seed)
        results[count] = time_size(count, args.seed, args.repeats)
        print(f"{count:,} done", file=sys.stderr)
    rss = {}
    if not args.no_rss:
        input_file(args.rss_size, args.seed)
        for name in ("read-only", "ours", "baseline"):
            rss[(name, args.rss_size)] = measure_rss(name, args.rss_size, args.seed)
    print(report(args, results, rss))


if __name__ == "__main__":
    main()
