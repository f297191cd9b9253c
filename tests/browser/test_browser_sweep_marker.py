"""Dragging C on the C sweep page: a live C line follows the drag on the band strip and the lines chart.

The line (``ui/c/live_c_marker.js``) is drawn in the browser on every frame of the drag, with
nothing sent to the server; after release the charts' own red rule, drawn by the rerun, stands
where the line was.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from mcts_core import Scoring, select_path
from ui.c.c_control import exact_text

from bench.harness.browser import SCREENS, SLIDER, ServerMessages, eventually, metric_value, use_screen, wait_idle
from .test_browser_drag import (
    EXACT,
    FLIPS,
    count_sent_frames,
    grab_thumb,
    open_flips_example,
    release,
    slider_value,
    thumb_point,
)

STRIP_CAPTION_C = ".st-key-live_text_sweep_strip strong"  # "Red line: C = x." under the strip
CHARTS = ("sweep_strip_box", "sweep_lines_box")  # the keyed containers of the strip and the lines chart
LINE = ".mcts-live-c"
RULE = "svg.marks g.current_c_marks"  # the chart's own red rule at the committed C
SAME_PX = 1.5  # the live line and the rule drawn at the same C (both 2 px wide)
DARK_PLOT = "rgb(23, 22, 20)"  # a chart's background in Streamlit's dark theme


def shown(c: float) -> str:
    """C as the line's label writes it: 6 significant digits, no trailing ".0"."""
    return repr(float(f"{c:.6g}")).removesuffix(".0")


def centre_x(locator) -> float:
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2


def live_line(page, chart: str):
    return page.locator(f".st-key-{chart} > {LINE}")


def plot_span(page, chart: str) -> tuple[float, float]:
    """The plot area's left and right edges in the page (Vega's root background)."""
    box = page.locator(f".st-key-{chart} svg.marks .role-frame.root > g > path.background").bounding_box()
    return box["x"], box["x"] + box["width"]


def watch_rules(page, at: dict[str, float]) -> None:
    """From now on, every frame, note each chart whose red rule shows anywhere but ``at[chart]`` (x)."""
    page.evaluate(
        """([at, rule, same]) => {
            window.misplacedRules = [];
            const look = () => {
                for (const [chart, x] of Object.entries(at)) {
                    const group = document.querySelector(`.st-key-${chart} ${rule}`);
                    const line = group?.querySelector("line");
                    if (!line || getComputedStyle(group).visibility === "hidden") continue;
                    const box = line.getBoundingClientRect();
                    if (Math.abs(box.left + box.width / 2 - x) > same) window.misplacedRules.push([chart, box.left]);
                }
                requestAnimationFrame(look);
            };
            look();
        }""",
        [at, RULE, SAME_PX],
    )


def open_flips(page, url):
    """The sweep page with the example whose path flips at C = 2.70 (C = 0.5, the slider up to 5)."""
    watched = open_flips_example(page, url, "/sweep")
    for chart in CHARTS:
        expect(page.locator(f".st-key-{chart} {RULE} line")).to_have_count(1)
    return watched


def drag_to(page, share: float) -> float:
    page.mouse.move(*thumb_point(page.locator(SLIDER), share), steps=4)
    return slider_value(page)


