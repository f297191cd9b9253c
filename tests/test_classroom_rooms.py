"""Live rooms in the core: questions and their answers, the room store's rules, codes, history CSV."""

import csv
import io
import math

import pytest

from mcts_core import Scoring, build_tree, parse_playouts, score_children
from mcts_core.analysis import breakpoints
from mcts_core.classroom import (
    ADDRESS_FREE_CODES,
    ADDRESS_PAUSE_SECONDS,
    CHOICE,
    CODE_LENGTH,
    FLIP,
    JOINS_PER_MINUTE,
    PRESENT_SECONDS,
    QuestionOpen,
    Question,
    WRONG_CODES_ALLOWED,
    WRONG_CODES_MINUTES,
    RoomRefused,
    RoomStore,
    StudentRemoved,
    TooManyJoins,
    TooManyWrongCodes,
    choice_question,
    flip_question,
    flip_reason,
    history_csv,
    is_right,
    new_code,
    read_answer,
    read_code,
    tally,
)
from mcts_core.classroom.room_codes import CODE_ALPHABET
from mcts_core.common import StoreError
from mcts_core.inputs import read_input
from mcts_core.inputs.examples import C_FLIPS_CHOICE, STATEMENT_EXAMPLE

STUDENT_A, STUDENT_B = "a" * 32, "b" * 32
INPUT_ID = "0" * 64


def tree_of(text):
    return build_tree(parse_playouts(text))


class Clock:
    """The store's time, moved by the test (expiry and the wrong-code window are hours and minutes)."""

    def __init__(self):
        self.now = 1_000_000.0

    def __call__(self):
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def store(tmp_path, clock):
    return RoomStore(tmp_path / "rooms.sqlite3", clock=clock)


def statement_question(c=0.1):
    return choice_question(tree_of(STATEMENT_EXAMPLE), 0, Scoring("ucb1", c))


# Questions ------------------------------------------------------------------------------------


def test_a_choice_question_offers_the_children_in_move_order_and_knows_the_pick():
    tree = tree_of("4 5\nb 10\nc 0\na 1\nc 3\n")
    question = choice_question(tree, 0, Scoring("ucb1", 5.0))
    assert question.kind == CHOICE and question.options == ("a", "b", "c")
    assert question.answer == score_children(tree, 0, Scoring("ucb1", 5.0))[0].move
    assert is_right(question, question.answer)
    assert not any(is_right(question, move) for move in question.options if move != question.answer)


def test_a_leaf_cannot_be_asked_about():
    tree = tree_of(STATEMENT_EXAMPLE)
    with pytest.raises(ValueError, match="leaf"):
        choice_question(tree, tree.find("a"), Scoring("ucb1", 1.0))


def test_the_flip_question_knows_the_exact_c_where_the_choice_changes():
    tree = tree_of(C_FLIPS_CHOICE)
    flip = breakpoints(tree, 0.0, 10.0)[0]
    question = flip_question(tree, 0, Scoring("ucb1", 0.5), 10.0)
    assert question.kind == FLIP and question.raise_c and question.breakpoint == flip.c
    below = score_children(tree, 0, Scoring("ucb1", math.nextafter(flip.c, 0)))[0].move
    at = score_children(tree, 0, Scoring("ucb1", flip.c))[0].move
    assert (question.answer, question.flipped_to) == (below, at) and below != at
    # Above the flip, the nearest flip is below C.
    lowered = flip_question(tree, 0, Scoring("ucb1", 5.0), 10.0)
    assert not lowered.raise_c and lowered.breakpoint == flip.c
    assert (lowered.answer, lowered.flipped_to) == (at, below)


def test_a_flip_answer_is_right_within_five_percent():
    question = flip_question(tree_of(C_FLIPS_CHOICE), 0, Scoring("ucb1", 0.5), 10.0)
    exact = question.breakpoint
    assert is_right(question, read_answer(question, f"{exact * 1.04}"))
    assert is_right(question, read_answer(question, f" {exact * 0.96} "))
    assert not is_right(question, read_answer(question, f"{exact * 1.06}"))
    assert not is_right(question, read_answer(question, "0"))


def test_no_flip_question_where_the_choice_never_changes():
    with pytest.raises(ValueError, match="the same for every C"):
        flip_question(tree_of("2 1\na 1\na 1\n"), 0, Scoring("ucb1", 1.0), 10.0)  # one child


