"""Dragging C in the browser: the path follows on every frame, nothing reaches the server until release.

The C control is a custom component (``ui/c/c_control.js``); the tree picture follows it
through a window event. Each C read mid-drag is checked against the core's ``select_path`` at
that C, including the floats just below and at the exact breakpoints (``path_intervals``).
"""

from __future__ import annotations

import json
import math
import re

import pytest
from playwright.sync_api import expect

from mcts_core import ROOT, Scoring, build_tree, parse_playouts, score_children, select_path
from mcts_core.analysis import key_step, path_intervals
from mcts_core.drawing.tagged_svg import path_json
from mcts_core.inputs.examples import C_FLIPS_CHOICE, EXAMPLES
from ui.c.c_control import exact_text

from bench.harness.browser import (
    GRAPH,
    LOAD_TIMEOUT,
    SCREENS,
    SLIDER,
    ServerMessages,
    eventually,
    metric_value,
    open_app,
    playout_file,
    red_nodes,
    table_rows,
    tree_facts,
    use_screen,
    wait_for_graph,
    wait_idle,
)

EXACT = ".st-key-c_exact input"
PICTURE_CAPTION_C = ".st-key-live_text_explorer_picture strong"  # "Red: the selected path at C = x."
CHILDREN_PANEL = ".st-key-at_committed_c_selected_children"  # the table, its lead and why: the commit's
DIMMED = "0.4"  # the opacity of what only a commit updates, while C moves and until the commit has run


def choose_example(page, name: str) -> None:
    """Choose the sidebar's example ``name`` and wait until its run is over (the text box holds it)."""
    page.locator(".st-key-example").click()
    page.get_by_role("option", name=name).click()
    expect(page.locator(".st-key-playouts textarea")).to_have_value(EXAMPLES[name], timeout=LOAD_TIMEOUT)
    wait_idle(page)


FLIPS = build_tree(parse_playouts(C_FLIPS_CHOICE))  # "A larger C flips the choice": aa below C = 2.70, b from it
FLIPS_AT = path_intervals(FLIPS, 0.0, 10.0)[1].c_from  # where: about 2.70292


def open_flips_example(page, url: str, path: str = "/"):
    """A page of the app on "A larger C flips the choice" (its header's C, 0.5), run over; the console watch."""
    watched = open_app(page, url, path)
    choose_example(page, "A larger C flips the choice")
    expect(page.locator(EXACT)).to_have_value("0.5")
    wait_idle(page)
    return watched


def upload(page, path) -> None:
    page.locator('.st-key-upload input[type="file"]').set_input_files(path)


def count_sent_frames(page) -> list:
    """Every websocket frame the page sends (Streamlit's one socket carries reruns); call before
    opening the page, as Playwright reports only sockets opened after this."""
    sent = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(payload)))
    return sent


THUMB_PX = 16  # the thumb's width (c_control.css --cc-thumb): its centre runs from 8 px to width - 8 px


def thumb_point(slider, share: float) -> tuple[float, float]:
    """Where the thumb's centre is at ``share`` of the range (0 to 1) of the slider ``slider`` (a locator)."""
    box = slider.bounding_box()
    return box["x"] + THUMB_PX / 2 + (box["width"] - THUMB_PX) * share, box["y"] + box["height"] / 2


def grab_thumb(page, slider) -> None:
    """Press the mouse on the thumb of ``slider`` (a locator) where it is now."""
    page.mouse.move(*thumb_point(slider, float(slider.input_value()) / float(slider.get_attribute("max"))))
    page.mouse.down()


def release(page, server: ServerMessages, slider, exact: str = EXACT) -> float:
    """Let go of a drag on ``slider``; its C, once committed: when it is not the committed C (the
    ``exact`` box), the commit's run has ended; at the committed C nothing is sent (see
    test_a_drag_back_to_the_committed_c_commits_nothing_and_dims_nothing_after)."""
    c = float(slider.input_value())
    if c == float(page.locator(exact).input_value()):
        page.mouse.up()
    else:
        server.run(page.mouse.up)
    expect(page.locator(exact)).to_have_value(exact_text(c))
    return c


