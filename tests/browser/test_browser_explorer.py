"""The Explorer page in a real chromium: load, paste, move C by keyboard, upload, download, errors."""

from __future__ import annotations

import json
import re
import subprocess

import pandas as pd
import pytest
from playwright.sync_api import expect
from streamlit.proto.BackMsg_pb2 import BackMsg

from mcts_core import build_tree, parse_playouts, solve
from mcts_core.analysis import path_intervals
from mcts_core.inputs.examples import C_FLIPS_CHOICE, deep_tree

from bench.harness.browser import (
    GRAPH,
    LOAD_TIMEOUT,
    MARKUP_MOVE,
    SLIDER,
    ServerMessages,
    TABLE_CELLS,
    eventually,
    fold_nodes,
    fold_text,
    graph_nodes,
    metric_value,
    open_app,
    open_markup_log,
    path_ids,
    playout_file,
    real_nodes,
    red_nodes,
    set_text_area,
    shown_values,
    table_rows,
    tree_facts,
    wait_for_graph,
    wait_idle,
    watch_values,
)


STATEMENT = "3 0.1\nbaa 30\nab 20\nbbb 4\n"  # what the app opens on
# Five playouts that build 6 nodes (root, a, b, c, ab, ca); at C = 0.3 the path is "ab".
PASTED = "5 0.3\na 9\nab 7\nc 3\nca 2\nb 1\n"


def rank_one(page) -> str:
    """The move in the table's first row: the child the selection rule picks."""
    rows = table_rows(page)
    return rows[0]["move"]  # the table lists the children best first


def test_loads_without_console_errors(page, app_url, output_dir):
    watched = open_app(page, app_url)
    wait_for_graph(page)
    expect(metric_value(page, "Selected path")).to_have_text("a")
    assert sorted(node["id"] for node in real_nodes(graph_nodes(page))) == sorted(['[]', '["a"]', '["b"]', '["b","b"]'])
    assert red_nodes(page) == path_ids(STATEMENT, 0.1)
    page.screenshot(path=output_dir / "explorer_default.png", full_page=True)
    watched.assert_clean()


def test_pasted_playouts_draw_their_tree(page, app_url, output_dir):
    watched = open_app(page, app_url)
    wait_for_graph(page)
    set_text_area(page, PASTED)
    expected_nodes = len(build_tree(parse_playouts(PASTED)))
    assert expected_nodes == 6
    expect(tree_facts(page)).to_contain_text(f" playouts, {expected_nodes} nodes,")
    expect(page.locator(f"{GRAPH} svg g.node[data-path]")).to_have_count(expected_nodes)
    wait_idle(page)
    nodes = graph_nodes(page)
    assert len(real_nodes(nodes)) == expected_nodes and not fold_nodes(nodes)
    assert solve(PASTED) == "ab"  # a (mean 8) over c and b, then its only child
    eventually(lambda: red_nodes(page), path_ids(PASTED, 0.3), page=page)
    page.screenshot(path=output_dir / "explorer_pasted.png", full_page=True)
    watched.assert_clean()