@pytest.mark.parametrize("text", ["x", "-1", "nan", "inf", "-inf", "1e308", "1.7976931348623157e308", "100.1", "1_0", "",
                                  "1,2,3", "2,7.1"])
def test_a_flip_answer_must_be_a_number_c_can_be(text):
    question = flip_question(tree_of(C_FLIPS_CHOICE), 0, Scoring("ucb1", 0.5), 10.0)
    with pytest.raises(ValueError, match="was not taken: C must be a number from 0 to 100$"):  # 10 times the slider's top
        read_answer(question, text)


def test_a_flip_answer_may_have_a_decimal_comma_and_reach_ten_times_the_slider_s_top():
    question = flip_question(tree_of(C_FLIPS_CHOICE), 0, Scoring("ucb1", 0.5), 10.0)
    assert read_answer(question, " 2,7 ") == "2.7"  # a European keyboard
    assert read_answer(question, "100") == "100.0" and read_answer(question, "0") == "0.0"
    assert Question.from_json(question.to_json()).most_c == 100


def test_a_choice_answer_must_be_a_child():
    with pytest.raises(ValueError, match="not one of this node's children"):
        read_answer(statement_question(), "z")


def test_a_question_survives_the_store_s_json():
    tree = tree_of(C_FLIPS_CHOICE)
    question = flip_question(tree, 0, Scoring("puct", 0.5), 10.0)
    assert type(question).from_json(question.to_json()) == question


def test_tally_counts_every_option_and_the_right_answers():
    question = statement_question()
    counted = tally(question, ["b", "a", "b", "b"])
    assert counted.counts == (("a", 1), ("b", 3)) and counted.answered == 4 and counted.right == 1
    flip = flip_question(tree_of(C_FLIPS_CHOICE), 0, Scoring("ucb1", 0.5), 10.0)
    counted = tally(flip, ["3.0", "2.7", "0.5"])
    assert counted.values == (0.5, 2.7, 3.0) and counted.right == 1


# Codes ----------------------------------------------------------------------------------------


def test_codes_are_short_unambiguous_and_read_as_people_type_them():
    codes = {new_code() for _ in range(200)}
    assert len(codes) == 200 and all(len(code) == CODE_LENGTH and set(code) <= set(CODE_ALPHABET) for code in codes)
    assert not set("01OIL") & set(CODE_ALPHABET)
    assert read_code(" k7m-2qx ") == "K7M2QX"
    assert read_code("k7m 2q") is None  # five characters
    assert read_code("k7m 2qx9") is None  # seven
    assert read_code("K7M2Q0") is None  # a zero is never in a code


# The store ------------------------------------------------------------------------------------


def test_students_answer_once_may_change_until_the_reveal_and_see_only_their_own(store):
    code, secret = store.open_room(INPUT_ID, statement_question())
    assert store.join(code, STUDENT_A, "here").joined == 1
    store.join(code, STUDENT_B, "here")
    store.join(code, STUDENT_A, "here")  # a reload counts once
    store.answer(code, STUDENT_A, 1, "b")
    store.answer(code, STUDENT_A, 1, "a")  # changed
    store.answer(code, STUDENT_B, 1, "b")
    a_view = store.state(code, STUDENT_A)
    assert (a_view.joined, a_view.answered, a_view.own_answer, a_view.revealed) == (2, 2, "a", False)
    assert store.state(code, STUDENT_B).own_answer == "b"
    assert store.state(code).own_answer is None  # the teacher's poll names nobody's answer
    store.reveal(code, secret, 1)
    with pytest.raises(RoomRefused, match="takes no more answers"):
        store.answer(code, STUDENT_B, 1, "a")
    assert sorted(store.answers(code, secret, 1)) == ["a", "b"]


def test_only_the_secret_reveals_asks_closes_or_reads_the_answers(store):
    code, secret = store.open_room(INPUT_ID, statement_question())
    code_b, secret_b = store.open_room(INPUT_ID, statement_question())
    for wrong in ("", code, secret_b, secret[:-1]):  # the code is not the secret; another room's is not
        assert not store.is_teacher(code, wrong)
        with pytest.raises(RoomRefused, match="only the teacher"):
            store.reveal(code, wrong, 1)
        with pytest.raises(RoomRefused, match="only the teacher"):
            store.ask(code, wrong, statement_question())
        with pytest.raises(RoomRefused, match="only the teacher"):
            store.answers(code, wrong, 1)
        with pytest.raises(RoomRefused, match="only the teacher"):
            store.history(code, wrong)
        with pytest.raises(RoomRefused, match="only the teacher"):
            store.close(code, wrong)
    assert store.is_teacher(code, secret) and store.state(code).number == 1 and not store.state(code).closed


