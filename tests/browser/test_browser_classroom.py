"""The Classroom in chromium: nothing gives the answer away at rest, the presentation view fits a
projector, its C control stays at hand, and nothing names an old C while C is dragged."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from mcts_core.analysis import path_intervals
from ui.c.c_control import exact_text

from bench.harness.browser import (
    GRAPH, LOAD_TIMEOUT, SCREENS, SLIDER, eventually, open_app, use_screen, wait_for_graph, wait_idle,
)
from .test_browser_drag import DIMMED, EXACT, FLIPS, choose_example, grab_thumb, slider_value, thumb_point


PRESENTATION = ".st-key-class_presentation label"
QUESTION = ".st-key-at_committed_c_selected_question"
GUESS_BUTTONS = '[class*="st-key-class_guess_"] button'
TICKS = ".st-key-c .cc-mark"  # where the selected path changes, on the C slider's track
# Where the example's selected path changes with C (about 2.70), as the page would write it.
FLIPS_AT = [f"{interval.c_from:.6g}" for interval in path_intervals(FLIPS, 0.0, 10.0)[1:]]


def open_classroom(page, url: str, *, presentation: bool):
    """The Classroom on "A larger C flips the choice" (C = 0.5), in the presentation view or not."""
    watched = open_app(page, url, "/classroom")
    choose_example(page, "A larger C flips the choice")
    expect(page.locator(EXACT)).to_have_value("0.5")
    wait_idle(page)
    if presentation:
        page.locator(PRESENTATION).click()
        # The projector's own picture, once the run that made it is over (the page's picture until
        # then is the other one, about to go).
        expect(page.locator(f".st-key-class_projector_tree_view {GRAPH}")).to_have_count(1, timeout=LOAD_TIMEOUT)
        expect(page.locator(".st-key-class_tree_view")).to_have_count(0, timeout=LOAD_TIMEOUT)
        wait_idle(page)
    wait_for_graph(page)
    return watched


def facts(page):
    """The caption under the question: "C = x. The root: ... Score so far: ..."."""
    return page.locator('[data-testid="stCaptionContainer"]', has_text="Score so far")


def main_text(page) -> str:
    """What the page's main part shows as text (collapsed expanders and hidden parts left out)."""
    return page.locator('[data-testid="stMain"]').inner_text()


@pytest.mark.parametrize("presentation", [False, True], ids=["normal", "presentation"])
def test_at_rest_the_classroom_shows_neither_the_path_nor_where_it_changes(page, app_url, presentation):
    watched = open_classroom(page, app_url, presentation=presentation)
    assert FLIPS_AT, "the example's path changes with C"
    expect(page.locator(QUESTION)).to_contain_text("Which child does UCB1 pick at the root?")
    # Neither the path under the slider, nor the ticks where it changes, nor a sentence saying where.
    expect(page.locator(".st-key-c .cc-live")).not_to_be_visible()
    expect(page.locator(TICKS)).to_have_count(len(FLIPS_AT))
    for tick in page.locator(TICKS).all():
        expect(tick).not_to_be_visible()
    text = main_text(page)
    assert "path changes" not in text and not any(flip in text for flip in FLIPS_AT), text
    # Nor the picture's layout: it keeps the walk so far (here the root) on its straight row, not the
    # child the rule picks, so a C where the answer is b lays it out as one where the answer is a.
    laid_out = node_places(page)
    assert {path for path, _ in laid_out} >= {'["a"]', '["b"]'}
    slider = page.locator(SLIDER)
    grab_thumb(page, slider)
    page.mouse.move(*thumb_point(slider, 0.9), steps=3)
    expect(page.locator(TICKS).first).to_be_visible()
    expect(page.locator(".st-key-c .cc-path")).to_have_text("b")
    page.mouse.up()
    wait_idle(page)
    # ... and once C is committed, nothing again.
    expect(page.locator(TICKS).first).not_to_be_visible()
    expect(page.locator(".st-key-c .cc-live")).not_to_be_visible()
    wait_for_graph(page)
    assert node_places(page) == laid_out, "the picture was laid out along the answer at the new C"
    watched.assert_clean()


def node_places(page) -> list:
    """Each drawn node's path and where the layout put its label (SVG units, not the screen)."""
    return page.locator(f"{GRAPH} svg g.node[data-path]").evaluate_all(
        "nodes => nodes.map(node => [node.dataset.path, [...node.querySelectorAll('text')].map("
        "text => [text.getAttribute('x'), text.getAttribute('y')])])"
    )


# The picture's visible part (its viewport below the toolbar, inside the window), every drawn
# node's box, the width the page's content has, the title's and the guess buttons' boxes.
PICTURE_GEOMETRY = """root => {
    const box = (el) => { const r = el.getBoundingClientRect(); return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
    const viewport = box(root.querySelector('.tv-viewport'));
    const toolbar = box(root.querySelector('.tv-toolbar'));
    const content = document.querySelector('[data-testid="stMainBlockContainer"]');
    const style = getComputedStyle(content);
    return {
        visible: {left: viewport.left, right: viewport.right, top: Math.max(viewport.top, toolbar.bottom),
                  bottom: Math.min(viewport.bottom, window.innerHeight)},
        nodes: [...root.querySelectorAll('svg g.node[data-path]')].map(node => [node.getAttribute('data-path'), box(node)]),
        content_width: content.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
        window_height: window.innerHeight,
        title: box(document.querySelector('[data-testid="stMain"] h2')),
        buttons: [...document.querySelectorAll('[class*="st-key-class_guess_"] button')].map(box),
    };
}"""


