"""The selected path stays in view on real trees (issue 38), in chromium at a 1366x768 projector size.

On each input a user brings (a 5,000-playout upload, our tic-tac-toe ``search`` log, an OpenSpiel
MCTSBot connect-four log, a 200,000-playout upload) every drawn node of the selected path is wholly
inside the picture's visible part, with labels at least 12 px tall: after opening, after a commit
of C that changes the path, and after one press of "Selected path" once the view was dragged away;
and at 1920x1080 too. ``dot`` put such a path's nodes thousands of pixels apart: 1 or 2 of 5 to 7
were in view. A path too long for one view shows its start and says how to follow it; a drag of C
keeps the live path in view; the Classroom's picture shows the node its question is about and that
node's children.
"""

from __future__ import annotations

import io
import json
import re

import numpy as np
import pytest
from playwright.sync_api import expect

from mcts_core import Scoring, select_path
from mcts_core.adapters.openspiel import search_log
from mcts_core.analysis import path_intervals
from mcts_core.inputs import read_input
from mcts_core.search import search

from bench.harness.browser import GRAPH, SLIDER, ServerMessages, eventually, open_app, playout_file, wait_idle
from .test_browser_drag import choose_example, grab_thumb, thumb_point
from .test_browser_framing import MEASURE, READABLE_PX, inside, upload, visible_picture

pytestmark = pytest.mark.browser

PROJECTOR = {"width": 1366, "height": 768}
WIDE = {"width": 1920, "height": 1080}
EXACT = ".st-key-c_exact input"
NOTE = f"{GRAPH} .tv-note"


def connect_four_log() -> str:
    """An OpenSpiel MCTSBot's connect-four search (300 simulations) as our log."""
    import pyspiel
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("connect_four")
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
    bot = mcts.MCTSBot(game, 2.0, 300, evaluator, random_state=np.random.RandomState(2))
    log = io.StringIO()
    search_log(bot, game.new_initial_state(), log)
    return log.getvalue()


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> dict:
    """name -> (file, root visits) for the inputs of issue 38."""
    folder = tmp_path_factory.mktemp("path_in_view")
    ttt = folder / "tic_tac_toe.jsonl"
    ttt.write_text(search("tic_tac_toe", scoring=Scoring(c=1.4), simulations=300, seed=3).log)
    c4 = folder / "connect_four.jsonl"
    c4.write_text(connect_four_log())
    return {
        "5,000 playouts": (playout_file(folder / "p5k.txt", 5_000), 5_000),
        "tic-tac-toe search log": (ttt, 300),
        "OpenSpiel connect-four log": (c4, 300),
        "200,000 playouts": (playout_file(folder / "p200k.txt", 200_000), 200_000),
    }


def path_outside(page) -> list[str]:
    """What is wrong with the selected path's nodes in the picture now: each drawn path node not
    wholly inside the visible part, a node of the path not drawn, labels under 12 px ([]: none)."""
    view = page.locator(GRAPH).first.evaluate(MEASURE)
    frame = visible_picture(page, view["picture"])
    wrong = [f"{path} outside" for path, rect in view["path"] if not inside(rect, frame)]
    if len(view["path"]) != len(view["selected"]) + 1:
        wrong.append(f"{len(view['path'])} path nodes drawn for {view['selected']}")
    if not view["labels"] or min(view["labels"]) < READABLE_PX - 0.01:
        wrong.append(f"labels {min(view['labels'], default=0):.1f} px")
    return wrong


def assert_path_in_view(page, when: str) -> None:
    """Every drawn node of the selected path in view at readable labels (once the view is made)."""
    try:
        eventually(lambda: path_outside(page), [], page=page)
    except AssertionError as problem:
        raise AssertionError(f"{when}: {problem}") from None


def pan_away(page) -> None:
    """Drag the picture by hand across its visible part, from its bottom-left to its top-right."""
    view = page.locator(GRAPH).first.evaluate(MEASURE)
    left, top, right, bottom = visible_picture(page, view["picture"])
    page.mouse.move(left + 20, bottom - 10)
    page.mouse.down()
    page.mouse.move(right - 20, top + 10, steps=8)
    page.mouse.up()


def another_path(tree, c: float, maximum: float) -> tuple[float, tuple[str, ...]]:
    """A C on the slider whose selected path differs from the one at ``c`` (and is at least 2 moves)."""
    now = tree.split_path(select_path(tree, Scoring(c=c)))
    for interval in path_intervals(tree, 0.0, maximum):
        moves = tree.split_path(interval.path)
        if moves != now and len(moves) >= 2:
            return round((interval.c_from + min(interval.c_to, maximum)) / 2, 4), moves
    raise AssertionError("no other path on the slider")