def teal_nodes(page) -> set[str]:
    """Paths (as JSON) of the drawn nodes on the picture's second path (teal; purple where shared)."""
    selector = f"{GRAPH} svg g.node.tv-second, {GRAPH} svg g.node.tv-both"
    return {node.get_attribute("data-path") for node in page.locator(selector).all()}


def prefix_ids(moves) -> set[str]:
    """Paths (as JSON) of the drawn nodes on the path ``moves``, root first."""
    return {path_json(tuple(moves[:depth])) for depth in range(len(moves) + 1)}


def drag_teal_path(page, slider, tree, check=lambda: None) -> set[tuple]:
    """With the mouse held on the thumb of ``slider``, move it across its range: at each stop the
    picture's teal path is UCB1's path in ``tree`` at the slider's C (then ``check()`` runs).
    Returns the paths seen."""
    seen = set()
    for fraction in (0.05, 0.9, 0.3, 0.95):
        page.mouse.move(*thumb_point(slider, fraction), steps=3)
        path = tree.split_path(select_path(tree, Scoring(c=float(slider.input_value()))))
        eventually(lambda: teal_nodes(page), prefix_ids(path), page=page)
        check()
        seen.add(path)
    return seen


def shown_path(page) -> list[str]:
    """The moves the tree picture marks as the selected path now (its root's data-selected-path)."""
    return json.loads(page.locator(GRAPH).first.get_attribute("data-selected-path"))


def slider_value(page) -> float:
    return float(page.locator(SLIDER).input_value())


def test_dragging_c_moves_the_red_path_before_release_and_sends_nothing(page, app_url, output_dir):
    sent = count_sent_frames(page)
    watched = open_flips_example(page, app_url)
    wait_for_graph(page)
    expect(metric_value(page, "Selected path")).to_have_text("aa")
    tree = FLIPS
    expected_at = lambda c: tree.split_path(select_path(tree, Scoring(c=c)))  # noqa: E731
    before = len(sent)
    grab_thumb(page, page.locator(SLIDER))
    seen, moved = set(), False
    for fraction in [0.1, 0.3, 0.5, 0.6, 0.8, 1.0, 0.7, 0.2, 0.9]:
        page.mouse.move(*thumb_point(page.locator(SLIDER), fraction), steps=4)
        c = slider_value(page)
        path = eventually(lambda: shown_path(page), list(expected_at(c)), page=page)
        # The drawn nodes on the path are red (tv-path) mid-drag, not only the root's attribute.
        assert red_nodes(page) == {json.dumps(list(path[:i]), separators=(",", ":")) for i in range(len(path) + 1)}
        expect(page.locator(".st-key-c .cc-live > span").first).to_have_text("Selected path: " + "".join(path))
        # The page's big "Selected path" value follows too (a live text of its own, ui/c/live_text.js).
        expect(metric_value(page, "Selected path")).to_have_text("".join(path))
        # The inspected node (the root) ranks its children at this C, the path's child first and marked.
        ranked = sorted(score_children(tree, ROOT, Scoring(c=c)), key=lambda kid: kid.rank)
        expect(page.locator(".st-key-c .cc-children li code")).to_have_text([kid.move for kid in ranked])
        expect(page.locator(".st-key-c .cc-children li.cc-winner code")).to_have_text(path[0])
        # The caption above the picture names the C the red path is at; the table's lead keeps the committed C.
        expect(page.locator(PICTURE_CAPTION_C)).to_have_text(f"C = {c:.6g}")
        # The exact box beside the slider says the same C, as it will once C is committed.
        expect(page.locator(EXACT)).to_have_value(exact_text(c))
        expect(page.get_by_text("Children under UCB1 at C = 0.5:")).to_be_visible()
        # ... and, once C has left it, is dimmed until the commit has run; the picture and the metrics,
        # which follow C, are not.
        moved = moved or c != 0.5
        expect(page.locator(CHILDREN_PANEL)).to_have_css("opacity", DIMMED if moved else "1")
        expect(page.locator(GRAPH)).to_have_css("opacity", "1")
        expect(page.locator(".st-key-live_text_selected_path")).to_have_css("opacity", "1")
        seen.add(tuple(path))
        if fraction == 0.9:
            page.screenshot(path=output_dir / "drag_mid_drag.png")
    assert len(seen) >= 2, "the drag must cross the flip at about C = 2.70"
    assert len(sent) == before, "nothing goes to the server while the mouse is down"
    c = slider_value(page)
    page.mouse.up()
    # Released: C is committed once, as a typed C would be, and the page's own widgets follow.
    expect(page.locator(EXACT)).to_have_value(exact_text(c))
    expect(metric_value(page, "Selected path")).to_have_text(select_path(tree, Scoring(c=c)))
    # The box and the metric said the new C before the release; the table's lead says it once committed.
    expect(page.get_by_text(f"Children under UCB1 at C = {c:.6g}:")).to_be_visible()
    assert len(sent) > before, "the release commits C"
    expect(page.locator(PICTURE_CAPTION_C)).to_have_text(f"C = {c:.6g}")
    expect(page.locator(CHILDREN_PANEL)).to_have_css("opacity", "1")
    wait_idle(page)
    expect(page).to_have_url(re.compile(rf"[?&]c={re.escape(repr(c))}(&|$)"))  # the link holds the new C
    # The children table shows the values at the new C, as Python writes them to 4 decimals.
    ucb1 = {kid.move: f"{kid.value:.4f}" for kid in score_children(tree, ROOT, Scoring(c=c))}
    eventually(lambda: {row["move"]: row["UCB1"] for row in table_rows(page)}, ucb1, page=page)
    assert shown_path(page) == list(expected_at(c))
    watched.assert_clean()


