"""The browser's work per C commit on the Explorer, from a Chrome trace: one app or several, alternated.

A commit of C reruns the Explorer's fragment and the page re-renders every element in it. This
loads the C-flips example (7 drawn nodes) in Debian's chromium at 1366x768, types eight C values
into Exact C (each waits until the run is over, then 1.5 s), and traces the renderer while it
does: per commit, the renderer main thread's task time (``RunTask``) and, of it, JavaScript
(``FunctionCall``), style and layout, paint. Each directory given is an app (a checkout of this
repository, e.g. a worktree with one element left out); they run in turn, ``--rounds`` times, so
the machine's drift falls on all alike. The spread between rounds of one app is the noise.

    python bench/bench_commit_trace.py [APPDIR ...] [--rounds 2]

Not a timed test: results go to bench/RESULTS.md by hand.
"""

from __future__ import annotations

import argparse
import collections
import statistics
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from playwright.sync_api import sync_playwright  # noqa: E402

from bench.bench_browser import choose_flips_example, type_c  # noqa: E402
from bench.harness.browser import open_app, wait_for_graph, wait_idle  # noqa: E402
from bench.harness.server import CHROMIUM, CHROMIUM_ARGS, start_streamlit, stop_streamlit  # noqa: E402

COMMITTED_CS = (0.7, 3.1, 1.2, 4.4, 0.9, 3.3, 2.0, 4.0)  # the path flips between most of them
CATEGORIES = "devtools.timeline,disabled-by-default-devtools.timeline,v8"
# Trace events (children of a RunTask) summed into each column.
GROUPS = {
    "javascript": ("FunctionCall", "v8.evaluateModule", "EvaluateScript"),
    "style+layout": ("UpdateLayoutTree", "Layout"),
    "paint": ("Paint", "PrePaint", "Layerize", "Commit"),
}


def traced_commits(app: Path) -> list[dict]:
    """Every event the renderer's trace holds while eight C values are typed into ``app``'s Explorer."""
    process, url = start_streamlit(app / "app.py", Path("/tmp") / f"commit_trace_{app.name}.log", cwd=app)
    events: list[dict] = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1366, "height": 768})
            open_app(page, url)
            wait_for_graph(page)
            choose_flips_example(page)  # C = 0.5, its header's
            page.wait_for_timeout(500)
            session = page.context.new_cdp_session(page)
            session.on("Tracing.dataCollected", lambda message: events.extend(message["value"]))
            complete: list[bool] = []
            session.on("Tracing.tracingComplete", lambda _: complete.append(True))
            session.send("Tracing.start", {"categories": CATEGORIES, "transferMode": "ReportEvents"})
            for c in COMMITTED_CS:
                type_c(page, c)()
                wait_idle(page)
                page.wait_for_timeout(1500)
            session.send("Tracing.end")
            while not complete:
                page.wait_for_timeout(100)
            browser.close()
    finally:
        stop_streamlit(process)
    return events


def per_commit(events: list[dict]) -> dict[str, float]:
    """Ms per commit on the renderer's main thread (the thread with the most JavaScript calls)."""
    calls = collections.Counter((e["pid"], e["tid"]) for e in events if e.get("name") == "FunctionCall")
    main = calls.most_common(1)[0][0]
    timed = [e for e in events if (e["pid"], e["tid"]) == main and e.get("ph") == "X" and "dur" in e]
    totals = {"main thread": sum(e["dur"] for e in timed if e["name"] == "RunTask")}
    for group, names in GROUPS.items():
        totals[group] = sum(e["dur"] for e in timed if e["name"] in names)
    return {name: us / 1000 / len(COMMITTED_CS) for name, us in totals.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("apps", nargs="*", type=Path, default=[REPO], help="app directories (default: this checkout)")
    parser.add_argument("--rounds", type=int, default=2, help="times each app is traced, in turn")
    args = parser.parse_args()
    results: dict[Path, list[dict]] = {app: [] for app in args.apps}
    for round_number in range(args.rounds):
        for app in args.apps:
            results[app].append(per_commit(traced_commits(app.resolve())))
            row = results[app][-1]
            print(f"round {round_number + 1} {app}: " + ", ".join(f"{k} {v:.1f} ms" for k, v in row.items()), flush=True)
    print("per commit, median of the rounds (min..max):")
    for app, rows in results.items():
        cells = []
        for name in rows[0]:
            values = [row[name] for row in rows]
            cells.append(f"{name} {statistics.median(values):.1f} ({min(values):.0f}..{max(values):.0f})")
        print(f"  {app}: " + ", ".join(cells), flush=True)


if __name__ == "__main__":
    main()