def outside(node: dict, area: dict) -> bool:
    return (node["left"] < area["left"] - 0.5 or node["right"] > area["right"] + 0.5
            or node["top"] < area["top"] - 0.5 or node["bottom"] > area["bottom"] + 0.5)


def test_the_presentation_view_shows_the_whole_small_tree_beside_the_question(page, app_url, output_dir):
    """On a projector the question, its buttons and the whole 7-node tree are on screen together,
    and the picture takes most of the page's width: on each screen the window is moved to."""
    watched = open_classroom(page, app_url, presentation=True)
    expect(page.locator(GUESS_BUTTONS)).to_have_count(2)
    picture = page.locator(GRAPH).first

    def cut_nodes() -> list[str]:
        geometry = picture.evaluate(PICTURE_GEOMETRY)
        if geometry["visible"]["right"] <= geometry["visible"]["left"]:
            return ["(the picture is not laid out yet)"]
        return [path for path, node in geometry["nodes"] if outside(node, geometry["visible"])]

    geometry = picture.evaluate(PICTURE_GEOMETRY)
    assert len(geometry["nodes"]) == len(FLIPS.visits), "every node of the small tree is drawn"
    for width, height, theme in SCREENS:
        use_screen(page, width, height, theme)
        try:
            eventually(cut_nodes, [], page=page)  # the view takes its frame after the window's resize
        finally:
            page.screenshot(path=output_dir / f"classroom_presentation_{theme}_{width}x{height}.png")
        geometry = picture.evaluate(PICTURE_GEOMETRY)
        visible = geometry["visible"]
        assert visible["right"] - visible["left"] >= 0.55 * geometry["content_width"], (width, height, geometry)
        for part in [geometry["title"], *geometry["buttons"]]:
            assert 0 <= part["top"] and part["bottom"] <= geometry["window_height"], ("below the fold", width, part)
    watched.assert_clean()


def test_the_presentation_view_keeps_the_c_control_at_hand_through_drags_and_commits(page, app_url):
    """A teacher moves C again and again between questions: the control never closes on them."""
    watched = open_classroom(page, app_url, presentation=True)
    slider = page.locator(SLIDER)
    readout = page.locator('.st-key-c [data-testid="stSliderThumbValue"]')
    for share in (0.8, 0.2):  # a drag across the flip and back, each committed on release
        expect(slider).to_be_visible()
        grab_thumb(page, slider)
        page.mouse.move(*thumb_point(slider, share), steps=3)
        page.mouse.up()
        c = slider_value(page)
        expect(page.locator(EXACT)).to_have_value(exact_text(c))
        wait_idle(page)
        expect(facts(page)).to_contain_text(f"C = {c:.6g}.")  # committed: the exercise at the new C
        expect(slider).to_be_visible()
        expect(readout).to_have_text(f"{c:.6g}")
    page.locator(EXACT).fill("4.0")  # a typed C commits too
    page.locator(EXACT).press("Enter")
    wait_idle(page)
    expect(facts(page)).to_contain_text("C = 4.")
    expect(slider).to_be_visible()
    expect(readout).to_have_text("4")
    watched.assert_clean()


# Every visible piece of the page's text naming "C = <committed>", with the opacity it is drawn at
# (the product of its ancestors' opacities): the innermost elements holding it.
OLD_C_TEXTS = """committed => {
    const names = (el) => new RegExp(`C = ${committed.replace('.', '[.]')}(?![0-9])`).test(el.textContent);
    const main = document.querySelector('[data-testid="stMain"]');
    return [...main.querySelectorAll('*')]
        .filter(el => names(el) && ![...el.children].some(names) && el.getClientRects().length
                      && getComputedStyle(el).visibility === 'visible')
        .map(el => {
            let opacity = 1;
            for (let up = el; up; up = up.parentElement) opacity *= parseFloat(getComputedStyle(up).opacity);
            return [el.textContent.trim(), opacity];
        });
}"""


@pytest.mark.parametrize("presentation", [False, True], ids=["normal", "presentation"])
def test_while_c_is_dragged_nothing_names_the_committed_c_as_current(page, app_url, presentation):
    """Mid-drag, a text naming the committed C (the title's caption, the formula's) is dimmed as
    stale, as everything the release updates is; the slider shows the dragged C."""
    watched = open_classroom(page, app_url, presentation=presentation)
    slider = page.locator(SLIDER)
    grab_thumb(page, slider)
    page.mouse.move(*thumb_point(slider, 0.9), steps=3)
    c = slider_value(page)
    assert c != 0.5
    expect(page.locator('.st-key-c [data-testid="stSliderThumbValue"]')).to_have_text(f"{c:.6g}")
    expect(page.locator(QUESTION)).to_have_css("opacity", DIMMED)
    old = page.evaluate(OLD_C_TEXTS, "0.5")
    assert old, "the question names its C"
    assert all(opacity <= float(DIMMED) for _, opacity in old), f"the committed C shown as current mid-drag: {old}"
    page.mouse.up()
    wait_idle(page)
    expect(page.locator(QUESTION)).to_have_css("opacity", "1")
    watched.assert_clean()