@pytest.mark.parametrize(
    "name", ["5,000 playouts", "tic-tac-toe search log", "OpenSpiel connect-four log", "200,000 playouts"]
)
def test_the_selected_path_is_in_view_after_opening_a_commit_and_one_press(page, app_url, inputs, name, output_dir):
    file, root_visits = inputs[name]
    tree = read_input(file.read_text()).tree
    page.set_viewport_size(PROJECTOR)
    watched = open_app(page, app_url)
    upload(page, file, root_visits)
    assert_path_in_view(page, "after opening")
    # A commit of C that changes the path: the new one is in view.
    c, moves = another_path(tree, float(page.locator(EXACT).input_value()), float(page.locator(SLIDER).get_attribute("max")))
    page.locator(EXACT).fill(repr(c))
    page.locator(EXACT).press("Enter")
    expect(page.locator(GRAPH).first).to_have_attribute("data-selected-path", json.dumps(list(moves), separators=(",", ":")))
    wait_idle(page)
    assert_path_in_view(page, f"after committing C = {c} (path {' '.join(moves)})")
    # Dragged away by hand, one press of "Selected path" frames the whole path.
    pan_away(page)
    eventually(lambda: bool(path_outside(page)), True, page=page)
    page.locator(GRAPH).first.get_by_role("button", name="Selected path", exact=True).click()
    assert_path_in_view(page, "after one press of Selected path")
    page.screenshot(path=output_dir / f"path_in_view_{re.sub(r'[^a-z0-9]+', '_', name.lower())}_1366.png")
    # A bigger screen frames it again (nobody moved the view since the press).
    page.set_viewport_size(WIDE)
    assert_path_in_view(page, "at 1920x1080")
    watched.assert_clean()


# Each node wholly or partly in the picture's visible part: its label lines that show, and its hover text.
LABELS_IN_VIEW = """root => {
  const box = (el) => el.getBoundingClientRect();
  const picture = box(root.querySelector('.tv-viewport'));
  const showing = (r) => r.right > picture.left && r.left < picture.right && r.bottom > Math.max(picture.top, 0)
    && r.top < Math.min(picture.bottom, innerHeight);
  return [...root.querySelectorAll('svg g.node[data-path]')]
    .filter((n) => showing(box(n.querySelector('path, polygon, ellipse'))))
    .map((n) => ({path: n.getAttribute('data-path'), tip: n.getAttribute('data-tip'),
      lines: [...n.querySelectorAll('text')].filter((t) => t.getBBox().width > 0 && getComputedStyle(t).display !== 'none')
        .map((t) => t.textContent)}));
}"""


def unlabelled_in_view(page) -> list[str]:
    """The nodes in view whose label does not show their visits as their hover text counts them ([]: none)."""
    nodes = page.locator(GRAPH).first.evaluate(LABELS_IN_VIEW)
    wrong = [] if nodes else ["no node in view"]
    for node in nodes:
        visits = re.search(r"^([\d,]+) visits?,", node["tip"], re.M).group(1).replace(",", "")
        if f"n={visits}" not in node["lines"]:
            wrong.append(f"{node['path']}: {node['lines']}")
    return wrong


@pytest.mark.parametrize("name", ["5,000 playouts", "200,000 playouts"])
def test_every_node_in_view_shows_its_label_wherever_the_view_goes(page, app_url, inputs, name):
    """A big picture's labels reach the page as text and become elements near the view (a fifth of
    the bytes to lay out): wherever the user looks, each box there reads its visits."""
    file, root_visits = inputs[name]
    page.set_viewport_size(PROJECTOR)
    watched = open_app(page, app_url)
    upload(page, file, root_visits)
    assert unlabelled_in_view(page) == [], "after opening"
    view = page.locator(GRAPH).first.evaluate(MEASURE)
    left, top, right, bottom = visible_picture(page, view["picture"])
    x, y = (left + right) / 2, (top + bottom) / 2
    for rise in (1, 1, 1, -1, -1, -1, -1):  # dragged by hand half a view at a time, down the tree then up past the path
        page.mouse.move(x, y + rise * (bottom - top) / 4)
        page.mouse.down()
        page.mouse.move(x - 40, y - rise * (bottom - top) / 4, steps=6)
        page.mouse.up()
        eventually(lambda: unlabelled_in_view(page), [], page=page)
    # Zoomed out a little at a time until the labels are too small to show, then in until they show.
    tiny = lambda: page.locator(f"{GRAPH} svg").evaluate("svg => svg.classList.contains('tv-tiny')")  # noqa: E731
    page.mouse.move(x, y)
    for step in (60, -60):
        for _ in range(60):
            if tiny() == (step > 0):
                break
            page.mouse.wheel(0, step)
            page.wait_for_function("() => new Promise((done) => requestAnimationFrame(() => done(true)))")
        assert tiny() == (step > 0)
    eventually(lambda: unlabelled_in_view(page), [], page=page)
    page.locator(GRAPH).first.get_by_role("button", name="Selected path", exact=True).click()
    eventually(lambda: unlabelled_in_view(page), [], page=page)
    watched.assert_clean()


