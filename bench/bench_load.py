"""Load benchmark: ten browser sessions at once, cross-talk, C round trip, CPU shares, server memory.

1. Load: ``--sessions`` browser sessions (each its own chromium, driven from its own thread, like
   separate users), each with its own typed input over its own letters, each ``--trips`` times
   moving C (Exact C + Enter) and switching page (Explorer, C sweep, Compare, Playback,
   Classroom; the Playback has no C). After every action the session checks that it sees only its
   own input (tests/browser/test_browser_load.py's ``Session``: the URL's input id, the text box,
   every drawn node's path, name and visits, the selected path at its C, the playout count).
   Each action is timed in the page with bench/bench_browser.py's recorder (``trip``): a C round
   trip from the keydown of Enter in Exact C until the run is over and the page shows the new C;
   a page switch from the pointerup on the menu link until the run is over and the page's heading
   is shown. It also splits a trip (keydown -> script running -> not running -> shown -> painted).
   A single session runs the same steps alone before and after, in the same server, so the noise
   of this shared machine hits both. CPU: utime+stime from /proc of the server process (and its
   children), of our chromium processes, and of the Playwright drivers, over each window; every
   script run's and every `dot` layout's wall time from the server log (bench_browser's
   SITECUSTOMIZE hook, and DOT_HOOK here). ``--pin`` puts the server on CPU 0 and the sessions'
   browsers on CPU 1 (other processes on the machine may still use either).
2. Memory: ``--sessions`` sessions (contexts of one chromium) each upload their own
   ``--upload-playouts`` log (distinct counts: 200,000 + i); the server's VmRSS after each upload
   and at the end, then every session is checked again (still its own file) after a C change, and
   ``--linger`` seconds after the sessions closed (Streamlit keeps a disconnected session 120 s).
2b. ``--same-sessions`` sessions upload the same ``--same-playouts`` log one after another (parsed
   once: what does each session add?), then close; RSS after ``--linger`` seconds and a new session
   (``--session-ttl`` shortens Streamlit's 120 s reconnect window).
3. A ``--big`` upload (2,000,000 playouts): works (upload -> tree shown, RSS after, a C round
   trip on it) or is refused with a message.
4. ``--reliability`` (in this process, Streamlit's AppTest, no browser): the hostile cases of
   bench/hostile_cases.py (malformed JSON inputs, malformed bundles, crafted links), each in a fresh
   session: uncaught exceptions and refusals counted; then ``--sessions`` sessions with their own
   inputs and file names (and two more giving session 0's bytes other names), interleaved, each
   checked for its own input, path and name.

    python bench/bench_load.py [--sessions 10] [--trips 12] [--upload-playouts 200000] [--big 2000000]
        [--no-load] [--no-memory] [--no-big] [--think 0] [--linger 130] [--pin]
        [--same-sessions 3 --same-playouts 2000000] [--session-ttl 5] [--reliability]

Prints markdown; the results and their analysis are written to bench/RESULTS_load.md by hand.
The store and results go to a temporary MCTS_EXPLORER_DATA, not the repository's data/.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import statistics
import sys
import tempfile
import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import sync_playwright

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench_browser import (  # noqa: E402  (bench/ is on the path when run as a script)
    RECORDER,
    SITECUSTOMIZE,
    WS_TAP,
    current_c,
    trip,
    upload_trip,
)

from bench.harness.browser import LOAD_TIMEOUT, playout_file  # noqa: E402
from bench.harness.server import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    start_streamlit,
    stop_streamlit,
)
from bench.harness.load_tour import (  # noqa: E402
    MAX_SESSIONS,
    NO_C,
    TOUR,
    Own,
    Session,
    session_letters,
    session_text,
)

VIEWPORT = {"width": 1400, "height": 1000}
OPENING = threading.Semaphore(2)  # sessions load the app two at a time (not timed: ten first loads on one core took > 60 s)
# Added to bench_browser's server hook: every `dot` layout the server runs, with its wall time.
DOT_HOOK = '''
import sys
import graphviz.backend.execute as _graphviz_execute

_run_check = _graphviz_execute.run_check


def _logged_run_check(command, *args, **kwargs):
    start = time.perf_counter()
    try:
        return _run_check(command, *args, **kwargs)
    finally:
        if command and str(command[0]).endswith("dot"):
            sys.stdout.write(f"[bench-dot] {(time.perf_counter() - start) * 1000:.1f} ms\\n")  # one write
            sys.stdout.flush()


_graphviz_execute.run_check = _logged_run_check  # graphviz's pipe() looks it up on the module
'''
TICK = os.sysconf("SC_CLK_TCK")
# What each page shows once it has run with a new C (outside the C slider), and once it is the page.
SHOWS_C = {"Compare": "C = {:.6g})"}  # "Red: A's path (UCB1, C = 2.5)."; elsewhere "... C = 2.5."
SHOWS_PAGE = {
    "Explorer": "Inspect a node",
    "C sweep": "Selected path along C",
    "Compare": "Setting B",
    "Playback": "How the root's children race",
    "Classroom": "Which child does UCB1 pick",
}


# --- /proc accounting ------------------------------------------------------------------------


def _stat(pid: int) -> tuple[int, float] | None:
    """(parent pid, CPU seconds used by it and its ended children) of a live process, None when gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()  # after "pid (comm) "
    # utime + stime, and cutime + cstime: its children that ended (the server's `dot` layouts).
    return int(fields[1]), sum(int(value) for value in fields[11:15]) / TICK


