"""A student's view of a live room: the question, one answer button per child, then right or wrong.

Made for a phone (360 px wide): the question and its buttons first, the tree under them; nothing of
the teacher's (no C control, no sidebar, no count of others' answers). The student is the token
their browser keeps (:mod:`ui.room.room_browser`): they join once (counted as joined when the page
opens), answer the current question once and may change the answer until the reveal; a reload finds
the same answer. The question part polls the room store every :data:`STUDENT_POLL_SECONDS`
(Streamlit cannot push to a session): the reveal's verdict appears in place, and a new question
reruns the whole page (its picture changes).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import streamlit as st

from mcts_core import Tree
from mcts_core.classroom import CHOICE, Question, RoomRefused, RoomState, RoomStore, StudentRemoved, is_right
from mcts_core.common import StoreError
from ui.common import decimal_box, state
from ui.common.markdown import escape
from ui.common.wording import full_sentence
from ui.room.room_question import MOST_BUTTONS, answer_words, facts_caption, question_markdown, room_picture, verdict
from ui.setup.inputs import LoadedInput

# Session-state keys this module owns.
STUDENT_JOINED = state.key("_room_joined")  # the rooms this session joined (a join is counted once)
STUDENT_PROBLEM = state.key("_room_answer_problem")  # (question number, why its last answer was not taken)
STUDENT_BUTTON = state.key_family("room_answer_{}")
STUDENT_MENU = state.key("room_answer_menu")
STUDENT_C = state.key("room_answer_c")  # the C box (a phone's numeric keypad): what it sent
STUDENT_TREE = state.key("room_student_tree_view")

# The reveal reaches a student within this (and a poll's run). Each poll is a script run of about
# 11 ms of the server's CPU (bench/RESULTS.md): 40 idle students at 2 s take about a fifth of a core.
STUDENT_POLL_SECONDS = 2.0
# Static CSS, no user text: answer buttons a thumb hits on a phone.
STUDENT_CSS = """
<style>
.st-key-room_answers button { min-width: 4.5rem; min-height: 3rem; }
.st-key-room_answers button p { font-size: 1.25rem; }
</style>
"""


def _answer(room_code: str, token: str, number: int, text: str | None) -> None:
    """Send an answer; what the room refuses is said on the page."""
    if text is None:
        return
    try:
        RoomStore().answer(room_code, token, number, text)
        st.session_state.pop(STUDENT_PROBLEM, None)
    except (RoomRefused, StoreError) as problem:
        st.session_state[STUDENT_PROBLEM] = (number, full_sentence(str(problem)))


def _choice_buttons(room: RoomState, token: str, question: Question) -> None:
    """One button per child, named by its move only, in move order; the student's answer primary."""
    options = question.options
    closed = room.revealed
    if len(options) > MOST_BUTTONS:
        st.selectbox(f"Your answer among {len(options):,} children (type to find one):", options,
                     index=options.index(room.own_answer) if room.own_answer in options else None,
                     key=STUDENT_MENU, placeholder="Choose a child…", disabled=closed,
                     on_change=lambda: _answer(room.code, token, room.number, st.session_state[STUDENT_MENU]))
        return
    with st.container(horizontal=True, gap="small", key="room_answers"):
        for index, move in enumerate(options):
            st.button(escape(move), key=STUDENT_BUTTON.format(index), disabled=closed,
                      type="primary" if move == room.own_answer else "secondary",
                      on_click=_answer, args=(room.code, token, room.number, move))


def _c_box(room: RoomState) -> None:
    """A box for the C where the choice flips, and Send (its sends are taken before the poll reads the room)."""
    decimal_box.box("Your C", key=STUDENT_C, placeholder="e.g. 2.5", disabled=room.revealed)