def test_an_answer_goes_to_the_current_question_of_a_room_the_student_joined(store):
    code, secret = store.open_room(INPUT_ID, statement_question())
    with pytest.raises(RoomRefused, match="has not joined"):
        store.answer(code, STUDENT_A, 1, "a")
    store.join(code, STUDENT_A, "here")
    with pytest.raises(RoomRefused, match="not one of this node's children"):
        store.answer(code, STUDENT_A, 1, "z")
    assert store.ask(code, secret, statement_question(c=5.0)) == 2
    with pytest.raises(RoomRefused, match="new question"):
        store.answer(code, STUDENT_A, 1, "a")
    store.answer(code, STUDENT_A, 2, "a")
    room = store.state(code, STUDENT_A)
    assert (room.number, room.question.c, room.answered, room.revealed) == (2, 5.0, 1, False)
    with pytest.raises(RoomRefused, match="no longer the room's question"):
        store.reveal(code, secret, 1)


def test_two_rooms_keep_their_students_and_answers_apart(store):
    first, _ = store.open_room(INPUT_ID, statement_question())
    second, _ = store.open_room(INPUT_ID, statement_question())
    store.join(first, STUDENT_A, "here")
    store.answer(first, STUDENT_A, 1, "a")
    assert (store.state(second).joined, store.state(second).answered) == (0, 0)
    assert store.state(second, STUDENT_A).own_answer is None
    with pytest.raises(RoomRefused, match="has not joined"):
        store.answer(second, STUDENT_A, 1, "a")


def test_a_closed_room_takes_no_answers_and_tells_its_students(store):
    code, secret = store.open_room(INPUT_ID, statement_question())
    store.join(code, STUDENT_A, "here")
    store.close(code, secret)
    assert store.join(code, STUDENT_A, "here").closed and store.join(code, STUDENT_B, "here").joined == 1
    with pytest.raises(RoomRefused, match="closed"):
        store.answer(code, STUDENT_A, 1, "a")
    with pytest.raises(RoomRefused, match="only the teacher"):
        store.reveal(code, secret, 1)


@pytest.mark.parametrize("c", [0.5, 5.0])  # the flip above C (raised to it), below C (lowered to it)
def test_a_flip_s_reason_is_the_two_children_whose_value_lines_cross_at_the_breakpoint(c):
    tree = tree_of(C_FLIPS_CHOICE)
    question = flip_question(tree, 0, Scoring("ucb1", c), 10.0)
    reason = flip_reason(tree, question)
    held, over = reason.held, reason.taking_over
    assert (held.move, over.move) == (question.answer, question.flipped_to) == (("a", "b") if c < 1 else ("b", "a"))
    assert reason.c == question.breakpoint
    assert math.isclose(held.value(reason.c), over.value(reason.c)) and reason.value == over.value(reason.c)
    for line in (held, over):  # the lines are the rule's values: mean + C * sqrt(ln N / n)
        child = next(child for child in score_children(tree, 0, Scoring("ucb1", c)) if child.move == line.move)
        assert line.intercept == child.terms["mean"] and math.isclose(line.intercept + c * line.slope, child.value)
    # Beyond the breakpoint the one taking over is the larger: it grows faster (raised) or starts higher (lowered).
    beyond = reason.c * (1.01 if question.raise_c else 0.99)
    assert over.value(beyond) > held.value(beyond) and (over.slope > held.slope) == question.raise_c
    with pytest.raises(ValueError, match="only a flip question"):
        flip_reason(tree, choice_question(tree, 0, Scoring("ucb1", c)))