def _comm(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


def _descendants(root: int, parents: dict[int, int]) -> set[int]:
    found, frontier = {root}, [root]
    while frontier:
        parent = frontier.pop()
        children = [pid for pid, ppid in parents.items() if ppid == parent and pid not in found]
        found.update(children)
        frontier.extend(children)
    return found


def cpu_snapshot(server_pid: int) -> dict:
    """CPU seconds by process, grouped: the server, our chromium processes, the Playwright drivers
    (node), this script; and the machine's busy and total seconds (/proc/stat)."""
    stats = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            stat = _stat(int(entry.name))
            if stat is not None:
                stats[int(entry.name)] = stat
    parents = {pid: ppid for pid, (ppid, _) in stats.items()}
    server = _descendants(server_pid, parents)
    ours = _descendants(os.getpid(), parents) - server
    groups = {"server": {}, "browsers": {}, "drivers": {}, "bench": {}}
    for pid in server:
        groups["server"][pid] = stats[pid][1]
    for pid in ours:
        name = _comm(pid)
        group = "bench" if pid == os.getpid() else "browsers" if name.startswith("chrom") else "drivers"
        groups[group][pid] = stats[pid][1]
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]  # idle + iowait
    groups["machine"] = {"busy": (sum(values[:8]) - idle) / TICK, "total": sum(values[:8]) / TICK}
    groups["wall"] = time.monotonic()
    return groups


def cpu_shares(before: dict, after: dict) -> dict[str, float]:
    """Cores used by each group between two snapshots (CPU seconds / wall seconds). A process
    born in between counts from zero; one that ended in between is lost (none should)."""
    wall = after["wall"] - before["wall"]
    shares = {"wall_s": wall}
    for group in ("server", "browsers", "drivers", "bench"):
        used = sum(seconds - before[group].get(pid, 0.0) for pid, seconds in after[group].items())
        shares[group] = used / wall
    shares["machine"] = (after["machine"]["busy"] - before["machine"]["busy"]) / wall
    shares["others"] = shares["machine"] - sum(shares[group] for group in ("server", "browsers", "drivers", "bench"))
    return shares


