"""Where SPSA's games run: the time per iteration in this process, on two local processes and on a local
Dask cluster of two workers (dask scheduler and dask worker processes on 127.0.0.1), and the same steps in
all three.

An iteration is 4 games (the arena's pair at C+ and at C-), played at once, one pair per task; iterations
follow one another. The processes' start (and the cluster's connection) is counted in the run's time.

    python bench/bench_spsa_pool.py [--iterations 20] [--simulations 100] [--games tic_tac_toe,connect_four]
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness.dask_processes import dask_cluster  # noqa: E402
from mcts_core.strength.spsa_games import spsa_plan, spsa_run  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--games", default="tic_tac_toe,connect_four")
    arguments = parser.parse_args()
    print("| game | where | seconds | ms per iteration |")
    print("|---|---|---:|---:|")
    with dask_cluster(workers=2) as (address, _):
        for game in arguments.games.split(","):
            steps = {}
            for where, settings in (("this process", dict(workers=1)), ("2 local processes", dict(workers=2)),
                                    ("Dask, 2 workers", dict(cluster=address))):
                run = spsa_plan(game, iterations=arguments.iterations, simulations=arguments.simulations, **settings)
                start = time.monotonic()
                steps[where] = spsa_run(run)
                seconds = time.monotonic() - start
                print(f"| {game} | {where} | {seconds:.2f} | {seconds / arguments.iterations * 1000:.0f} |", flush=True)
            assert len({tuple(one) for one in steps.values()}) == 1, "the steps differ between pools"
    print("\nThe same steps in all three.")


if __name__ == "__main__":
    main()
