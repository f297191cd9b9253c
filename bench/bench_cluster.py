"""Cluster benchmark: the arena's games in local processes against a Dask cluster of the same size, and a paired SPRT.

Usage (from the repository root)::

    python bench/bench_cluster.py                        # 10,000 games each way, then the SPRT
    python bench/bench_cluster.py --games 2000 --repeats 1 --no-sprt
    python bench/bench_cluster.py --no-games              # the SPRT only

1. ``--games`` tic-tac-toe games at 100 simulations per search against a random opponent (6 ms a
   game: the shortest tasks, where a cluster's overhead shows most), C = 1.4, nothing stored: once
   in 2 local worker processes, once on a real cluster on 127.0.0.1 started here (`dask scheduler`
   and two `dask worker --nthreads 1 --no-nanny` processes: the same two slots). Runs alternate,
   ``--repeats`` times each; the cluster's time counts connecting the client, not starting the
   processes. The rows of both must be equal (same seeds, same games).
2. A paired SPRT (elo0 = 0, elo1 = 50, alpha = beta = 0.05) of C = 0.5 against MCTS at C = 1.4,
   200 simulations per search on connect_four, at most 4,000 games, in 2 local processes and then
   on the cluster: where it stopped (the same place both times), its verdict, LLR and wall times.
Nothing here is a test: numbers go into bench/RESULTS_cluster.md with the command that produced them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.harness.dask_processes import dask_cluster  # noqa: E402

from mcts_core.strength import SprtSettings, arena  # noqa: E402


def timed(**settings):
    started = time.perf_counter()
    rows = arena("tic_tac_toe", **settings)
    return time.perf_counter() - started, rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--no-sprt", action="store_true")
    parser.add_argument("--no-games", action="store_true")
    arguments = parser.parse_args()
    with dask_cluster(workers=2) as (address, _):
        if not arguments.no_games:
            games_benchmark(address, arguments.games, arguments.repeats)
        if not arguments.no_sprt:
            sprt_benchmark(address)


def games_benchmark(address: str, games: int, repeats: int) -> None:
    settings = dict(c_values=[1.4], games=games, simulations=100, opponent="random", seed=1)
    local, cluster = [], []
    for _ in range(repeats):
        seconds, local_rows = timed(workers=2, **settings)
        local.append(seconds)
        seconds, cluster_rows = timed(cluster=address, **settings)
        cluster.append(seconds)
        assert cluster_rows == local_rows, "the cluster's rows differ from the local ones"
    best_local, best_cluster = min(local), min(cluster)
    print(f"## {games:,} tic-tac-toe games, 100 simulations, random opponent ({os.cpu_count()} cores, shared)\n")
    print("| where | runs (s) | best (s) | games/s (best) |")
    print("| --- | --- | --- | --- |")
    print(f"| 2 local processes | {', '.join(f'{s:.1f}' for s in local)} | {best_local:.1f} | {games / best_local:,.0f} |")
    print(f"| Dask: scheduler + 2 workers on 127.0.0.1 | {', '.join(f'{s:.1f}' for s in cluster)} | "
          f"{best_cluster:.1f} | {games / best_cluster:,.0f} |")
    print(f"\nCluster overhead (best against best): {100 * (best_cluster / best_local - 1):+.1f} %; "
          f"medians: {100 * (statistics.median(cluster) / statistics.median(local) - 1):+.1f} %. Rows identical: yes.\n")


def sprt_benchmark(address: str) -> None:
    sprt = SprtSettings(elo0=0.0, elo1=50.0, alpha=0.05, beta=0.05)
    settings = dict(c_values=[0.5], games=4000, simulations=200, opponent="mcts:1.4", sprt=sprt, seed=1)
    times, rows = [], []
    for where in (dict(workers=2), dict(cluster=address)):
        started = time.perf_counter()
        rows.append(arena("connect_four", **settings, **where)[0])
        times.append(time.perf_counter() - started)
    assert rows[0] == rows[1], "the SPRT stopped elsewhere on the cluster"
    row = rows[0]
    print("## Paired SPRT on connect_four: C = 0.5 against MCTS at C = 1.4, 200 simulations\n")
    print(f"elo0 = 0, elo1 = 50, alpha = beta = 0.05 (bounds {row.llr_low:.3f}, {row.llr_high:.3f}); "
          f"stopped after **{row.games:,} games ({row.pairs:,} pairs)** with LLR {row.llr:.3f}: **{row.sprt}**; "
          f"score {row.score:.3f}, Elo {row.elo:+.1f} ± {row.elo_error:.1f}, pair Elo {row.pair_elo:+.1f} ± "
          f"{row.pair_elo_error:.1f}, pentanomial (LL/LD/DD+WL/WD/WW) {row.ll}/{row.ld}/{row.dd_wl}/{row.wd}/{row.ww}; "
          f"{times[0]:.1f} s in 2 local processes, {times[1]:.1f} s on the cluster, the same row both times.")


if __name__ == "__main__":
    main()
