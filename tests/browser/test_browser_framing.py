"""The tree picture opens on what matters, in a real chromium at a 1366x768 projector size: the root
and the selected path in view with labels at least 12 px tall, the picture's top and the C control
on screen together; "Selected path" frames the path (and pans along one too long to show at once),
"Fit" never shrinks labels below readable; the principal variation is marked and framed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from mcts_core import Scoring
from mcts_core.inputs import deep_tree, read_input
from mcts_core.search import search

from bench.harness.browser import GRAPH, REPO, open_app, wait_for_graph, wait_idle
from bench.harness.server import start_streamlit, stop_streamlit

PROJECTOR = {"width": 1366, "height": 768}
READABLE_PX = 12
C_CONTROL = ".st-key-c"

# Where the picture and what it shows sit on screen: rectangles are [left, top, right, bottom] in
# CSS px; `labels` are the on-screen sizes (computed font size x zoom) of the labels at least partly in view.
MEASURE = """root => {
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const picture = box(root.querySelector('.tv-viewport'));
  const svg = root.querySelector('svg');
  const showing = (r) => r[2] > picture[0] && r[0] < picture[2] && r[3] > picture[1] && r[1] < picture[3];
  const nodes = [...svg.querySelectorAll('g.node[data-path]')];
  return {
    picture,
    viewBox: svg.getAttribute('viewBox'),
    selected: JSON.parse(root.getAttribute('data-selected-path')),
    root: box(svg.querySelector("g.node[data-path='[]']")),
    path: nodes.filter(n => n.matches('.tv-path, .tv-both')).map(n => [n.getAttribute('data-path'), box(n)]),
    children: nodes.filter(n => JSON.parse(n.getAttribute('data-path')).length === 1).map(n => box(n)),
    nodes: nodes.map(n => box(n)),
    pv: nodes.filter(n => n.matches('.tv-pv')).map(n => [n.getAttribute('data-path'), box(n)]),
    inspected: nodes.filter(n => n.matches('.tv-inspected')).map(n => [n.getAttribute('data-path'), box(n)]),
    labels: [...svg.querySelectorAll('g.node[data-path] text')].filter(t => showing(box(t)))
      .map(t => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a),
  };
}"""


def inside(rect, frame) -> bool:
    """The rectangle lies wholly inside the frame (half a pixel of rounding allowed)."""
    return rect[0] >= frame[0] - 0.5 and rect[1] >= frame[1] - 0.5 and rect[2] <= frame[2] + 0.5 and rect[3] <= frame[3] + 0.5


def visible_picture(page, picture) -> list[float]:
    """The part of the picture inside the browser window."""
    size = page.viewport_size
    return [max(picture[0], 0), max(picture[1], 0), min(picture[2], size["width"]), min(picture[3], size["height"])]


def settled(page) -> dict:
    """The picture's measurements once its view stops moving (the view is made on the next frame)."""
    picture = page.locator(GRAPH).first
    before = picture.evaluate(MEASURE)
    for _ in range(40):
        page.wait_for_timeout(150)
        now = picture.evaluate(MEASURE)
        if now["viewBox"] == before["viewBox"] and now["picture"] == before["picture"]:
            return now
        before = now
    raise AssertionError("the picture's view kept moving")


def press(page, name: str) -> dict:
    page.locator(GRAPH).first.get_by_role("button", name=name, exact=True).click()
    return settled(page)


def drag_away(page) -> dict:
    """Drag the picture from its bottom-left corner to its top-right one; its measurements after."""
    box = page.locator(f"{GRAPH} .tv-viewport").bounding_box()
    page.mouse.move(box["x"] + 20, box["y"] + box["height"] - 20)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] - 20, box["y"] + 60, steps=8)
    page.mouse.up()
    return settled(page)


def upload(page, path: Path, root_visits: int) -> None:
    """Send a log through the uploader and wait until the picture shows its tree."""
    page.locator('.st-key-upload input[type="file"]').set_input_files(path)
    wait_idle(page)
    expect(page.locator(f"{GRAPH} svg g.node[data-path='[]']")).to_have_attribute(
        "data-tip", re.compile(rf"\b{root_visits:,} visits"), timeout=60_000
    )
    wait_for_graph(page)