def open_2k_upload(page, app_url, tmp_path):
    """The Explorer on a 2,000-playout upload whose UCB1 path changes on the slider; its tree."""
    log = playout_file(tmp_path / "playouts_2k.txt", 2_000, seed=5)
    open_app(page, app_url)
    wait_for_graph(page)
    upload(page, log)
    expect(tree_facts(page)).to_contain_text("The tree of 2,000 playouts,", timeout=LOAD_TIMEOUT)
    return build_tree(parse_playouts(log.read_text()))


def test_the_path_is_exact_just_below_and_at_every_breakpoint(page, app_url, tmp_path):
    server = ServerMessages(page)
    tree = open_2k_upload(page, app_url, tmp_path)
    wait_idle(page)
    wait_for_graph(page)
    maximum = float(page.locator(SLIDER).get_attribute("max"))
    breakpoints = [part.c_from for part in path_intervals(tree, 0.0, maximum)][1:]
    assert breakpoints, "the upload's path must change somewhere on the slider"
    slider = page.locator(SLIDER)
    # Off the step grid (a step of "any"): as near each breakpoint as the range input holds a
    # number (about 15 digits), on both sides.
    slider.evaluate("input => { input.step = 'any'; }")
    for breakpoint in breakpoints[:6]:
        for c in (math.nextafter(breakpoint, 0.0), breakpoint, breakpoint * (1 - 1e-12), breakpoint * (1 + 1e-12)):
            slider.evaluate("(input, c) => { input.value = String(c); input.dispatchEvent(new Event('input')); }", c)
            held = slider_value(page)
            assert math.isclose(held, c, rel_tol=1e-12)
            expected = list(tree.split_path(select_path(tree, Scoring(c=held))))
            eventually(lambda: shown_path(page), expected, page=page)
    # (Scripted input events are not a drag: when the page takes longer than the 150 ms rest between
    # two of them, each rest commits. That nothing is sent during a real drag is the mouse test's.)
    # The last rest commits the slider's C: its run writes it into the URL.
    expect(page).to_have_url(re.compile(rf"[?&]c={re.escape(repr(held))}(&|$)"))
    wait_idle(page)
    # Exactly at a breakpoint (typed: the range input cannot hold every float) the control already
    # shows the new path, as the core does. Each typed C's run is waited for: just below the second
    # breakpoint the path is the one already shown (the path from the first), so the checks alone
    # would pass before that C reached the server and the next C would be typed over its run.
    for breakpoint in breakpoints[:2]:
        for c in (math.nextafter(breakpoint, 0.0), breakpoint):
            page.locator(EXACT).fill(repr(c))
            server.run(lambda: page.locator(EXACT).press("Enter"))
            expected = tree.split_path(select_path(tree, Scoring(c=c)))
            expect(page.locator(".st-key-c .cc-root")).to_have_attribute("data-path", json.dumps(list(expected), separators=(",", ":")))
            expect(metric_value(page, "Selected path")).to_have_text(select_path(tree, Scoring(c=c)))