def test_a_teacher_link_opens_the_room_as_its_teacher_once_on_another_device(store, clock):
    code, secret = store.open_room(INPUT_ID, statement_question())
    other_code, other_secret = store.open_room(INPUT_ID, statement_question())
    with pytest.raises(RoomRefused, match="only the teacher"):
        store.teacher_link(code, other_secret)
    token = store.teacher_link(code, secret)
    assert token != secret and secret not in token
    for wrong in ("", secret, token[:-1], token + "x", store.teacher_link(other_code, other_secret)):
        with pytest.raises(RoomRefused, match=f"does not open room {code}"):
            store.use_teacher_link(code, wrong)
    device = store.use_teacher_link(code, token)
    assert device not in (secret, token) and store.is_teacher(code, device) and store.is_teacher(code, secret)
    assert not store.is_teacher(code, token) and not store.is_teacher(other_code, device)
    with pytest.raises(RoomRefused, match="used already"):  # shown once, used once: a copy is worth nothing
        store.use_teacher_link(code, token)
    assert store.ask(code, device, statement_question(0.2)) == 2  # the device has the teacher's powers
    store.reveal(code, device, 2)
    second = store.teacher_link(code, device)  # and makes links itself
    store.close(code, secret)
    assert len(store.history(code, device)) == 2
    with pytest.raises(RoomRefused, match="does not open room"):
        store.use_teacher_link(code, second)  # the room closed
    clock.now += 5 * 3600
    store.forget_idle()
    with store._read() as connection:
        assert connection.execute("SELECT COUNT(*) FROM teacher_keys WHERE code = ?", (code,)).fetchone()[0] == 0
        assert connection.execute("SELECT COUNT(*) FROM teacher_links WHERE code = ?", (code,)).fetchone()[0] == 0


def test_a_room_outlives_its_store_object_and_expires_when_idle(tmp_path, clock):
    code, secret = RoomStore(tmp_path / "rooms.sqlite3", clock=clock).open_room(INPUT_ID, statement_question())
    restarted = RoomStore(tmp_path / "rooms.sqlite3", clock=clock)  # a server restart: a new process, the same file
    restarted.join(code, STUDENT_A, "here")
    restarted.answer(code, STUDENT_A, 1, "b")
    clock.now += 3.9 * 3600  # idle, not long enough
    assert restarted.state(code, STUDENT_A).own_answer == "b" and restarted.is_teacher(code, secret)
    clock.now += 4.1 * 3600  # four hours after the last answer
    assert restarted.state(code) is None and not restarted.is_teacher(code, secret)
    with pytest.raises(RoomRefused, match=f"there is no room {code}"):
        restarted.join(code, STUDENT_B, "here")
    restarted.open_room(INPUT_ID, statement_question())  # opening a room forgets the idle ones
    with restarted._read() as connection:
        assert connection.execute("SELECT COUNT(*) FROM answers").fetchone()[0] == 0


def wrong_codes(right, count):
    """``count`` different codes that are not ``right``."""
    codes = (f"ZZZ{a}{b}{c}" for a in CODE_ALPHABET for b in CODE_ALPHABET for c in CODE_ALPHABET)
    return [code for code in codes if code != right][:count]


def test_a_browser_that_guesses_is_refused_for_minutes_even_the_right_code(store, clock):
    code, _ = store.open_room(INPUT_ID, statement_question())
    for wrong in wrong_codes(code, WRONG_CODES_ALLOWED):
        with pytest.raises(RoomRefused, match="there is no room"):
            store.join(wrong, STUDENT_A, f"address {wrong}")  # a new address each time: the browser is limited
        clock.now += 1
    with pytest.raises(TooManyWrongCodes, match="tried in this browser: try again in 10 minutes"):
        store.join(code, STUDENT_A, "elsewhere")  # the right code too: the limit must not tell which exist
    clock.now += WRONG_CODES_MINUTES * 60 - WRONG_CODES_ALLOWED + 1  # the first wrong try is that old now
    assert store.join(code, STUDENT_A, "elsewhere").joined == 1