def test_the_live_c_line_follows_the_drag_and_the_rule_lands_where_it_was(page, app_url):
    sent = count_sent_frames(page)
    watched = open_flips(page, app_url)
    before = len(sent)
    maximum = float(page.locator(SLIDER).get_attribute("max"))  # the swept range is [0, the slider's max]
    grab_thumb(page, page.locator(SLIDER))
    seen = {}
    for share in (0.3, 0.8):
        c = drag_to(page, share)
        for chart in CHARTS:
            line = live_line(page, chart)
            expect(line).to_be_visible()
            expect(line).to_have_text(f"C = {shown(c)}")
            # Where the chart's x scale puts c, and the committed rule (at 0.5) hidden meanwhile.
            left, right = plot_span(page, chart)
            eventually(lambda: round(centre_x(line) - (left + (right - left) * c / maximum)), 0, page=page)
            expect(page.locator(f".st-key-{chart} {RULE}")).to_have_css("visibility", "hidden")
            seen[chart, share] = centre_x(line)
        # The sidebar's rule is UCB1 here: the "UCB1 path at this C" metric names the live path too.
        expect(metric_value(page, "UCB1 path at this C")).to_have_text(select_path(FLIPS, Scoring(c=c)))
        # The strip's caption names the C its red line is at.
        expect(page.locator(STRIP_CAPTION_C)).to_have_text(f"C = {shown(c)}")
    for chart in CHARTS:
        assert seen[chart, 0.8] - seen[chart, 0.3] > 100, "the line moved with the drag"
    assert len(sent) == before, "nothing goes to the server while the mouse is down"
    watch_rules(page, {chart: seen[chart, 0.8] for chart in CHARTS})
    page.mouse.up()
    # Released: C is committed, the rerun draws the rule at the new C, and the live line gives way to it.
    expect(page.locator(EXACT)).to_have_value(exact_text(c))
    expect(metric_value(page, "UCB1 path at this C")).to_have_text("b")
    wait_idle(page)
    expect(page.locator(STRIP_CAPTION_C)).to_have_text(f"C = {c:.6g}")
    for chart in CHARTS:
        expect(live_line(page, chart)).to_have_count(0)
        rule = page.locator(f".st-key-{chart} {RULE}")
        expect(rule).to_have_css("visibility", "visible")
        assert abs(centre_x(rule.locator("line")) - seen[chart, 0.8]) <= SAME_PX
    # And never, from release to the rerun's charts, was the old rule shown instead (no flash back to 0.5).
    assert page.evaluate("window.misplacedRules") == []
    watched.assert_clean()


def test_the_live_line_hides_outside_the_range_survives_a_theme_change_and_goes_on_release_at_the_same_c(page, app_url):
    watched = open_flips(page, app_url)
    to = page.locator(".st-key-sweep_to input")
    to.fill("2.5")
    to.press("Enter")
    wait_idle(page)
    expect(page.locator(f".st-key-sweep_lines_box {RULE} line")).to_have_count(1)
    grab_thumb(page, page.locator(SLIDER))
    drag_to(page, 0.9)  # C = 4.5, right of the range [0, 2.5]
    for chart in CHARTS:
        expect(page.locator(f".st-key-{chart} {RULE}")).to_have_css("visibility", "hidden")
        expect(live_line(page, chart)).to_be_hidden()
    c = drag_to(page, 0.4)  # C = 2.0: inside again
    # The system turns dark mid-drag (the app follows it): the charts are drawn again, in dark, and
    # the line stays over them while the mouse rests.
    page.emulate_media(color_scheme="dark")
    for chart in CHARTS:
        expect(page.locator(f".st-key-{chart} svg.marks")).to_have_css("background-color", DARK_PLOT)
        expect(page.locator(f".st-key-{chart} {RULE}")).to_have_css("visibility", "hidden")
        left, right = plot_span(page, chart)
        expect(live_line(page, chart)).to_be_visible()
        assert abs(centre_x(live_line(page, chart)) - (left + (right - left) * c / 2.5)) <= SAME_PX
    # Back to the committed C and released: no commit, no rerun; the charts' own rule is back at once.
    drag_to(page, 0.1)
    assert slider_value(page) == 0.5
    page.mouse.up()
    for chart in CHARTS:
        expect(live_line(page, chart)).to_have_count(0)
        expect(page.locator(f".st-key-{chart} {RULE}")).to_have_css("visibility", "visible")
    watched.assert_clean()


def charts_drawn_for(page, theme: str) -> None:
    """Wait until both charts are drawn again for the window's width and ``theme``."""
    for chart in CHARTS:
        plot = page.locator(f".st-key-{chart} svg.marks")
        if theme == "dark":
            expect(plot).to_have_css("background-color", DARK_PLOT)
        else:
            expect(plot).not_to_have_css("background-color", DARK_PLOT)
        fills = "svg => Math.round(svg.getBoundingClientRect().width) === Math.round(svg.parentElement.getBoundingClientRect().width)"
        eventually(lambda: plot.evaluate(fills), True, page=page)


