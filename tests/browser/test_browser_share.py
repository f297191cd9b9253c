"""State that survives and travels, in a real chromium: reload, back, a copied link, a restart, Recent, and
a log whose moves are markdown."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import expect

from bench.harness.browser import (
    GRAPH,
    LOAD_TIMEOUT,
    ServerMessages,
    eventually,
    metric_value,
    open_app,
    set_text_area,
    tree_facts,
    wait_for_graph,
    wait_idle,
    wait_rendered,
)
from bench.harness.server import REPO, start_streamlit, stop_streamlit

TEXT = "ab 9\nac 2\nb 4\nbc 7\nca 1\nab 3\n"  # no header: C comes from the page
EXACT_C = ".st-key-c_exact input"
INSPECT = ".st-key-inspect input"


def set_exact_c(page, value: str) -> None:
    """Type C and wait until the page has published it (the run may start a moment after Enter)."""
    box = page.locator(EXACT_C)
    box.fill(value)
    box.press("Enter")
    page.wait_for_function("c => new URLSearchParams(location.search).get('c') === c", arg=repr(float(value)))
    wait_idle(page)


def choose(page, key: str, option: str) -> None:
    """Pick a selectbox option: type it (the menu filters as one types), then click it."""
    box = page.locator(f".st-key-{key} input[role=combobox]")
    box.click()
    box.press("Control+a")
    box.press_sequentially(option, delay=20)
    page.get_by_role("option", name=option).first.click()
    wait_idle(page)


def click_node(page, moves: list[str]) -> None:
    page.locator(f"{GRAPH} svg g.node[data-path='{json.dumps(moves, separators=(',', ':'))}']").click()
    expect(page.locator(INSPECT)).to_have_value("".join(moves))
    wait_idle(page)


def copied_link(page) -> str:
    """The link the Share button offers (what "Copy" on it gives)."""
    page.get_by_role("button", name="Share").first.click()
    code = page.locator('[data-testid="stPopoverBody"] [data-testid="stCode"] code')
    expect(code).to_contain_text("input=")
    link = code.inner_text().strip()
    page.keyboard.press("Escape")
    return link


def view_on_screen(page) -> dict:
    wait_for_graph(page)
    return {
        "text": page.locator(".st-key-playouts textarea").input_value(),
        "c": page.locator(EXACT_C).input_value(),
        "rule": page.locator(".st-key-rule input[role=combobox]").input_value(),
        "node": page.locator(INSPECT).input_value(),
        "path": metric_value(page, "Selected path").inner_text(),
    }


def prepare(page, app_url) -> dict:
    open_app(page, app_url)
    wait_for_graph(page)
    set_text_area(page, TEXT)
    expect(tree_facts(page)).to_contain_text("The tree of 6 playouts,")
    wait_idle(page)
    set_exact_c(page, "2.5")
    choose(page, "rule", "UCB1-Tuned")
    click_node(page, ["a"])
    view = view_on_screen(page)
    assert view["c"] == "2.5" and view["rule"] == "UCB1-Tuned" and view["node"] == "a" and view["text"] == TEXT
    return view


def test_a_reload_and_a_copied_link_in_another_browser_show_the_same_view(page, app_url, browser):
    view = prepare(page, app_url)
    link = copied_link(page)
    assert link.startswith(app_url) and "c=2.5" in link and "rule=ucb1_tuned" in link

    page.reload()
    wait_idle(page)
    wait_rendered(page)
    eventually(lambda: view_on_screen(page), view, page=page)

    other = browser.new_context(viewport={"width": 1400, "height": 1000})  # no cookies, no storage
    try:
        fresh = other.new_page()
        fresh.goto(link)
        wait_idle(fresh)
        wait_rendered(fresh)
        eventually(lambda: view_on_screen(fresh), view, page=fresh)
    finally:
        other.close()


def test_the_back_button_steps_back_through_c_changes(page, app_url):
    open_app(page, app_url)
    wait_for_graph(page)
    set_exact_c(page, "2.5")
    set_exact_c(page, "7")
    page.go_back()
    page.wait_for_function("() => location.search.includes('c=2.5')")
    expect(page.locator(EXACT_C)).to_have_value("2.5", timeout=LOAD_TIMEOUT)
    page.go_forward()
    expect(page.locator(EXACT_C)).to_have_value("7", timeout=LOAD_TIMEOUT)


def history_shown(page, c: str) -> dict:
    """Once the page shows C = ``c`` and its run is over: the URL's C, the box and the number of entries."""
    expect(page.locator(EXACT_C)).to_have_value(c, timeout=LOAD_TIMEOUT)
    wait_idle(page)
    return page.evaluate(
        """box => ({c: new URLSearchParams(location.search).get('c'), box: document.querySelector(box).value,
                   entries: history.length})""",
        EXACT_C,
    )


