"""A live room in chromium: a teacher and 12 students, each its own browser context, on one server.

The students' contexts are phones (360x740), the teacher's a projector (1366x768). Every wait is on
what a page shows (the count, "Answer received", the verdict), never on the clock. One server serves
on the machine's network address, so that every page comes from one client address, as a class's
behind a school's NAT do.
"""

from __future__ import annotations

import io
import time
from pathlib import Path

import pytest

import zxingcpp
from PIL import Image
from playwright.sync_api import expect

from bench.harness.browser import LOAD_TIMEOUT, open_app, wait_for_graph, wait_idle, watch
from bench.harness.server import REPO, network_address, start_streamlit, stop_streamlit
from mcts_core.classroom import WRONG_CODES_ALLOWED
from mcts_core.classroom.room_codes import CODE_ALPHABET
from .test_browser_drag import EXACT, choose_example


STUDENTS = 12
RIGHT_ANSWERS = 8  # students 0-7 answer a (UCB1's pick at C = 0.5), the others b
PROJECTOR = {"width": 1366, "height": 768}
PHONE = {"width": 360, "height": 740}
COUNT = ".st-key-room_count"
QR = ".st-key-room_qr img"
REVEAL = ".st-key-room_reveal button"
JOIN_SECONDS = 10  # a student with the right code is in within this, whatever others at their address tried


def open_room(page, url: str, example: str = "A larger C flips the choice", c: str = "0.5") -> str:
    """The teacher's Classroom on ``example``, a live room opened; returns the join link."""
    watched = open_app(page, url, "/classroom")
    choose_example(page, example)
    expect(page.locator(EXACT)).to_have_value(c)
    wait_idle(page)
    page.get_by_role("button", name="Open a live room").click()
    expect_count(page, "No one has joined yet", timeout=LOAD_TIMEOUT)
    assert "/classroom?room=" in page.url
    # The room's page is the room's alone: the sidebar goes once the run that opened it has ended (until
    # then the columns, the QR code's included, are laid out beside the old sidebar).
    wait_idle(page)
    expect(page.get_by_test_id("stSidebar")).to_have_count(0)
    watched.assert_clean()
    return page.url


def expect_count(page, text: str, timeout: float | None = None) -> None:
    """The teacher's page shows the count once, reading ``text``. A list of texts makes Playwright
    wait for exactly that (one element) instead of failing at once on the moment of a rerun, e.g.
    after a reconnect, when the old count stands beside the new one until the run ends."""
    expect(page.locator(COUNT)).to_have_text([text], timeout=timeout)


def student_page(browser, link: str):
    """A phone in its own context (its own storage: its own student) on the join link: the page is
    asked for, not waited for (several students' pages load at once, as in a classroom)."""
    page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    watched = watch(page)
    page.goto(link, wait_until="commit")
    return page, watched


def answer_button(page, move: str):
    return page.get_by_role("button", name=move, exact=True)


