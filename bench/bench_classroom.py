"""Benchmark of a live room (issue 37): N students in one room on one server, each a chromium context.

    python bench/bench_classroom.py [--students 40] [--idle-seconds 30] [--students-niced] [--busy 1]

A teacher page (1366x768) opens a room on "A larger C flips the choice"; N student pages (phones,
360x740, one browser context each: each its own student) open the join link. Measured:

1. The server's CPU at rest (``/proc/<pid>/stat``: utime + stime of the streamlit process and its
   children, 10 ms ticks) over ``--idle-seconds``: with the teacher's page alone, then with the N
   students' pages open too, doing nothing (each polls the room: the cost of an idle page).
   Target with 40 students: under a quarter of one core (250 ms of CPU per second).
2. Answer -> count: each student in turn clicks an answer; the time from the click (``Date.now()``
   in the student's page, captured on ``document``) to the teacher's page showing the new count
   (a MutationObserver on the teacher's document, ``Date.now()``). Target p95 <= 2 s.
3. Reveal -> verdicts: the teacher clicks Reveal; the time from that click to each student's page
   saying "right" or "wrong" (a MutationObserver in each). Target p95 <= 3 s.

``--busy N`` runs N ``python -c "while 1: pass"`` beside it from start to end (default 1: with the
server and the pages, a load of about 2 on 2 cores, as a shared machine has). Every student joins
from this machine, one address to the room store, which adds at most ``JOINS_PER_MINUTE`` (60) new
students a minute from an address: ``--students`` is at most that, so all join within the limit.

All pages run on this machine, beside the server: N pages of chromium take CPU a classroom's own
devices would give. ``--students-niced``: the students' chromium runs at nice 19 under SCHED_IDLE
(it gets only CPU the server and the teacher's page leave), as devices of their own would.
Results go to bench/RESULTS.md with this command and the machine's load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from bench_browser import cpu_seconds, families, family, processes, renice  # noqa: E402
from bench.harness.browser import open_app, wait_idle  # noqa: E402
from bench.harness.server import CHROMIUM, CHROMIUM_ARGS, start_streamlit, stop_streamlit  # noqa: E402
from mcts_core.classroom import JOINS_PER_MINUTE  # noqa: E402

COUNT = ".st-key-room_count"
EXACT = ".st-key-c_exact input"
TIMEOUT = 120_000  # ms: 40 pages opening on 2 busy cores

# Loaded by this benchmark's server only (PYTHONPATH), not app code: every script run's session, wall
# time, thread CPU time, post-run gc.collect (CPU) and end (epoch) in the server log.
SITECUSTOMIZE = """\
import gc, time
import streamlit.runtime.scriptrunner.script_runner as _sr

_original = _sr.ScriptRunner._run_script


class _TimedGC:  # script_runner's gc module (gc.collect(2) after each run), timed

    last = 0.0

    def __getattr__(self, name):
        return getattr(gc, name)

    def collect(self, *args):
        start = time.thread_time()
        try:
            return gc.collect(*args)
        finally:
            _TimedGC.last = (time.thread_time() - start) * 1000


_sr.gc = _TimedGC()


def _timed(self, rerun_data):
    fragment = bool(rerun_data.fragment_id_queue or rerun_data.fragment_id)
    _TimedGC.last = 0.0
    wall, cpu = time.perf_counter(), time.thread_time()
    try:
        return _original(self, rerun_data)
    finally:
        print(f"[bench-run] {self._session_id} {(time.perf_counter() - wall) * 1000:.1f} "
              f"{(time.thread_time() - cpu) * 1000:.2f} {_TimedGC.last:.2f} {int(fragment)} {time.time():.3f}", flush=True)