def test_a_student_with_the_right_code_joins_within_seconds_after_another_browser_at_the_address_guessed(store, clock):
    # A classroom behind one NAT address: one browser tried 20 wrong codes in 19 s, and changes its
    # token each time (rewriting localStorage); the other students must still get in (issue 50).
    code, _ = store.open_room(INPUT_ID, statement_question())
    store.join(code, STUDENT_B, "school")  # joined before the prank
    for index, wrong in enumerate(wrong_codes(code, ADDRESS_FREE_CODES)):
        with pytest.raises(RoomRefused, match="there is no room"):
            store.join(wrong, f"{index:032x}", "school")
        clock.now += 1
    assert store.join(code, STUDENT_B, "school").joined == 1  # a reload of a joined student: let in at once
    with pytest.raises(TooManyWrongCodes, match="from this network a moment ago: trying again in 4 seconds") as refused:
        store.join(code, STUDENT_A, "school")  # the right code, checked after the pause only
    assert refused.value.wait <= ADDRESS_PAUSE_SECONDS <= 10
    clock.now += refused.value.wait
    assert store.join(code, STUDENT_A, "school").joined == 2
    next_wrong = wrong_codes(code, ADDRESS_FREE_CODES + 1)[-1]
    with pytest.raises(RoomRefused, match="there is no room"):
        store.join(next_wrong, "f" * 32, "school")  # the guesser goes on: one code per pause
    with pytest.raises(TooManyWrongCodes):
        store.join(next_wrong[:-1] + "A", "e" * 32, "school")
    assert store.join(code, "c" * 32, "another school").joined == 3  # other addresses are not slowed


def test_the_same_wrong_code_again_counts_once(store, clock):
    code, _ = store.open_room(INPUT_ID, statement_question())
    expired = wrong_codes(code, 1)[0]
    for _ in range(3 * WRONG_CODES_ALLOWED):  # an expired link, reloaded
        with pytest.raises(RoomRefused, match="there is no room"):
            store.join(expired, STUDENT_A, "school")
        clock.now += 1
    assert store.join(code, STUDENT_A, "school").joined == 1  # the new link works at once



def test_the_history_counts_every_question_and_is_safe_in_a_spreadsheet(store):
    tree = read_input('{"mcts_log": 1}\n{"path": ["=1+1"], "score": 1}\n{"path": ["@x"], "score": 0}\n').tree
    question = choice_question(tree, 0, Scoring("ucb1", 1.0))
    code, secret = store.open_room(INPUT_ID, question)
    store.join(code, STUDENT_A, "here")
    store.join(code, STUDENT_B, "here")
    store.answer(code, STUDENT_A, 1, "=1+1")
    store.answer(code, STUDENT_B, 1, "@x")
    store.reveal(code, secret, 1)
    store.ask(code, secret, flip_question(tree_of(C_FLIPS_CHOICE), 0, Scoring("ucb1", 0.5), 10.0))
    store.answer(code, STUDENT_A, 2, "2.7")
    rows = list(csv.DictReader(io.StringIO(history_csv(store.history(code, secret)))))
    assert [(row["question"], row["kind"], row["revealed"], row["joined"], row["answered"], row["right"]) for row in rows] == [
        ("1", "choice", "yes", "2", "2", "1"), ("2", "flip", "no", "2", "1", "1")]
    # Plain cells, no JSON in them; a move a spreadsheet would run starts with an apostrophe.
    assert (rows[0]["node"], rows[0]["answer"], rows[0]["answers"]) == ("", "'=1+1", "'=1+1: 1; @x: 1")
    assert rows[1]["answers"] == "2.7" and float(rows[1]["answer"]) == pytest.approx(2.7029, abs=1e-4)
    cells = [cell for row in rows for cell in row.values()]
    assert not any(cell[:1] in ("=", "+", "-", "@") for cell in cells)
    store.close(code, secret)
    assert len(store.history(code, secret)) == 2  # its teacher downloads it after Close
    with pytest.raises(RoomRefused, match="only the teacher who opened room"):
        store.history(code, secret[:-1] + "x")


def test_a_question_with_answers_is_replaced_before_its_reveal_only_when_the_teacher_says_so(store):
    code, secret = store.open_room(INPUT_ID, statement_question())
    store.ask(code, secret, statement_question(0.2))  # no answers: replaced at once
    store.join(code, STUDENT_A, "here")
    store.answer(code, STUDENT_A, 2, "a")
    with pytest.raises(QuestionOpen, match="question 2 has 1 answer and is not revealed yet") as refused:
        store.ask(code, secret, statement_question(0.3))
    assert (refused.value.number, store.state(code).number, store.state(code).answered) == (2, 2, 1)
    assert store.ask(code, secret, statement_question(0.3), replacing=2) == 3
    assert [(row.number, row.revealed, row.tally.answered) for row in store.history(code, secret)] == [
        (1, None, 0), (2, None, 1), (3, None, 0)]  # the replaced question's answer stays
    store.answer(code, STUDENT_A, 3, "a")
    store.reveal(code, secret, 3)
    assert store.ask(code, secret, statement_question(0.4)) == 4  # revealed: no question


