"""The interactive tree picture in a real chromium: click and keys inspect, the wheel zooms, Fit comes
back, and without graphviz's dot the page still draws a picture."""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import expect

from bench.harness.browser import GRAPH, LOAD_TIMEOUT, REPO, TABLE_CELLS, eventually, open_app, table_rows, wait_for_graph, wait_idle
from bench.harness.server import start_streamlit, stop_streamlit

INSPECT = ".st-key-inspect input"
SVG = f"{GRAPH} svg"


def node(page, path_json: str):
    return page.locator(f"{GRAPH} svg g.node[data-path='{path_json}']")


def view_box(page) -> list[float]:
    return [float(part) for part in page.locator(SVG).get_attribute("viewBox").split()]


def test_clicking_a_node_inspects_it_and_the_table_lists_its_children(page, app_url):
    open_app(page, app_url)
    wait_for_graph(page)
    node(page, '["b"]').click()
    expect(page.locator(INSPECT)).to_have_value("b")
    wait_idle(page)
    expect(page.locator(f"{GRAPH} svg g.node.tv-inspected")).to_have_attribute("data-path", '["b"]')
    # The statement example: the root's children are a and b; b's only child is b (bbb 4).
    eventually(lambda: [(row["move"], row["visits"]) for row in table_rows(page)], [("b", "1")], page=page)


def test_arrow_keys_walk_the_tree_and_inspect_where_they_land(page, app_url):
    open_app(page, app_url)
    wait_for_graph(page)
    page.locator(f"{GRAPH} .tv-viewport").focus()
    page.keyboard.press("ArrowDown")  # top-down: into the child on the selected path, a
    expect(page.locator(INSPECT)).to_have_value("a")
    wait_idle(page)
    page.keyboard.press("ArrowRight")  # its next sibling
    expect(page.locator(INSPECT)).to_have_value("b")
    wait_idle(page)
    page.keyboard.press("ArrowUp")  # back to the parent
    expect(page.locator(INSPECT)).to_have_value("")


# The cursor of what lies at a point of the picture's shadow root.
CURSOR_AT = "(viewport, [x, y]) => getComputedStyle(viewport.getRootNode().elementFromPoint(x, y)).cursor"


def test_the_wheel_zooms_in_a_drag_pans_and_fit_shows_the_whole_tree_again(page, app_url):
    open_app(page, app_url)
    wait_for_graph(page)
    # The view is framed again while the page still lays out (once in CI its first frame came from a
    # viewport a pixel or two off: height 343.2 where it settles at 341.4): the whole tree's view is
    # the one it keeps once the table is drawn and the page is idle.
    expect(page.locator(f"{TABLE_CELLS} tbody tr").first).to_be_visible()
    wait_idle(page)
    whole = None

    def unchanged() -> bool:
        nonlocal whole
        before, whole = whole, view_box(page)
        return whole == before

    eventually(unchanged, True, page=page)  # the same view two reads (50 ms) apart
    box = page.locator(f"{GRAPH} .tv-viewport").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, -400)  # wheel up: zoom in around the pointer
    eventually(lambda: view_box(page)[2] < whole[2] * 0.9, True, page=page)
    zoomed = view_box(page)
    assert zoomed[3] < whole[3]
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + 120, box["y"] + box["height"] / 2, steps=5)
    # While the picture is held, the pointer shows a closed hand; once it is let go, nothing covers it.
    viewport = page.locator(f"{GRAPH} .tv-viewport")
    held = [box["x"] + box["width"] / 2 + 120, box["y"] + box["height"] / 2]
    assert viewport.evaluate(CURSOR_AT, held) == "grabbing"
    page.mouse.up()
    assert viewport.evaluate(CURSOR_AT, held) != "grabbing"
    eventually(lambda: view_box(page)[0] < zoomed[0] - 1, True, page=page)  # dragged right: the view moves left
    page.get_by_role("button", name="Fit").first.click()
    eventually(lambda: [round(part, 3) for part in view_box(page)], [round(part, 3) for part in whole], page=page)


def test_without_graphviz_the_page_still_draws_the_tree_and_says_how_to_get_the_interactive_one(
    page, tmp_path, monkeypatch
):
    # The server's PATH without the folders that hold `dot`.
    folders = [folder for folder in os.environ["PATH"].split(os.pathsep) if not (Path(folder) / "dot").exists()]
    monkeypatch.setenv("PATH", os.pathsep.join(folders))
    process, url = start_streamlit(Path("app.py"), tmp_path / "no_dot.log", cwd=REPO)
    try:
        watched = open_app(page, url)
        expect(page.get_by_text("Install graphviz for the interactive picture")).to_be_visible(timeout=LOAD_TIMEOUT)
        chart = page.locator('[data-testid="stGraphVizChart"] svg')
        expect(chart).to_be_visible(timeout=LOAD_TIMEOUT)
        expect(chart.locator("g.node")).to_have_count(4)  # the statement example: root, a, b, bb
        assert page.locator('[data-testid="stException"]').count() == 0
        watched.assert_clean()
    finally:
        stop_streamlit(process)