def open_upload(page, app_url, inputs, name: str):
    """The Explorer at 1366x768 on one of the inputs: its tree, and the page's watcher."""
    file, root_visits = inputs[name]
    tree = read_input(file.read_text()).tree
    page.set_viewport_size(PROJECTOR)
    watched = open_app(page, app_url)
    upload(page, file, root_visits)
    return tree, watched


def drag_to_another_path(page, tree) -> tuple[str, ...]:
    """Press C's thumb and move it, held, to a C whose path is another; the live path the picture
    says it shows, which is the path at the C the slider shows."""
    slider = page.locator(SLIDER)
    maximum = float(slider.get_attribute("max"))
    c, _ = another_path(tree, float(slider.input_value()), maximum)
    grab_thumb(page, slider)
    page.mouse.move(*thumb_point(slider, c / maximum), steps=4)
    live = tuple(json.loads(page.locator(GRAPH).first.get_attribute("data-selected-path")))
    assert live == tree.split_path(select_path(tree, Scoring(c=float(slider.input_value()))))
    return live


def test_mid_drag_the_live_path_is_drawn_and_in_view_or_the_note_says_where_it_leaves(page, app_url, inputs):
    tree, watched = open_upload(page, app_url, inputs, "5,000 playouts")
    drag_to_another_path(page, tree)

    def followed() -> list[str]:
        wrong = path_outside(page)
        if not wrong:
            return []
        view = page.locator(GRAPH).first.evaluate(MEASURE)
        note = page.locator(NOTE).inner_text() if page.locator(NOTE).is_visible() else ""
        if inside(view["root"], visible_picture(page, view["picture"])) and re.search(r"first \d+ of \d+ moves? in view", note):
            return []
        return wrong + [f"note {note!r}"]

    eventually(followed, [], page=page)
    page.mouse.up()
    wait_idle(page)
    assert_path_in_view(page, "after the release")
    watched.assert_clean()


# The picture's edge elements: each one's data-path, classes, line colour and arrowhead fill; and
# whether the joined paths that draw a big drawing's other edges are there.
EDGES = """root => {
  const svg = root.querySelector('svg');
  return {
    joined: !!svg.querySelector('path.tv-edge-lines') && !!svg.querySelector('path.tv-edge-arrows'),
    edges: [...svg.querySelectorAll('g.edge')].map((g) => ({
      path: g.getAttribute('data-path'), classes: [...g.classList].filter((c) => c !== 'edge').sort(),
      line: getComputedStyle(g.querySelector('path:not(.tv-pv-halo)')).stroke,
      arrow: getComputedStyle(g.querySelector('polygon:not(.tv-pv-halo)')).fill,
    })),
    red: getComputedStyle(svg.querySelector('g.node.tv-path:not(.tv-inspected) path:not(.tv-pv-halo)')).stroke,
  };
}"""


def highlighted_edges(page) -> dict:
    """The edge elements of the picture by their data-path (as moves), with their classes; and
    what is wrong: a joined path missing, an edge element with no highlight, a path edge not red."""
    drawn = page.locator(GRAPH).first.evaluate(EDGES)
    wrong = [] if drawn["joined"] else ["no joined edge paths"]
    edges = {}
    for edge in drawn["edges"]:
        moves = tuple(json.loads(edge["path"]))
        edges[moves] = edge["classes"]
        if not edge["classes"]:
            wrong.append(f"{moves}: an edge element with no highlight")
        if "tv-path" in edge["classes"] and not edge["line"] == edge["arrow"] == drawn["red"]:
            wrong.append(f"{moves}: line {edge['line']}, arrowhead {edge['arrow']}, not the path's {drawn['red']}")
    return {"edges": edges, "wrong": wrong}


def path_edges(moves) -> set[tuple[str, ...]]:
    """The edges along a path of moves, each named by the moves to the node it enters."""
    return {tuple(moves[:depth]) for depth in range(1, len(moves) + 1)}