_sr.ScriptRunner._run_script = _timed
"""

# In the teacher's page: every text the count shows, with the time it first showed it.
WATCH_COUNT = """() => {
    window.__counts = [];
    const read = () => {
        const text = document.querySelector('.st-key-room_count')?.textContent.trim();
        if (text && (window.__counts.length === 0 || window.__counts.at(-1)[1] !== text)) window.__counts.push([Date.now(), text]);
    };
    new MutationObserver(read).observe(document.body, {subtree: true, childList: true, characterData: true});
    read();
}"""
# In any page: the time of the last click (captured first, before the app sees it).
WATCH_CLICK = """() => { document.addEventListener('click', () => { window.__clickAt = Date.now(); }, true); }"""
# In a student's page: when it first says "right" or "wrong" about its answer.
WATCH_VERDICT = """() => {
    window.__verdictAt = null;
    const read = () => {
        if (window.__verdictAt === null && /\\bis (right|wrong)\\b|You did not answer/.test(document.body.innerText)) window.__verdictAt = Date.now();
    };
    new MutationObserver(read).observe(document.body, {subtree: true, childList: true, characterData: true});
}"""


def server_cores(pid: int, seconds: float) -> float:
    """The server's CPU over ``seconds`` of wall time, in cores (1.0: one core all the time)."""
    before, start = cpu_seconds(pid)[0], time.monotonic()
    time.sleep(seconds)  # a benchmark's measuring window, not a test's wait
    return (cpu_seconds(pid)[0] - before) / (time.monotonic() - start)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered) + 0.5) - 1))]


def summary(values: list[float]) -> str:
    return (f"median {statistics.median(values):.2f} s, p95 {percentile(values, 0.95):.2f} s, "
            f"max {max(values):.2f} s ({len(values)} samples)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--students", type=int, default=40)
    parser.add_argument("--idle-seconds", type=float, default=30.0)
    parser.add_argument("--students-niced", action="store_true")
    parser.add_argument("--busy", type=int, default=1, help="busy loops beside the benchmark (the machine's other load)")
    args = parser.parse_args()
    if args.students > JOINS_PER_MINUTE:
        parser.error(f"--students: at most {JOINS_PER_MINUTE}, the new students a room takes from one address a minute")
    busy = [subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(args.busy)]
    try:
        measure(args)
    finally:
        for loop in busy:
            loop.terminate()
            loop.wait()