def test_back_and_forward_again_and_again_keep_every_entry_and_its_c(page, app_url):
    # The move's run must open the entry's view: a run showing the view being left would write it
    # over the entry gone to (the URL then says another C than the page) or as a new entry (Forward
    # then has nowhere to go).
    server = ServerMessages(page)
    open_app(page, app_url)
    wait_for_graph(page)
    set_exact_c(page, "2.5")
    set_exact_c(page, "7")
    entries = page.evaluate("() => history.length")
    for _ in range(3):
        page.go_back()
        assert history_shown(page, "2.5") == {"c": "2.5", "box": "2.5", "entries": entries}
        page.go_forward()
        assert history_shown(page, "7") == {"c": "7.0", "box": "7", "entries": entries}
    finished = server.finished
    page.go_back()
    page.go_forward()  # before the step back's run is over
    server.until(lambda: server.finished > finished and not server.running, what="no run ended after the steps")
    expect(page.locator(EXACT_C)).to_have_value("7", timeout=LOAD_TIMEOUT)
    server.settle()  # every run the page asked for is over: a late run of the step back would show 2.5 again
    assert history_shown(page, "7") == {"c": "7.0", "box": "7", "entries": entries}


def test_links_keep_working_after_the_server_restarts(page, tmp_path):
    process, url = start_streamlit(Path("app.py"), tmp_path / "first.log", cwd=REPO)
    try:
        view = prepare(page, url)
        link = copied_link(page)
    finally:
        stop_streamlit(process)
    process, new_url = start_streamlit(Path("app.py"), tmp_path / "second.log", cwd=REPO)  # same data folder
    try:
        page.goto(link.replace(url, new_url))
        wait_idle(page)
        wait_rendered(page)
        # The page settles over its first runs (the box is briefly empty while it mounts).
        eventually(lambda: view_on_screen(page), view, page=page)
    finally:
        stop_streamlit(process)


def test_an_upload_survives_a_server_restart_without_an_error(page, tmp_path):
    # The page reconnects to the restarted server with its uploader still naming a file the new
    # server never saw (Streamlit hands the script a DeletedFile): the store reopens the input.
    process, url = start_streamlit(Path("app.py"), tmp_path / "first.log", cwd=REPO)
    port = int(url.rsplit(":", 1)[1])
    try:
        watched = open_app(page, url)
        upload = tmp_path / "kept.txt"
        upload.write_text(TEXT)
        page.locator('.st-key-upload input[type="file"]').set_input_files(upload)
        expect(tree_facts(page)).to_contain_text("The tree of 6 playouts,", timeout=LOAD_TIMEOUT)
        wait_idle(page)
    finally:
        stop_streamlit(process)
    process, _ = start_streamlit(Path("app.py"), tmp_path / "second.log", cwd=REPO, port=port)
    try:
        wait_idle(page)  # reconnected
        page.locator(".st-key-inspect input").fill("a")
        page.locator(".st-key-inspect input").press("Enter")  # the next interaction sends the old file's id
        wait_idle(page)
        expect(page.get_by_text("Using the uploaded file kept.txt")).to_be_visible(timeout=LOAD_TIMEOUT)
        expect(tree_facts(page)).to_contain_text("The tree of 6 playouts,")
        # While the server was down the page's health checks were refused; nothing else may fail.
        watched.errors[:] = [error for error in watched.errors if "ERR_CONNECTION_REFUSED" not in error]
        watched.assert_clean()
    finally:
        stop_streamlit(process)


def test_recent_reopens_an_earlier_upload_in_this_browser_only(page, app_url, browser, tmp_path):
    open_app(page, app_url)
    wait_for_graph(page)
    demo = tmp_path / "demo.txt"
    demo.write_text(TEXT + "# only this test uploads this\n")  # new content: not in the server's cache
    page.locator('.st-key-upload input[type="file"]').set_input_files(demo)
    wait_idle(page)
    expect(tree_facts(page)).to_contain_text("The tree of 6 playouts,")
    page.locator('.st-key-upload [data-testid="stFileChipDeleteBtn"] button').click()  # back to the text box
    wait_idle(page)
    expect(tree_facts(page)).not_to_contain_text("The tree of 6 playouts,")

    choose(page, "recent_choice", "puzzle text, 6 playouts")  # what it is: the store keeps no file name
    sidebar = page.locator('[data-testid="stSidebar"]')
    expect(sidebar.get_by_text("Using the recent input: puzzle text, 6 playouts")).to_be_visible()
    expect(tree_facts(page)).to_contain_text("The tree of 6 playouts,")

    other = browser.new_context()  # another browser's list is its own
    try:
        fresh = other.new_page()
        open_app(fresh, app_url)
        wait_for_graph(fresh)
        expect(fresh.locator(".st-key-recent_choice")).to_have_count(0)
    finally:
        other.close()


