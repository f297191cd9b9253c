"""The Search page in a real chromium: a small live search becomes the input and its tree shows in the Explorer."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from bench.harness.browser import LOAD_TIMEOUT, ServerMessages, open_app, wait_idle, wait_rendered

import required

required.module("pyspiel")

# The tree picture: st.graphviz_chart's SVG, or the tree view component whose node groups carry data-path.
TREE_NODES = '[data-testid="stGraphVizChart"] svg g.node, g.node[data-path]'


def set_number(page, key: str, value: int) -> None:
    """Type into a number input and commit it (Enter)."""
    box = page.locator(f".st-key-{key} input")
    box.fill(str(value))
    box.press("Enter")
    wait_idle(page)


def node_texts(page) -> list[str]:
    """What identifies each drawn node: its data-path moves, else its label text."""
    return page.locator(TREE_NODES).evaluate_all(
        """nodes => nodes.map(node => node.getAttribute('data-path')
            || [...node.querySelectorAll('text')].map(t => t.textContent.trim()).join(' '))"""
    )


def test_a_small_search_becomes_the_input_and_the_explorer_draws_its_tree(page, app_url, output_dir):
    watched = open_app(page, app_url, "/search")
    page.locator(".st-key-search_move_4 button").click()  # x(1,1)
    wait_idle(page)
    expect(page.locator(".st-key-search_moves input")).to_have_value("x(1,1)")
    set_number(page, "search_simulations", 200)
    page.locator(".st-key-search_run button").click()
    expect(page.get_by_text("What the search found")).to_be_visible(timeout=LOAD_TIMEOUT)
    wait_idle(page)
    sidebar = page.locator('[data-testid="stSidebar"]')
    expect(sidebar.get_by_text("Using the search of tic_tac_toe after x(1,1)")).to_be_visible()
    page.screenshot(path=output_dir / "search_done.png")

    page.get_by_text("See its tree in the Explorer").click()
    wait_idle(page)
    wait_rendered(page)
    # The Explorer is the default page: the address becomes the app's root (the browser updates it
    # a moment after the run).
    expect(page).to_have_url(re.compile(rf"^{re.escape(app_url.rstrip('/'))}/?(\?.*)?$"), timeout=LOAD_TIMEOUT)
    expect(page.locator(TREE_NODES).first).to_be_visible(timeout=LOAD_TIMEOUT)
    texts = node_texts(page)
    # After x(1,1) it is o's turn: the root's children are o's moves, named as OpenSpiel names them.
    moves = [json.loads(text) for text in texts if text.startswith("[")] or [text.split() for text in texts]
    assert any(any(move.startswith("o(") for move in path) for path in moves), texts
    page.screenshot(path=output_dir / "search_explorer.png")
    watched.assert_clean()


def test_stop_ends_a_long_search_and_keeps_what_it_found(page, app_url):
    watched = open_app(page, app_url, "/search")
    page.locator(".st-key-search_game").click()
    page.get_by_role("option", name="Connect Four").click()
    wait_idle(page)
    set_number(page, "search_simulations", 200_000)
    page.locator(".st-key-search_run button").click()
    # While a fragment reruns, Streamlit can briefly show its previous elements too (marked stale).
    stop = page.locator('.st-key-search_stop[data-stale="false"] button').first
    expect(stop).to_be_visible(timeout=LOAD_TIMEOUT)
    expect(page.locator('[data-testid="stProgress"]').first).to_be_visible()
    stop.click()
    expect(page.get_by_text("Stopped after")).to_be_visible(timeout=15_000)
    wait_idle(page)
    expect(page.locator('[data-testid="stSidebar"]').get_by_text("Using the search of connect_four")).to_be_visible()
    watched.assert_clean()


@pytest.mark.parametrize("game", [None, "Connect Four"])
def test_run_the_search_is_on_a_projector_screen_without_scrolling(page, app_url, game):
    """At 1366x768 it sat below the fold, under the budget's row."""
    page.set_viewport_size({"width": 1366, "height": 768})
    watched = open_app(page, app_url, "/search")
    if game is not None:
        page.locator(".st-key-search_game").click()
        page.get_by_role("option", name=game).click()
        wait_idle(page)
    run = page.locator(".st-key-search_run button")
    expect(run).to_be_enabled()
    box = run.bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= 768, f"Run the search at y = {box['y']:.0f} to {box['y'] + box['height']:.0f}"
    watched.assert_clean()


def test_a_typed_game_shows_a_spinner_where_run_is_while_it_loads(page, app_url):
    """Enter in the game box: until the game is loaded, Run's place says so with a spinner (Run used to
    stay disabled and still for the whole load); then Run is enabled. Read off the server's messages:
    every button it draws, in order."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    drawn: list[tuple[str, bool]] = []  # (label, disabled) of each button the server draws

    def listen(socket):
        def frame(payload):
            if isinstance(payload, str):
                return
            message = ForwardMsg()
            message.ParseFromString(payload)
            element = message.delta.new_element if message.WhichOneof("type") == "delta" else None
            if element is not None and element.WhichOneof("type") == "button":
                drawn.append((element.button.label, element.button.disabled))

        if socket.url.endswith("/_stcore/stream"):
            socket.on("framereceived", frame)

    page.on("websocket", listen)
    server = ServerMessages(page)
    watched = open_app(page, app_url, "/search")
    page.locator(".st-key-search_game").click()
    server.run(lambda: page.get_by_role("option", name="Another OpenSpiel game…").click())
    server.settle()
    game = "clobber(rows=4,columns=5)"  # a game no other test loads: its first load takes a while
    drawn.clear()
    box = page.locator(".st-key-search_game_name input")
    box.fill(game)
    server.run(lambda: box.press("Enter"))
    expect(page.locator(".st-key-search_run button")).to_be_enabled()
    labels = [label for label, _disabled in drawn]
    assert "Loading the game…" in labels, drawn
    # Then Run, enabled: the game is loaded.
    assert ("Run the search", False) in drawn[labels.index("Loading the game…") + 1:], drawn
    watched.assert_clean()