def measure(args: argparse.Namespace) -> None:
    os.environ["MCTS_EXPLORER_DATA"] = tempfile.mkdtemp(prefix="bench_classroom_")
    # Every script run's wall time and its post-run gc in the server log (bench_browser's sitecustomize).
    site = Path(tempfile.mkdtemp(prefix="bench_classroom_site_"))
    (site / "sitecustomize.py").write_text(SITECUSTOMIZE)
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))
    log = site / "server.log"
    print(f"date {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average at start "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}, {os.cpu_count()} cores, {args.busy} busy loop(s) beside it",
          flush=True)
    process, url = start_streamlit(Path("app.py"), log, cwd=REPO)
    try:
        with sync_playwright() as playwright:
            def launch():
                return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)

            teacher_browser = launch()
            teacher = teacher_browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
            open_app(teacher, url, "/classroom")
            teacher.locator(".st-key-example").click()
            teacher.get_by_role("option", name="A larger C flips the choice").click()
            expect(teacher.locator(EXACT)).to_have_value("0.5")
            wait_idle(teacher)
            teacher.get_by_role("button", name="Open a live room").click()
            expect(teacher.locator(COUNT)).to_have_text("No one has joined yet", timeout=TIMEOUT)
            link = teacher.url
            time.sleep(3)  # let the opening runs end before the window
            alone = server_cores(process.pid, args.idle_seconds)
            print(f"idle, teacher alone: server {alone * 1000:.0f} ms CPU/s", flush=True)

            before = family(os.getpid(), processes())
            students_browser = launch()
            started = time.monotonic()
            students = []
            for _ in range(args.students):
                page = students_browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True).new_page()
                page.goto(link, wait_until="commit")
                students.append(page)
            if args.students_niced:
                found = processes()
                launched = family(os.getpid(), found) - before
                renice(families({pid for pid in launched if found[pid][0] not in launched}), 19, idle=True)
            for page in students:
                expect(page.get_by_role("button", name="a", exact=True)).to_be_visible(timeout=TIMEOUT)
            expect(teacher.locator(COUNT)).to_have_text(f"0 of {args.students} answered", timeout=TIMEOUT)
            print(f"{args.students} students joined in {time.monotonic() - started:.0f} s", flush=True)
            time.sleep(3)
            chromium_pids = {students_browser_pid for students_browser_pid in family(os.getpid(), processes()) - before}
            chromium_before = sum(cpu_seconds(*chromium_pids))
            window = time.monotonic()
            logged = len(log.read_text().splitlines())
            busy = server_cores(process.pid, args.idle_seconds)
            runs = [line.split()[1:] for line in log.read_text().splitlines()[logged:] if line.startswith("[bench-run]")]
            polls = [run for run in runs if run[4] == "1"]
            print(f"  {len(polls)} fragment runs ({len(polls) / args.idle_seconds:.1f}/s), "
                  f"{len(runs) - len(polls)} full runs; a fragment run: wall time median "
                  f"{statistics.median(float(run[1]) for run in polls):.1f} ms, its thread's CPU "
                  f"{statistics.median(float(run[2]) for run in polls):.1f} ms, of which the post-run gc.collect "
                  f"{statistics.median(float(run[3]) for run in polls):.1f} ms", flush=True)
            chromium = (sum(cpu_seconds(*chromium_pids)) - chromium_before) / (time.monotonic() - window)
            print(f"idle, {args.students} students: server {busy * 1000:.0f} ms CPU/s "
                  f"({(busy - alone) / args.students * 1000:.1f} ms/s per student page); "
                  f"the students' chromium {chromium * 1000:.0f} ms CPU/s", flush=True)

            teacher.evaluate(WATCH_COUNT)
            teacher.evaluate(WATCH_CLICK)
            latencies = []
            for index, page in enumerate(students):
                page.evaluate(WATCH_CLICK)
                page.evaluate(WATCH_VERDICT)
                page.get_by_role("button", name="a" if index % 3 else "b", exact=True).click()
                wanted = f"{index + 1} of {args.students} answered"
                expect(teacher.locator(COUNT)).to_have_text(wanted, timeout=TIMEOUT)
                clicked = page.evaluate("window.__clickAt")
                shown = next(at for at, text in teacher.evaluate("window.__counts") if text == wanted)
                latencies.append((shown - clicked) / 1000)
            print(f"answer -> teacher's count: {summary(latencies)}", flush=True)

            teacher_session = next(line.split()[1] for line in log.read_text().splitlines() if line.startswith("[bench-run]"))
            teacher.get_by_role("button", name="Reveal").click()
            revealed = teacher.evaluate("window.__clickAt")
            verdicts = []
            for page in students:
                expect(page.get_by_text("is right").or_(page.get_by_text("is wrong")).first).to_be_visible(timeout=TIMEOUT)
                verdicts.append((page.evaluate("window.__verdictAt") - revealed) / 1000)
            print(f"reveal -> every student's verdict: {summary(verdicts)}", flush=True)
            # The server's part: each student's session's first run that ended after the click (its
            # poll that sent the verdict); the rest is the page getting and drawing it.
            ended: dict[str, float] = {}
            for line in log.read_text().splitlines():
                if line.startswith("[bench-run]"):
                    _, session, *_, end = line.split()
                    if session != teacher_session and float(end) * 1000 > revealed and session not in ended:
                        ended[session] = float(end) - revealed / 1000
            print(f"  reveal -> the server's run with the verdict over, per student: {summary(list(ended.values()))}", flush=True)
            print(f"load average at end {' '.join(f'{x:.1f}' for x in os.getloadavg())}", flush=True)
            students_browser.close()
            teacher_browser.close()
    finally:
        stop_streamlit(process)


if __name__ == "__main__":
    main()