def test_a_damaged_store_file_is_moved_aside_and_a_fresh_one_says_the_rooms_are_lost(tmp_path, clock):
    path = tmp_path / "rooms.sqlite3"
    store = RoomStore(path, clock=clock)
    code, _ = store.open_room(INPUT_ID, statement_question())
    path.write_bytes(b"not a database, whatever a disk did to it" * 100)
    with pytest.raises(StoreError) as failed:
        RoomStore(path, clock=clock).state(code)
    said = str(failed.value)
    assert said.startswith("the room store was damaged (file is not a database): it was moved aside as rooms.sqlite3.damaged-")
    assert said.endswith("and a fresh one started, so every room open before is lost (open a new one)")
    assert said.count("room store") == 1
    assert [file.name for file in tmp_path.iterdir() if "damaged" in file.name]  # kept, for whoever wants to look
    fresh = RoomStore(path, clock=clock)
    assert fresh.state(code) is None
    with pytest.raises(RoomRefused, match=r"there is no room .*: rooms open before then are lost\)$"):
        fresh.join(code, STUDENT_A, "here")
    new_code_, _ = fresh.open_room(INPUT_ID, statement_question())
    assert fresh.join(new_code_, STUDENT_A, "here").joined == 1


def test_guessing_a_code_at_the_permitted_rate_with_50_rooms_open_takes_years():
    guesses = len(CODE_ALPHABET) ** CODE_LENGTH / 50  # expected guesses to hit one of 50 rooms
    years = guesses * ADDRESS_PAUSE_SECONDS / (365.25 * 24 * 3600)  # an address's sustained rate
    assert years > 2.5  # README: "about 2.8 years"


def test_an_address_adds_a_class_of_students_a_minute_and_a_refused_one_hears_when_to_try_again(store, clock, monkeypatch):
    # One browser rewriting its token in localStorage added a student per reload (issue 50).
    from mcts_core.classroom import room_store

    assert JOINS_PER_MINUTE >= 40  # a class of 40 behind one NAT address joins at once
    monkeypatch.setattr(room_store, "JOINS_PER_MINUTE", 6)  # the same rule, fewer joins to wait for
    code, _ = store.open_room(INPUT_ID, statement_question())
    for index in range(6):
        store.join(code, f"{index:032x}", "school")
        clock.now += 5
    assert store.join(code, "0" * 32, "school").joined == 6  # a reload is no new join
    with pytest.raises(TooManyJoins, match="^6 students joined from this network in the last minute: trying again in 30 seconds$") as refused:
        store.join(code, "f" * 32, "school")
    assert 0 < refused.value.wait <= 60
    assert store.join(code, "e" * 32, "another school").joined == 7  # other addresses join
    clock.now += refused.value.wait
    assert store.join(code, "f" * 32, "school").joined == 8


def test_the_count_is_of_the_students_present_or_who_answered(store, clock):
    code, secret = store.open_room(INPUT_ID, statement_question())
    for token in (STUDENT_A, STUDENT_B, "c" * 32):
        store.join(code, token, "here")
    store.answer(code, "c" * 32, 1, "a")
    assert (store.state(code).present, store.state(code).joined) == (3, 3)
    clock.now += PRESENT_SECONDS - 10
    store.state(code, STUDENT_A)  # A's page polls; B closed the tab, C answered and left
    clock.now += 20
    room = store.state(code)
    assert (room.answered, room.present, room.joined) == (1, 2, 3)  # "1 of 2 answered"
    store.reveal(code, secret, 1)
    store.ask(code, secret, statement_question(0.2))
    assert store.state(code).present == 1  # C's answer was to the last question
    assert store.state(code, "c" * 32).present == 1  # C's poll marks them seen; the next poll counts them
    assert store.state(code).present == 2


