"""Compare's verdict follows a drag: "Paths" (identical / split at X), the sentence under it (in its
box: green when identical, blue for a split) and the paths' lengths change in the browser while
either C control moves, as the committed rerun then shows them.

The page is Compare on the example "Deep tree (400 playouts)": B's UCB1 at C = 2.8 selects aaaabb,
and A's UCB1 path runs through aaaabb, aaaacab, aaacc, acc and ccaaa along A's slider, so dragging
A's C goes from identical to a split at aaaa, at aaa, at a and at the root. Every value read
mid-drag is checked against the core's :func:`compare_paths` at the slider's C.
"""

from __future__ import annotations

from playwright.sync_api import expect

from mcts_core import Scoring, build_tree, parse_playouts, select_path
from mcts_core.analysis import compare_paths
from mcts_core.inputs.examples import deep_tree

from bench.harness.browser import (
    SCREENS, SLIDER, ServerMessages, metric_value, open_app, use_screen, wait_for_graph, wait_idle,
)
from .test_browser_drag import EXACT, choose_example, count_sent_frames, grab_thumb, release, thumb_point

DEEP = build_tree(parse_playouts(deep_tree()))
B_C = 2.8  # the example's header C (1.4), doubled: what Compare gives B on a first visit
SENTENCE = ".st-key-live_text_compare_verdict_sentence p"  # the live text's words (ui/c/live_text.js)
BOX = {"identical": "lt-success", "split": "lt-info", "split_root": "lt-info"}  # the sentence's box by shape


def expected_verdict(c_a: float) -> tuple[str, str, str]:
    """(the "Paths" value, the sentence's shape, the sentence) the page shows with A's C at ``c_a``."""
    comparison = compare_paths(DEEP, Scoring(c=c_a), Scoring(c=B_C))
    if comparison.identical:
        path = DEEP.path(comparison.path_a[-1])
        return "identical", "identical", f"Both settings select the same path, {path}. " \
            "Change B's rule or C to see where they start to disagree."
    node = DEEP.path(comparison.split)
    sentence = (
        f"The paths split at {node or 'root'}: A takes {DEEP.move[comparison.choice_a]}, "
        f"B takes {DEEP.move[comparison.choice_b]}."
    )
    return f"split at {node or 'root'}", "split" if node else "split_root", sentence


def open_compare_on_the_deep_tree(page, url: str):
    watched = open_app(page, url, "/compare")
    choose_example(page, "Deep tree (400 playouts)")
    expect(page.locator(EXACT)).to_have_value("1.4")
    wait_idle(page)
    wait_for_graph(page)
    expect(page.locator(".st-key-cmp_c input")).to_have_value("2.8")
    expect(metric_value(page, "Paths")).to_have_text("identical")
    return watched


def drag_to(page, slider, c: float) -> float:
    """Move the held thumb to about ``c``; the C it holds."""
    page.mouse.move(*thumb_point(slider, c / float(slider.get_attribute("max"))), steps=3)
    return float(slider.input_value())


def expect_sentence(page, shape: str, sentence: str) -> None:
    """The sentence under the verdict says ``sentence``, in the box of its ``shape``."""
    shown = page.locator(SENTENCE)
    expect(shown).to_be_visible()
    expect(shown).to_have_text(sentence)
    expect(page.locator(f".st-key-live_text_compare_verdict_sentence .{BOX[shape]}")).to_have_count(1)


def expect_verdict(page, c_a: float) -> str:
    """The verdict at A's C ``c_a`` on the page, the sentence under it included. Returns the value."""
    value, shape, sentence = expected_verdict(c_a)
    expect(metric_value(page, "Paths")).to_have_text(value)
    path_a = select_path(DEEP, Scoring(c=c_a))
    expect(metric_value(page, "Path A")).to_have_text(path_a)
    expect(metric_value(page, "Length A")).to_have_text(str(len(path_a)))  # one move a character
    expect_sentence(page, shape, sentence)
    return value


