"""The Explorer's numbers read whole on a 1366x768 projector: after a search, with an engine's named
moves and priors, and with a long selected path, no metric value or label ends in "...", no button is
squeezed into a column of letters, and the children table shows every column (the rule's value
included) without a horizontal scroll."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from mcts_core import Scoring
from mcts_core.search import search

from .browser_support import LOAD_TIMEOUT, open_app, wait_for_graph, wait_idle
from .test_browser_framing import chess_log
from .test_browser_layout import OVERFLOW

pytestmark = pytest.mark.browser

PROJECTOR = {"width": 1366, "height": 768}
LONG_PATH = "".join(f"{'a' * depth} {depth}\n" for depth in range(1, 81))  # one line of play, 80 moves deep
# Labels cut ("Root m...") and buttons squeezed to a letter a line (one line of text is about 40 px).
SQUEEZED = """() => {
    const shown = (e) => e.offsetParent !== null;
    const cut = (e) => [e, ...e.querySelectorAll('*')].some(x => x.clientWidth > 0 && x.scrollWidth > x.clientWidth + 1);
    const main = document.querySelector('[data-testid="stMain"]');
    return {
        labels: [...main.querySelectorAll('[data-testid="stMetricLabel"]')].filter(shown).filter(cut).map(e => e.innerText),
        tall: [...main.querySelectorAll('button')].filter(shown)
            .filter(b => b.getBoundingClientRect().height > 60).map(b => b.innerText.trim()),
    };
}"""
TABLE_SCROLL = """grid => [grid.scrollWidth, grid.clientWidth]"""


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("metric_inputs")
    ttt = folder / "tic_tac_toe.jsonl"
    ttt.write_text(search("tic_tac_toe", scoring=Scoring(c=1.4), simulations=300, seed=3).log)
    chess = folder / "chess.jsonl"
    chess.write_text(chess_log())
    return {"ttt": ttt, "chess": chess}


def assert_readable(page) -> None:
    overflow = page.evaluate(OVERFLOW)
    squeezed = page.evaluate(SQUEEZED)
    assert overflow["metrics"] == [], f"metric values cut: {overflow['metrics']}"
    assert overflow["cut"] == [], f"button labels cut: {overflow['cut']}"
    assert squeezed == {"labels": [], "tall": []}
    scroll, width = page.locator(".st-key-children_table .tbl-box").evaluate(TABLE_SCROLL)
    assert scroll <= width, f"the children table scrolls sideways ({scroll} px in {width} px)"


@pytest.mark.parametrize("name", ["statement", "ttt", "chess"])
def test_metrics_and_the_children_table_read_whole_at_1366(page, app_url, inputs, name):
    page.set_viewport_size(PROJECTOR)
    watched = open_app(page, app_url)
    if name != "statement":
        page.locator('.st-key-upload input[type="file"]').set_input_files(inputs[name])
        wait_idle(page)
    wait_for_graph(page)
    page.wait_for_timeout(500)  # the grid sizes its columns after it is drawn
    assert_readable(page)
    watched.assert_clean()


def test_a_long_selected_path_gets_its_own_line_and_wraps(page, app_url):
    page.set_viewport_size(PROJECTOR)
    watched = open_app(page, app_url)
    page.locator(".st-key-playouts textarea").fill(LONG_PATH)
    page.locator(".st-key-playouts textarea").blur()
    wait_idle(page)
    wait_for_graph(page)
    value = page.locator('[data-testid="stMetricValue"]').first
    expect(value).to_have_text("a" * 80, timeout=LOAD_TIMEOUT)  # whole: not "aaa…"
    wait_for_graph(page)
    assert value.bounding_box()["height"] > 60  # wrapped onto more lines, not cut
    assert_readable(page)
    watched.assert_clean()
