"""Helpers for driving the Streamlit app in chromium: wait for runs, read the graph, metrics, table."""

from __future__ import annotations

import json
import random
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from mcts_core import Scoring, build_tree, parse_playouts, selected_nodes
from mcts_core.drawing.tagged_svg import path_json

GRAPH = "div.tv-root"  # the tree picture (a custom component; Playwright's CSS reaches into its shadow root)
SLIDER = ".st-key-c input[type=range]"
REPO = Path(__file__).resolve().parents[2]
TABLE_CELLS = ".st-key-children_table table.tt-table"  # the Explorer's children (a custom component)
LOAD_TIMEOUT = 60_000  # ms: a cold first run imports pandas, graphviz and the WASM layout
EXCEPTION = '[data-testid="stException"]'  # a traceback box (a Python exception in the script)
COMPONENT_ERROR = '[data-testid="stErrorElementStack"]'  # a component that failed in the browser


@dataclass
class Watched:
    """A page plus what went wrong in it: console errors and uncaught exceptions; and the console's
    warnings apart (a newcomer with DevTools open sees them too; the every-input tour fails on them)."""

    page: Page
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def assert_clean(self) -> None:
        """No console errors, no uncaught page errors, no Streamlit exception box, no component that
        failed in the browser (Streamlit shows its error and stack in place of the component)."""
        assert not self.errors, "console errors:\n" + "\n".join(self.errors)
        expect(self.page.locator(f"{EXCEPTION}, {COMPONENT_ERROR}")).to_have_count(0)


def _base_path_probe(url: str) -> bool:
    """Streamlit's frontend, opened on a page URL like /playback, first probes /playback/_stcore/...

    (in case the app is served under that path prefix), gets a 404, then uses the root. Those 404s
    (and their console lines) are Streamlit's, not the app's: no option silences them (streamlit#7074,
    open; Streamlit calls them expected). Only a ``window.__streamlit.MAIN_PAGE_BASE_URL`` set in the
    index.html the server sends would (streamlit#11537), and Streamlit serves that file as it is; a
    route answering 200 there would make the page's own path the base path.
    """
    path = urlparse(url).path
    return path.endswith(("/_stcore/health", "/_stcore/host-config")) and not path.startswith("/_stcore/")


def watch(page: Page) -> Watched:
    watched = Watched(page)
    def console(msg) -> None:
        where = msg.location.get("url") or ""
        if _base_path_probe(where):
            return
        if msg.type == "error":
            watched.errors.append(f"console: {msg.text} at {where}")
        elif msg.type == "warning":
            watched.warnings.append(f"console warning: {msg.text} at {where}")

    page.on("console", console)
    page.on(
        "response",
        lambda response: watched.errors.append(f"HTTP {response.status}: {response.url}")
        if response.status >= 400 and not _base_path_probe(response.url)
        else None,
    )
    page.on("pageerror", lambda error: watched.errors.append(f"pageerror: {error}"))
    return watched


READABILITY = """() => {
    const main = document.querySelector('[data-testid="stMain"]');
    const shown = (e) => e.offsetParent !== null;
    // Cut: its text (any element inside) is wider than the room it has (Streamlit ends it with "…").
    const cut = (e) => [e, ...e.querySelectorAll('*')].some(x => x.clientWidth > 0 && x.scrollWidth > x.clientWidth + 1);
    const text = (e) => e.innerText.trim();
    const buttons = [...main.querySelectorAll('button')].filter(shown);
    // Metrics drawn by our components (ui/c/live_text.js) sit in their shadow roots, with the same test ids.
    const roots = [main, ...[...main.querySelectorAll('*')].filter(e => e.shadowRoot).map(e => e.shadowRoot)];
    const all = (selector) => roots.flatMap(root => [...root.querySelectorAll(selector)]);
    return {
        scroll: main.scrollWidth - main.clientWidth,
        buttons: buttons.filter(cut).map(text),
        metrics: all('[data-testid="stMetricValue"]').filter(cut).map(text),
        labels: all('[data-testid="stMetricLabel"]').filter(shown).filter(cut).map(text),
        // Squeezed into a column of letters (one line of a button is about 40 px).
        tall: buttons.filter(b => b.getBoundingClientRect().height > 60).map(text),
    };
}"""


