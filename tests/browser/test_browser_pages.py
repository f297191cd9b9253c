"""Smoke test for every page app.py registers: it loads by URL without console errors or exceptions."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .browser_support import LOAD_TIMEOUT, REPO, open_app
from .conftest import start_streamlit, stop_streamlit

pytestmark = pytest.mark.browser


def registered_pages() -> list[str]:
    """URL paths of the pages st.navigation serves (a Page's default url_path is its file's stem)."""
    source = (REPO / "app.py").read_text()
    stems = re.findall(r"""st\.Page\(\s*["']pages/(\w+)\.py["']""", source)
    return [stem for stem in stems if stem != "explorer"]  # the default page, covered in detail elsewhere


@pytest.mark.parametrize("stem", registered_pages() or [pytest.param("none", marks=pytest.mark.skip("no extra pages"))])
def test_page_loads_cleanly(page, app_url, output_dir, stem):
    watched = open_app(page, app_url, f"/{stem}")
    main = page.locator('[data-testid="stMain"]')
    expect(main).to_be_visible()
    # Something page-specific was drawn (not just the sidebar) and the URL stayed on the page.
    expect(main.locator('[data-testid="stElementContainer"]').first).to_be_visible()
    assert page.url.rstrip("/").endswith(f"/{stem}")
    # Charts draw after the run: graphviz into an <svg>, Vega-Lite into a canvas or svg.
    for chart in page.locator('[data-testid="stGraphVizChart"]').all():
        expect(chart.locator("svg g.node").first).to_be_visible(timeout=LOAD_TIMEOUT)
    for chart in page.locator('[data-testid="stVegaLiteChart"]').all():
        expect(chart.locator("canvas, svg").first).to_be_visible(timeout=LOAD_TIMEOUT)
    page.screenshot(path=output_dir / f"page_{stem}.png", full_page=True)
    watched.assert_clean()


def test_a_page_link_opened_first_on_a_fresh_server_shows_the_whole_app(page, tmp_path):
    # On a fresh server the first request to a page URL takes Streamlit's legacy pages/ route,
    # which runs the page file without app.py; the app must still come up whole (sidebar and all).
    process, url = start_streamlit(REPO / "app.py", tmp_path / "fresh.log", cwd=REPO)
    try:
        watched = open_app(page, url, "/playback")
        expect(page.locator('[data-testid="stGraphVizChart"] svg g.node').first).to_be_visible(timeout=LOAD_TIMEOUT)
        expect(page.locator(".st-key-playouts textarea")).to_be_visible()
        expect(page.locator('[data-testid="stSidebarNavLink"]')).to_have_count(len(registered_pages()) + 1)
        assert page.locator('[data-testid="stException"]').count() == 0
        watched.assert_clean()
    finally:
        stop_streamlit(process)