def test_twelve_students_join_answer_and_see_their_verdicts(page, app_url, browser):
    page.set_viewport_size(PROJECTOR)
    link = open_room(page, app_url)
    code = link.split("room=")[1]
    # The QR code on the projector reads as the join link, and is large enough to scan across a room.
    qr = page.locator(QR)
    expect(qr).to_be_visible()
    box = qr.bounding_box()
    assert box["width"] >= 240 and box["y"] + box["height"] <= PROJECTOR["height"], box
    (decoded,) = zxingcpp.read_barcodes(Image.open(io.BytesIO(qr.screenshot())))
    assert decoded.text == link
    # The code comes inside the page's message, not as a file the page fetches after the run (a rerun
    # for a new room dropped that file while the page still asked for it: a 404 in the console).
    assert qr.get_attribute("src").startswith("data:image/png;base64,")
    expect(page.get_by_text(code, exact=True)).to_be_visible()

    students = [student_page(browser, link) for _ in range(STUDENTS)]
    for student, _ in students:
        expect(answer_button(student, "a")).to_be_visible(timeout=LOAD_TIMEOUT)
    expect_count(page, f"0 of {STUDENTS} answered")  # joined: the pages opened
    first = students[0][0]
    # A phone's page: the question and both buttons on screen, nothing of the teacher's.
    expect(first.get_by_text("Which child does UCB1 pick at the root?")).to_be_visible()
    assert [button.inner_text() for button in first.locator(".st-key-room_answers button").all()] == ["a", "b"]
    for move in ("a", "b"):
        button = answer_button(first, move).bounding_box()
        assert button["x"] >= 0 and button["x"] + button["width"] <= PHONE["width"]
        assert button["y"] + button["height"] <= PHONE["height"]
    expect(first.get_by_role("button", name="Reveal")).to_have_count(0)
    expect(first.locator(".st-key-c, [data-testid='stSidebar'], .st-key-room_count")).to_have_count(0)
    wait_for_graph(first)

    for index, (student, _) in enumerate(students):
        answer_button(student, "a" if index < RIGHT_ANSWERS else "b").click()
        expect(student.get_by_text("Answer received")).to_be_visible()
    expect_count(page, f"{STUDENTS} of {STUDENTS} answered")  # without a touch on the teacher's page
    expect(page.get_by_text("right.", exact=False)).to_have_count(0)  # nothing revealed yet

    # A student who reloads keeps their answer; the teacher who reloads keeps the room.
    last = students[-1][0]
    last.reload()
    expect(last.get_by_text("Answer received: b")).to_be_visible(timeout=LOAD_TIMEOUT)
    page.reload()
    expect_count(page, f"{STUDENTS} of {STUDENTS} answered", timeout=LOAD_TIMEOUT)
    expect_count(page, f"{STUDENTS} of {STUDENTS} answered")

    expect(page.locator(REVEAL)).to_have_text("Reveal")
    page.locator(REVEAL).click()
    expect(page.get_by_text(f"{RIGHT_ANSWERS} of {STUDENTS} right.")).to_be_visible()
    expect(page.locator(".st-key-room_distribution")).to_be_visible()
    for index, (student, watched) in enumerate(students):
        said = "is right" if index < RIGHT_ANSWERS else "is wrong"
        expect(student.get_by_text(said)).to_be_visible()
        expect(answer_button(student, "a")).to_be_disabled()
        watched.assert_clean()
        student.context.close()


def test_two_rooms_keep_their_questions_and_counts_apart(page, app_url, browser):
    page.set_viewport_size(PROJECTOR)
    first_link = open_room(page, app_url)
    other_teacher = browser.new_context(viewport=PROJECTOR).new_page()
    second_link = open_room(other_teacher, app_url, "Statement example", "0.1")
    assert first_link != second_link
    student, watched = student_page(browser, second_link)
    expect(student.get_by_text("C = 0.1. The root: 3 visits, mean 18.")).to_be_visible(timeout=LOAD_TIMEOUT)
    answer_button(student, "b").click()
    expect(student.get_by_text("Answer received")).to_be_visible()
    expect_count(other_teacher, "1 of 1 answered")
    expect_count(page, "No one has joined yet")
    other_teacher.locator(REVEAL).click()
    expect(student.get_by_text("is wrong")).to_be_visible()
    expect(page.locator(REVEAL)).to_be_visible()  # the first room's question is still open
    watched.assert_clean()
    other_teacher.context.close()
    student.context.close()


def test_a_phone_answers_a_flip_on_its_numeric_keypad_and_the_projector_reads_the_reveal(page, app_url, browser):
    page.set_viewport_size(PROJECTOR)
    link = open_room(page, app_url)
    page.get_by_role("button", name="Where does it flip?").click()
    expect(page.get_by_text("At which C does the choice at the root flip?")).to_be_visible()
    student, watched = student_page(browser, link)
    box = student.locator(".st-key-room_answer_c input")
    expect(box).to_have_attribute("inputmode", "decimal", timeout=LOAD_TIMEOUT)  # a phone's numeric keypad
    box.fill("2,7")  # a European keyboard's decimal comma
    box.press("Enter")
    expect(student.get_by_text("Answer received: C = 2.7")).to_be_visible()
    expect_count(page, "1 of 1 answered")
    page.locator(REVEAL).click()
    expect(page.get_by_text("1 of 1 right.")).to_be_visible()
    expect(page.locator(".st-key-room_terms td").first).to_be_visible()
    wait_idle(page)
    # The result, why and the terms, read from the back of a classroom.
    sizes = page.locator(".st-key-room_result p, .st-key-room_terms p, .st-key-room_terms th, .st-key-room_terms td").evaluate_all(
        "elements => elements.map(element => parseFloat(getComputedStyle(element).fontSize))")
    assert len(sizes) > 5 and min(sizes) >= 18, sizes
    expect(student.get_by_text("Your answer C = 2.7 is right")).to_be_visible()
    expect(box).to_be_disabled()
    watched.assert_clean()
    student.context.close()



