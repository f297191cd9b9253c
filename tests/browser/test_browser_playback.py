"""Playback in a real chromium: Play keeps the chosen speed on a 5,000-playout log, Pause leaves k where it
shows; with the rule's path on, dragging C moves the teal path in the frame's tree before release."""

from __future__ import annotations

import re
import subprocess
import sys

from playwright.sync_api import expect

from mcts_core import Scoring, build_tree, parse_playouts, select_path
from mcts_core.inputs.examples import C_FLIPS_CHOICE
from mcts_core.model import default_stride
from ui.c.c_control import exact_text

from bench.harness.browser import (
    GRAPH,
    LOAD_TIMEOUT,
    SCREENS,
    ServerMessages,
    eventually,
    metric_value,
    open_app,
    REPO,
    playout_file,
    shown_values,
    tree_facts,
    use_screen,
    wait_for_graph,
    wait_idle,
    watch_values,
)
from .test_browser_drag import count_sent_frames, drag_teal_path, grab_thumb, prefix_ids, release, teal_nodes, thumb_point



def shown_k(page) -> int:
    """k from the Playout metric ("1,234 / 5,000")."""
    return int(metric_value(page, "Playout").inner_text().split("/")[0].replace(",", "").strip())


SLIDER_K = '.st-key-playback_k [data-testid="stSliderThumbValue"]'  # the k slider's label


def slider_k(page) -> int:
    return int(page.locator(SLIDER_K).inner_text().replace(",", ""))


STRIDE_BOX = ".st-key-playback_stride input"


def test_play_steps_by_strides_at_the_chosen_speed_and_pause_keeps_slider_and_metric_together(page, app_url, tmp_path):
    """Play asks the page to rerun the frame every "seconds per step" (the server's own timer
    message) and k moves by whole strides; Pause takes the timer back. How fast a step runs on a big
    log is a benchmark's figure (bench/bench_playback.py), not this test's."""
    log = playout_file(tmp_path / "playouts_5k.txt", 5_000, seed=3)
    server = ServerMessages(page)
    watched = open_app(page, app_url)
    page.locator('.st-key-upload input[type="file"]').set_input_files(log)
    expect(tree_facts(page)).to_contain_text("The tree of 5,000 playouts,", timeout=LOAD_TIMEOUT)
    watch_values(page, STRIDE_BOX)
    page.locator('[data-testid="stSidebarNav"] a', has_text="Playback").click()
    expect(metric_value(page, "Playout")).to_have_text(re.compile(r"/ 5,000$"), timeout=LOAD_TIMEOUT)
    wait_idle(page)
    # A whole replay in about a minute (84 for 5,000 playouts), from the moment the box is on the page
    # (it used to show 1 for 0.4-0.6 s).
    expected = str(default_stride(5_000))
    expect(page.locator(STRIDE_BOX)).to_have_value(expected)
    assert shown_values(page, STRIDE_BOX) == [expected]
    stride = int(page.locator(STRIDE_BOX).input_value())
    start = shown_k(page)

    server.run(lambda: page.locator(".st-key-playback_play button").click())  # the default speed: 1 s a step
    assert list(server.timers.values()) == [1.0]
    ticks = server.fragment_runs
    server.until(lambda: server.fragment_runs >= ticks + 3, what="three ticks of Play")
    expect(metric_value(page, "Playout")).not_to_have_text(re.compile(rf"^{start:,} /"))
    # Pause: no tick is asked for any more, so k stays where it is. A tick already under way can end
    # after the click, before the Pause's own run: wait for the server to take the timer back.
    page.locator(".st-key-playback_play button").click()
    server.until(lambda: server.timers == {} and not server.running, what="Pause takes Play's timer back")
    wait_idle(page)
    assert shown_k(page) > start and (shown_k(page) - start) % stride == 0  # whole strides
    assert shown_k(page) == slider_k(page)
    watched.assert_clean()


# The path the rule selects at C (the toggle): its slider moves the picture's teal path mid-drag.

C_SLIDER = ".st-key-c input[type=range]"


def playout_nodes(page) -> set[str]:
    """Paths (as JSON) of the drawn nodes on the playout's red path (purple where the teal one shares it)."""
    selector = f"{GRAPH} svg g.node.tv-path, {GRAPH} svg g.node.tv-both"
    return {node.get_attribute("data-path") for node in page.locator(selector).all()}


def open_flip_example_at(page, url: str, k: int = 6):
    """The Playback page on the example whose choice flips with C, stepped to playout k."""
    watched = open_app(page, url, "/playback")
    page.locator(".st-key-example").click()
    page.get_by_role("option", name="A larger C flips the choice").click()
    expect(metric_value(page, "Playout")).to_have_text("1 / 6", timeout=LOAD_TIMEOUT)
    wait_idle(page)
    for step in range(2, k + 1):
        page.locator(".st-key-playback_next button").click()
        expect(metric_value(page, "Playout")).to_have_text(f"{step} / 6")
        wait_idle(page)
    return watched