def test_keyboard_on_the_c_slider_moves_the_path_and_the_table(page, app_url, output_dir):
    watched = open_app(page, app_url)
    wait_for_graph(page)
    page.locator(".st-key-example").click()
    page.get_by_role("option", name="A larger C flips the choice").click()
    expect(page.locator(".st-key-c_exact input")).to_have_value("0.5")
    expect(metric_value(page, "Selected path")).to_have_text("aa")
    wait_idle(page)
    assert solve(C_FLIPS_CHOICE) == "aa"
    eventually(lambda: red_nodes(page), path_ids(C_FLIPS_CHOICE, 0.5), page=page)
    eventually(lambda: rank_one(page), "a", page=page)
    ucb_a = next(row["UCB1"] for row in table_rows(page) if row["move"] == "a")

    slider = page.locator(SLIDER)
    slider.focus()
    page.keyboard.press("ArrowRight")  # one step (the slider ends at 5, past the flip): C = 0.55, still aa
    expect(page.locator(".st-key-c_exact input")).to_have_value("0.55")
    # The C-dependent terms are recomputed: a's old UCB1 value leaves the table.
    expect(page.locator(TABLE_CELLS).first.locator("tbody")).not_to_contain_text(ucb_a)
    wait_idle(page)
    assert red_nodes(page) == path_ids(C_FLIPS_CHOICE, 0.55) and rank_one(page) == "a"

    page.keyboard.press("End")  # the slider's maximum, far past the flip at about 2.70
    expect(metric_value(page, "Selected path")).to_have_text("b")
    expect(page.locator(".st-key-c_exact input")).not_to_have_value("0.55")
    wait_idle(page)
    c = float(page.locator(".st-key-c_exact input").input_value())
    assert c > 2.71 and solve(C_FLIPS_CHOICE, c=c) == "b"
    wait_idle(page)
    expect(page.locator(f"{GRAPH} svg g.node[data-path]")).to_have_count(len(build_tree(parse_playouts(C_FLIPS_CHOICE))))
    eventually(lambda: red_nodes(page), path_ids(C_FLIPS_CHOICE, c), page=page)
    eventually(lambda: rank_one(page), "b", page=page)
    page.screenshot(path=output_dir / "explorer_c_changed.png", full_page=True)

    page.keyboard.press("Home")  # back to C = 0: pure exploitation, a again
    expect(metric_value(page, "Selected path")).to_have_text(solve(C_FLIPS_CHOICE, c=0.0))
    watched.assert_clean()


def upload(page, path) -> None:
    page.locator('.st-key-upload input[type="file"]').set_input_files(path)


def slider_c(page) -> float:
    """The C the slider shows on its thumb (the hidden range input snaps to the step grid)."""
    return float(page.locator('.st-key-c [data-testid="stSliderThumbValue"]').inner_text())


def caption_c(page) -> float:
    """The C the page computed with, from the caption above the tree ("... at C = 0.1. Blue ...", a live
    text: ui/c/live_text.py)."""
    text = page.locator(".lt-caption", has_text="the selected path at C = ").inner_text()
    return float(re.search(r"at C = (\S+?)\. ", text).group(1))


BUDGET_BOX = ".st-key-budget input"


def test_the_node_budget_box_shows_the_budget_from_its_first_frame(page, app_url):
    watched = open_app(page, app_url)
    wait_for_graph(page)
    watch_values(page, BUDGET_BOX)
    page.get_by_text("Drawing limits").click()  # its widgets are made when it opens
    expect(page.locator(BUDGET_BOX)).to_have_value("300")
    wait_idle(page)
    # It used to show its minimum, 10, for a frame first.
    assert shown_values(page, BUDGET_BOX) == ["300"]
    watched.assert_clean()