def test_dragging_a_s_c_moves_the_verdict_and_its_sentence_before_release(page, app_url, output_dir):
    sent = count_sent_frames(page)
    server = ServerMessages(page)  # made before the page opens: it hears the page's socket
    watched = open_compare_on_the_deep_tree(page, app_url)
    slider = page.locator(SLIDER)
    before = len(sent)
    seen = set()
    # From identical (committed): to a split at aaaa, back to identical, and released at the split.
    grab_thumb(page, slider)
    for target in (20.0, 0.5, 25.0):
        seen.add(expect_verdict(page, drag_to(page, slider, target)))
    assert seen == {"identical", "split at aaaa"}
    assert len(sent) == before, "nothing goes to the server while the mouse is down"
    # The commit's run ends before the next drag counts frames: on a busy machine the commit went
    # out after the page looked idle (wait_idle), and was counted as sent during the next drag.
    c = release(page, server, slider)
    value, shape, sentence = expected_verdict(c)
    expect(metric_value(page, "Paths")).to_have_text(value)
    expect_sentence(page, shape, sentence)
    # From a split: the sentence's node and moves follow while it stays a split below the root. The
    # page at rest first: a run the commit's run asked for could go out during the drag (a CI run
    # counted one).
    server.settle()
    before = len(sent)
    grab_thumb(page, slider)
    for target in (44.0, 52.0, 80.0):
        seen.add(expect_verdict(page, drag_to(page, slider, target)))
        if target == 44.0:
            page.screenshot(path=output_dir / "compare_drag_split_sentence.png")
    assert {"split at aaa", "split at a", "split at root"} <= seen
    assert len(sent) == before
    c = float(slider.input_value())
    page.mouse.up()
    wait_idle(page)
    value, shape, sentence = expected_verdict(c)
    assert value == "split at root"
    expect(metric_value(page, "Paths")).to_have_text(value)
    expect_sentence(page, shape, sentence)
    watched.assert_clean()


def test_the_verdict_and_both_c_controls_are_on_screen_mid_drag(page, app_url, output_dir):
    server = ServerMessages(page)
    watched = open_compare_on_the_deep_tree(page, app_url)
    slider = page.locator(SLIDER)
    for screen, (width, height, theme) in enumerate(SCREENS):
        use_screen(page, width, height, theme)
        wait_for_graph(page)
        grab_thumb(page, slider)
        c = drag_to(page, slider, 44.0 - 4.0 * (screen % 2))  # each release commits another C
        expect_verdict(page, c)
        page.screenshot(path=output_dir / f"compare_drag_{theme}_{width}x{height}.png")
        # The verdict and both sliders inside the window while A's C is dragged.
        boxes = [metric_value(page, "Paths"), slider, page.locator(".st-key-cmp_c_live input[type=range]")]
        for box in boxes:
            where = box.bounding_box()
            assert 0 <= where["x"] and where["x"] + where["width"] <= width and where["y"] + where["height"] <= height, (
                f"at {width}x{height} {theme}", where)
        release(page, server, slider)
    watched.assert_clean()


def test_dragging_b_s_c_moves_the_verdict_too(page, app_url):
    watched = open_compare_on_the_deep_tree(page, app_url)
    b_slider = page.locator(".st-key-cmp_c_live input[type=range]")
    b_slider.scroll_into_view_if_needed()
    grab_thumb(page, b_slider)
    seen = set()
    for share in (0.3, 0.02):
        page.mouse.move(*thumb_point(b_slider, share), steps=3)
        comparison = compare_paths(DEEP, Scoring(c=1.4), Scoring(c=float(b_slider.input_value())))
        value = "identical" if comparison.identical else f"split at {DEEP.path(comparison.split) or 'root'}"
        expect(metric_value(page, "Paths")).to_have_text(value)
        seen.add(value)
    assert seen == {"identical", "split at root"}
    page.mouse.up()
    wait_idle(page)
    expect(metric_value(page, "Paths")).to_have_text(value)
    watched.assert_clean()
