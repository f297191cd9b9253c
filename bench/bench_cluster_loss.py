"""How long `arena --cluster` takes to give up once every Dask worker died, against its --cluster-wait.

Usage (from the repository root)::

    python bench/bench_cluster_loss.py                  # 20 runs with --cluster-wait 3
    python bench/bench_cluster_loss.py --runs 2 --wait 60

One `dask scheduler` on 127.0.0.1 (bench/harness/dask_processes.py, as the tests start it); each run starts
two `dask worker --nthreads 1 --no-nanny` processes, starts the CLI arena on them (tic-tac-toe, C =
0.5, 1 and 2, 400 games each, 100 simulations, --progress), kills both workers as soon as the
first game comes back, and times from the kill to the arena's exit. Each run must end with exit
status 2 and the one sentence; the time beyond --cluster-wait is the scheduler noticing the dead
workers, the once-a-second look at the scheduler, and closing the client.
Nothing here is a test: numbers go into bench/RESULTS_cluster.md with the command that produced them.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.harness.dask_processes import start_scheduler, start_worker, stop, wait_for_workers  # noqa: E402


def one_run(address: str, wait: float, data: Path) -> float:
    """Seconds from killing every worker to the arena's exit."""
    workers = [start_worker(address, f"doomed-{number}") for number in range(2)]
    try:
        wait_for_workers(address, 2)
        process = subprocess.Popen(
            [sys.executable, "-m", "mcts_core", "arena", "--game", "tic_tac_toe", "--c", "0.5,1,2", "--games", "400",
             "--simulations", "100", "--cluster", address, "--cluster-wait", f"{wait:g}", "--progress"],
            cwd=REPO, env={**os.environ, "MCTS_EXPLORER_DATA": str(data)}, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        seen = ""
        while not re.search(r"arena: [1-9]", seen):  # a game came back (the first line says 0)
            char = process.stderr.read(1)
            if not char:
                raise RuntimeError(f"the arena ended before a game came back: {seen}")
            seen += char
        for worker in workers:
            worker.kill()
        killed = time.perf_counter()
        _, err = process.communicate(timeout=wait + 120)
        took = time.perf_counter() - killed
    finally:
        stop(workers)
    said = [line for line in err.splitlines() if line and not line.startswith("arena: ")]
    if process.returncode != 2 or len(said) != 1 or "has had no live worker" not in said[0]:
        raise RuntimeError(f"unexpected end (status {process.returncode}): {said}")
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--wait", type=float, default=3.0)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        scheduler, address = start_scheduler(Path(folder))
        try:
            times = [one_run(address, arguments.wait, Path(folder) / f"data{run}") for run in range(arguments.runs)]
        finally:
            stop([scheduler])
    print(f"--cluster-wait {arguments.wait:g}: {len(times)} runs, kill -> exit: min {min(times):.1f} s, "
          f"median {statistics.median(times):.1f} s, max {max(times):.1f} s; every run exit 2 with the one sentence")


if __name__ == "__main__":
    main()
