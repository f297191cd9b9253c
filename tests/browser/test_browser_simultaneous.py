"""The Simultaneous page in chromium: its boxes keep their values across page switches and show them from
the first frame; at a projector's 1366x768 every select shows its whole chosen value."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from ui.common.navigation import PAGES

from bench.harness.browser import LOAD_TIMEOUT, ServerMessages, open_app, shown_values, wait_idle, watch_values


OTHER_TITLES = [spec.title for spec in PAGES if spec.url_path != "simultaneous"]
URL_PATHS = {spec.title: spec.url_path for spec in PAGES}
DEMO_BOXES = {key: f".st-key-{key} input" for key in ("sim_demo_c", "sim_demo_simulations")}
INPUT_BOXES = {key: f".st-key-{key} input" for key in ("sim_c", "sim_sweep_simulations")}


def go_to(page, server: ServerMessages, title: str) -> None:
    """Open page ``title`` from the menu and wait until it is shown and its run has ended (the page
    looks idle before that run starts: a check then still sees the page being left)."""
    server.run(page.locator('[data-testid="stSidebarNav"]').get_by_role("link", name=title).click)
    expect(page).to_have_url(re.compile(rf"^[^?]*/{URL_PATHS[title]}(\?.*)?$"))


def type_number(page, key: str, value: str) -> None:
    box = page.locator(f".st-key-{key} input")
    box.fill(value)
    box.press("Enter")
    expect(box).to_have_value(value)
    wait_idle(page)


def round_trips(page, server: ServerMessages, boxes: dict[str, str], expected: dict[str, str],
                origins: list[str]) -> dict:
    """Leave for each origin, come back through the menu; every value each box showed on each return."""
    seen = {}
    for number, origin in enumerate(origins):
        go_to(page, server, origin)
        for selector in boxes.values():
            watch_values(page, selector)
        go_to(page, server, "Simultaneous")
        for key, value in expected.items():
            expect(page.locator(boxes[key])).to_have_value(value, timeout=LOAD_TIMEOUT)
        wait_idle(page)
        seen[f"{number}: {origin}"] = {key: shown_values(page, selector) for key, selector in boxes.items()}
    return seen


def test_the_boxes_keep_their_values_and_show_them_from_the_first_frame_after_any_page(page, app_url):
    """Reached from another page, the boxes showed their minimum first (C = 0, Simulations = 1), and a
    value typed there was lost on the way (back to 1.4 and 5,000)."""
    page.set_viewport_size({"width": 1366, "height": 768})
    server = ServerMessages(page)  # it reads the page's websocket: made before the page opens
    watched = open_app(page, app_url, "/simultaneous")
    type_number(page, "sim_demo_c", "2.5")
    type_number(page, "sim_demo_simulations", "300")
    typed = {"sim_demo_c": "2.5", "sim_demo_simulations": "300"}
    seen = round_trips(page, server, DEMO_BOXES, typed, OTHER_TITLES * 2)
    assert seen == {trip: {key: [value] for key, value in typed.items()} for trip in seen}

    # A simultaneous input (the demo's own search): its C and the sweep's simulations, on every return.
    page.locator(".st-key-sim_demo_run button").click()
    expect(page.locator(INPUT_BOXES["sim_sweep_simulations"])).to_be_visible(timeout=LOAD_TIMEOUT)
    wait_idle(page)
    expect(page.locator(INPUT_BOXES["sim_c"])).to_have_value("2.5")  # the search's C, stated in its log
    type_number(page, "sim_sweep_simulations", "500")
    kept = {"sim_c": "2.5", "sim_sweep_simulations": "500"}
    seen = round_trips(page, server, INPUT_BOXES, kept, OTHER_TITLES)
    assert seen == {trip: {key: [value] for key, value in kept.items()} for trip in seen}
    watched.assert_clean()


SELECT_TEXT = "box => ({shown: box.value, cut: box.scrollWidth > box.clientWidth + 1})"


def cut_choices(page, key: str) -> list[str]:
    """Choose each option of the select keyed ``key`` in turn (the first again at the end); the chosen
    values it shows cut."""
    box = page.locator(f".st-key-{key} input")
    box.click()
    options = page.get_by_role("option").all_inner_texts()
    page.keyboard.press("Escape")
    cut = []
    for option in [*options, options[0]]:
        box.click()
        page.get_by_role("option", name=option, exact=True).click()
        expect(box).to_have_value(option)
        wait_idle(page)
        shown = box.evaluate(SELECT_TEXT)
        if shown["cut"] and shown["shown"] not in cut:
            cut.append(shown["shown"])
    return cut


def test_every_select_shows_its_whole_value_on_a_projector(page, app_url):
    """At 1366x768 they read "Rock-paper-scissors (mat" and "Decoupled U"."""
    page.set_viewport_size({"width": 1366, "height": 768})
    watched = open_app(page, app_url, "/simultaneous")
    cut = {key: cut_choices(page, key) for key in ("sim_demo_game", "sim_demo_algorithm", "sim_demo_rule")}
    type_number(page, "sim_demo_simulations", "300")
    page.locator(".st-key-sim_demo_run button").click()
    expect(page.locator(".st-key-sim_rule input")).to_be_visible(timeout=LOAD_TIMEOUT)
    wait_idle(page)
    cut["sim_rule"] = cut_choices(page, "sim_rule")
    assert cut == {key: [] for key in cut}
    watched.assert_clean()