def test_the_teacher_removes_a_student_who_joins_again_only_with_the_code_typed(store):
    code, secret = store.open_room(INPUT_ID, statement_question())
    store.join(code, STUDENT_A, "here")
    store.join(code, STUDENT_B, "here")
    store.answer(code, STUDENT_B, 1, "b")
    assert [(joiner.seat, joiner.answered) for joiner in store.joiners(code, secret)] == [(1, False), (2, True)]
    assert store.state(code, STUDENT_B).seat == 2
    with pytest.raises(RoomRefused, match="only the teacher"):
        store.remove(code, secret[:-1] + "x", 2)
    store.remove(code, secret, 2)
    room = store.state(code)
    assert (room.joined, room.present, room.answered) == (1, 1, 0)  # their open answer went with them
    assert store.state(code, STUDENT_B).removed
    assert [joiner.seat for joiner in store.joiners(code, secret)] == [1]
    for refused in (lambda: store.join(code, STUDENT_B, "here"), lambda: store.answer(code, STUDENT_B, 1, "a")):
        with pytest.raises(StudentRemoved, match=f"the teacher removed you from room {code}: to join again, type its code"):
            refused()  # a reload of the link, or an answer from the open page
    again = store.join(code, STUDENT_B, "here", typed=True)
    assert (again.joined, again.seat, again.removed) == (2, 2, False)
    store.answer(code, STUDENT_B, 1, "a")
    store.reveal(code, secret, 1)
    store.remove(code, secret, 2)
    assert store.answers(code, secret, 1) == ["a"]  # a revealed answer stays


def test_a_store_file_from_before_presence_is_read_and_its_students_get_seats(tmp_path, clock):
    import sqlite3

    from mcts_core.classroom import room_store

    path = tmp_path / "rooms.sqlite3"
    code, secret = RoomStore(path, clock=clock).open_room(INPUT_ID, statement_question())
    with sqlite3.connect(path) as connection:  # the students table as it was
        connection.execute("DROP TABLE students")
        connection.execute("CREATE TABLE students (code TEXT NOT NULL, student TEXT NOT NULL, joined REAL NOT NULL, "
                           "PRIMARY KEY (code, student))")
        connection.execute("INSERT INTO students VALUES (?, 'old', ?)", (code, clock.now))
    room_store._made.discard(path)  # a new server process
    store = RoomStore(path, clock=clock)
    assert store.join(code, STUDENT_A, "here").joined == 2
    assert [joiner.seat for joiner in store.joiners(code, secret)] == [1, 2]


def test_idle_rooms_are_forgotten_on_the_timer_s_call(store, clock):
    code, _ = store.open_room(INPUT_ID, statement_question())
    store.join(code, STUDENT_A, "here")
    assert store.forget_idle() == 0
    clock.now += 4.1 * 3600
    assert store.forget_idle() == 1
    with store._read() as connection:
        assert [connection.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
                for table in ("rooms", "students", "questions", "joins")] == [0, 0, 0, 0]


def test_a_timer_forgets_idle_rooms_without_a_new_room_opening(tmp_path, clock):
    import threading

    from mcts_core.classroom import clean_on_a_timer

    store = RoomStore(tmp_path / "rooms.sqlite3", clock=clock)
    code, _ = store.open_room(INPUT_ID, statement_question())
    store.join(code, STUDENT_A, "here")
    clock.now += 4.1 * 3600
    cleaned = threading.Event()  # set when the timer's thread has run a clean through
    forget_idle = store.forget_idle

    def forget_and_say():
        forgotten = forget_idle()
        cleaned.set()
        return forgotten

    store.forget_idle = forget_and_say
    stop = clean_on_a_timer(store, every=0.01)
    try:
        assert clean_on_a_timer(RoomStore(store.path), every=0.01) is None  # one timer per file and process
        assert cleaned.wait(30), "the timer never cleaned"
        with store._read() as connection:
            assert connection.execute("SELECT COUNT(*) FROM rooms").fetchone()[0] == 0
    finally:
        stop.set()


def test_a_store_that_cannot_write_still_shows_a_student_the_room(store, clock, monkeypatch):
    import sqlite3

    code, _ = store.open_room(INPUT_ID, statement_question())
    store.join(code, STUDENT_A, "here")
    clock.now += 30  # the poll would mark the student seen
    connect = sqlite3.connect
    monkeypatch.setattr(sqlite3, "connect", lambda path, **options: connect(f"file:{path}?mode=ro", uri=True, **options))
    assert store.state(code, STUDENT_A).seat == 1  # read-only (a full or locked disk alike): the room shows
    with pytest.raises(StoreError, match="readonly"):
        store.answer(code, STUDENT_A, 1, "a")