def cut_off(page: Page) -> list[str]:
    """What a projector's viewer would find hard to read on the page now: a sideways scroll, a cut
    button label, metric value or metric label, a button squeezed into a column of letters (none: [])."""
    found = page.evaluate(READABILITY)
    problems = [f"the page scrolls sideways by {found['scroll']} px"] if found["scroll"] > 1 else []
    problems += [f"cut button label {label!r}" for label in found["buttons"]]
    problems += [f"cut metric value {value!r}" for value in found["metrics"]]
    problems += [f"cut metric label {label!r}" for label in found["labels"]]
    return problems + [f"button squeezed to a column {label!r}" for label in found["tall"]]


def wait_idle(page: Page, timeout: float = LOAD_TIMEOUT) -> None:
    """Connected and the script is not running (Streamlit's own e2e tests wait on these attributes)."""
    app = page.locator('[data-testid="stApp"]')
    expect(app).to_have_attribute("data-test-connection-state", "CONNECTED", timeout=timeout)
    expect(app).to_have_attribute("data-test-script-state", "notRunning", timeout=timeout)


def open_app(page: Page, url: str, path: str = "/") -> Watched:
    """Open a page of the app and wait until its first run is over."""
    watched = watch(page)
    page.goto(url.rstrip("/") + path)
    wait_idle(page)
    wait_rendered(page)
    return watched


# The screens a layout is checked on: a projector's 1366x768 and a desktop's 1920x1080, light and dark.
SCREENS = [(1366, 768, "light"), (1366, 768, "dark"), (1920, 1080, "light"), (1920, 1080, "dark")]


def use_screen(page: Page, width: int, height: int, theme: str) -> None:
    """Show the open page on another screen: its size, and the system theme the app follows (it
    configures none), as a laptop plugged into a projector would. Waits until the app wears the theme."""
    page.set_viewport_size({"width": width, "height": height})
    page.emulate_media(color_scheme=theme)
    expect(page.locator('[data-testid="stApp"]')).to_have_css("color-scheme", theme)


SKELETONS = '[data-testid="stAppSkeleton"], [data-testid="stSkeleton"], [data-testid="stSkeletonElement"]'


def wait_rendered(page: Page, timeout: float = LOAD_TIMEOUT) -> None:
    """No loading placeholders left: elements whose code is still loading show as skeletons."""
    expect(page.locator(SKELETONS)).to_have_count(0, timeout=timeout)


# The page at rest, checked in the page itself (one round trip however many pictures and charts):
# connected, no script running, no loading skeleton, every custom component mounted (its shadow
# root holds its HTML: a picture's root comes a moment after the skeletons go), every tree picture
# (in its component's shadow root) showing a drawn node and every chart showing its canvas.
SETTLED = """([skeletons, picture]) => {
    const app = document.querySelector('[data-testid="stApp"]');
    if (!app || app.dataset.testConnectionState !== 'CONNECTED' || app.dataset.testScriptState !== 'notRunning') return false;
    if (document.querySelector(skeletons)) return false;
    const shadows = [...document.querySelectorAll('.stBidiComponent')]
        .map(component => component.querySelector('[data-testid="stBidiComponentIsolated"]')?.shadowRoot);
    if (!shadows.every(shadow => shadow && shadow.firstElementChild)) return false;
    const shown = (e) => { const box = e.getBoundingClientRect();
                           return box.width > 0 && box.height > 0 && getComputedStyle(e).visibility !== 'hidden'; };
    const roots = [document, ...shadows];
    const drawn = (selector, inside) => roots.flatMap(root => [...root.querySelectorAll(selector)])
        .every(box => { const first = box.querySelector(inside); return first !== null && shown(first); });
    return drawn(picture, 'svg g.node[data-path]') && drawn('[data-testid="stVegaLiteChart"]', 'canvas, svg');
}"""


def wait_settled(page: Page, timeout: float = LOAD_TIMEOUT) -> None:
    """Wait until the page is at rest (:data:`SETTLED`): idle, nothing loading, every picture drawn."""
    page.wait_for_function(SETTLED, arg=[SKELETONS, GRAPH], timeout=timeout)


def wait_for_graph(page: Page, timeout: float = LOAD_TIMEOUT) -> None:
    """Wait for a drawn node; fail at once (with its text) if the app shows an exception instead."""
    exception = page.locator('[data-testid="stException"]')
    expect(page.locator(f"{GRAPH} svg g.node[data-path]").or_(exception).first).to_be_visible(timeout=timeout)
    if exception.count():
        raise AssertionError("the app shows an exception:\n" + exception.first.inner_text())