def assert_opening_view(page, view: dict) -> None:
    """Labels readable; the picture's top and the C control on screen together."""
    assert view["labels"], "no label in view"
    assert min(view["labels"]) >= READABLE_PX - 0.01, f"labels as small as {min(view['labels']):.1f} px"
    window = [0, 0, page.viewport_size["width"], page.viewport_size["height"]]
    assert 0 <= view["picture"][1] < window[3], f"the picture starts at y = {view['picture'][1]:.0f}"
    control = page.locator(C_CONTROL).first.bounding_box()
    assert inside([control["x"], control["y"], control["x"] + control["width"], control["y"] + control["height"]], window)


def assert_path_in_view(page, view: dict) -> None:
    """The root and every drawn node of the selected path lie inside the picture's visible part."""
    frame = visible_picture(page, view["picture"])
    assert inside(view["root"], frame), f"the root at {view['root']} is outside {frame}"
    assert len(view["path"]) == len(view["selected"]) + 1, "a node of the selected path is not drawn"
    outside = [path for path, rect in view["path"] if not inside(rect, frame)]
    assert not outside, f"selected-path nodes outside the picture: {outside}"


@pytest.fixture
def projector(page):
    page.set_viewport_size(PROJECTOR)
    return page


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> dict[str, Path]:
    """The large and engine inputs of issue 21, written once."""
    folder = tmp_path_factory.mktemp("logs")
    deep = folder / "deep_5000.txt"
    deep.write_text(deep_tree(5000))
    ttt = folder / "tic_tac_toe.jsonl"
    ttt.write_text(search("tic_tac_toe", scoring=Scoring(c=1.4), simulations=300, seed=3).log)
    chess = folder / "chess.jsonl"
    chess.write_text(chess_log())
    # 21 nodes: four moves, each answered by four (a class's small example, 16 leaves wide).
    words = [a + "a" for a in "abcd"] + [a + b for a in "abcd" for b in "abcd"]
    wide = folder / "sixteen_leaves.txt"
    wide.write_text("".join(f"{word} {k % 7}\n" for k, word in enumerate(words)))
    return {"deep": deep, "ttt": ttt, "chess": chess, "wide": wide}


def chess_log() -> str:
    """A hand-written two-player log: named moves, declared children and priors, 15 simulations."""
    records = [
        {"mcts_log": 1, "players": 2, "ties": "first", "c": 1.4},
        {"node": [], "children": ["e2e4", "d2d4", "g1f3", "c2c4"], "priors": {"e2e4": 0.4, "d2d4": 0.3, "g1f3": 0.2, "c2c4": 0.1}},
        {"node": ["e2e4"], "children": ["e7e5", "c7c5", "e7e6"], "priors": {"e7e5": 0.5, "c7c5": 0.3, "e7e6": 0.2}},
        {"node": ["d2d4"], "children": ["d7d5", "g8f6"], "priors": {"d7d5": 0.6, "g8f6": 0.4}},
    ]
    simulations = [
        (["e2e4"], 0.6), (["d2d4"], 0.5), (["g1f3"], 0.4), (["c2c4"], 0.3), (["e2e4", "e7e5"], 0.5),
        (["e2e4", "c7c5"], 0.7), (["e2e4", "e7e6"], 0.6), (["e2e4", "e7e5", "g1f3"], 0.6), (["d2d4", "d7d5"], 0.4),
        (["d2d4", "g8f6"], 0.5), (["e2e4", "e7e5", "g1f3", "b8c6"], 0.5), (["e2e4", "c7c5", "g1f3"], 0.6),
        (["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"], 0.7), (["g1f3", "d7d5"], 0.4), (["e2e4", "e7e5", "f1c4"], 0.5),
    ]  # fmt: skip
    records += [{"path": path, "score": score} for path, score in simulations]
    return "\n".join(json.dumps(record) for record in records) + "\n"