def test_a_small_drawing_holds_every_path_the_slider_can_select(page, app_url, tmp_path):
    tree = open_2k_upload(page, app_url, tmp_path)
    page.get_by_text("Drawing limits").click()
    page.locator(".st-key-budget input").fill("12")
    page.locator(".st-key-budget input").press("Enter")
    # The 12-node drawing (and the few nodes the slider's paths add) replaced the 300-node one.
    eventually(lambda: page.locator(f"{GRAPH} svg g.node[data-path]").count() < 60, True, page=page)
    wait_idle(page)
    drawn = page.locator(f"{GRAPH} svg g.node[data-path]")
    before = set(drawn.evaluate_all("nodes => nodes.map(node => node.getAttribute('data-path'))"))
    slider = page.locator(SLIDER)
    maximum = float(slider.get_attribute("max"))
    paths = {part.moves for part in path_intervals(tree, 0.0, maximum)}
    assert len(paths) >= 2, "the upload's path must change on the slider"
    grab_thumb(page, slider)
    seen = set()
    for fraction in (0.02, 0.3, 0.6, 0.98):
        page.mouse.move(*thumb_point(slider, fraction), steps=3)
        path = tuple(tree.split_path(select_path(tree, Scoring(c=slider_value(page)))))
        # Mid-drag the red path is whole, down to its leaf, though the budget draws 12 nodes.
        whole = {json.dumps(list(path[:i]), separators=(",", ":")) for i in range(len(path) + 1)}
        eventually(lambda: red_nodes(page), whole, page=page)
        seen.add(path)
    assert len(seen) >= 2
    c = slider_value(page)
    page.mouse.up()
    expect(metric_value(page, "Selected path")).to_have_text(select_path(tree, Scoring(c=c)))
    wait_idle(page)
    # The commit drew no node anew (it lays them out along the new path, which the drawing held).
    assert set(drawn.evaluate_all("nodes => nodes.map(node => node.getAttribute('data-path'))")) == before


def test_ten_quick_arrow_presses_apply_ten_steps(page, app_url):
    sent = count_sent_frames(page)
    watched = open_flips_example(page, app_url)
    wait_for_graph(page)
    tree = FLIPS
    slider = page.locator(SLIDER)
    step = key_step(float(slider.get_attribute("max")))
    # Hover node b: its tooltip follows C while the keys move it.
    node_b = page.locator(f'{GRAPH} svg g.node[data-path=\'["b"]\']').first
    node_b.hover()
    expect(page.locator(f"{GRAPH} .tv-tip")).to_be_visible()
    slider.focus()
    before = len(sent)
    c = round(0.5 + 10 * step, 12)
    # Ten quick presses (under the 150 ms rest), dispatched in one task of the page so that no rest
    # falls between them however busy the machine; read on the next frame, before any rerun can
    # answer: the table is still at C = 0.5 (dimmed), while the exact box already says the keys' C.
    value, opacity, box = slider.evaluate(
        """async (slider, [panel, box]) => {
               for (let i = 0; i < 10; i++)
                   slider.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowRight", bubbles: true, cancelable: true}));
               await new Promise((resolve) => requestAnimationFrame(resolve));
               const table = document.querySelector(panel);
               table.getAnimations().forEach((fade) => fade.finish()); // the 0.1 s fade, at its end
               return [Number(slider.value), getComputedStyle(table).opacity, document.querySelector(box).value];
           }""",
        [CHILDREN_PANEL, EXACT],
    )
    assert math.isclose(value, c) and opacity == DIMMED and box == exact_text(float(value))
    tip = page.locator(f"{GRAPH} .tv-tip").inner_text()
    shown_value, shown_c = re.search(r"UCB1 (\S+) at C = (\S+)", tip).groups()
    b_value = next(kid.value for kid in score_children(tree, ROOT, Scoring(c=c)) if kid.move == "b")
    assert float(shown_c) == c and math.isclose(float(shown_value), b_value, rel_tol=1e-5)
    expect(page.locator(EXACT)).to_have_value(exact_text(slider_value(page)))
    expect(metric_value(page, "Selected path")).to_have_text(select_path(tree, Scoring(c=c)))
    expect(page.locator(CHILDREN_PANEL)).to_have_css("opacity", "1")  # the commit has run
    wait_idle(page)
    assert len(sent) == before + 1, "the ten presses rested once: one commit"
    assert math.isclose(float(page.locator(EXACT).input_value()), c)
    # A typed C moves the thumb back (the exact box still rules).
    page.locator(EXACT).fill("4.0")
    page.locator(EXACT).press("Enter")
    expect(page.locator('.st-key-c [data-testid="stSliderThumbValue"]')).to_have_text("4")
    expect(metric_value(page, "Selected path")).to_have_text(select_path(tree, Scoring(c=4.0)))
    assert slider_value(page) == 4.0
    watched.assert_clean()