def test_dragging_c_moves_the_rule_s_teal_path_in_the_frame_before_release(page, app_url):
    sent = count_sent_frames(page)
    watched = open_flip_example_at(page, app_url)
    wait_for_graph(page)
    # Off by default: no C control, no teal path.
    expect(page.locator(".st-key-playback_rule_path input")).not_to_be_checked()
    expect(page.locator(C_SLIDER)).to_have_count(0)
    assert teal_nodes(page) == set()
    red = playout_nodes(page)
    assert red == prefix_ids("abb")  # playout 6 walked a, ab and created abb
    page.locator(".st-key-playback_rule_path label").click()
    expect(page.locator(C_SLIDER)).to_be_visible(timeout=LOAD_TIMEOUT)
    wait_idle(page)
    tree = build_tree(parse_playouts(C_FLIPS_CHOICE), upto=6)
    path_at = lambda c: select_path(tree, Scoring(c=c))  # noqa: E731
    eventually(lambda: teal_nodes(page), prefix_ids(path_at(0.5)), page=page)  # the example's C
    slider = page.locator(C_SLIDER)
    before = len(sent)
    grab_thumb(page, slider)

    def playout_path_stays_red():
        assert playout_nodes(page) == red
        # The "Path at C" metric names the live path too, and the sentence under the control its C.
        c = float(slider.input_value())
        expect(metric_value(page, "Path at C")).to_have_text(path_at(c))
        expect(page.locator(".st-key-live_text_playback_rule_path_caption strong")).to_have_text(f"C = {c:.6g}")

    seen = drag_teal_path(page, slider, tree, playout_path_stays_red)
    assert len(seen) == 2, "the drag must cross the flip at about C = 2.70"
    assert len(sent) == before, "nothing goes to the server while the mouse is down"
    c = float(slider.input_value())
    page.mouse.up()
    # Released: the page's C (the Exact C box, the metric, the link) is the dragged one.
    expect(page.locator(".st-key-c_exact input")).to_have_value(exact_text(c))
    expect(metric_value(page, "Path at C")).to_have_text(path_at(c))
    wait_idle(page)
    expect(page).to_have_url(re.compile(rf"[?&]c={re.escape(repr(c))}(&|$)"))
    assert teal_nodes(page) == prefix_ids(path_at(c))
    watched.assert_clean()


def test_a_held_drag_s_teal_path_follows_the_frames_while_playing(page, app_url):
    # At C = 3.6 the rule's path is aa in the trees after 3 and 4 playouts and b after 5 and 6.
    watched = open_flip_example_at(page, app_url, k=3)
    page.locator(".st-key-playback_rule_path label").click()
    slider = page.locator(C_SLIDER)
    expect(slider).to_be_visible(timeout=LOAD_TIMEOUT)
    wait_idle(page)
    grab_thumb(page, slider)
    page.mouse.move(*thumb_point(slider, 3.6 / float(slider.get_attribute("max"))), steps=3)
    c = float(slider.input_value())
    path_at = lambda k: select_path(build_tree(parse_playouts(C_FLIPS_CHOICE), upto=k), Scoring(c=c))  # noqa: E731
    assert path_at(3) != path_at(6), c
    eventually(lambda: teal_nodes(page), prefix_ids(path_at(3)), page=page)
    page.locator(".st-key-playback_play button").focus()
    page.keyboard.press("Enter")  # Play, with the mouse still down on the thumb
    expect(metric_value(page, "Playout")).to_have_text("6 / 6", timeout=15_000)
    # The frames came with their own intervals: the held C's path in the last tree, before release.
    eventually(lambda: teal_nodes(page), prefix_ids(path_at(6)), page=page)
    assert float(slider.input_value()) == c
    page.mouse.up()
    expect(page.locator(".st-key-c_exact input")).to_have_value(exact_text(c))
    expect(metric_value(page, "Path at C")).to_have_text(path_at(6))
    watched.assert_clean()


def test_the_rule_s_path_and_its_c_control_fit_beside_the_picture(page, app_url, output_dir):
    server = ServerMessages(page)
    watched = open_flip_example_at(page, app_url)
    page.locator(".st-key-playback_rule_path label").click()
    expect(page.locator(C_SLIDER)).to_be_visible(timeout=LOAD_TIMEOUT)
    wait_idle(page)
    for screen, (width, height, theme) in enumerate(SCREENS):
        use_screen(page, width, height, theme)
        wait_for_graph(page)
        slider, exact = page.locator(C_SLIDER).bounding_box(), page.locator(".st-key-c_exact input").bounding_box()
        picture = page.locator(GRAPH).first.bounding_box()
        # The control sits right of the picture, the slider left of the exact box, all inside the window.
        where = f"at {width}x{height} {theme}"
        assert picture["x"] + picture["width"] <= slider["x"] < slider["x"] + slider["width"] < exact["x"], where
        assert exact["x"] + exact["width"] <= width, where
        page.mouse.move(*thumb_point(page.locator(C_SLIDER), 0.1))
        page.mouse.down()
        # Each screen's drag ends at another C past the flip, so each release commits.
        page.mouse.move(*thumb_point(page.locator(C_SLIDER), 0.75 + 0.05 * screen), steps=5)
        expect(page.locator(".st-key-c .cc-path")).to_have_text("b")
        page.screenshot(path=output_dir / f"playback_rule_path_{theme}_{width}x{height}.png")
        release(page, server, page.locator(C_SLIDER))
    watched.assert_clean()