def test_large_upload_draws_a_capped_tree(page, app_url, output_dir, tmp_path):
    log = playout_file(tmp_path / "playouts_20k.txt", 20_000, seed=3)
    text = log.read_text()
    tree = build_tree(parse_playouts(text))
    watched = open_app(page, app_url)
    wait_for_graph(page)
    upload(page, log)
    expect(tree_facts(page)).to_contain_text("The tree of 20,000 playouts,", timeout=LOAD_TIMEOUT)
    expect(tree_facts(page)).to_contain_text(f" playouts, {len(tree):,} nodes,")
    expect(page.locator(f"{GRAPH} svg g.node text", has_text=re.compile(r"^\+\d+ more"))).not_to_have_count(
        0, timeout=LOAD_TIMEOUT
    )
    wait_idle(page)
    page.get_by_text("Drawing limits").click()  # its widgets are drawn once it is open
    budget = int(page.locator(BUDGET_BOX).input_value())
    path = metric_value(page, "Selected path").inner_text().strip()
    assert path == solve(text, c=slider_c(page))
    nodes = graph_nodes(page)
    assert fold_nodes(nodes), "a 20k-playout tree must fold some children"
    # The budget caps the chosen nodes; the paths the slider can select (the selected one among
    # them) and the inspected root are always added.
    maximum = float(page.locator(SLIDER).get_attribute("max"))
    on_slider_paths = {node for part in path_intervals(tree, 0.0, maximum) for node in tree.path_nodes(tree.find(part.path))}
    assert min(budget, len(tree)) // 2 <= len(real_nodes(nodes)) <= budget + len(on_slider_paths)
    # A box's "+k more" line counts exactly its children that are not drawn.
    drawn = {tuple(json.loads(node["id"])) for node in real_nodes(nodes)}
    for node in fold_nodes(nodes):
        moves = json.loads(node["id"])
        parent = tree.find("".join(moves))
        left_out = sum(1 for kid in tree.children[parent] if (*moves, tree.move[kid]) not in drawn)
        assert fold_text(node).startswith(f"+{left_out} more, "), (moves, node["label"])
    eventually(lambda: red_nodes(page), path_ids(text, slider_c(page)), page=page)
    page.screenshot(path=output_dir / "explorer_large_upload.png", full_page=True)
    # The picture opens on the root with the selected path in view, however large the tree.
    root = page.locator(f'{GRAPH} svg g.node[data-path="[]"]').first
    expect(root).to_be_in_viewport()
    # ...and below the picture's toolbar (Fit, Root, ...), which would otherwise hide its label.
    toolbar = page.locator(f"{GRAPH} .tv-toolbar").bounding_box()
    viewport = page.locator(f"{GRAPH} .tv-viewport").bounding_box()
    root_box = root.bounding_box()
    assert toolbar["y"] + toolbar["height"] <= root_box["y"] <= viewport["y"] + viewport["height"] - root_box["height"]
    watched.assert_clean()


def test_upload_keeps_the_c_the_user_sees(page, app_url, tmp_path):
    log = playout_file(tmp_path / "playouts_2k.txt", 2_000, seed=5)
    open_app(page, app_url)
    wait_for_graph(page)
    exact_before = page.locator(".st-key-c_exact input").input_value()
    upload(page, log)
    expect(tree_facts(page)).to_contain_text("The tree of 2,000 playouts,", timeout=LOAD_TIMEOUT)
    wait_idle(page)
    exact = float(page.locator(".st-key-c_exact input").input_value())
    assert slider_c(page) == caption_c(page) == exact == float(exact_before)


def test_downloads_are_valid_dot_and_csv(page, app_url, tmp_path):
    sent = []  # the kinds of message the page sends the server (a download asks for its file, no rerun)
    page.on("websocket", lambda socket: socket.on("framesent", lambda payload: sent.append(back_kind(payload))))
    watched = open_app(page, app_url)
    wait_for_graph(page)
    before = len(sent)
    with page.expect_download() as dot_download:
        page.locator(".st-key-download_dot button").click()
    dot_file = tmp_path / "tree.dot"
    dot_download.value.save_as(dot_file)
    rendered = subprocess.run(["dot", "-Tsvg", str(dot_file)], capture_output=True, text=True, timeout=30)
    assert rendered.returncode == 0, rendered.stderr
    assert rendered.stdout.count('class="node"') == 4  # root, a, b, bb of the statement example

    with page.expect_download() as csv_download:
        page.locator(".st-key-download_csv button").click()
    csv_file = tmp_path / "table.csv"
    csv_download.value.save_as(csv_file)
    assert csv_download.value.suggested_filename.endswith(".csv")
    table = pd.read_csv(csv_file)
    assert {"move", "visits", "mean"} <= set(table.columns)
    assert sorted(table.move) == ["a", "b"] and sorted(table.visits) == [1, 2]
    assert dict(zip(table.move, table["mean"].round(6))) == {"a": 20.0, "b": 17.0}
    # Neither download reran the page: a rerun gives each file made on click a new id, and a click
    # on the other button during that run downloaded nothing (seen under load).
    assert "rerun_script" not in sent[before:], sent[before:]
    watched.assert_clean()