def at_committed_c(page, path: str):
    """The sentence naming the committed C on the Explorer ("Children under UCB1 at C = x:") or the
    Classroom ("C = x. The root: ..."): a commit's run writes it."""
    return page.locator('[data-testid="stMarkdownContainer"]', has_text="Children under").last if path == "/" else \
        page.locator('[data-testid="stCaptionContainer"]', has_text="Score so far")


def is_one_two_five(x: float) -> bool:
    """x is 1, 2 or 5 times a power of ten."""
    mantissa = x / 10 ** math.floor(math.log10(x) + 1e-9)
    return any(math.isclose(mantissa, nice) for nice in (1, 2, 5))


@pytest.mark.parametrize("path", ["/", "/classroom"])
def test_keys_move_c_by_round_steps_that_follow_the_range(page, app_url, path):
    """Arrows move C by a round hundredth of the slider's range, Page Up/Down and Shift+arrow by ten
    of those, Home and End to the ends: from C = 0.5 past the flip at about 2.70 takes 9 presses
    (440 at the old step of 0.005). Keys from a typed C go to the round values on either side."""
    sent = count_sent_frames(page)
    watched = open_flips_example(page, app_url, path)
    wait_for_graph(page)
    slider = page.locator(SLIDER)
    top = float(slider.get_attribute("max"))
    slider.focus()
    page.keyboard.press("ArrowRight")
    step = round(slider_value(page) - 0.5, 12)
    assert top / 250 <= step <= top / 100 and is_one_two_five(step), f"an arrow moved C by {step} on [0, {top}]"
    page.keyboard.press("ArrowLeft")
    assert slider_value(page) == 0.5
    before = len(sent)
    # Nine presses in one go, as a user's quick presses under the 150 ms rest: dispatched in one task
    # of the page, so no rest can fall between them however busy the machine (the keys are handled
    # by the control's own keydown listener); the slider's value after each.
    keys = ["PageUp"] * 4 + ["ArrowRight"] * 5
    values = slider.evaluate(
        """(slider, keys) => keys.map((key) => {
               slider.dispatchEvent(new KeyboardEvent("keydown", {key, bubbles: true, cancelable: true}));
               return Number(slider.value);
           })""",
        keys,
    )
    expected = 0.5
    for key, value in zip(keys, values):
        expected = round(expected + (10 if key == "PageUp" else 1) * step, 12)
        assert math.isclose(value, expected), (key, value, expected)
    assert expected > FLIPS_AT > 0.5 and len(keys) == 9
    expect(page.locator(".st-key-c .cc-path")).to_have_text("b")  # the live path, before any commit
    expect(page.locator(EXACT)).to_have_value(exact_text(expected))
    expect(at_committed_c(page, path)).to_contain_text(f"C = {expected:.6g}")  # the keys rested: committed
    assert len(sent) == before + 1, "one commit for the nine presses"
    wait_idle(page)
    for key, change in [("Shift+ArrowLeft", -10), ("Shift+ArrowRight", 10), ("PageDown", -10), ("ArrowUp", 1), ("ArrowDown", -1)]:
        page.keyboard.press(key)
        expected = round(expected + change * step, 12)
        assert math.isclose(slider_value(page), expected), (key, slider_value(page), expected)
    page.keyboard.press("Home")
    assert slider_value(page) == 0.0
    page.keyboard.press("End")
    assert slider_value(page) == top
    expect(at_committed_c(page, path)).to_contain_text(f"C = {top:.6g}")
    wait_idle(page)
    # From a typed C between two steps, an arrow goes to the round value on its side.
    page.locator(EXACT).fill("2.70292")
    page.locator(EXACT).press("Enter")
    expect(page.locator('.st-key-c [data-testid="stSliderThumbValue"]')).to_have_text("2.70292")
    wait_idle(page)
    slider.focus()
    page.keyboard.press("ArrowRight")
    assert math.isclose(slider_value(page), math.ceil(2.70292 / step) * step)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert math.isclose(slider_value(page), (math.floor(2.70292 / step) - 1) * step)
    wait_idle(page)
    watched.assert_clean()