def memory_kib(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM (peak) of a process, in KiB."""
    values = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, rest = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            values[name] = int(rest.split()[0])
    return values


class RssSampler(threading.Thread):
    """The server's VmRSS every 0.1 s: the peak since ``reset`` (VmHWM is the peak since start)."""

    def __init__(self, pid: int):
        super().__init__(daemon=True)
        self.pid, self.peak, self.stopped = pid, 0, threading.Event()

    def run(self) -> None:
        while not self.stopped.wait(0.1):
            try:
                self.peak = max(self.peak, memory_kib(self.pid)["VmRSS"])
            except (OSError, KeyError):
                return

    def reset(self) -> int:
        peak, self.peak = self.peak, memory_kib(self.pid)["VmRSS"]
        return peak


def mib(kib: int) -> str:
    return f"{kib / 1024:,.0f} MiB"


# --- 1. sessions at once ---------------------------------------------------------------------

PIN: dict[str, set[int] | None] = {"browsers": None}  # --pin: the CPUs the sessions' browsers may use


def pin_process(pid: int, cpus: set[int]) -> None:
    """Pin every thread of a running process (threads it starts later inherit it)."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        os.sched_setaffinity(int(task.name), cpus)


@dataclass
class Outcome:
    """What one session did: bench_browser's trip reports of its C changes and page switches, checks."""

    index: int
    c_trips: list[dict] = field(default_factory=list)
    switches: list[dict] = field(default_factory=list)
    path_checks: int = 0
    labels: int = 0
    errors: list[str] = field(default_factory=list)


def timed(outcome: Outcome, trips: list[dict], what: str, page, trigger: str, action, expected: str) -> None:
    """One timed action (bench_browser.trip: armed recorder, action, wait for the paint)."""
    report = trip(page, "rerun", trigger, action, expected, timeout=LOAD_TIMEOUT)
    if report is None:
        outcome.errors.append(f"session {outcome.index}: the {what} did not show {expected!r} within {LOAD_TIMEOUT / 1000:.0f} s")
    else:
        trips.append(report)


def drive(index: int, url: str, steps: int, think: float, others: frozenset[str], gates, outcome: Outcome) -> None:
    """One user: own chromium, own input; ``steps`` times move C (not on the Playback) and switch page,
    each timed in the page and then checked (test_browser_load.Session).

    ``gates`` = (start, end barrier, release event): all sessions start together, and keep their
    browsers open until the main thread has read the CPU counters.
    """
    start, end, release = gates
    passed, session = set(), None

    def wait(gate) -> None:
        if gate not in passed:
            passed.add(gate)
            gate.wait(timeout=3600)

    try:
        if PIN["browsers"] is not None:
            os.sched_setaffinity(0, PIN["browsers"])  # this thread: its driver and chromium inherit it
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            try:
                own = Own(session_text(index), session_letters(index))
                page = browser.new_page(viewport=VIEWPORT)
                page.add_init_script(WS_TAP)  # the recorder's report reads the websocket's messages
                session = Session(page, own, others)
                with OPENING:
                    session.open(url)
                    session.settle_input()
                page.evaluate(RECORDER)
                c_values = own.c_values(steps, after=current_c(page))
                wait(start)
                for step in range(steps):
                    if session.title not in NO_C:
                        c = c_values[step]
                        shows = SHOWS_C.get(session.title, "C = {:.6g}.").format(c)
                        timed(outcome, outcome.c_trips, "C change", page, "keydown", lambda c=c: session.press_c(c), shows)
                        session.settle_c()
                        time.sleep(think)  # a user's pause (0 by default: as much load as they can make)
                    title = TOUR[(step + index) % len(TOUR)]
                    timed(outcome, outcome.switches, "page switch", page, "pointerup",
                          lambda title=title: session.click_page(title), SHOWS_PAGE[title])
                    session.settle_page()
                    time.sleep(think)
                session.watched.assert_clean()
            except Exception:  # noqa: BLE001 - reported with the results, not raised in a thread
                outcome.errors.append(f"session {index}:\n" + traceback.format_exc(limit=8))
            finally:
                if session is not None:
                    outcome.path_checks, outcome.labels = session.path_checks, session.labels
                wait(start)
                wait(end)
                release.wait(timeout=3600)
                browser.close()
    except Exception:  # noqa: BLE001
        outcome.errors.append(f"session {index}:\n" + traceback.format_exc(limit=8))
    finally:
        for gate in (start, end):
            if gate not in passed:
                gate.abort()


def run_sessions(indices: list[int], url: str, steps: int, think: float, server_pid: int) -> tuple[list[Outcome], dict]:
    """Run the sessions at once. CPU shares and the server's script runs are taken over the window
    from their common start to the last one done."""
    keys = {index: Own(session_text(index), session_letters(index)).key for index in indices}
    start, end, release = threading.Barrier(len(indices) + 1), threading.Barrier(len(indices) + 1), threading.Event()
    outcomes = [Outcome(index) for index in indices]
    threads = [
        threading.Thread(
            target=drive,
            args=(index, url, steps, think, frozenset(keys.values()) - {keys[index]}, (start, end, release), outcome),
        )
        for index, outcome in zip(indices, outcomes)
    ]
    for thread in threads:
        thread.start()
    window = {}
    try:
        start.wait(timeout=3600)
        before, runs_before, dots_before = cpu_snapshot(server_pid), len(logged_ms("bench-run")), len(logged_ms("bench-dot"))
        end.wait(timeout=7200)
        window = cpu_shares(before, cpu_snapshot(server_pid))
        window["runs"], window["dots"] = logged_ms("bench-run")[runs_before:], logged_ms("bench-dot")[dots_before:]
    except threading.BrokenBarrierError:
        pass
    finally:
        release.set()
        for thread in threads:
            thread.join()
    return outcomes, window


SERVER_LOG_PATH: dict[str, Path] = {}  # "path": our server's log (not bench_browser's SERVER_LOG: see main)


def logged_ms(tag: str) -> list[float]:
    """The milliseconds of every ``[tag] <ms> ms`` record in our server's log so far: ``bench-run``
    (bench_browser's SITECUSTOMIZE: a script run), ``bench-dot`` (DOT_HOOK: a `dot` layout).
    Searched, not read line by line: records printed by concurrent runs can share a line."""
    text = SERVER_LOG_PATH["path"].read_text(errors="replace")
    return [float(ms) for ms in re.findall(rf"\[{tag}\] ([0-9.]+) ms", text)]


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (p95 of 20 values is the 19th smallest)."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, math.ceil(len(ordered) * share) - 1))] if ordered else float("nan")


def spread(values: list[float]) -> str:
    """median / p95 in ms."""
    values = [value for value in values if value is not None]
    if not values:
        return "n/a"
    return f"{statistics.median(values):,.0f} / {percentile(values, 0.95):,.0f}"


def load_part(url: str, server_pid: int, args) -> None:
    count = args.sessions
    assert count + 2 <= MAX_SESSIONS, f"at most {MAX_SESSIONS - 2} sessions (two more run alone)"
    print(f"## Load: {count} sessions at once, {args.trips} steps each (C change + page switch), think {args.think} s\n", flush=True)
    runs = {}
    runs["1 alone, before"] = run_sessions([count], url, args.trips, args.think, server_pid)
    runs[f"{count} at once"] = run_sessions(list(range(count)), url, args.trips, args.think, server_pid)
    runs["1 alone, after"] = run_sessions([count + 1], url, args.trips, args.think, server_pid)

    print("C round trip: keydown of Enter in Exact C -> the run is over and the page shows the new C "
          "(bench_browser RECORDER, kind 'rerun'); page switch: pointerup on the menu link -> the run "
          "is over and the page's heading is shown. Times in ms, median / p95.\n")
    print("| sessions | C trips | C round trip | max | painted | keydown -> running | running -> not running "
          "| page switches | page switch | server script runs (n, median / p95) | dot layouts (n, median / p95) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    errors = []
    for name, (outcomes, window) in runs.items():
        c_trips = [t for o in outcomes for t in o.c_trips]
        switches = [t for o in outcomes for t in o.switches]
        errors += [e for o in outcomes for e in o.errors]
        shown = [t["shown"] for t in c_trips]
        script = window.get("runs", [])
        print(
            f"| {name} | {len(c_trips)} | **{spread(shown)}** | {max(shown, default=float('nan')):,.0f} "
            f"| {spread([t['painted'] for t in c_trips])} | {spread([t['to_running'] for t in c_trips])} "
            f"| {spread([t['run'] for t in c_trips])} | {len(switches)} | {spread([t['shown'] for t in switches])} "
            f"| {len(script)}, {spread(script)} | {len(window.get('dots', []))}, {spread(window.get('dots', []))} |"
        )
    print("\nCPU over each window, in cores (CPU seconds / wall seconds, from /proc: utime + stime, plus "
          "cutime + cstime: ended children such as `dot`). Script time / window: how many script runs were "
          "in progress on average (their wall time, not CPU).\n")
    print("| sessions | window | server (streamlit + children) | our chromiums | Playwright drivers + this script "
          "| other processes on the machine | machine busy (of 2 cores) | server script time / window "
          "| server CPU per script run |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, (_, w) in runs.items():
        if not w:
            print(f"| {name} | n/a |||||||")
            continue
        print(
            f"| {name} | {w['wall_s']:.0f} s | {w['server']:.2f} | {w['browsers']:.2f} | {w['drivers'] + w['bench']:.2f} "
            f"| {w['others']:.2f} | {w['machine']:.2f} | {sum(w['runs']) / 1000 / w['wall_s']:.2f} "
            f"| {w['server'] * w['wall_s'] * 1000 / max(len(w['runs']), 1):.0f} ms |"
        )
    outcomes = [o for found, _ in runs.values() for o in found]
    print(f"\nCross-talk checks: {sum(o.path_checks for o in outcomes)} path checks and "
          f"{sum(o.labels for o in outcomes):,} node labels (plus the URL's input id, the text box and the "
          f"playout count at every check); {len(errors)} failures (a wrong view, an exception or a console "
          "error fails its session).")
    for error in errors:
        print("\n```\n" + error.strip() + "\n```")
    print(flush=True)


# --- 2. memory after many uploads ------------------------------------------------------------


def upload_session(browser, url: str, own: Own, path: Path, others: frozenset[str]) -> tuple[Session, dict | None]:
    """A new session uploads ``path``; bench_browser's upload trip (upload -> the count and a new
    picture shown), then the page is checked."""
    page = browser.new_context(viewport=VIEWPORT).new_page()
    page.add_init_script(WS_TAP)
    session = Session(page, own, others)
    session.open(url)
    page.evaluate(RECORDER)
    report = upload_trip(page, path, own.count)
    if report is not None:
        session.settle_input()
    return session, report


def refusal(page, name: str) -> str | None:
    """The message a refused upload shows (the input's error names the file; or the uploader's own)."""
    shown = page.locator('[data-testid="stAlert"]').filter(has_text=name).or_(
        page.locator(".st-key-upload").filter(has_text=re.compile("must be|too large|error", re.IGNORECASE))
    )
    return shown.first.inner_text() if shown.count() else None


def memory_part(url: str, server_pid: int, sampler: RssSampler, tmp: Path, args) -> None:
    count, size = args.sessions, args.upload_playouts
    print(f"## Memory: {count} sessions each upload their own {size:,}-playout log\n", flush=True)
    files, owns = [], []
    for index in range(count):
        path = playout_file(tmp / f"upload_{index}.txt", size + index, seed=500 + index, moves=session_letters(index))
        files.append(path)
        owns.append(Own(path.read_text(), session_letters(index), uploaded=path.name))
    keys = {own.key for own in owns}
    cache_mb = os.environ.get("MCTS_EXPLORER_CACHE_MB", "400 (default)")
    begin = memory_kib(server_pid)
    sampler.reset()
    print(f"Server VmRSS before: {mib(begin['VmRSS'])} (peak so far {mib(begin['VmHWM'])}); input cache bound: "
          f"MCTS_EXPLORER_CACHE_MB = {cache_mb}, at most 8 inputs.\n")
    print("| upload | playouts | file | upload -> tree shown (painted) | server VmRSS after | peak during |")
    print("|---:|---:|---:|---:|---:|---:|")
    sessions, problems = [], []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            for index, (own, path) in enumerate(zip(owns, files)):
                session, report = upload_session(browser, url, own, path, frozenset(keys - {own.key}))
                sessions.append(session)
                if report is None:
                    problems.append(f"upload {index + 1} not shown: {refusal(session.page, path.name)!r}")
                rss = memory_kib(server_pid)["VmRSS"]
                took = f"{report['shown'] / 1000:.2f} s ({report['painted'] / 1000:.2f} s)" if report else "not shown"
                print(f"| {index + 1} | {own.count:,} | {path.stat().st_size / 1e6:.1f} MB | {took} "
                      f"| {mib(rss)} | {mib(sampler.reset())} |", flush=True)
            # Every session again, all at once: a C change, and still its own file, tree and path.
            for session in sessions:
                session.press_c(session.own.c_values(1, after=current_c(session.page))[0])
            for session in sessions:
                session.settle_c()
                session.watched.assert_clean()
            final = memory_kib(server_pid)
            print(f"\nThen a C change in all {count} sessions at once, each checked (its own file, count, "
                  f"nodes and path: {sum(s.path_checks for s in sessions)} path checks, "
                  f"{sum(s.labels for s in sessions):,} labels): VmRSS {mib(final['VmRSS'])}, peak during "
                  f"{mib(max(sampler.reset(), final['VmRSS']))}; VmHWM since the server started {mib(final['VmHWM'])}.")
        finally:
            for session in sessions:
                session.page.context.close()
            browser.close()
    for problem in problems:
        print(f"- {problem}")
    if args.linger:
        # A disconnected session expires after server.disconnectedSessionTTL (120 s by default) but
        # is only removed from Streamlit's session storage on its next write (a new session); the
        # app hands freed memory back to the OS after each new input it loads.
        after_sessions_closed(url, server_pid, f"\n{args.linger:.0f} s after the {count} sessions closed", args)
    print(flush=True)


def after_sessions_closed(url: str, server_pid: int, when: str, args) -> None:
    """Wait ``--linger`` seconds, read the server's RSS, then again after a new session loads a small input."""
    time.sleep(args.linger)
    print(f"{when}: VmRSS {mib(memory_kib(server_pid)['VmRSS'])}.")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            index = MAX_SESSIONS - 1  # letters no other session of this run used
            session = Session(browser.new_page(viewport=VIEWPORT), Own(session_text(index), session_letters(index)))
            session.open(url)
            session.settle_input()
        finally:
            browser.close()
    print(f"Then a new session loads a new small input: VmRSS {mib(memory_kib(server_pid)['VmRSS'])}.")


def same_upload_part(url: str, server_pid: int, sampler: RssSampler, tmp: Path, args) -> None:
    """Several sessions upload the same file one after another (parsed once; what does each add?),
    then close; the server is read again after ``--linger`` seconds and a new small session."""
    count, size = args.same_sessions, args.same_playouts
    path = playout_file(tmp / "same.txt", size, seed=11, moves=session_letters(0))
    own = Own(path.read_text(), session_letters(0), uploaded=path.name)
    _ = own.tree, own.nodes  # built here, before the uploads
    print(f"## Memory: {count} sessions upload the same {size:,}-playout log "
          f"({path.stat().st_size / 2**20:.0f} MiB)\n", flush=True)
    print(f"Server VmRSS before: {mib(memory_kib(server_pid)['VmRSS'])}\n")
    print("| session | upload -> tree shown | server VmRSS after | peak during |")
    print("|---:|---:|---:|---:|")
    sampler.reset()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        sessions = []
        try:
            for index in range(count):
                session, report = upload_session(browser, url, own, path, frozenset())
                sessions.append(session)
                took = f"{report['shown'] / 1000:.2f} s" if report else f"not shown: {refusal(session.page, path.name)!r}"
                print(f"| {index + 1} | {took} | {mib(memory_kib(server_pid)['VmRSS'])} | {mib(sampler.reset())} |",
                      flush=True)
            for session in sessions:
                session.watched.assert_clean()
        finally:
            for session in sessions:
                session.page.context.close()
            browser.close()
    print(f"\nRight after the {count} sessions closed: VmRSS {mib(memory_kib(server_pid)['VmRSS'])}.")
    if args.linger:  # past server.disconnectedSessionTTL: the sessions' uploads can go
        after_sessions_closed(url, server_pid, f"{args.linger:.0f} s later", args)
    print(flush=True)


def big_part(url: str, server_pid: int, sampler: RssSampler, tmp: Path, args) -> None:
    size = args.big
    print(f"## A {size:,}-playout upload\n", flush=True)
    path = playout_file(tmp / "big.txt", size, seed=7, moves=session_letters(0))
    own = Own(path.read_text(), session_letters(0), uploaded=path.name)
    _ = own.tree, own.nodes  # built here, before the upload
    before = memory_kib(server_pid)["VmRSS"]
    sampler.reset()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            page = browser.new_page(viewport=VIEWPORT)
            page.add_init_script(WS_TAP)
            session = Session(page, own)
            session.open(url)
            page.evaluate(RECORDER)
            report = upload_trip(page, path, own.count)
            if report is None:
                print(f"Not shown within 600 s; the page says: {refusal(page, path.name)!r}; VmRSS "
                      f"{mib(memory_kib(server_pid)['VmRSS'])}, peak {mib(sampler.reset())}")
                return
            session.settle_input()
            after = memory_kib(server_pid)["VmRSS"]
            peak = sampler.reset()
            outcome = Outcome(0)
            c = own.c_values(1, after=current_c(page))[0]
            timed(outcome, outcome.c_trips, "C change", page, "keydown", lambda: session.press_c(c), f"C = {c:.6g}.")
            session.settle_c()
            session.watched.assert_clean()
            c_trip = f"{outcome.c_trips[0]['shown']:,.0f} ms" if outcome.c_trips else "; ".join(outcome.errors)
            print(f"| file | upload -> tree shown (painted) | server VmRSS before / after | peak during | C round trip at {size:,} |")
            print("|---:|---:|---:|---:|---:|")
            print(f"| {path.stat().st_size / 1e6:.1f} MB | {report['shown'] / 1000:.1f} s ({report['painted'] / 1000:.1f} s) "
                  f"| {mib(before)} / {mib(after)} | {mib(peak)} | {c_trip} |")
        finally:
            browser.close()
    print(flush=True)


# --- 4. reliability: hostile inputs, bundles and links; names and inputs across sessions ------------


def _app_session(query: dict[str, str] | None = None):
    """A fresh session of app.py in this process (Streamlit's AppTest), after its first run."""
    from streamlit.testing.v1 import AppTest
    from streamlit.testing.v1 import app_test as app_test_module

    from bench.harness.apptest import NavigationPagesManager

    app_test_module.PagesManager = NavigationPagesManager
    app = AppTest.from_file(str(REPO / "app.py"), default_timeout=300)
    if query:
        app.query_params = dict(query)
    app.run()
    return app


def _said(app) -> list[str]:
    """Every error and warning the session shows (page and sidebar)."""
    return [element.value for kind in ("error", "warning") for element in getattr(app, kind)] + [
        element.value for kind in ("error", "warning") for element in getattr(app.sidebar, kind)]


def _probe(cases, open_case) -> tuple[int, int, list[str]]:
    """(uncaught exceptions, cases refused with a sentence, the exceptions' first lines)."""
    exceptions, refused, shown = 0, 0, []
    for name, case in cases:
        try:
            app = open_case(name, case)
        except Exception as error:  # noqa: BLE001 - the probe counts what escaped the app
            exceptions += 1
            shown.append(f"{name}: {type(error).__name__}: {str(error)[:120]}")
            continue
        if app.exception:
            exceptions += 1
            shown.append(f"{name}: {app.exception[0].value[:160]}")
        refused += bool(_said(app))
    return exceptions, refused, shown


def _upload(name: str, data: bytes):
    app = _app_session()
    app.file_uploader(key="upload").set_value((name, data, "application/octet-stream")).run()
    return app


def reliability_part(args) -> None:
    """Hostile inputs, bundles and links, each in a fresh session: no uncaught exception, a sentence
    instead; then sessions with their own inputs and file names interleaved: no cross-talk."""
    import hostile_cases
    from mcts_core import Scoring, build_tree, parse_playouts, selected_nodes
    from mcts_core.inputs import input_id

    print("## Reliability (in-process sessions: Streamlit's AppTest, the Explorer page)\n", flush=True)
    print("| probe | cases | uncaught exceptions | refused with a sentence |")
    print("|---|---:|---:|---:|")
    probes = [
        ("malformed JSON inputs (uploaded)", hostile_cases.malformed_json(),
         lambda name, data: _upload("case.jsonl" if data.startswith(b'{"mcts_log') else "case.json", data)),
        ("malformed bundles (uploaded)", hostile_cases.malformed_bundles(), lambda name, data: _upload("case.zip", data)),
        ("crafted links", hostile_cases.crafted_links(), lambda name, query: _app_session(query)),
    ]
    failures = []
    for title, cases, open_case in probes:
        started = time.monotonic()
        exceptions, refused, shown = _probe(cases, open_case)
        failures += shown
        print(f"| {title} | {len(cases)} | **{exceptions}** | {refused} | ({time.monotonic() - started:.0f} s)", flush=True)
    for line in failures:
        print(f"- {line}")

    count = args.sessions
    texts = ["".join(f"{letters[j % len(letters)]}{letters[(j * 7 + i) % len(letters)]} {(j * 37 + i) % 101}\n"
                     for j in range(400 + i)) for i, letters in enumerate(session_letters(i) for i in range(count))]
    sessions = [_upload(f"user{i}_file.txt", text.encode()) for i, text in enumerate(texts)]
    same = [_upload(f"same_bytes_user{i}.txt", texts[0].encode()) for i in range(2)]  # one input, two names
    crosstalk = []
    for round_number in range(3):
        for i, app in enumerate(sessions + same):
            own = texts[i] if i < count else texts[0]
            name = f"user{i}_file.txt" if i < count else f"same_bytes_user{i - count}.txt"
            app.text_input(key="c_exact").input(repr(0.5 + round_number + i / 10)).run()
            c = app.session_state["c"]
            expected = build_tree(parse_playouts(own))
            path = expected.path(selected_nodes(expected, Scoring(c=c))[-1])
            sidebar = " ".join(element.value for kind in ("info", "caption") for element in getattr(app.sidebar, kind))
            others = [f"user{j}_file" for j in range(count) if j != i] + [f"same_bytes_user{j}" for j in range(2) if j + count != i]
            if app.exception or app.session_state["_current_input"] != input_id(own.encode()) \
                    or app.session_state["selected_path"] != path or name not in sidebar.replace("\\", "") \
                    or any(other in sidebar.replace("\\", "") for other in others):
                crosstalk.append(f"session {i}, round {round_number}: input, path or name not its own")
    print(f"\nCross-talk: {count} sessions with their own inputs and file names, and 2 more uploading session 0's "
          f"bytes under their own names, each moved C 3 times in turn (interleaved) and was checked each time (its "
          f"input id, selected path at its C, its own file name and no other's in the sidebar): "
          f"**{len(crosstalk)} failures**.")
    for line in crosstalk:
        print(f"- {line}")
    print(flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=10, help="sessions at once (load and uploads)")
    parser.add_argument("--trips", type=int, default=12, help="steps per session: a C change (not on Playback) and a page switch")
    parser.add_argument("--think", type=float, default=0.0, help="seconds a session waits after each action")
    parser.add_argument("--upload-playouts", type=int, default=200_000)
    parser.add_argument("--big", type=int, default=2_000_000)
    parser.add_argument("--no-load", action="store_true", help="skip part 1 (sessions at once)")
    parser.add_argument("--no-memory", action="store_true", help="skip part 2 (uploads from every session)")
    parser.add_argument("--no-big", action="store_true", help="skip part 3 (the --big upload)")
    parser.add_argument("--same-sessions", type=int, default=0,
                        help="sessions that upload the same file one after another (part 2b; 0: skip)")
    parser.add_argument("--same-playouts", type=int, default=1_000_000, help="playouts of part 2b's file")
    parser.add_argument("--reliability", action="store_true",
                        help="part 4: hostile inputs, bundles and links, and cross-talk, in-process (no browser)")
    parser.add_argument("--session-ttl", type=int, default=None,
                        help="the server's server.disconnectedSessionTTL in seconds (Streamlit's default: 120)")
    parser.add_argument("--linger", type=float, default=130.0,
                        help="seconds to wait after the upload sessions close before reading RSS again (0: skip)")
    parser.add_argument("--pin", action="store_true",
                        help="the server on CPU 0, the sessions' browsers and drivers on CPU 1 (other processes may use either)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        os.environ["MCTS_EXPLORER_DATA"] = str(tmp / "data")  # the server inherits it
        # bench_browser's timing hook: every script run's wall time in the server log.
        (tmp / "site").mkdir()
        (tmp / "site" / "sitecustomize.py").write_text(SITECUSTOMIZE + DOT_HOOK)
        os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tmp / "site"), os.environ.get("PYTHONPATH")]))
        # Our own name for the log: with bench_browser's SERVER_LOG set, its trip() parses the log
        # line by line, which records printed by concurrent script runs can garble.
        SERVER_LOG_PATH["path"] = tmp / "server.log"
        print(f"load average at start: {os.getloadavg()}", flush=True)
        ttl = () if args.session_ttl is None else ("--server.disconnectedSessionTTL", str(args.session_ttl))
        server, url = start_streamlit(Path("app.py"), tmp / "server.log", cwd=REPO, options=ttl)
        sampler = RssSampler(server.pid)
        sampler.start()
        try:
            print(f"Server pid {server.pid}, VmRSS at start {mib(memory_kib(server.pid)['VmRSS'])}\n", flush=True)
            if args.pin:
                pin_process(server.pid, {0})
                PIN["browsers"] = {1}
                print("Pinned: the server to CPU 0, the browsers and drivers to CPU 1 (other processes: either).\n")
            if not args.no_load:
                load_part(url, server.pid, args)
            if not args.no_memory:
                memory_part(url, server.pid, sampler, tmp, args)
            if args.reliability:
                reliability_part(args)
            if args.same_sessions:
                same_upload_part(url, server.pid, sampler, tmp, args)
            if not args.no_big:
                big_part(url, server.pid, sampler, tmp, args)
            print(f"Server VmHWM (peak RSS over the whole run): {mib(memory_kib(server.pid)['VmHWM'])}")
        finally:
            sampler.stopped.set()
            stop_streamlit(server)
            log = (tmp / "server.log").read_text(errors="replace")
            if "Traceback" in log:
                print("\nThe server logged a traceback:\n```\n" + log[-4000:] + "\n```")


if __name__ == "__main__":
    main()