def back_kind(payload) -> str:
    """The kind of a message the page sent the server (a rerun, a file asked for, ...)."""
    message = BackMsg()
    message.ParseFromString(payload)
    return message.WhichOneof("type")


def download_children_csv(page, folder) -> tuple[str, pd.DataFrame]:
    """Download the inspected node's children as CSV: (the file's suggested name, its table)."""
    with page.expect_download() as download:
        page.locator(".st-key-download_csv button").click()
    saved = folder / "children.csv"
    download.value.save_as(saved)
    return download.value.suggested_filename, pd.read_csv(saved, keep_default_na=False)


def test_the_children_csv_is_named_after_the_node_s_moves_and_has_the_table_s_headers(page, app_url, tmp_path):
    """It was `children_o1 x2.csv` (a space) and called UCB1's column `value`."""
    log = tmp_path / "named_moves.jsonl"
    log.write_text("\n".join(json.dumps(record) for record in [
        {"mcts_log": 1}, *({"path": path, "score": score} for path, score in [
            (["o1"], 1), (["o1", "x2"], 0), (["o1", "x2", "o3"], 1), (["o1", "x2", "x(1,1)"], 0), (["b"], 0),
        ]),
    ]) + "\n")
    server = ServerMessages(page)  # it reads the page's websocket: made before the page opens
    watched = open_app(page, app_url)
    page.locator('.st-key-upload input[type="file"]').set_input_files(log)
    expect(tree_facts(page)).to_contain_text("The tree of 5 ", timeout=LOAD_TIMEOUT)
    server.settle()  # a click during a run the page asked for (the picture's) may be lost
    name, table = download_children_csv(page, tmp_path)
    assert name == "children_root.csv" and sorted(table["move"]) == ["b", "o1"]
    inspect = page.locator(".st-key-inspect input")
    inspect.fill("o1 x2")
    # The run Enter starts is waited for: the root's table has two rows too, and a click before that
    # run holds the root's file id, which the run replaces (no download).
    server.run(lambda: inspect.press("Enter"))
    server.settle()
    headers = list(table_rows(page)[0])
    assert sorted(row["move"] for row in table_rows(page)) == ["o3", "x(1,1)"]
    name, table = download_children_csv(page, tmp_path)
    assert name == "children_o1_x2.csv"
    # The table's headers in its order (UCB1's value is "UCB1"), then what only the CSV has.
    assert "UCB1" in headers and "value" not in headers
    assert list(table.columns) == [*headers, "rank", "selected"]
    assert sorted(table["move"]) == ["o3", "x(1,1)"]
    watched.assert_clean()


def test_bad_input_shows_the_line_not_a_traceback(page, app_url, output_dir):
    watched = open_app(page, app_url)
    wait_for_graph(page)
    set_text_area(page, "3 0.1\nbaa 30\nab x\nbbb 4\n")
    alert = page.locator('[data-testid="stMain"] [data-testid="stAlert"]').first
    expect(alert).to_contain_text("Line 3", timeout=LOAD_TIMEOUT)
    expect(alert).to_contain_text("score must be a number")
    wait_idle(page)
    expect(page.locator('[data-testid="stException"]')).to_have_count(0)
    expect(page.locator(GRAPH)).to_have_count(0)
    expect(page.locator(".st-key-playouts textarea")).to_have_value("3 0.1\nbaa 30\nab x\nbbb 4\n")
    page.screenshot(path=output_dir / "explorer_error.png", full_page=True)
    watched.assert_clean()


