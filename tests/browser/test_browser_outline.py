"""The outline on a real page: it opens along the selected path, and a row click inspects that node
(the path box names it, the picture outlines it, the outline opens it)."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from mcts_core import Scoring, selected_nodes
from mcts_core.inputs import deep_tree, read_input

from .browser_support import GRAPH, open_app, wait_for_graph, wait_idle

pytestmark = pytest.mark.browser

OUTLINE = ".st-key-outline"
ROW_PX = 35  # glide-data-grid's row (and header) height in Streamlit
ROWS = """grid => [...grid.querySelectorAll('tbody tr')].map(tr => tr.querySelector('td').textContent)"""


def outline_rows(page) -> list[tuple[tuple[str, ...], str]]:
    """The outline's rows as (the row's moves from the root, read from the indents; its mark: ▾ open,
    ▸ closed, "" a leaf)."""
    shown = page.locator(f"{OUTLINE} table[role=grid]").first.evaluate(ROWS)
    rows, line = [], []
    for text in shown:
        depth = text.count("\u2003") + 1
        move = text.strip("\u2003\u2002 ▾▸")
        line = line[: depth - 1] + [move]
        rows.append((tuple(line), "▾" if "▾" in text else "▸" if "▸" in text else ""))
    return rows


def click_row(page, index: int) -> None:
    """Tick the row's selection box (the grid's first column)."""
    grid = page.locator(f"{OUTLINE} [data-testid='stDataFrame']").first
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    page.mouse.click(box["x"] + 18, box["y"] + ROW_PX * (index + 1) + ROW_PX / 2)


def test_the_outline_opens_along_the_selected_path_and_a_row_click_inspects_its_node(page, app_url, tmp_path):
    text = deep_tree()
    log = tmp_path / "deep.txt"
    log.write_text(text)
    tree = read_input(text).tree
    path = selected_nodes(tree, Scoring(c=1.4))  # the header's C
    page.set_viewport_size({"width": 1366, "height": 768})
    watched = open_app(page, app_url)
    page.locator('.st-key-upload input[type="file"]').set_input_files(log)
    wait_idle(page)
    wait_for_graph(page)
    page.get_by_role("tab", name="Outline (any size)").click()
    expect(page.locator(OUTLINE).get_by_text(f"rows of {len(tree):,} nodes")).to_be_visible()
    rows = outline_rows(page)
    assert [moves for moves, mark in rows if mark == "▾"] == [
        tree.path_moves(node) for node in path[1:] if tree.children.count(node)
    ]
    # A closed node with children, off the path: a click inspects it and opens it.
    index, (moves, _) = next((i, row) for i, row in enumerate(rows) if row[1] == "▸")
    node = tree.find(moves)
    click_row(page, index)
    wait_idle(page)
    expect(page.locator(".st-key-inspect input")).to_have_value(tree.path(node))
    inspected = page.locator(f"{GRAPH} svg g.node.tv-inspected")
    expect(inspected).to_have_attribute("data-path", json.dumps(list(moves), separators=(",", ":")))
    assert (moves, "▾") in outline_rows(page)
    watched.assert_clean()