def test_fast_clicks_on_next_each_count_and_the_slider_and_the_metric_agree(page, app_url, tmp_path):
    """Five clicks on Next as fast as a user clicks, on a log whose every frame is rebuilt (its node
    facts): each click reaches the server while an earlier one's run is under way, and each moves k."""
    log = tmp_path / "connect_four.jsonl"
    with log.open("w") as out:
        subprocess.run([sys.executable, "-m", "mcts_core", "search", "--game", "connect_four", "--simulations",
                        "2000"], stdout=out, check=True, cwd=REPO)
    server = ServerMessages(page)
    watched = open_app(page, app_url, "/playback")
    page.locator('.st-key-upload input[type="file"]').set_input_files(log)
    expect(metric_value(page, "Simulation")).to_have_text("1 / 2,000", timeout=LOAD_TIMEOUT)
    page.locator(STRIDE_BOX).fill("1")
    # Its own run must end before the clicks: the page was at rest before it started (a CI run's
    # clicks went at the old stride, about 7.6 a step).
    server.run(lambda: page.locator(STRIDE_BOX).press("Enter"))
    expect(page.locator(STRIDE_BOX)).to_have_value("1")
    server.settle()
    for _ in range(5):  # each click as soon as the button takes it: no waiting on the run before
        page.locator(".st-key-playback_next button").click()
    server.settle()
    expect(metric_value(page, "Simulation")).to_have_text("6 / 2,000")
    # The slider's label follows the run's value in the browser's next renders (read at once, it was
    # still 5 on a busy machine); one that stays behind fails here, as 5 stayed before counted steps.
    expect(page.locator(SLIDER_K)).to_have_text("6")
    watched.assert_clean()


def test_a_click_on_the_search_over_time_moves_playback_there(page, app_url, tmp_path):
    """The share chart's nearest sample to the click: k becomes the playouts read by then, the slider, the
    metric and the chart's red rule with it."""
    log = playout_file(tmp_path / "playouts_2k.txt", 2_000, seed=4)
    server = ServerMessages(page)
    watched = open_app(page, app_url, "/playback")
    page.locator('.st-key-upload input[type="file"]').set_input_files(log)
    expect(metric_value(page, "Playout")).to_have_text("1 / 2,000", timeout=LOAD_TIMEOUT)
    server.settle()
    chart = page.locator(".st-key-playback_over_time_share canvas").first
    chart.scroll_into_view_if_needed()
    expect(chart).to_be_visible()
    box = chart.bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.8, box["y"] + box["height"] * 0.55)  # late in the search
    server.settle()
    expect(metric_value(page, "Playout")).not_to_have_text("1 / 2,000")
    k = shown_k(page)
    assert k > 100 and slider_k(page) == k  # on a log axis 80% across is far beyond the first playouts
    watched.assert_clean()


def test_a_click_on_an_engine_s_search_over_time_shows_that_update(page, app_url):
    """An lz-analyze stream: a click early on the share chart picks an early update, which the input
    panel's Analysis menu then shows (its tree on every page); the red rule moves there."""
    server = ServerMessages(page)
    watched = open_app(page, app_url, "/playback")
    page.locator('.st-key-upload input[type="file"]').set_input_files(REPO / "tests" / "data" / "engines" /
                                                                      "leela_zero_lz_analyze.txt")
    menu = page.locator(".st-key-analysis").get_by_role("combobox")
    expect(menu).to_have_value(re.compile(r"^8\. Leela Zero lz-analyze, 974 visits"), timeout=LOAD_TIMEOUT)
    server.settle()
    chart = page.locator(".st-key-playback_over_time_share .vega-embed").first  # a few points: drawn as SVG
    chart.scroll_into_view_if_needed()
    expect(chart).to_be_visible()
    box = chart.bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.2, box["y"] + box["height"] * 0.5)  # the first updates
    server.settle()
    expect(menu).to_have_value(re.compile(r"^[1-3]\. Leela Zero lz-analyze, (118|233|357) visits"))
    assert page.get_by_text("no simulations to replay").is_visible()
    watched.assert_clean()
