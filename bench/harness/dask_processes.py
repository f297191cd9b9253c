"""A real Dask cluster on 127.0.0.1 for tests and benchmarks: `dask scheduler` and `dask worker` processes.

The processes are the ones a user starts by hand (the README's steps), not an in-process
LocalCluster. Workers start in the repository with it on PYTHONPATH, as the README tells users to.
Each worker is one process with one thread (no nanny), so killing it kills its games.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
START_SECONDS = 60  # a loaded two-core machine takes a while to import distributed in three processes


def _dask() -> list[str]:
    found = shutil.which("dask", path=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]))
    return [found] if found else [sys.executable, "-m", "dask"]


def _environment() -> dict[str, str]:
    path = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PYTHONPATH": path}


def start_scheduler(folder: Path) -> tuple[subprocess.Popen, str]:
    """`dask scheduler` on 127.0.0.1 at a free port; the process and its address."""
    file = folder / "scheduler.json"
    process = subprocess.Popen(
        [*_dask(), "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard", "--scheduler-file", str(file)],
        cwd=REPO, env=_environment(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + START_SECONDS
    while not file.exists() or not file.read_text().strip().endswith("}"):
        if process.poll() is not None or time.monotonic() > deadline:
            stop([process])
            raise RuntimeError("dask scheduler did not start")
        time.sleep(0.1)
    return process, json.loads(file.read_text())["address"]


def start_worker(address: str, name: str) -> subprocess.Popen:
    """`dask worker ADDRESS` with one thread in one process (no nanny), started in the repository."""
    return subprocess.Popen(
        [*_dask(), "worker", address, "--name", name, "--nthreads", "1", "--no-nanny", "--no-dashboard"],
        cwd=REPO, env=_environment(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)


def wait_for_workers(address: str, count: int) -> None:
    """Returns once the scheduler at ``address`` has ``count`` workers."""
    from distributed import Client

    with Client(address, timeout=START_SECONDS, set_as_default=False) as client:
        client.wait_for_workers(count, timeout=START_SECONDS)


def stop(processes: list[subprocess.Popen]) -> None:
    """Ends the processes this module started (SIGTERM, then SIGKILL after 10 s)."""
    for process in processes:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
    for process in processes:
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextmanager
def dask_cluster(workers: int = 2) -> Iterator[tuple[str, list[subprocess.Popen]]]:
    """A scheduler and ``workers`` workers on 127.0.0.1, stopped on leaving: (address, worker processes)."""
    with tempfile.TemporaryDirectory() as folder:
        scheduler, address = start_scheduler(Path(folder))
        started = [start_worker(address, f"worker-{number}") for number in range(workers)]
        try:
            wait_for_workers(address, workers)
            yield address, started
        finally:
            stop([*started, scheduler])
