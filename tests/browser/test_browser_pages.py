"""Pages as a whole: a page link opened first on a fresh server, the menu, Compare on a projector,
number boxes right from their first frame. (Every page with every input a user brings, both themes
and both screen sizes: test_browser_every_input.py; with every rule: tests/test_app_every_input.py.)"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ui.common.navigation import PAGES

from bench.harness.browser import GRAPH, LOAD_TIMEOUT, REPO, open_app, shown_values, wait_idle, watch_values
from bench.harness.server import start_streamlit, stop_streamlit


def test_a_page_link_opened_first_on_a_fresh_server_shows_the_whole_app(page, tmp_path):
    # On a fresh server the first request to a page URL takes Streamlit's legacy pages/ route,
    # which runs the page file without app.py; the app must still come up whole (sidebar and all).
    process, url = start_streamlit(REPO / "app.py", tmp_path / "fresh.log", cwd=REPO)
    try:
        watched = open_app(page, url, "/playback")
        expect(page.locator(f"{GRAPH} svg g.node[data-path]").first).to_be_visible(timeout=LOAD_TIMEOUT)
        expect(page.locator(".st-key-playouts textarea")).to_be_visible()
        expect(page.locator('[data-testid="stSidebarNavLink"]')).to_have_count(len(PAGES))
        assert page.locator('[data-testid="stException"]').count() == 0
        watched.assert_clean()
    finally:
        stop_streamlit(process)


def test_the_menu_lists_exactly_the_registered_pages_and_no_helper_is_a_route(page, app_url):
    open_app(page, app_url)
    links = page.locator('[data-testid="stSidebarNavLink"]')
    expect(links).to_have_count(len(PAGES))
    assert [link.inner_text().strip().splitlines()[-1] for link in links.all()] == [spec.title for spec in PAGES]
    # Helpers once lived in pages/ and were served as blank pages; now such a URL is not a page.
    page.goto(app_url.rstrip("/") + "/markdown")
    expect(page.locator('[data-testid="stSidebarNavLink"]')).to_have_count(len(PAGES))
    expect(page.get_by_text("Page not found")).to_be_visible(timeout=LOAD_TIMEOUT)


def test_compare_shows_its_picture_b_s_c_and_the_verdict_on_a_projector_screen_without_scrolling(page, app_url):
    """B's slider used to sit at y = 944, under setting A's panel."""
    page.set_viewport_size({"width": 1366, "height": 768})
    watched = open_app(page, app_url, "/compare")
    picture = page.locator(f"{GRAPH} .tv-viewport").first
    expect(picture.locator("svg g.node[data-path]").first).to_be_visible(timeout=LOAD_TIMEOUT)
    wait_idle(page)
    top = picture.bounding_box()["y"]
    assert top < 768 - 200, f"the picture starts at y = {top:.0f}: below a projector's fold"
    on_screen = {
        "the picture": picture,
        "the verdict": page.locator('[data-testid="stMetric"]').filter(has_text="Paths"),
        "the verdict's sentence": page.locator(".st-key-live_text_compare_verdict_sentence"),
        "B's slider": page.locator(".st-key-cmp_c_live input[type=range]"),
        "B's box": page.locator(".st-key-cmp_c input"),
    }
    outside = {}
    for name, element in on_screen.items():
        box = element.bounding_box()
        if not (0 <= box["x"] and box["x"] + box["width"] <= 1366 and 0 <= box["y"] and box["y"] + box["height"] <= 768):
            outside[name] = {key: round(value) for key, value in box.items()}
    assert outside == {}
    watched.assert_clean()


@pytest.mark.parametrize(
    ("title", "boxes"),
    [("C sweep", {"sweep_from": "0", "sweep_to": "100"}), ("Compare", {"cmp_c": "0.2"}),
     ("Search", {"search_c": "1.4", "search_simulations": "2000", "search_seed": "0"})],
)
def test_a_number_box_the_page_fills_shows_its_value_from_its_first_frame(page, app_url, title, boxes):
    """On the default example (C = 0.1, the slider up to 100, B at twice A's C)."""
    watched = open_app(page, app_url)
    expect(page.locator(GRAPH).locator("svg g.node[data-path]").first).to_be_visible(timeout=LOAD_TIMEOUT)
    selectors = {key: f".st-key-{key} input" for key in boxes}
    for selector in selectors.values():
        watch_values(page, selector)
    page.locator('[data-testid="stSidebarNav"]').get_by_role("link", name=title).click()
    for key, value in boxes.items():
        expect(page.locator(selectors[key])).to_have_value(value)
    wait_idle(page)
    # They used to show 0 (their minimum) for a frame first.
    assert {key: shown_values(page, selector) for key, selector in selectors.items()} == {
        key: [value] for key, value in boxes.items()
    }
    watched.assert_clean()