def test_a_big_drawings_edges_are_elements_only_where_highlighted_and_follow_a_drag(page, app_url, inputs):
    """A drawing of 300 nodes or more draws its edges by two joined paths (a third less of the
    browser's time for a new picture): the edges into the selected path's nodes (and the most
    visited line's) are elements of their own, in the path's red, and follow the path as C is
    dragged, and as it is committed; no other edge is an element."""
    server = ServerMessages(page)  # it reads the page's websocket: made before the page opens
    tree, watched = open_upload(page, app_url, inputs, "5,000 playouts")
    assert page.locator(f"{GRAPH} svg g.node[data-path]").count() >= 300

    def edges_of(moves) -> tuple[set, list]:
        seen = highlighted_edges(page)
        return {edge for edge, classes in seen["edges"].items() if "tv-path" in classes}, seen["wrong"]

    now = tree.split_path(select_path(tree, Scoring(c=float(page.locator(EXACT).input_value()))))
    eventually(lambda: edges_of(now), (path_edges(now), []), page=page)
    # Mid drag the path moves in the browser: its edges come with it, the old ones go back.
    live = drag_to_another_path(page, tree)
    assert live != now
    eventually(lambda: edges_of(live), (path_edges(live), []), page=page)
    # The release commits C: the box is read once that run has ended (before it, it may still show the
    # last frame's C, which the release can differ from).
    server.run(page.mouse.up)
    server.settle()
    committed = tree.split_path(select_path(tree, Scoring(c=float(page.locator(EXACT).input_value()))))
    eventually(lambda: edges_of(committed), (path_edges(committed), []), page=page)
    watched.assert_clean()


# A 12-move line of named moves (2-4 characters, as an engine names them), each move with two other
# choices tried once and lost, so the picture is a tree with labels as wide as real ones. A log's
# header sets C: the selected path is the line.
TWELVE_MOVES = ["e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6", "Be3", "e5"]
OTHER_MOVES = ["h3", "a3"]


def twelve_move_log(score: float) -> tuple[str, int]:
    """The log of the 12-move line (each playout on it scores ``score``, each other choice
    ``-score``) and its root's visits."""
    records = [{"mcts_log": 1, "c": 0.5}]
    for depth in range(1, len(TWELVE_MOVES) + 1):
        records += [{"path": TWELVE_MOVES[:depth], "score": score}] * 2 * (len(TWELVE_MOVES) + 1 - depth)
        records += [{"path": TWELVE_MOVES[: depth - 1] + [move], "score": -score} for move in OTHER_MOVES]
    return "".join(json.dumps(record) + "\n" for record in records), len(records) - 1


# Means of one digit ("μ=-1.00": boxes of 51 pt) and of two ("μ=-25.00": 58 pt, as the puzzle's scores
# give; those 13 columns need the page's narrower side padding).
@pytest.mark.parametrize("score", [1.0, 25.0])
def test_a_twelve_move_path_is_wholly_in_view_at_readable_labels(page, app_url, tmp_path, score):
    # Its 13 boxes (root and 12 moves) fit the picture of a 1366-pixel screen: with 24 pt between
    # columns the first 10 moves did.
    text, root_visits = twelve_move_log(score)
    log = tmp_path / "twelve_moves.jsonl"
    log.write_text(text)
    tree = read_input(text).tree
    assert tree.split_path(select_path(tree, Scoring(c=0.5))) == tuple(TWELVE_MOVES)
    for size in (PROJECTOR, WIDE):
        page.set_viewport_size(size)
        watched = open_app(page, app_url)
        upload(page, log, root_visits)
        expect(page.locator(GRAPH).first).to_have_attribute("data-selected-path", json.dumps(TWELVE_MOVES, separators=(",", ":")))
        assert_path_in_view(page, f"after opening at {size['width']}x{size['height']}")
        expect(page.locator(NOTE)).to_be_hidden()  # nothing to follow: the whole path is in view
        watched.assert_clean()


