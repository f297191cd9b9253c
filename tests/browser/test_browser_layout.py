"""Every page at a projector's 1366x768 and at 1920x1080, light and dark: nothing cut off, screenshots taken.

Checks what a teacher on a projector would notice: no horizontal scroll in the page, no button
whose label is cut, the tree picture inside the window. The screenshots (test-output/layout_*)
are for people to look at.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from ui.navigation import PAGES

from .browser_support import GRAPH, LOAD_TIMEOUT, TABLE_CELLS, open_app, playout_file, tree_facts, wait_idle
from .test_browser_drag import choose_example, open_flips_example

pytestmark = pytest.mark.browser

SIZES = {"1366x768": (1366, 768), "1920x1080": (1920, 1080)}
OVERFLOW = """() => {
    const main = document.querySelector('[data-testid="stMain"]');
    // A label is cut when its text (any element inside the button) is wider than the room it has.
    const cut = [...document.querySelectorAll('[data-testid="stMain"] button')]
        .filter(b => b.offsetParent !== null)
        .filter(b => [b, ...b.querySelectorAll('*')].some(e => e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1))
        .map(b => b.innerText.trim());
    // A metric's value is cut when Streamlit ellipsizes it ("20,…" for 20,000).
    const metrics = [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stMetricValue"]')]
        .filter(m => [m, ...m.querySelectorAll('*')].some(e => e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1))
        .map(m => m.innerText.trim());
    return {scroll: main.scrollWidth - main.clientWidth, cut, metrics};
}"""


def check_page(page, url: str, stem: str, size: str, theme: str, output_dir) -> None:
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    watched = open_app(page, url, f"/{stem}" if stem else "/")
    for picture in page.locator(GRAPH).all():
        expect(picture.locator("svg g.node[data-path]").first).to_be_visible(timeout=LOAD_TIMEOUT)
    wait_idle(page)
    page.wait_for_timeout(300)  # charts and the grid settle after the run
    layout = page.evaluate(OVERFLOW)
    page.screenshot(path=output_dir / f"layout_{stem or 'explorer'}_{size}_{theme}.png")
    assert layout["scroll"] <= 1, f"{stem} at {size}: the page scrolls sideways by {layout['scroll']} px"
    assert not layout["cut"], f"{stem} at {size}: cut button labels {layout['cut']}"
    assert not layout["metrics"], f"{stem} at {size}: cut metric values {layout['metrics']}"
    watched.assert_clean()


def test_large_numbers_in_the_metrics_are_not_cut_on_a_projector(page, app_url, output_dir, tmp_path):
    page.set_viewport_size({"width": 1366, "height": 768})
    log = playout_file(tmp_path / "playouts_20k.txt", 20_000)
    watched = open_app(page, app_url)
    page.locator('.st-key-upload input[type="file"]').set_input_files(log)
    expect(tree_facts(page)).to_contain_text("The tree of 20,000 playouts,", timeout=LOAD_TIMEOUT)
    for stem in ("explorer", "playback"):
        if stem != "explorer":
            page.locator('[data-testid="stSidebarNav"] a', has_text=stem.capitalize()).click()
            expect(page.locator('[data-testid="stMetricValue"]', has_text="/ 20,000")).to_be_visible(timeout=LOAD_TIMEOUT)
        wait_idle(page)
        layout = page.evaluate(OVERFLOW)
        page.screenshot(path=output_dir / f"layout_{stem}_20k_1366x768.png")
        assert not layout["metrics"], f"{stem}: cut metric values {layout['metrics']}"
    watched.assert_clean()


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("stem", [page.url_path for page in PAGES])
def test_pages_fit_the_window_in_the_light_theme(page, app_url, output_dir, stem, size):
    check_page(page, app_url, stem, size, "light", output_dir)


@pytest.mark.parametrize("stem", [page.url_path for page in PAGES])
def test_pages_fit_a_projector_in_the_dark_theme(page, dark_app_url, output_dir, stem):
    check_page(page, dark_app_url, stem, "1366x768", "dark", output_dir)


def test_the_classroom_presentation_view_fits_a_projector(page, app_url, output_dir):
    page.set_viewport_size({"width": 1366, "height": 768})
    open_app(page, app_url, "/classroom")
    page.locator(".st-key-class_presentation label").click()
    wait_idle(page)
    buttons = page.locator('[class*="st-key-class_guess_"] button')
    expect(buttons.first).to_be_visible()
    buttons.first.click()  # guess: the reveal table and "Next node" appear
    wait_idle(page)
    expect(page.locator(".st-key-class_next button")).to_be_in_viewport()  # above the fold
    layout = page.evaluate(OVERFLOW)
    page.screenshot(path=output_dir / "layout_classroom_presentation_1366x768.png")
    assert layout["scroll"] <= 1 and not layout["cut"], layout
    # The reveal table's UCB1 column is on screen, not cut off at the right edge.
    ucb1 = page.locator('[data-testid="stTable"] th', has_text="UCB1")
    expect(ucb1).to_be_in_viewport()


def test_the_selected_row_reads_well_in_the_dark_theme(page, dark_app_url, output_dir):
    """The children table's first row (the child the rule picks) in the path's red, its text
    readable on it, as the browser computes the colours in the dark theme."""
    from tests.test_colours import contrast

    page.set_viewport_size({"width": 1366, "height": 768})
    open_app(page, dark_app_url)
    table = page.locator(TABLE_CELLS)
    expect(table.locator("tbody tr").first).to_be_visible(timeout=LOAD_TIMEOUT)
    wait_idle(page)
    colours = table.evaluate(
        """table => [...table.querySelectorAll('tbody tr')].map(tr => {
            const style = getComputedStyle(tr);
            return [tr.className, style.backgroundColor, style.color];
        })"""
    )
    rgb = [tuple(int(part) for part in re.findall(r"\d+", colour)[:3]) for _, *pair in colours for colour in pair]
    hex_of = "#{:02x}{:02x}{:02x}".format
    (selected, background, text), plain = colours[0], colours[1:]
    assert selected == "tt-selected" and [row[0] for row in plain] == [""] * len(plain)
    assert rgb[0][0] > 2 * rgb[0][1]  # red
    assert contrast(hex_of(*rgb[0]), hex_of(*rgb[1])) >= 4.5, (background, text)
    table.screenshot(path=output_dir / "dark_selected_row.png")


@pytest.mark.parametrize("stem", ["", "sweep", "compare", "playback", "classroom"])
def test_the_share_popover_opens_whole_on_a_projector(page, app_url, output_dir, stem):
    """Share opened where a user finds it, at 1366x768: the link and the bundle button are on screen."""
    page.set_viewport_size({"width": 1366, "height": 768})
    watched = open_app(page, app_url, f"/{stem}")
    choose_example(page, "A larger C flips the choice")
    wait_idle(page)
    page.get_by_role("button", name="Share").click()  # scrolled into view as a user would
    body = page.locator('[data-testid="stPopoverBody"]')
    expect(body.locator("code").first).to_contain_text("c=0.5")  # the example's C: its link
    wait_idle(page)
    page.screenshot(path=output_dir / f"layout_share_{stem or 'explorer'}_1366x768.png")
    expect(body.get_by_role("button", name="Download bundle (zip)")).to_be_in_viewport(ratio=1)
    watched.assert_clean()


def test_the_sweep_table_shows_every_digit_of_a_breakpoint(page, app_url, output_dir):
    """Pixels of the intervals table (a canvas): the second row's "from C", 2.702917488, starts inside
    its cell, right-aligned with room to spare, rather than cut at the cell's left edge ("702917488")."""
    import io

    from PIL import Image

    from tests.test_colours import contrast

    page.set_viewport_size({"width": 1366, "height": 768})
    watched = open_flips_example(page, app_url, "/sweep")
    grid = page.locator('[data-testid="stDataFrame"]').last
    grid.scroll_into_view_if_needed()
    page.wait_for_timeout(300)  # the grid settles after the run
    shot = Image.open(io.BytesIO(grid.screenshot())).convert("RGB")
    shot.save(output_dir / "sweep_intervals_1366x768.png")
    # Header and two intervals: the second row is the lowest third; its first cell holds the breakpoint.
    row_height = shot.height // 3
    band = shot.crop((0, 2 * row_height + 4, shot.width // 8, shot.height - 4))
    hex_of = "#{:02x}{:02x}{:02x}".format
    background = max(band.getcolors(band.width * band.height))[1]
    text_x = [
        x for x in range(band.width) for y in range(band.height)
        if contrast(hex_of(*band.getpixel((x, y))), hex_of(*background)) > 3
    ]
    assert text_x, "no text in the second row's first cell"
    assert min(text_x) >= 6, f"the breakpoint's digits start {min(text_x)} px from the cell's edge: cut"
    watched.assert_clean()