def _answers(room_code: str, token: str, number: int | None) -> None:
    """The answer controls and what the student answered; after the reveal, the verdict. Only this
    polls: the question above it changes with a new question, which reruns the whole page. A store
    failure is a sentence until a poll finds the store back. ``number`` None: the page shows no
    question (nothing is drawn)."""
    if number is None:
        return  # a poll the browser sent before the run that stopped polling
    _answer(room_code, token, number, decimal_box.sent(STUDENT_C))  # first: the room read below has it
    try:
        room = RoomStore().state(room_code, token)
    except StoreError as error:
        st.warning(escape(full_sentence(str(error))))
        return
    if room is None or room.closed or room.removed or room.number != number:
        st.rerun()  # the whole page: a new question has a new picture; a removed student sees why
    question = room.question
    if question.kind == CHOICE:
        _choice_buttons(room, token, question)
    else:
        _c_box(room)
    problem_number, problem = st.session_state.get(STUDENT_PROBLEM, (None, None))
    if room.revealed:
        kind, words = verdict(question, room.own_answer, room.own_answer is not None and is_right(question, room.own_answer))
        getattr(st, kind)(words)
    elif problem_number == room.number:  # instead of "Answer received": one sentence about the last try
        kept = f" Your answer {answer_words(question, room.own_answer)} still counts." if room.own_answer is not None else ""
        st.warning(escape(problem) + kept)
    elif room.own_answer is not None:
        st.success(f"Answer received: {answer_words(question, room.own_answer)}. You can change it until the "
                   "teacher reveals the answer.")


class Shown(NamedTuple):
    """The question a student's page shows: its answers poll the room under it, its picture comes last."""

    room_code: str
    token: str
    number: int
    tree: Tree
    input_key: str
    node: int


def answers(shown: Shown | None) -> None:
    """The answers' fragment, polling the room while the page shows a question (None: not polling,
    drawing nothing). A room's page calls it once in every run, at the same place (a fragment's id is
    its place): a poll the browser sent just before the run that stopped polling then finds it."""
    args = (shown.room_code, shown.token, shown.number) if shown is not None else ("", "", None)
    st.fragment(_answers, run_every=STUDENT_POLL_SECONDS if shown is not None else None)(*args)


def picture(shown: Shown) -> None:
    """The tree under the answers: the path to the question's node, its children drawn."""
    room_picture(shown.tree, shown.input_key, shown.node, key=STUDENT_TREE)


def show(room_code: str, token: str, address: str, room_input: Callable[[str], LoadedInput | None], *,
         typed: bool = False) -> Shown | None:
    """Student ``token``'s view of room ``room_code`` down to the question (``address``: where they
    are, for the limits on wrong codes and joins; ``room_input``: the room's input by its id;
    ``typed``: the student typed the code, which a removed student needs to join again). Returns the
    question shown, whose :func:`answers` and :func:`picture` the page draws under it (None: none).

    Raises:
        RoomRefused: no such room, too many wrong codes or joins, the room is full, or the teacher
            removed this student.
    """
    store = RoomStore()
    joined = st.session_state.setdefault(STUDENT_JOINED, set())
    room = store.state(room_code, token) if room_code in joined else store.join(room_code, token, address, typed=typed)
    joined.add(room_code)
    if room is not None and room.removed:
        joined.discard(room_code)  # the next try is a join, which wants the code typed
        raise StudentRemoved(room_code)
    if room is None:
        raise RoomRefused(f"room {room_code} is gone: it was closed long ago, or it expired{store.restarted_note()}")
    if room.closed:
        st.info(f"The teacher closed room {room_code}. Thank you!")
        return None
    loaded = room_input(room.input_id)
    if loaded is None:
        st.error(f"Room {room_code}'s tree is no longer on the server: tell the teacher.")
        return None
    st.html(STUDENT_CSS)
    st.caption(f"Live room {room_code} · you are student {room.seat}" if room.seat else f"Live room {room_code}")
    tree = loaded.tree
    node = tree.find(room.question.node)
    st.markdown(question_markdown(room.question))
    st.caption(facts_caption(tree, node, room.question))
    return Shown(room_code, token, room.number, tree, loaded.key, node)
