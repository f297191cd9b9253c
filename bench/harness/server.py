"""Starting and stopping `streamlit run` for browser tests and benchmarks, and the browser to use.

Playwright drives Debian's chromium (Playwright's own browser download does not work on this
machine) with the flags below: the tests its old headless shell (``chromium-headless-shell``, the
build Playwright itself runs headless tests in), the benchmarks the whole browser.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
OUTPUT = REPO / "test-output"
CHROMIUM = os.environ.get("MCTS_CHROMIUM", "/usr/bin/chromium")
# The same Blink and V8 without the browser's own window and compositor: opening the app costs about
# a quarter less of chromium's CPU (measured: 22.9 s against 31.1 s for 12 pages), and the suite is
# bound by the CPU of 2 cores.
TEST_CHROMIUM = os.environ.get("MCTS_TEST_CHROMIUM", "/usr/bin/chromium-headless-shell")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SERVER_START_TIMEOUT = 60.0  # seconds; a cold start on 2 busy cores takes 3-8 s


def in_ci() -> bool:
    """CI=true (or 1/yes): a missing browser is a failure there, not a skip."""
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def network_address() -> str | None:
    """This machine's first IPv4 address that is not loopback (``hostname -I``'s first), or None."""
    try:
        names = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=10).stdout.split()
    except (OSError, subprocess.SubprocessError):
        return None
    return next((name for name in names if ":" not in name and not name.startswith("127.")), None)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
            return response.status == 200 and response.read().strip() == b"ok"
    except (OSError, urllib.error.URLError):
        return False


def stop_streamlit(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def start_streamlit(
    app: Path, log_path: Path, *, cwd: Path, timeout: float = SERVER_START_TIMEOUT, options: tuple[str, ...] = (),
    port: int | None = None, address: str = "127.0.0.1",
):
    """Start ``streamlit run app`` on a free port; return (process, base url) once /_stcore/health is ok.

    ``options`` are more ``--section.option value`` arguments (e.g. a theme). ``port``: this port (a
    restart that open pages reconnect to) instead of a free one. ``address``: the IPv4 address it
    serves on and the URL names (the machine's network address: pages opened on it come from that
    address, as a classroom's behind one NAT do, not from localhost). Retries on a new free port if the
    chosen one was taken in between (Streamlit then exits at once).
    Fails with the server log if the server dies or is not healthy within ``timeout`` seconds.
    """
    wanted = port
    for _attempt in range(3 if wanted is None else 1):
        port = wanted or _free_port()
        url = f"http://{address}:{port}"
        command = [
            sys.executable, "-m", "streamlit", "run", str(app),
            "--server.headless", "true",
            "--server.port", str(port),
            "--server.address", address,
            "--browser.gatherUsageStats", "false",
            # Other people edit the sources while tests run: never rerun on a file change.
            "--server.fileWatcherType", "none",
            *options,
        ]  # fmt: skip
        log = open(log_path, "wb")
        process = subprocess.Popen(command, cwd=cwd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if process.poll() is not None:
                break
            if _healthy(url):
                return process, url
            time.sleep(0.2)
        stop_streamlit(process)
        server_log = log_path.read_text(errors="replace")
        if "is not available" in server_log or "address already in use" in server_log.lower():
            continue  # lost the race for the port: try another one
        pytest.fail(
            f"streamlit did not become healthy at {url}/_stcore/health within {timeout:.0f} s "
            f"(exit code {process.returncode}). Server log:\n{server_log}",
            pytrace=False,
        )
    pytest.fail(f"streamlit could not bind a free port after 3 attempts; last log:\n{server_log}", pytrace=False)