def eventually(read, expected, *, timeout: float = 15.0, page: Page):
    """Poll ``read()`` until it returns ``expected`` (the graph and grid re-render after a run ends)."""
    deadline = time.monotonic() + timeout
    value = read()
    while value != expected and time.monotonic() < deadline:
        page.wait_for_timeout(50)
        value = read()
    assert value == expected, f"after {timeout} s: {value!r} != {expected!r}"
    return value


def settled_screenshot(locator, timeout: float = 15.0) -> bytes:
    """A screenshot of ``locator`` once it has stopped changing (two in a row alike): a canvas such
    as st.dataframe's draws after the run that made it."""
    deadline = time.monotonic() + timeout
    shot, previous = locator.screenshot(), None
    while shot != previous:
        assert time.monotonic() < deadline, f"{locator} kept changing for {timeout} s"
        previous, shot = shot, locator.screenshot()
    return shot


def graph_nodes(page: Page) -> list[dict]:
    """Every drawn node: ``id`` (its path as JSON, or ``None`` for a colour key's box), label lines, classes."""
    return page.locator(f"{GRAPH} svg g.node").evaluate_all(
        """nodes => nodes.map(node => ({
            id: node.getAttribute('data-path'),
            label: [...node.querySelectorAll('text')].map(t => t.textContent.trim()),
            classes: [...node.classList],
        }))"""
    )


def real_nodes(nodes: list[dict]) -> list[dict]:
    """Tree nodes only (a colour key's boxes have no path)."""
    return [node for node in nodes if node["id"] is not None]


def fold_text(node: dict) -> str:
    """What a node's label says about its children left out of the picture ("+k more, v visits"),
    however its lines wrap (left to right, each part has a line of its own); "" if nothing."""
    lines = node["label"]
    start = next((k for k, line in enumerate(lines) if re.match(r"\+\d+ (more|unvisited)", line)), len(lines))
    return " ".join(lines[start:])


def fold_nodes(nodes: list[dict]) -> list[dict]:
    """Tree nodes whose label counts children left out of the picture ("+k more, v visits")."""
    return [node for node in real_nodes(nodes) if fold_text(node)]


def red_nodes(page: Page) -> set[str]:
    """Paths (as JSON) of the nodes the picture highlights as the selected path."""
    return {node["id"] for node in real_nodes(graph_nodes(page)) if "tv-path" in node["classes"]}


def path_ids(text: str, c: float) -> set[str]:
    """Paths (as JSON) the picture should highlight for ``text`` at ``c``: root and the UCB1-selected nodes."""
    tree = build_tree(parse_playouts(text))
    return {path_json(tree.path_moves(node)) for node in selected_nodes(tree, Scoring(c=c))}


def metric_value(page: Page, label: str):
    """The value element of the metric with this label (for expect(...).to_have_text)."""
    box = page.locator('[data-testid="stMetric"]').filter(
        has=page.locator('[data-testid="stMetricLabel"]', has_text=label)
    )
    return box.locator('[data-testid="stMetricValue"]')


def tree_facts(page: Page):
    """The Explorer's caption naming the tree's facts, "The tree of 5,000 playouts, 4,697 nodes, depth 6, ..."
    (for expect(...).to_contain_text)."""
    return page.locator('[data-testid="stCaptionContainer"]').filter(has_text="The tree of ")


def watch_values(page: Page, selector: str) -> None:
    """Record every value the input at ``selector`` shows, on every animation frame from now on
    (a box that shows a wrong value for a frame or two); read them with :func:`shown_values`."""
    page.evaluate(
        """selector => {
            window.__shownValues = window.__shownValues || {};
            const shown = window.__shownValues[selector] = [];
            const watch = () => {
                const value = document.querySelector(selector)?.value;
                if (value !== undefined && shown.at(-1) !== value) shown.push(value);
                requestAnimationFrame(watch);
            };
            requestAnimationFrame(watch);
        }""",
        selector,
    )


def shown_values(page: Page, selector: str) -> list[str]:
    """The values the input at ``selector`` has shown since :func:`watch_values`, changes only, up to
    the next frame: a box put in the page since the last frame is read when that frame paints it (the
    watch's callback runs first in it)."""
    return page.evaluate(
        "selector => new Promise(done => requestAnimationFrame(() => done(window.__shownValues[selector])))",
        selector,
    )


def table_rows(page: Page) -> list[dict[str, str]]:
    """The Explorer's children table as text: one dict per row, header -> cell."""
    grid = page.locator(TABLE_CELLS).first
    return grid.evaluate(
        """grid => {
            const heads = [...grid.querySelectorAll('thead th')].map(th => th.textContent.trim());
            return [...grid.querySelectorAll('tbody tr')].map(tr =>
                Object.fromEntries([...tr.querySelectorAll('td')].map((td, i) => [heads[i], td.textContent.trim()])));
        }"""
    )