def test_the_statement_example_opens_whole_and_readable_with_the_c_control_on_screen(projector, app_url):
    open_app(projector, app_url)
    wait_for_graph(projector)
    view = settled(projector)
    assert_opening_view(projector, view)
    assert view["selected"] == ["a"]  # the statement's answer, on the picture's root element
    assert_path_in_view(projector, view)
    # The picture ends on screen too: its height follows the window.
    assert view["picture"][3] <= PROJECTOR["height"]
    assert_path_in_view(projector, press(projector, "Selected path"))


def test_a_hand_written_chess_log_opens_on_the_selected_path_among_the_other_moves(projector, app_url, logs):
    open_app(projector, app_url)
    upload(projector, logs["chess"], 15)
    view = settled(projector)
    assert_opening_view(projector, view)
    assert_path_in_view(projector, view)
    # Not zoomed in on the path alone: its siblings show too, as far as readable labels allow
    # (at 12 px the tree is about 800 px wide, the picture 486).
    frame = visible_picture(projector, view["picture"])
    assert sum(inside(rect, frame) for rect in view["children"]) >= 3
    after = press(projector, "Selected path")
    assert_path_in_view(projector, after)
    assert min(after["labels"]) >= READABLE_PX - 0.01


def test_a_two_move_tree_of_sixteen_leaves_opens_whole_and_readable(projector, app_url, logs):
    """Left to right its 16 leaves stood 950 px tall in a 340 px picture (cut until Fit, at 8 px);
    top down across the page, one fact a label line, all 21 nodes show at 12 px."""
    open_app(projector, app_url)
    upload(projector, logs["wide"], 20)
    view = settled(projector)
    assert_opening_view(projector, view)
    frame = visible_picture(projector, view["picture"])
    assert len(view["nodes"]) == 21
    outside = [rect for rect in view["nodes"] if not inside(rect, frame)]
    assert not outside, f"{len(outside)} of 21 nodes outside the picture's visible part {frame}: {outside}"


@pytest.mark.parametrize(("log", "root_visits"), [("deep", 5000), ("ttt", 300)])
def test_a_large_log_opens_readable_on_the_root_and_selected_path_pans_along_the_path(
    projector, app_url, logs, log, root_visits
):
    open_app(projector, app_url)
    upload(projector, logs[log], root_visits)
    view = settled(projector)
    assert_opening_view(projector, view)
    frame = visible_picture(projector, view["picture"])
    assert inside(view["root"], frame)
    # Drawn left to right, 300 nodes tall, its path spans thousands of px at a readable size: each
    # press shows the next stretch, readable, until every node of the path has been wholly in view.
    path = {key for key, _ in view["path"]}
    seen = {key for key, rect in view["path"] if inside(rect, frame)}
    assert len(path) == len(view["selected"]) + 1
    for _ in range(len(path)):
        after = press(projector, "Selected path")
        assert min(after["labels"]) >= READABLE_PX - 0.01
        shown = {key for key, rect in after["path"] if inside(rect, visible_picture(projector, after["picture"]))}
        assert shown, "a press of 'Selected path' showed none of the path"
        seen |= shown
    assert seen == path, f"never shown: {sorted(path - seen)}"


def test_fit_on_a_large_tree_shows_its_top_levels_readable_not_a_strip(projector, app_url, logs):
    open_app(projector, app_url)
    upload(projector, logs["deep"], 5000)
    settled(projector)
    projector.locator(GRAPH).first.get_by_role("button", name="Inspected node", exact=True).click()
    view = press(projector, "Fit")
    # The whole tree would be labels under 1 px: Fit shows its top, from the root, readable.
    assert min(view["labels"]) >= READABLE_PX - 0.01
    assert inside(view["root"], visible_picture(projector, view["picture"]))


