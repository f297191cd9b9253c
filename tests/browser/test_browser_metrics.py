"""The Explorer's numbers read whole on a 1366x768 projector with an engine's long named moves and
priors, and with a long selected path: no metric value or label ends in "...", no button is squeezed
into a column of letters, and the children table shows every column (the rule's value included)
without a horizontal scroll."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect


from bench.harness.browser import LOAD_TIMEOUT, cut_off, open_app, wait_for_graph, wait_idle
from .test_browser_framing import chess_log


PROJECTOR = {"width": 1366, "height": 768}
LONG_PATH = "".join(f"{'a' * depth} {depth}\n" for depth in range(1, 81))  # one line of play, 80 moves deep
TABLE_SCROLL = """grid => [grid.scrollWidth, grid.clientWidth]"""


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("metric_inputs")
    chess = folder / "chess.jsonl"
    chess.write_text(chess_log())
    return {"chess": chess}


def assert_readable(page) -> None:
    assert cut_off(page) == []
    scroll, width = page.locator(".st-key-children_table .tbl-box").evaluate(TABLE_SCROLL)
    assert scroll <= width, f"the children table scrolls sideways ({scroll} px in {width} px)"


def test_a_chess_nodes_six_columns_read_whole_beside_the_picture_at_1366(page, app_url, inputs):
    """Long move names, priors, a two-player mean: the widest children table. (Every page with every
    other input a user brings is checked the same way by the every-input tour.)"""
    page.set_viewport_size(PROJECTOR)
    watched = open_app(page, app_url)
    page.locator('.st-key-upload input[type="file"]').set_input_files(inputs["chess"])
    wait_idle(page)
    wait_for_graph(page)
    expect(page.locator(".st-key-children_table tbody tr").first).to_be_visible()
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