def test_a_tooltip_open_through_a_commit_shows_the_committed_values(page, app_url):
    """The pointer rests on a node while C is typed: its tooltip says the value at the new C."""
    watched = open_flips_example(page, app_url)
    wait_for_graph(page)
    assert select_path(FLIPS, Scoring(c=0.6)) == select_path(FLIPS, Scoring(c=0.5))  # the same picture
    page.locator(f'{GRAPH} svg g.node[data-path=\'["b"]\']').first.hover()
    before = next(kid for kid in score_children(FLIPS, ROOT, Scoring(c=0.5)) if kid.move == "b")
    expect(page.locator(f"{GRAPH} .tv-tip")).to_contain_text(f"UCB1 {before.value:.6g} (rank {before.rank})")
    page.locator(EXACT).fill("0.6")
    page.locator(EXACT).press("Enter")
    after = next(kid for kid in score_children(FLIPS, ROOT, Scoring(c=0.6)) if kid.move == "b")
    expect(page.locator(f"{GRAPH} .tv-tip")).to_contain_text(f"UCB1 {after.value:.6g} (rank {after.rank})")
    expect(page.locator(f"{GRAPH} .tv-tip")).to_be_visible()
    wait_idle(page)
    watched.assert_clean()


def test_the_hover_follows_keys_after_a_commit_from_the_lines_the_page_kept(page, app_url):
    """A commit sends the values at its C but not the value lines again: the page keeps them."""
    watched = open_flips_example(page, app_url)
    wait_for_graph(page)
    page.locator(EXACT).fill("2.0")
    page.locator(EXACT).press("Enter")
    expect(metric_value(page, "Selected path")).to_have_text(select_path(FLIPS, Scoring(c=2.0)))
    wait_idle(page)
    node_b = page.locator(f'{GRAPH} svg g.node[data-path=\'["b"]\']').first
    node_b.hover()
    at_rest = next(kid for kid in score_children(FLIPS, ROOT, Scoring(c=2.0)) if kid.move == "b")
    expect(page.locator(f"{GRAPH} .tv-tip")).to_contain_text(f"UCB1 {at_rest.value:.6g} (rank {at_rest.rank})")
    slider = page.locator(SLIDER)
    slider.focus()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    c = slider_value(page)
    assert c > 2.0
    # The tip follows the C control on its next animation frame.
    expect(page.locator(f"{GRAPH} .tv-tip")).to_contain_text(f" at C = {c:.6g}")
    shown_value = re.search(r"UCB1 (\S+) at C = ", page.locator(f"{GRAPH} .tv-tip").inner_text()).group(1)
    b_value = next(kid.value for kid in score_children(FLIPS, ROOT, Scoring(c=c)) if kid.move == "b")
    assert math.isclose(float(shown_value), b_value, rel_tol=1e-5)
    wait_idle(page)
    watched.assert_clean()


def test_a_drag_back_to_the_committed_c_commits_nothing_and_dims_nothing_after(page, app_url):
    sent = count_sent_frames(page)
    watched = open_flips_example(page, app_url)
    wait_for_graph(page)
    slider = page.locator(SLIDER)
    start = thumb_point(slider, float(slider.input_value()) / float(slider.get_attribute("max")))
    before = len(sent)
    grab_thumb(page, slider)
    page.mouse.move(*thumb_point(slider, 0.9), steps=4)
    expect(page.locator(CHILDREN_PANEL)).to_have_css("opacity", DIMMED)
    expect(page.locator(EXACT)).to_have_value(exact_text(slider_value(page)))
    page.mouse.move(*start, steps=4)
    assert slider_value(page) == 0.5
    page.mouse.up()
    # No rerun will come: the page is at its C again as soon as the mouse is up, the exact box too.
    expect(page.locator(CHILDREN_PANEL)).to_have_css("opacity", "1")
    expect(page.locator(EXACT)).to_have_value("0.5")
    expect(metric_value(page, "Selected path")).to_have_text("aa")
    page.wait_for_timeout(300)  # time is the behaviour here: past the 150 ms rest, nothing was sent
    assert len(sent) == before, "a drag that ends where it started commits nothing"
    watched.assert_clean()