def test_the_live_line_and_its_value_sit_on_the_plots_mid_drag(page, app_url, output_dir):
    server = ServerMessages(page)
    watched = open_flips(page, app_url)
    maximum = float(page.locator(SLIDER).get_attribute("max"))
    for screen, (width, height, theme) in enumerate(SCREENS):
        use_screen(page, width, height, theme)
        charts_drawn_for(page, theme)
        page.locator(SLIDER).scroll_into_view_if_needed()  # the last screen's drag scrolled to the charts
        grab_thumb(page, page.locator(SLIDER))
        c = drag_to(page, 0.95 - 0.05 * (screen % 2))  # near the right end: the value sits left of the line
        for chart in CHARTS:
            # Scrolled to mid-drag (the page scrolls, the mouse stays down): the line scrolls with its chart.
            page.locator(f".st-key-{chart}").scroll_into_view_if_needed()
            left, right = plot_span(page, chart)
            line, label = live_line(page, chart), live_line(page, chart).locator("span")
            expect(line).to_be_visible()
            assert abs(centre_x(line) - (left + (right - left) * c / maximum)) <= SAME_PX, (width, theme, chart)
            value = label.bounding_box()
            assert left <= value["x"] and value["x"] + value["width"] <= right, ("the value stays on the plot", width, theme)
            page.screenshot(path=output_dir / f"sweep_marker_{theme}_{width}x{height}_{chart}.png")
        release(page, server, page.locator(SLIDER))
    watched.assert_clean()


BAND_TEXT = ".st-key-sweep_strip_box svg.marks .mark-text.role-mark text"  # the bands' labels ("aa", "b")


def overlap(one: dict, other: dict) -> bool:
    return (one["x"] < other["x"] + other["width"] and other["x"] < one["x"] + one["width"]
            and one["y"] < other["y"] + other["height"] and other["y"] < one["y"] + one["height"])


@pytest.mark.parametrize("width,height", [(1366, 768), (1920, 1080)])
def test_the_live_value_covers_no_band_label(page, app_url, width, height):
    """The red "C = 3.425" sat on the band strip's top edge, over the band's own label."""
    page.set_viewport_size({"width": width, "height": height})
    watched = open_flips(page, app_url)
    left, right = plot_span(page, "sweep_strip_box")
    texts = [box for box in page.locator(BAND_TEXT).evaluate_all(
        "texts => texts.map(t => { const r = t.getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height}; })"
    ) if box["width"] > 0]
    assert len(texts) == 2  # "aa" and "b"
    grab_thumb(page, page.locator(SLIDER))
    covered = []
    for text in texts:
        # The line just left of the label, through its middle, and just right of it.
        for x in (text["x"] - 3, text["x"] + text["width"] / 2, text["x"] + text["width"] + 3):
            c = drag_to(page, (x - left) / (right - left))
            label = live_line(page, "sweep_strip_box").locator("span")
            expect(label).to_have_text(f"C = {shown(c)}")
            value = label.bounding_box()
            covered += [(shown(c), text) for text in texts if overlap(value, text)]
    assert covered == []
    page.mouse.up()
    watched.assert_clean()


def test_under_puct_the_page_names_the_path_the_c_control_follows_while_dragging(page, app_url):
    """The page swept UCB1 whatever the rule: under PUCT at C = 3 its "UCB1 path at this C" said b
    while the C control's path was aa. Now its metric is the rule's path and follows the drag."""
    watched = open_flips(page, app_url)
    combobox = page.locator(".st-key-rule input[role=combobox]")
    combobox.click()
    combobox.press_sequentially("PUCT")
    page.get_by_role("option", name="PUCT (AlphaZero)", exact=True).click()
    wait_idle(page)
    metric = metric_value(page, "PUCT (AlphaZero) path at this C")
    expect(metric).to_have_text("aa")
    assert float(page.locator(SLIDER).get_attribute("max")) == 10.0  # PUCT flips at 4.899: the slider fits it
    grab_thumb(page, page.locator(SLIDER))
    for share in (0.3, 0.7, 0.3):
        c = drag_to(page, share)
        expected = select_path(FLIPS, Scoring.of("puct", c=c))
        expect(metric).to_have_text(expected)
        expect(page.locator(".st-key-c .cc-path")).to_have_text(expected)  # the C control's own live path
    assert {select_path(FLIPS, Scoring.of("puct", c=c)) for c in (3.0, 7.0)} == {"aa", "b"}
    page.mouse.up()
    expect(page.locator(EXACT)).to_have_value(exact_text(c))
    wait_idle(page)
    expect(metric).to_have_text(select_path(FLIPS, Scoring.of("puct", c=c)))
    watched.assert_clean()