def test_drawing_limits_stay_open_while_the_user_edits_them(page, app_url, tmp_path):
    log = tmp_path / "deep.txt"
    log.write_text(deep_tree())
    watched = open_app(page, app_url)
    wait_for_graph(page)
    upload(page, log)
    wait_idle(page)
    expect(tree_facts(page)).to_contain_text("The tree of 400 playouts,")
    page.get_by_text("Drawing limits").click()
    wait_idle(page)
    # A small budget draws the tree top-down beside the table, a large one left to right across the page.
    for budget in ("12", "300", "20"):
        field = page.locator(".st-key-budget input")
        field.fill(budget)
        field.press("Enter")
        # The run with this budget has happened (the link holds it): idle alone may be the moment
        # before the run starts, and the next budget typed then races this one's rerun.
        expect(page).to_have_url(re.compile(rf"[?&]budget={budget}(&|$)"))
        wait_idle(page)
        expect(page.locator(".st-key-budget input")).to_be_visible()  # still open after the rerun
        expect(page.locator(".st-key-budget input")).to_have_value(budget)
    watched.assert_clean()


def test_the_children_table_sorts_by_a_header_and_a_row_click_inspects_its_child(page, app_url, output_dir):
    """A header click orders the rows by that column (again: the other way), the selected child stays
    red wherever it goes; a click on a row inspects that child, as a click on its node does."""
    watched = open_app(page, app_url)
    wait_for_graph(page)
    set_text_area(page, PASTED)  # the root's children: a (2 visits), c (2), b (1); at C = 0.3 a is picked
    eventually(lambda: [row["move"] for row in table_rows(page)], ["a", "c", "b"], page=page)
    table = page.locator(TABLE_CELLS)
    visits = table.locator("th", has_text="visits")
    visits.click()
    assert [(row["move"], row["visits ▼"]) for row in table_rows(page)] == [("a", "2"), ("c", "2"), ("b", "1")]
    expect(visits).to_have_attribute("aria-sort", "descending")
    visits.click()
    assert [row["move"] for row in table_rows(page)] == ["b", "a", "c"]
    expect(visits).to_have_attribute("aria-sort", "ascending")
    assert table.locator("tbody tr.tt-selected").inner_text().split()[0] == "a"  # still the picked child
    table.locator("th", has_text="move").focus()
    page.keyboard.press("Enter")  # a header sorts from the keyboard too
    assert [row["move ▲"] for row in table_rows(page)] == ["a", "b", "c"]
    page.keyboard.press("Enter")  # it keeps the focus
    assert [row["move ▼"] for row in table_rows(page)] == ["c", "b", "a"]
    page.keyboard.press("Enter")
    table.locator("tbody td:first-child", has_text=re.compile(r"^c$")).click()  # inspect c: its one child, a
    expect(page.locator(".st-key-inspect input")).to_have_value("c")
    eventually(lambda: [row["move ▲"] for row in table_rows(page)], ["a"], page=page)  # the order chosen stays
    page.screenshot(path=output_dir / "explorer_table_row_click.png")
    watched.assert_clean()


def test_markup_in_a_move_is_shown_as_text_in_the_children_table(page, app_url, tmp_path):
    watched = open_markup_log(page, app_url, tmp_path)
    table = page.locator(TABLE_CELLS)
    expect(table.locator("td").filter(has_text="onerror")).to_have_text(MARKUP_MOVE)
    expect(table.locator("img")).to_have_count(0)
    assert page.title() != "1"
    watched.assert_clean()


@pytest.mark.parametrize("text", [STATEMENT, "".join(f"{move} {score}\n" for move, score in zip("abcdefg", range(7)))])
def test_on_a_projector_why_the_child_won_and_the_childrens_rows_are_above_the_fold(page, app_url, text):
    """At 1366x768 beside the picture: the sentence saying why, and the table's rows (up to 4)."""
    page.set_viewport_size({"width": 1366, "height": 768})
    watched = open_app(page, app_url)
    if text != STATEMENT:
        set_text_area(page, text)
        wait_idle(page)
    wait_for_graph(page)
    page.evaluate("window.scrollTo(0, 0)")
    why = page.get_by_text(re.compile(r" beats .* decided\."))
    expect(why).to_be_in_viewport(ratio=1)
    rows = page.locator(f"{TABLE_CELLS} tbody tr")
    expect(rows).to_have_count(len(build_tree(parse_playouts(text)).children[0]))
    for row in rows.all()[:4]:
        expect(row).to_be_in_viewport(ratio=1)
    watched.assert_clean()
