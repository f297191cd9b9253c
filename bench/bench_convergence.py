"""The search over time (issue 49): the convergence series of a 2,000,000-playout input, in one pass.

Usage (from the repository root)::

    python bench/bench_convergence.py                    # 2,000,000 playouts, 5 repeats
    python bench/bench_convergence.py --sizes 200000 --repeats 3

The input is bench_core's synthetic puzzle text (seeded, cached in the temp directory: words of
1..49 moves over ``abcdefgh``). Parse + build is timed once (the app has the tree cached by then);
then, repeated and reported as medians: the root's series (``convergence(tree, playouts)``, the
target: <= 2 s at 2,000,000), the same with the rule's selected child per sample (UCB1 at C = 1.4),
and the series of a node two moves down. Also the visits until the choice flips at the root, and
what Playback's search over time adds on a series: its chart rows (six children named, the rest
grouped), the selected child per sample at a new C, both charts built into their Vega-Lite specs
(once per series and C: Altair, its datasets as Arrow bytes), and what each Play step costs them
(``with_k`` on both and the specs' JSON, as Streamlit writes it); the target for the drawing's
Python side is <= 0.3 s.

``--browser``: the drawing, in chromium (``/usr/bin/chromium``) on the app's Playback page with the
input uploaded: for the root as the page opens, the seconds from the moment each chart's element
reaches the page (its delta on the websocket) to its canvas drawn (a canvas added under it); then,
the page at rest each time, a node typed in the Node box: from the box's Enter to both charts drawn (the server's run included) and from the slower chart's delta to its
canvas, medians over the five most visited children of the root (each new to the page: a chart
the page has seen comes as a reference to its cached message, which this does not time).

Nothing here is a test: numbers go into bench/RESULTS.md with the command that produced them.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.bench_core import input_file  # noqa: E402
from mcts_core import ROOT as ROOT_NODE, Scoring, build_tree, parse_playouts  # noqa: E402
from mcts_core.analysis import convergence, selected_over_time, visits_to_flip  # noqa: E402
from ui.charts.convergence_charts import over_time_specs, with_k  # noqa: E402

TARGET = 2.0  # seconds for the series of 2,000,000 playouts (issue 49)


def median_seconds(run, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(count: int, repeats: int) -> dict:
    text = input_file(count, seed=1).read_text()
    start = time.perf_counter()
    playouts = parse_playouts(text)
    tree = build_tree(playouts)
    load = time.perf_counter() - start
    del text
    scoring = Scoring("ucb1", 1.4)
    deep = tree.find(tree.path(tree.ranked_children(tree.ranked_children(ROOT_NODE)[0])[0]))
    series = convergence(tree, playouts)
    grouped = series.grouped()

    def specs() -> tuple[dict, dict]:
        """Both charts' specs, k left out, with the changes of the selected child at a new C."""
        return over_time_specs(grouped, series.change_points(series.most_visited),
                               series.change_points(selected_over_time(tree, series, scoring)), "the root", "mean",
                               "playouts read")

    built = specs()

    def step() -> int:
        """What a Play step adds: both specs at a new k, written as JSON (their data are bytes beside it)."""
        shown = [with_k(spec, count // 2) for spec in built]
        return sum(len(json.dumps({key: value for key, value in spec.items() if key != "datasets"})) +
                   sum(len(data) for data in spec["datasets"].values()) for spec in shown)

    return {
        "playouts": count,
        "nodes": len(tree),
        "samples": len(series.visits),
        "parse + build": load,
        "root series": median_seconds(lambda: convergence(tree, playouts), repeats),
        "root series + selected": median_seconds(lambda: convergence(tree, playouts, scoring=scoring), repeats),
        f"series of {tree.path(deep)!r}": median_seconds(lambda: convergence(tree, playouts, deep), repeats),
        "visits to flip (root)": median_seconds(lambda: visits_to_flip(tree, ROOT_NODE, scoring), repeats),
        "chart rows (grouped)": median_seconds(series.grouped, repeats),
        "selected at a new C": median_seconds(lambda: selected_over_time(tree, series, scoring), repeats),
        "both charts' specs": median_seconds(specs, repeats),
        "a Play step's specs": median_seconds(step, repeats),
        "specs' bytes (JSON + Arrow)": step(),
    }


CHART_KEYS = ("playback_over_time_share", "playback_over_time_value")
# Calls window.chartDrawn(key) once per canvas added under a search-over-time chart.
WATCH_CANVASES = """keys => {
  new MutationObserver(records => {
    for (const record of records) for (const added of record.addedNodes) {
      const canvases = added.nodeName === "CANVAS" ? [added] : added.querySelectorAll ? [...added.querySelectorAll("canvas")] : [];
      for (const canvas of canvases) {
        const key = keys.find(key => canvas.closest(`.st-key-${key}`));
        if (key) window.chartDrawn(key);
      }
    }
  }).observe(document.body, {childList: true, subtree: true});
}"""


def measure_browser(count: int) -> dict:
    """Playback's search over time drawn in chromium for ``count`` playouts (module docstring)."""
    import tempfile

    from playwright.sync_api import sync_playwright
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    from bench.harness.browser import LOAD_TIMEOUT, open_app, wait_settled
    from bench.harness.server import CHROMIUM, CHROMIUM_ARGS, start_streamlit, stop_streamlit

    log = input_file(count, seed=1)
    tree = build_tree(parse_playouts(log.read_text()))
    paths = [tree.path(kid) for kid in tree.ranked_children(ROOT_NODE)[:5]]
    arrived: dict[str, float] = {}
    drawn: dict[str, float] = {}

    def frame(payload) -> None:
        if isinstance(payload, str):
            return
        message = ForwardMsg()
        message.ParseFromString(payload)
        if message.WhichOneof("type") == "delta" and message.delta.new_element.WhichOneof("type") == "vega_lite_chart":
            chart = message.delta.new_element.vega_lite_chart
            key = next((key for key in CHART_KEYS if chart.id.endswith(key)), None)
            if key:
                arrived[key] = time.monotonic()

    def listen(socket) -> None:
        if socket.url.endswith("/_stcore/stream"):
            socket.on("framereceived", frame)

    def until_drawn(page) -> None:
        deadline = time.monotonic() + LOAD_TIMEOUT / 1000
        while len(drawn) < len(CHART_KEYS) and time.monotonic() < deadline:
            page.wait_for_timeout(20)  # a bench may poll: it only reads when the canvases came

    result: dict = {"playouts": count}
    with tempfile.TemporaryDirectory() as folder:
        process, url = start_streamlit(ROOT / "app.py", Path(folder) / "server.log", cwd=ROOT)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={"width": 1366, "height": 768})
                page.on("websocket", listen)
                page.expose_function("chartDrawn", lambda key: drawn.setdefault(key, time.monotonic()))
                open_app(page, url, "/playback")
                page.evaluate(WATCH_CANVASES, list(CHART_KEYS))
                page.locator('.st-key-upload input[type="file"]').set_input_files(log)
                until_drawn(page)
                result["root: delta to drawn (share, value)"] = tuple(drawn[key] - arrived[key] for key in CHART_KEYS)
                wait_settled(page, timeout=LOAD_TIMEOUT * 4)
                box = page.locator(".st-key-playback_over_time_node input")
                switches, draws = [], []
                # Each node new to the page: a chart the page has seen comes as a reference to its cached message.
                for path in paths:
                    wait_settled(page, timeout=LOAD_TIMEOUT * 4)
                    arrived.clear()
                    drawn.clear()
                    box.fill(path)
                    start = time.monotonic()
                    box.press("Enter")
                    until_drawn(page)
                    switches.append(max(drawn.values()) - start)
                    draws.append(max(drawn[key] - arrived[key] for key in CHART_KEYS))
                result[f"nodes {', '.join(paths)}: Enter to both drawn, median"] = statistics.median(switches)
                result["the same: delta to drawn, slower chart, median"] = statistics.median(draws)
                browser.close()
        finally:
            stop_streamlit(process)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="2000000", help="playout counts, comma-separated")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--browser", action="store_true", help="time the drawing in chromium instead")
    args = parser.parse_args()
    for count in (int(size) for size in args.sizes.split(",")):
        if args.browser:
            for name, value in measure_browser(count).items():
                shown = ", ".join(f"{part:.3f} s" for part in value) if isinstance(value, tuple) else (
                    f"{value:.3f} s" if isinstance(value, float) else f"{value:,}")
                print(f"{name:44} {shown}")
            continue
        result = measure(count, args.repeats)
        for name, value in result.items():
            print(f"{name:28} {value:.3f} s" if isinstance(value, float) else f"{name:28} {value:,}")
        if count == 2_000_000:
            verdict = "met" if result["root series"] <= TARGET else f"missed by {result['root series'] - TARGET:.2f} s"
            print(f"target: root series <= {TARGET:g} s at 2,000,000 playouts: {verdict}")


if __name__ == "__main__":
    main()