def test_a_path_too_long_for_one_view_shows_its_start_and_says_how_to_follow_it(page, app_url, tmp_path):
    # A line of 30 moves (each with a sibling, so the picture is a tree): 31 boxes do not fit 1366 px.
    words = ["a" * depth for depth in range(1, 31)] + ["a" * depth + "b" for depth in range(30)]
    log = tmp_path / "long_line.txt"
    log.write_text("".join(f"{word} {len(word)}\n" for word in words))
    page.set_viewport_size(PROJECTOR)
    watched = open_app(page, app_url)
    upload(page, log, len(words))
    expect(page.locator(GRAPH).first).to_have_attribute("data-selected-path", json.dumps(["a"] * 30, separators=(",", ":")))
    note = page.locator(NOTE)
    expect(note).to_have_text(re.compile(r"^Selected path: its first (\d+) of 30 moves in view, up to a+\. Press “Selected path” to follow it\.$"))
    shown = int(re.search(r"first (\d+)", note.inner_text())[1])
    assert shown >= 12, note.inner_text()  # at 1366x768 the first 12 moves at least
    view = page.locator(GRAPH).first.evaluate(MEASURE)
    frame = visible_picture(page, view["picture"])
    assert inside(view["root"], frame)
    assert sum(inside(rect, frame) for _, rect in view["path"]) == shown + 1
    # One press moves on along the line: the next stretch, from the last node in view.
    page.locator(GRAPH).first.get_by_role("button", name="Selected path", exact=True).click()
    expect(note).to_have_text(re.compile(r"^Selected path: moves (\d+)–(\d+) of 30 in view\. Press “Selected path” to follow it\.$"))
    start, end = map(int, re.search(r"moves (\d+)–(\d+)", note.inner_text()).groups())
    assert 1 <= start <= shown < end, note.inner_text()
    watched.assert_clean()


CLASS_NODES = """root => {
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const svg = root.querySelector('svg');
  const node = svg.querySelector('g.node.tv-inspected');
  const here = JSON.stringify(JSON.parse(node.getAttribute('data-path')));
  const children = [...svg.querySelectorAll('g.node[data-path]')].filter((kid) => {
    const moves = JSON.parse(kid.getAttribute('data-path'));
    return moves.length && JSON.stringify(moves.slice(0, -1)) === here;
  });
  const viewport = box(root.querySelector('.tv-viewport'));
  const buttons = [...root.querySelectorAll('.tv-toolbar button')].map(box);
  return {picture: [viewport[0], Math.max(...buttons.map((b) => b[3])), viewport[2], viewport[3]],
          node: [node.getAttribute('data-path'), box(node)], children: children.map((kid) => [kid.getAttribute('data-path'), box(kid)])};
}"""


def test_the_classroom_picture_shows_the_node_the_question_is_about_and_its_children(page, app_url):
    page.set_viewport_size(PROJECTOR)
    watched = open_app(page, app_url, "/classroom")
    choose_example(page, "Deep tree (400 playouts)")
    wait_idle(page)
    picture = page.locator(GRAPH).first
    for step in range(3):  # the root, then two nodes down the path

        def hidden() -> list[str]:
            seen = picture.evaluate(CLASS_NODES)
            frame = visible_picture(page, seen["picture"])
            parts = [seen["node"], *seen["children"]]
            return [path for path, rect in parts if not inside(rect, frame)] + ([] if seen["children"] else ["no children"])

        try:
            eventually(hidden, [], page=page)
        except AssertionError as problem:
            raise AssertionError(f"question {step + 1}: {problem}") from None
        if step < 2:
            page.locator('[class*="st-key-class_guess_"] button').first.click()
            wait_idle(page)
            page.locator(".st-key-class_next button").click()
            wait_idle(page)
    watched.assert_clean()


def test_a_classroom_node_with_more_children_than_fit_says_how_many_are_in_view(page, app_url, inputs):
    """On a 5,000-playout upload at 1366x768 the Classroom's picture has about 250 px in the window,
    and the root's 8 children need about 480 px at readable labels: the view shows the root and as
    many as fit, and the note says how many; at 1920x1080 all 8 fit and no note shows."""
    open_upload(page, app_url, inputs, "5,000 playouts")
    page.get_by_role("link", name="Classroom").click()
    wait_idle(page)
    picture = page.locator(GRAPH).first
    expect(picture.locator("svg g.node.tv-inspected")).to_have_attribute("data-path", "[]")

    note = page.locator(NOTE)

    def in_view() -> tuple[bool, int, int]:
        """The node, and how many of its children, wholly in the picture's visible part below the
        buttons and the note (a box under the note is not shown)."""
        seen = picture.evaluate(CLASS_NODES)
        frame = visible_picture(page, seen["picture"])
        if note.is_visible():
            frame[1] = max(frame[1], note.bounding_box()["y"] + note.bounding_box()["height"])
        return inside(seen["node"][1], frame), sum(inside(rect, frame) for _, rect in seen["children"]), len(seen["children"])

    expect(note).to_have_text(re.compile(r"^(\d) of the root’s 8 children in view: drag the picture to see the others\.$"))
    root_shown, shown, children = in_view()
    assert root_shown and children == 8 and 1 <= shown < 8
    assert note.inner_text().startswith(f"{shown} of")
    page.set_viewport_size(WIDE)
    expect(note).to_be_hidden()
    eventually(in_view, (True, 8, 8), page=page)