def open_compare_on_the_flip_example(page, app_url):
    """Compare on "A larger C flips the choice" (A and B at C = 0.5): the console watch and the tree."""
    watched = open_flips_example(page, app_url, "/compare")
    wait_for_graph(page)
    return watched, FLIPS


PAIR_CAPTION_C = ".st-key-live_text_compare_picture strong"  # "Red: A's path (UCB1, C = a). Teal: B's (..., C = b)."
SPLIT_PANEL = ".st-key-at_committed_c_any_split"  # where the paths split: both settings' committed Cs


def test_dragging_b_s_c_on_compare_moves_its_teal_path_before_release(page, app_url):
    sent = count_sent_frames(page)
    watched, tree = open_compare_on_the_flip_example(page, app_url)
    b_slider = page.locator(".st-key-cmp_c_live input[type=range]")
    before = len(sent)
    grab_thumb(page, b_slider)

    def path_b_metric_follows():  # the "Path B" metric names the live path too, as B's control does
        c_b = float(b_slider.input_value())
        path = select_path(tree, Scoring(c=c_b))
        expect(metric_value(page, "Path B")).to_have_text(path)
        expect(page.locator(".st-key-cmp_c_live .cc-live > span").first).to_have_text(f"Path B: {path}")
        # The caption names B's C as B's teal path has it, and A's as it was; the split's table waits.
        expect(page.locator(PAIR_CAPTION_C)).to_have_text(["C = 0.5", f"C = {c_b:.6g}"])
        # The box beside B's slider says B's C as the slider has it, as A's exact box does for A's.
        expect(page.locator(".st-key-cmp_c input")).to_have_value(f"{c_b:.6g}")
        expect(page.locator(SPLIT_PANEL)).to_have_css("opacity", DIMMED)

    assert len(drag_teal_path(page, b_slider, tree, path_b_metric_follows)) == 2  # B's rule is UCB1 here too
    assert len(sent) == before
    c = float(b_slider.input_value())
    page.mouse.up()
    expect(metric_value(page, "Path B")).to_have_text(select_path(tree, Scoring(c=c)))
    expect(page.locator(".st-key-cmp_c input")).to_have_value(f"{c:.6g}")
    expect(page.locator(SPLIT_PANEL)).to_have_css("opacity", "1")
    watched.assert_clean()


def hovered_value(page) -> float:
    """The value the hovered node's tooltip shows: the live one while C moves in the browser ("UCB1 v
    at C = c"), or the committed one once the page's run is over ("UCB1 v (rank r)")."""
    found = re.search(r"UCB1 (\S+) (?:at C = |\(rank )", page.locator(f"{GRAPH} .tv-tip").inner_text())
    return float(found[1]) if found else math.nan


def hovers_value(page, expected: float) -> bool:
    return math.isclose(hovered_value(page), expected, rel_tol=1e-5)  # the tooltip writes 6 digits