MARKER = "from-log"
HOSTILE_MOVES = [
    f"![p](http://127.0.0.1:9/{MARKER}-image.png)",
    f"[link](http://127.0.0.1:9/{MARKER}-link)",
    f"<img/src=http://127.0.0.1:9/{MARKER}-raw.png>",
    f"$\\href{{http://127.0.0.1:9/{MARKER}-katex}}{{k}}$",
    ":red[coloured]",
]


def test_moves_written_as_markdown_stay_text_on_every_page(page, app_url, tmp_path):
    records = [{"path": [move, other], "score": 3 + i - j}
               for i, move in enumerate(HOSTILE_MOVES) for j, other in enumerate(HOSTILE_MOVES[:2])]
    log = tmp_path / "hostile.jsonl"
    log.write_text("\n".join([json.dumps({"mcts_log": 1, "c": 0.5}), *map(json.dumps, records)]) + "\n")
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    open_app(page, app_url)
    page.locator('.st-key-upload input[type="file"]').set_input_files(log)
    wait_idle(page)
    wait_for_graph(page)
    for title in ("Explorer", "C sweep", "Compare", "Playback", "Classroom"):
        page.locator('[data-testid="stSidebarNav"]').get_by_role("link", name=title).click()
        wait_idle(page)
        wait_rendered(page)
        expect(page.locator('[data-testid="stException"]')).to_have_count(0)
        planted = page.evaluate(
            """marker => [...document.querySelectorAll('img, a, image, [src], [href]')]
                .map(e => e.getAttribute('src') || e.getAttribute('href') || '')
                .filter(url => url.includes(marker))""",
            MARKER,
        )
        assert planted == [], f"{title}: the log's markdown became elements: {planted}"
        assert not page.locator(".katex, [data-testid='stMarkdownColoredText']").filter(has_text="coloured").count()
    assert not [url for url in requests if MARKER in url], "the page fetched a URL written in the log"
    # The moves are shown, literally: the Sweep's path metric names the first one as typed.
    page.locator('[data-testid="stSidebarNav"]').get_by_role("link", name="C sweep").click()
    wait_idle(page)
    expect(metric_value(page, "UCB1 path at this C")).to_contain_text("127.0.0.1:9/" + MARKER)


# Each page, a view of it (its path and query) and what only that page draws, with its state on screen.
PAGE_VIEWS = [
    ("", {"c": "0.7", "node": '["b"]'}, INSPECT, "b"),
    ("sweep", {"c": "0.7", "rule": "ucb1_tuned"}, ".st-key-c_exact input", "0.7"),
    ("compare", {"c": "0.7", "c_b": "3.5", "rule_b": "ucb1_tuned"}, ".st-key-cmp_c input", "3.5"),
    ("playback", {"c": "0.7", "k": "2", "rule_path": "1"}, '.st-key-playback_k [data-testid="stSliderThumbValue"]', "2"),
    ("classroom", {"c": "0.7", "node": '["b"]'}, ".st-key-class_presentation", None),
]


def published(page) -> dict:
    return page.evaluate("() => Object.fromEntries(new URLSearchParams(location.search))")


def test_every_pages_link_opens_the_same_page_input_c_and_page_state_in_a_fresh_browser(page, app_url, browser):
    from urllib.parse import urlencode

    for path, query, marker, shown in PAGE_VIEWS:
        open_app(page, app_url, f"/{path}?{urlencode(query)}")
        expect(page.locator(marker)).to_be_visible(timeout=LOAD_TIMEOUT)
        link = copied_link(page)
        assert link.startswith(f"{app_url.rstrip('/')}/{path}?"), link  # from the root: no repeated path
        before = published(page)
        assert {name: before.get(name) for name in query} == query  # the page's state is in its link
        other = browser.new_context(viewport={"width": 1400, "height": 1000})  # no cookies, no storage
        try:
            fresh = other.new_page()
            watched = open_app(fresh, link, "")
            expect(fresh.locator(marker)).to_be_visible(timeout=LOAD_TIMEOUT)
            watched.assert_clean()
            assert fresh.evaluate("() => location.pathname") == f"/{path}"
            after = published(fresh)
            assert {name: after.get(name) for name in ("input", *query)} == {name: before[name] for name in ("input", *query)}
            if "stSliderThumbValue" in marker:
                expect(fresh.locator(marker)).to_have_text(shown)
            elif shown is not None:
                expect(fresh.locator(marker)).to_have_value(shown)
            else:  # the Classroom asks about the linked node, not the root
                question = fresh.get_by_role("heading", name="Which child does UCB1 pick at")
                expect(question).to_be_visible()
                expect(question).not_to_contain_text("the root")
        finally:
            other.close()