def class_address() -> str:
    """The machine's network address, which every page opened on it comes from (a class behind a
    school's NAT shares one); fails the test in a sentence when there is none."""
    address = network_address()
    if address is None:
        pytest.fail("This machine has no network address besides loopback (`hostname -I` names no IPv4 address), "
                    "so no page can come from a classroom's shared address: run it on a machine with a network.",
                    pytrace=False)
    return address


def type_code(page, code: str) -> None:
    """Type ``code`` in the page's "Join a room" box and press Join (a rerun of the page, not a page load)."""
    box = page.get_by_label("Room code")
    if not box.is_visible():
        page.get_by_role("button", name="Join a room").click()
    box.fill(code)
    page.get_by_role("button", name="Join", exact=True).click()


def try_wrong_codes(prankster, link: str, code: str) -> None:
    """Different wrong codes until this browser is refused, even the right code."""
    wrong = [letter * 6 for letter in CODE_ALPHABET if letter * 6 != code][:WRONG_CODES_ALLOWED]
    prankster.goto(link.replace(code, wrong[0]), wait_until="commit")
    for guess in wrong:
        if guess != wrong[0]:
            type_code(prankster, guess)
        expect(prankster.get_by_text(f"There is no room {guess}")).to_be_visible(timeout=LOAD_TIMEOUT)
    type_code(prankster, code)
    expect(prankster.get_by_text("Too many wrong room codes were tried in this browser")).to_be_visible()


def test_after_a_restart_a_prankster_at_the_class_s_address_locks_out_no_student_and_answers_stay(
        page, browser, tmp_path, monkeypatch):
    """Served on the network address: the teacher and every phone come from one address. A server
    restart keeps the room, its teacher and each answer; a phone there trying wrong codes until it is
    refused keeps out neither a joined student who reloads nor a new one with the link."""
    address = class_address()
    monkeypatch.setenv("MCTS_EXPLORER_DATA", str(tmp_path))  # a store of its own: the address has tried no code yet
    process, url = start_streamlit(Path("app.py"), tmp_path / "first.log", cwd=REPO, address=address)
    port = int(url.rsplit(":", 1)[1])
    try:
        page.set_viewport_size(PROJECTOR)
        link = open_room(page, url)
        code = link.split("room=")[1]
        before, _ = student_page(browser, link)
        answer_button(before, "b").click()  # wrong at C = 0.5
        expect(before.get_by_text("Answer received: b")).to_be_visible(timeout=LOAD_TIMEOUT)
        expect_count(page, "1 of 1 answered")
    finally:
        stop_streamlit(process)
    process, _ = start_streamlit(Path("app.py"), tmp_path / "second.log", cwd=REPO, port=port, address=address)
    try:
        prankster = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
        try_wrong_codes(prankster, link, code)
        # At once, the student who answered before the restart reloads and a new student opens the
        # link: both are in within 10 s (the new one waits out the address's pause, its page trying again).
        started = time.monotonic()
        before.reload(wait_until="commit")
        after, watched = student_page(browser, link)
        for student in (before, after):
            expect(answer_button(student, "a")).to_be_visible(timeout=JOIN_SECONDS * 1000)
        assert time.monotonic() - started <= JOIN_SECONDS
        # Counted on the teacher's page, which is the teacher's again on the new server (its browser
        # kept the room's secret) and polls by itself; the prankster is not counted, the reload once.
        expect_count(page, "1 of 2 answered", timeout=LOAD_TIMEOUT)
        page.locator(REVEAL).click()
        expect(before.get_by_text("Your answer b is wrong")).to_be_visible()  # the answer given before the restart
        expect(after.get_by_text("You did not answer")).to_be_visible()
        watched.assert_clean()
    finally:
        stop_streamlit(process)