def test_compare_hovers_follow_a_s_c_and_not_b_s(page, app_url):
    watched, tree = open_compare_on_the_flip_example(page, app_url)
    b_value_at = lambda c: next(kid.value for kid in score_children(tree, ROOT, Scoring(c=c)) if kid.move == "b")  # noqa: E731
    page.locator(f'{GRAPH} svg g.node[data-path=\'["b"]\']').first.hover()
    expect(page.locator(f"{GRAPH} .tv-tip")).to_be_visible()
    a_slider, b_slider = page.locator(SLIDER), page.locator(".st-key-cmp_c_live input[type=range]")
    a_slider.focus()
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    a_c = float(a_slider.input_value())
    assert b_value_at(a_c) != b_value_at(0.5)  # where the hover started
    # The keys commit after their rest: the tooltip says A's value live, then committed (a busy
    # machine may show only the second).
    eventually(lambda: hovers_value(page, b_value_at(a_c)), True, page=page)
    # Setting A's name and the picture's caption say A's C; B's stays.
    expect(page.locator(".st-key-live_text_compare_setting_a strong")).to_have_text(f"C = {a_c:.6g}")
    expect(page.locator(PAIR_CAPTION_C)).to_have_text([f"C = {a_c:.6g}", "C = 1"])  # B starts at twice A's C
    wait_idle(page)
    # B's slider moves B's teal path; the hover keeps A's value at A's C.
    b_slider.focus()
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    b_c = float(b_slider.input_value())
    assert b_c != a_c
    # Once the page shows B's new C (the caption follows B's slider), the hover still says A's.
    expect(page.locator(PAIR_CAPTION_C)).to_have_text([f"C = {a_c:.6g}", f"C = {b_c:.6g}"])
    assert b_value_at(b_c) != b_value_at(a_c)
    assert hovers_value(page, b_value_at(a_c))
    wait_idle(page)
    watched.assert_clean()


def test_classroom_drag_ranks_the_choosing_node_s_children_and_keeps_the_walk_red(page, app_url):
    sent = count_sent_frames(page)
    watched = open_flips_example(page, app_url, "/classroom")
    wait_for_graph(page)
    tree = FLIPS
    slider = page.locator(SLIDER)
    # At rest the control does not give the answer away: students guess it.
    expect(page.locator(".st-key-c .cc-live")).not_to_be_visible()
    before = len(sent)
    grab_thumb(page, slider)
    winners = set()
    for fraction in (0.1, 0.9):
        page.mouse.move(*thumb_point(slider, fraction), steps=3)
        c = slider_value(page)
        ranked = sorted(score_children(tree, ROOT, Scoring(c=c)), key=lambda kid: kid.rank)
        expect(page.locator(".st-key-c .cc-children li code")).to_have_text([kid.move for kid in ranked])
        expect(page.locator(".st-key-c .cc-children li.cc-winner code")).to_have_text(ranked[0].move)
        winners.add(ranked[0].move)
        # The red path is the walk so far (the root), not the selected path at the dragged C.
        assert red_nodes(page) == {"[]"}
        # The exercise is the committed C's (a commit restarts it): it waits, dimmed, once C has left it.
        expect(page.locator(".st-key-at_committed_c_selected_question")).to_have_css("opacity", "1" if c == 0.5 else DIMMED)
    assert len(winners) == 2, "the answer flips at about C = 2.70"
    assert len(sent) == before
    page.mouse.up()
    wait_idle(page)
    expect(page.locator(".st-key-c .cc-live")).not_to_be_visible()
    expect(page.locator(".st-key-at_committed_c_selected_question")).to_have_css("opacity", "1")
    watched.assert_clean()


def test_the_c_control_fits_beside_the_exact_box_mid_drag(page, app_url, output_dir):
    server = ServerMessages(page)
    watched = open_flips_example(page, app_url)
    for screen, (width, height, theme) in enumerate(SCREENS):
        use_screen(page, width, height, theme)
        wait_for_graph(page)
        slider = page.locator(SLIDER).bounding_box()
        exact = page.locator(EXACT).bounding_box()
        page.mouse.move(*thumb_point(page.locator(SLIDER), 0.1))
        page.mouse.down()
        # Each screen's drag ends at another C past the flip, so each release commits.
        page.mouse.move(*thumb_point(page.locator(SLIDER), 0.75 + 0.05 * screen), steps=5)
        expect(page.locator(".st-key-c .cc-path")).to_have_text("b")
        page.screenshot(path=output_dir / f"drag_{theme}_{width}x{height}.png")
        live = page.locator(".st-key-c .cc-live").bounding_box()
        # On screen, left of the exact box, and the live line (path, ranked children) inside the window.
        where = f"at {width}x{height} {theme}"
        assert 0 <= slider["x"] and slider["x"] + slider["width"] < exact["x"] <= width - exact["width"], where
        assert 0 <= live["x"] and live["x"] + live["width"] <= exact["x"] and live["y"] + live["height"] <= height, where
        release(page, server, page.locator(SLIDER))
    watched.assert_clean()