MARKUP_MOVE = '<img src=x onerror="document.title=1">**b**'  # HTML and markdown in a move name


def open_markup_log(page: Page, url: str, folder: Path) -> Watched:
    """The Explorer on a JSON log whose root has the children :data:`MARKUP_MOVE` and ``a``."""
    log = folder / "markup.jsonl"
    log.write_text("\n".join(json.dumps(record) for record in [
        {"mcts_log": 1, "players": 2}, {"path": [MARKUP_MOVE], "score": 1}, {"path": ["a"], "score": 0},
    ]) + "\n")
    watched = open_app(page, url)
    page.locator('.st-key-upload input[type="file"]').set_input_files(log)
    wait_idle(page)
    return watched


def set_text_area(page: Page, text: str) -> None:
    """Replace the playouts and commit them: the text area commits on blur."""
    area = page.locator(".st-key-playouts textarea")
    area.fill(text)
    area.blur()


def playout_file(path: Path, count: int, *, seed: int = 1, moves: str = "abcdefgh", max_len: int = 49) -> Path:
    """A header-less log of ``count`` random playouts (words up to ``max_len`` moves, decimal scores)."""
    rng = random.Random(seed)
    lines = []
    for _ in range(count):
        word = "".join(rng.choices(moves, k=rng.randint(1, max_len)))
        lines.append(f"{word} {rng.uniform(-50, 100):.3f}")
    path.write_text("\n".join(lines) + "\n")
    return path


class ServerMessages:
    """What the server tells a page, read off the page's websocket: which script runs ended, whether
    one is running, and the fragments it asked the page to rerun on a timer.

    A short run can start and end within one render, so the page's ``data-test-script-state`` may
    never show it; these messages always arrive. Create it before the page opens the app.
    """

    def __init__(self, page: Page):
        self.page = page
        self.finished = 0  # script runs that ended (not those cut short for a rerun)
        self.fragment_runs = 0  # of them, runs of a fragment alone
        self.running = False
        self.timers: dict[str, float] = {}  # fragment id -> the interval (s) the page reruns it at
        self.socket = None
        page.on("websocket", self._listen)

    def _listen(self, socket) -> None:
        if socket.url.endswith("/_stcore/stream"):
            self.socket = socket
            socket.on("framereceived", self._frame)

    def _frame(self, payload) -> None:
        if isinstance(payload, str):
            return
        message = ForwardMsg()
        message.ParseFromString(payload)
        kind = message.WhichOneof("type")
        if kind == "new_session" and not message.metadata.run.fragment_ids:
            self.timers.clear()  # a whole run: the page drops its timers, the run asks again for those it keeps
        elif kind == "session_status_changed":
            self.running = message.session_status_changed.script_is_running
        elif kind == "script_finished" and message.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
            self.finished += 1
            self.fragment_runs += message.script_finished == ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY
        elif kind == "auto_rerun":
            self.timers[message.auto_rerun.fragment_id] = message.auto_rerun.interval
        elif kind == "stop_auto_rerun":
            for fragment in message.stop_auto_rerun.fragment_ids:
                self.timers.pop(fragment, None)

    def until(self, condition, timeout: float = LOAD_TIMEOUT, what: str = "the server's messages") -> None:
        """Read the server's messages as they come until ``condition()`` holds (``timeout`` in ms)."""
        deadline = time.monotonic() + timeout / 1000
        while not condition():
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"after {timeout / 1000:.0f} s: {what}")
            try:
                self.socket.wait_for_event("framereceived", timeout=left * 1000)
            except PlaywrightTimeoutError:
                pass

    def run(self, action, timeout: float = LOAD_TIMEOUT) -> None:
        """Do ``action`` (a click, a choice) and wait until the script run it started has ended."""
        before = self.finished
        action()
        self.until(lambda: self.finished > before and not self.running, timeout, "the run did not end")

    def settle(self, timeout: float = LOAD_TIMEOUT) -> None:
        """Wait until the page is at rest (:func:`wait_settled`) and no run it asked for by itself (a
        picture's layout) is left: a run that ended meanwhile may have redrawn the page, so it is
        checked again."""
        while True:
            finished = self.finished
            wait_settled(self.page, timeout)
            self.until(lambda: not self.running, timeout, "a run the page asked for did not end")
            if self.finished == finished:
                return
