"""Browser benchmarks in Debian's chromium: slider round trip vs a bare app, and upload-to-tree time.

1. Slider round trip: focus the C slider, press ArrowRight, time (in the page, performance.now(),
   from a MutationObserver) from the keydown to the first DOM update after which the main area's
   text differs from before the key (the C-dependent caption/metric/table) and Streamlit's script
   state is ``notRunning``. It does not include the browser's graphviz re-layout of the SVG. Our app (statement example, then a 20k-playout upload) and a bare
   one-slider app written to a temp dir are measured in the same run, interleaved.
   Target: our app at most 1.5x the bare app's median.
2. Upload to tree: ``set_input_files`` on the uploader with a 20k-playout log (target < 3 s) and a
   200k-playout log, until the Playouts metric shows the count and the capped tree is drawn
   (a "+k more" fold node is in the SVG); then check that the slider still works at 200k.

    python bench/bench_browser.py [--rounds 15] [--uploads 3]

Not a timed test: results go to bench/RESULTS.md by hand.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.browser.server import CHROMIUM, CHROMIUM_ARGS, start_streamlit, stop_streamlit  # noqa: E402

BARE_APP = '''\
import streamlit as st

c = st.sidebar.slider("C", 0.0, 10.0, 1.0, step=0.01, key="c")  # in the sidebar, like ours
st.metric("C", f"{c:.2f}")
'''

RECORDER = """() => {
    const app = document.querySelector('[data-testid="stApp"]');
    const main = () => document.querySelector('[data-testid="stMain"]').textContent;
    window.__states = [];
    window.__trip = null;
    document.addEventListener('keydown', () => {
        window.__trip = {start: performance.now(), before: main(), done: null};
    }, true);
    new MutationObserver(() => {
        window.__states.push([performance.now(), app.getAttribute('data-test-script-state')]);
    }).observe(app, {attributes: true, attributeFilter: ['data-test-script-state']});
    // A rerun is over when the page text differs from before the key and the script is not running.
    // (A fast rerun's running/notRunning can be coalesced into one React commit: no state mutation.)
    new MutationObserver(() => {
        const trip = window.__trip;
        if (trip === null || trip.done !== null) return;
        if (app.getAttribute('data-test-script-state') === 'notRunning' && main() !== trip.before) {
            trip.done = performance.now();
        }
    }).observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
}"""

# Milliseconds from `since` to the first notRunning that follows a running state (null if none seen).
RERUN_DONE = """(since) => {
    let running = false;
    for (const [t, state] of window.__states) {
        if (t < since) continue;
        if (state === 'running') running = true;
        else if (running && state === 'notRunning') return t - since;
    }
    return null;
}"""


def playout_file(path: Path, count: int, *, seed: int) -> Path:
    """Header-less random playouts: words of 1..49 moves over abcdefgh, decimal scores."""
    rng = random.Random(seed)
    with path.open("w") as out:
        for _ in range(count):
            out.write(f"{''.join(rng.choices('abcdefgh', k=rng.randint(1, 49)))} {rng.uniform(0, 100):.3f}\n")
    return path


FRAMES: dict = {}  # page -> [frames, bytes] received on the websocket since the last reset


def open_page(browser, url: str) -> Page:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    FRAMES[page] = [0, 0]

    def count(frame) -> None:
        FRAMES[page][0] += 1
        FRAMES[page][1] += len(frame)

    page.on("websocket", lambda socket: socket.on("framereceived", count))
    page.goto(url)
    wait_idle(page)
    page.evaluate(RECORDER)
    return page


def wait_idle(page: Page, timeout: float = 120_000) -> None:
    page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]', timeout=timeout)
    page.wait_for_selector('[data-testid="stSlider"]', timeout=timeout)


def slider_round_trip(page: Page) -> float:
    """Milliseconds from an ArrowRight on the focused C slider until the rerun it causes is shown."""
    page.bring_to_front()
    page.evaluate("() => { window.__trip = null; }")
    FRAMES[page][:] = [0, 0]
    page.locator(".st-key-c input[type=range]").focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => window.__trip !== null && window.__trip.done !== null", polling=20, timeout=60_000)
    trip = page.evaluate(
        """() => {
            const t = window.__trip;
            const running = window.__states.find(([time, state]) => time >= t.start && state === 'running');
            return {total: t.done - t.start, to_running: running ? running[0] - t.start : null};
        }"""
    )
    SPLITS.setdefault(page, []).append(trip["to_running"])
    WIRE.setdefault(page, []).append(tuple(FRAMES[page]))
    return trip["total"]


WIRE: dict = {}  # page -> (frames, bytes) received per round trip
SPLITS: dict = {}  # page -> ms from the keydown to the "running" state (None when it was not rendered)


def split_note(page: Page) -> str:
    seen = [value for value in SPLITS.get(page, []) if value is not None]
    if not seen:
        return "running state never rendered (rerun shorter than a frame)"  # pragma: no cover
    frames = statistics.median(f for f, _ in WIRE[page])
    size = statistics.median(b for _, b in WIRE[page])
    return (
        f"keydown -> running state shown: median {statistics.median(seen):.0f} ms ({len(seen)} of "
        f"{len(SPLITS[page])} trips); websocket per trip: {frames:.0f} frames, {size / 1000:.1f} kB"
    )


def upload_to_tree(page: Page, log: Path, count: int) -> dict:
    """Seconds from set_input_files to the metric and the capped tree being drawn."""
    page.bring_to_front()
    start = page.evaluate("() => { window.__states = []; return performance.now(); }")
    wall = time.perf_counter()
    page.locator('.st-key-upload input[type="file"]').set_input_files(log)
    expected = f"{count:,}"
    page.wait_for_function(
        """(expected) => {
            const values = [...document.querySelectorAll('[data-testid="stMetricValue"]')].map(e => e.textContent.trim());
            const titles = [...document.querySelectorAll('[data-testid="stGraphVizChart"] svg g.node title')]
                .map(t => t.textContent);
            return values.includes(expected) && titles.some(t => t.startsWith('more'));
        }""",
        arg=expected,
        polling=20,
        timeout=180_000,
    )
    drawn = page.evaluate("() => performance.now()")
    script_done = page.evaluate(RERUN_DONE, start)
    return {
        "tree_s": (drawn - start) / 1000,
        "wall_s": time.perf_counter() - wall,
        "script_done_s": None if script_done is None else script_done / 1000,
        "nodes": page.locator('[data-testid="stGraphVizChart"] svg g.node').count(),
    }


def interleaved_trips(ours: Page, bare: Page, rounds: int) -> tuple[list[float], list[float]]:
    """Slider round trips on both pages, alternating trip by trip after one warm-up each."""
    for page in (ours, bare):
        slider_round_trip(page)
    times = [], []
    for _ in range(rounds):
        times[0].append(slider_round_trip(ours))
        times[1].append(slider_round_trip(bare))
    return times


def median_ms(values: list[float]) -> str:
    return f"{statistics.median(values):.0f} ms (min {min(values):.0f}, max {max(values):.0f}, n={len(values)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15, help="interleaved slider round trips per app")
    parser.add_argument("--uploads", type=int, default=3, help="20k-playout uploads to time")
    parser.add_argument("--no-200k", action="store_true")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        (tmp / "bare").mkdir()
        (tmp / "bare" / "bare_app.py").write_text(BARE_APP)
        ours, ours_url = start_streamlit(Path("app.py"), tmp / "ours.log", cwd=REPO)
        bare, bare_url = start_streamlit(Path("bare_app.py"), tmp / "bare.log", cwd=tmp / "bare")
        log_20k = [playout_file(tmp / f"p20k_{seed}.txt", 20_000, seed=seed) for seed in range(args.uploads)]
        log_200k = None if args.no_200k else playout_file(tmp / "p200k.txt", 200_000, seed=99)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
                # 1. Slider round trips, interleaved: ours (statement example), bare.
                our_page, bare_page = open_page(browser, ours_url), open_page(browser, bare_url)
                times = dict(zip(("ours", "bare"), interleaved_trips(our_page, bare_page, args.rounds)))
                print(f"slider round trip, our app (statement example): {median_ms(times['ours'])}; {split_note(our_page)}")
                print(f"slider round trip, bare one-slider app:         {median_ms(times['bare'])}; {split_note(bare_page)}")
                ratio = statistics.median(times["ours"]) / statistics.median(times["bare"])
                print(f"ratio ours/bare: {ratio:.2f}x (target <= 1.5x)", flush=True)

                # 2. Uploads of 20k playouts, each in a fresh session (a new file id: parsed again).
                uploads = []
                for index, log in enumerate(log_20k):
                    page = open_page(browser, ours_url)
                    result = upload_to_tree(page, log, 20_000)
                    uploads.append(result)
                    print(
                        f"upload 20k #{index + 1}: tree drawn after {result['tree_s']:.2f} s "
                        f"(script run over after {result['script_done_s']}; {result['nodes']} svg nodes)",
                        flush=True,
                    )
                    if index == 0:
                        # Slider round trips on the 20k tree, interleaved with the bare app again.
                        times["ours_20k"], times["bare_20k"] = interleaved_trips(page, bare_page, args.rounds)
                        print(f"slider round trip, our app with 20k playouts: {median_ms(times['ours_20k'])}; {split_note(page)}")
                        print(f"slider round trip, bare app (same rounds):    {median_ms(times['bare_20k'])}")
                        ratio20 = statistics.median(times["ours_20k"]) / statistics.median(times["bare_20k"])
                        print(f"ratio ours(20k)/bare: {ratio20:.2f}x", flush=True)
                    page.close()
                print(f"upload 20k -> tree: median {statistics.median(r['tree_s'] for r in uploads):.2f} s (target < 3 s)")

                # 3. 200k playouts: upload to tree, then the slider still works.
                if log_200k is not None:
                    page = open_page(browser, ours_url)
                    result = upload_to_tree(page, log_200k, 200_000)
                    print(
                        f"upload 200k: tree drawn after {result['tree_s']:.2f} s "
                        f"(script run over after {result['script_done_s']}; {result['nodes']} svg nodes)"
                    )
                    before = page.locator(".st-key-c_exact input").input_value()
                    trips = [slider_round_trip(page) for _ in range(5)]
                    after = page.locator(".st-key-c_exact input").input_value()
                    print(f"slider at 200k: {median_ms(trips)}; Exact C {before} -> {after}")
                    page.screenshot(path=str(REPO / "test-output" / "bench_200k.png"), full_page=True)
                browser.close()
        finally:
            stop_streamlit(ours)
            stop_streamlit(bare)


if __name__ == "__main__":
    main()
