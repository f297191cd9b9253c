"""Layouts a teacher on a projector would notice beyond a page's first look: big numbers, the
presentation view, the dark theme's selected row, Share's popover, the sweep's digits. Every page's
first look, at 1366x768 and 1920x1080, light and dark (no sideways scroll, no cut label), is checked
by the every-input tour (test_browser_every_input.py). Screenshots go to test-output/.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from bench.harness.browser import (
    LOAD_TIMEOUT, TABLE_CELLS, ServerMessages, cut_off, open_app, playout_file, settled_screenshot, tree_facts, wait_idle,
)
from .test_browser_drag import choose_example, open_flips_example


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
        page.screenshot(path=output_dir / f"layout_{stem}_20k_1366x768.png")
        assert cut_off(page) == [], stem
    watched.assert_clean()


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
    page.screenshot(path=output_dir / "layout_classroom_presentation_1366x768.png")
    assert cut_off(page) == []
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


def test_the_share_popover_opens_whole_on_a_projector(page, app_url, output_dir):
    """Share opened where a user finds it on each page that has it, at 1366x768: the link and the
    bundle button are on screen."""
    page.set_viewport_size({"width": 1366, "height": 768})
    server = ServerMessages(page)
    watched = open_app(page, app_url)
    choose_example(page, "A larger C flips the choice")
    for title in ("Explorer", "C sweep", "Compare", "Playback", "Classroom"):
        link = page.locator('[data-testid="stSidebarNav"]').get_by_role("link", name=title)
        server.run(link.click)  # the page's run is over: its Share button is the one clicked
        page.get_by_role("button", name="Share").click()  # scrolled into view as a user would
        body = page.locator('[data-testid="stPopoverBody"]')
        expect(body.locator("code").first).to_contain_text("c=0.5")  # the example's C: its link
        wait_idle(page)
        page.screenshot(path=output_dir / f"layout_share_{title.lower().replace(' ', '_')}_1366x768.png")
        expect(body.get_by_role("button", name="Download bundle (zip)")).to_be_in_viewport(ratio=1)
        # Closing reruns the page (the popover's contents go): the next page is opened after that run,
        # or the run the link starts could be taken for the end of this one.
        server.run(lambda: page.keyboard.press("Escape"))
        expect(body).to_have_count(0)
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
    wait_idle(page)
    shot = Image.open(io.BytesIO(settled_screenshot(grid))).convert("RGB")
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