PV_APP = """
import sys
sys.path.insert(0, {repo!r})
import streamlit as st
from mcts_core.inputs import read_input
from ui.picture.tree_view import Picture, show_tree

tree = read_input(open({log!r}).read()).tree
line = [0]
while tree.children[line[-1]]:
    line.append(max(tree.children[line[-1]], key=lambda kid: tree.visits[kid]))
mark = st.toggle("Mark the most visited line", value=True, key="mark_pv")
show_tree(Picture(tree, range(len(tree.visits)), layout_key="pv",
                  principal_variation=line if mark else None, path=line[:2],
                  label_px=float(st.query_params.get("label_px", 12))), key="pv_view")
"""


def test_the_principal_variation_is_marked_and_its_button_frames_it(projector, tmp_path, logs):
    tree = read_input(logs["chess"].read_text()).tree
    line = [0]
    while tree.children[line[-1]]:
        line.append(max(tree.children[line[-1]], key=lambda kid: tree.visits[kid]))
    assert len(line) == 6  # e2e4 e7e5 g1f3 b8c6 f1b5
    script = tmp_path / "pv_app.py"
    script.write_text(PV_APP.format(repo=str(REPO), log=str(logs["chess"])))
    process, url = start_streamlit(script, tmp_path / "pv.log", cwd=REPO)
    try:
        watched = open_app(projector, url)
        wait_for_graph(projector)
        picture = projector.locator(GRAPH).first
        marked = picture.locator("svg g.node.tv-pv").evaluate_all("nodes => nodes.map(n => n.getAttribute('data-path'))")
        assert {tuple(json.loads(key)) for key in marked} == {tuple(tree.path_moves(node)) for node in line}
        # Its edges too (one into every node but the root); the one the selected path shares is both.
        expect(picture.locator("svg g.edge.tv-pv")).to_have_count(len(line) - 1)
        expect(picture.locator("svg g.edge.tv-pv.tv-path")).to_have_count(1)
        # Drag the picture far off the line, then ask for it back.
        settled(projector)
        away = drag_away(projector)
        assert not all(inside(rect, visible_picture(projector, away["picture"])) for _, rect in away["pv"])
        view = press(projector, "Principal variation")
        frame = visible_picture(projector, view["picture"])
        assert min(view["labels"]) >= READABLE_PX - 0.01
        assert all(inside(rect, frame) for _, rect in view["pv"]), view["pv"]
        # Without a line to mark: no marking, no button.
        projector.locator(".st-key-mark_pv label").first.click()
        wait_idle(projector)
        expect(picture.locator("svg .tv-pv")).to_have_count(0)
        expect(picture.get_by_role("button", name="Principal variation")).to_be_hidden()
        watched.assert_clean()
    finally:
        stop_streamlit(process)


def test_a_projector_label_size_makes_every_view_zoom_to_it(projector, tmp_path, logs):
    script = tmp_path / "labels_app.py"
    script.write_text(PV_APP.format(repo=str(REPO), log=str(logs["chess"])))
    process, url = start_streamlit(script, tmp_path / "labels.log", cwd=REPO)
    try:
        watched = open_app(projector, url, "/?label_px=18")
        wait_for_graph(projector)
        for view in (settled(projector), press(projector, "Fit"), press(projector, "Selected path")):
            assert min(view["labels"]) >= 18 - 0.01
            assert inside(view["root"], visible_picture(projector, view["picture"]))
        watched.assert_clean()
    finally:
        stop_streamlit(process)


def test_inspected_node_frames_the_node_with_all_its_children(page, app_url, logs):
    # At 1920x1080 the chess root's four children fit at 14 px labels: centring the root at its
    # natural size (16 px) would leave e2e4 off the left edge.
    page.set_viewport_size({"width": 1920, "height": 1080})
    open_app(page, app_url)
    upload(page, logs["chess"], 15)
    settled(page)
    drag_away(page)
    view = press(page, "Inspected node")
    frame = visible_picture(page, view["picture"])
    assert [key for key, _ in view["inspected"]] == ["[]"]
    assert inside(view["root"], frame)
    assert len(view["children"]) == 4 and all(inside(rect, frame) for rect in view["children"])
    assert min(view["labels"]) >= READABLE_PX - 0.01
