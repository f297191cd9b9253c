"""The outline on a real page: it opens along the selected path, ▸ opens a node in the browser (its
children were sent ahead), and a click on a move inspects that node (the path box names it, the
picture outlines it)."""

from __future__ import annotations

import json
import re

from playwright.sync_api import expect

from mcts_core import Scoring, selected_nodes
from mcts_core.drawing import path_json
from mcts_core.inputs import deep_tree, read_input

from bench.harness.browser import GRAPH, MARKUP_MOVE, ServerMessages, open_app, open_markup_log, wait_idle


ROWS = ".ol-table tr[data-key]"
READ = "rows => rows.map(r => [r.dataset.key, r.querySelector('.ol-toggle').textContent])"


def outline_rows(page) -> list[tuple[str, str]]:
    """(node path as JSON, its mark: ▾ open, ▸ closed, "" a leaf) for every row, top to bottom."""
    return [tuple(row) for row in page.locator(ROWS).evaluate_all(READ)]


def open_outline(page, app_url, upload):
    """The Explorer at 1366x768 on the uploaded file, its Outline tab open; the page's watcher."""
    page.set_viewport_size({"width": 1366, "height": 768})
    server = ServerMessages(page)
    watched = open_app(page, app_url)
    # The upload's run, then the page at rest: until then the old tabs stand beside the new ones.
    server.run(lambda: page.locator('.st-key-upload input[type="file"]').set_input_files(upload))
    server.settle()
    page.get_by_role("tab", name="Outline (any size)").click()
    return watched


def test_the_outline_opens_along_the_selected_path_and_a_click_inspects_its_node(page, app_url, tmp_path):
    text = deep_tree()
    log = tmp_path / "deep.txt"
    log.write_text(text)
    tree = read_input(text).tree
    path = selected_nodes(tree, Scoring(c=1.4))  # the header's C
    watched = open_outline(page, app_url, log)
    expect(page.locator(ROWS).first).to_be_visible()
    rows = outline_rows(page)
    assert [key for key, mark in rows if mark == "▾"] == [
        path_json(tree.path_moves(node)) for node in path[1:] if tree.children.count(node)
    ]
    # ▸ opens a closed node at once, from the lists sent ahead: no script run.
    key = next(key for key, mark in rows if mark == "▸")
    node = tree.find(json.loads(key))
    page.locator(f"{ROWS}[data-key='{key}'] .ol-toggle").click()
    expect(page.locator(f"{ROWS}[data-key='{key}'] .ol-toggle")).to_have_text("▾")
    opened = [row for row in outline_rows(page) if row[0].startswith(key[:-1] + ",")]
    assert {row[0] for row in opened if len(json.loads(row[0])) == len(json.loads(key)) + 1} == {
        path_json(tree.path_moves(kid)) for kid in tree.children[node]
    }
    # A click on its move inspects it.
    page.locator(f"{ROWS}[data-key='{key}'] .ol-name").click()
    wait_idle(page)
    expect(page.locator(".st-key-inspect input")).to_have_value(tree.path(node))
    expect(page.locator(f"{GRAPH} svg g.node.tv-inspected")).to_have_attribute("data-path", key)
    expect(page.locator(f"{ROWS}.ol-inspected")).to_have_attribute("data-key", key)
    watched.assert_clean()


def test_markup_in_a_move_is_shown_as_text_in_the_outline(page, app_url, tmp_path):
    watched = open_markup_log(page, app_url, tmp_path)
    page.get_by_role("tab", name="Outline (any size)").click()
    expect(page.locator(".ol-table .ol-name").filter(has_text="onerror")).to_have_text(MARKUP_MOVE)
    expect(page.locator(".ol-table img")).to_have_count(0)
    watched.assert_clean()


def wide_log(folder) -> tuple:
    """A two-player JSON log whose root has 80 visited children (one grandchild each) and 2 declared
    but unvisited ones: the outline's value for those is +infinity, and the last visited child's row
    is far below the outline box's first screen."""
    moves = [f"m{index:02d}" for index in range(80)]
    records = [{"mcts_log": 1, "players": 2, "ties": "first"}, {"node": [], "children": [*moves, "u1", "u2"]}]
    for index, move in enumerate(moves):
        records += [{"path": [move, "x"], "score": 1}] * (1 + (80 - index) // 8)
    log = folder / "wide.jsonl"
    log.write_text("\n".join(json.dumps(record) for record in records) + "\n")
    return log, moves


def test_the_outline_shows_an_engines_unvisited_children_and_a_jump_brings_its_row_into_view(page, app_url, tmp_path):
    log, moves = wide_log(tmp_path)
    watched = open_outline(page, app_url, log)
    # Unvisited children are worth +infinity to UCB1: shown as ∞ (strict JSON has no Infinity).
    unvisited = page.locator(f"{ROWS}[data-key='{path_json(('u1',))}'] td").nth(4)
    expect(unvisited).to_have_text("∞")
    watched.assert_clean()
    # The last visited child's grandchild: its row is far below the box's visible part until the jump.
    target = path_json((moves[-1], "x"))
    page.locator(".st-key-outline_jump input").fill(f"{moves[-1]} x")
    page.locator(".st-key-outline_jump input").press("Enter")
    row = page.locator(f"{ROWS}[data-key='{target}']")
    expect(row).to_have_class(re.compile(r"\bol-inspected\b"))
    box = page.locator(".st-key-outline_view .tbl-box")
    expect(row).to_be_in_viewport(ratio=1)
    inside = row.evaluate(
        """(row) => { const box = row.closest('.tbl-box').getBoundingClientRect(), r = row.getBoundingClientRect();
                      const head = row.closest('table').querySelector('thead').getBoundingClientRect().height;
                      return r.top >= box.top + head - 1 && r.bottom <= box.bottom + 1; }"""
    )
    assert inside, f"the jumped-to row is outside the outline box's visible part (box {box.bounding_box()})"
    watched.assert_clean()
