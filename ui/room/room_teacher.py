"""The teacher's view of a live room: the question, the live count, Reveal, the answers, the next question.

Made for a projector at 1366x768: the question, its count and its results stand beside the tree,
with how to join (the QR code) beside them until the teacher hides it. The count ("7 of 12
answered", of the students present) follows the room by itself: a fragment polls the room store every
:data:`TEACHER_POLL_SECONDS` (Streamlit cannot push to a session) and reruns the page when the room
moved on elsewhere (another tab of the teacher). The distribution of the answers stays hidden until
"Reveal": the page does not read the answers before. The next question is asked at the node the
teacher chose (a click on the picture; the question's node at first) and the C of the C control.
"Students" lists who joined, by the number each student's page shows, and removes one. "Teacher link"
makes a link that opens the room as its teacher on another device (the projector's computer), once:
it is shown in this session until "Done", never again (the store keeps only its digest).
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import streamlit as st

from mcts_core import score_children
from mcts_core.analysis import explain_choice, suggest_c_range
from mcts_core.classroom import (
    CHOICE,
    FLIP,
    Joiner,
    Question,
    QuestionOpen,
    RoomRefused,
    RoomState,
    RoomStore,
    choice_question,
    flip_question,
    flip_reason,
    history_csv,
    tally,
)
from mcts_core.common import StoreError
from ui.c import c_control, selected_path
from ui.charts.room_charts import choice_chart, flip_chart
from ui.common import state
from ui.common.markdown import code, escape
from ui.common.wording import full_sentence, input_summary, node_markdown, plural, why_sentence
from ui.common.wording import mean_header
from ui.room import room_join
from ui.room.room_question import MOST_BUTTONS, facts_caption, flip_why, question_markdown, right_answer, room_picture
from ui.setup.inputs import LoadedInput
from ui.setup.page_setup import Setup

# Session-state keys this module owns.
ROOM_NODE = state.key("_room_node")  # the moves of the node the next question is asked at
ROOM_PROBLEM = state.key("_room_problem")  # what the last action could not do, as a sentence
ROOM_SHOW_JOIN = state.key("room_show_join")
ROOM_REVEAL = state.key("room_reveal")
ROOM_ASK_CHOICE = state.key("room_ask_choice")
ROOM_ASK_FLIP = state.key("room_ask_flip")
ROOM_ASK_NEXT = state.key("room_ask_next")
ROOM_PENDING = state.key("_room_pending")  # (number, answers, make): a question waiting for the yes to replace an open one
ROOM_REPLACE = state.key("room_replace")
ROOM_KEEP = state.key("room_keep")
ROOM_HISTORY = state.key("room_history")
ROOM_CLOSE = state.key("room_close")
ROOM_STUDENT_CHOSEN = state.key("room_student_chosen")
ROOM_REMOVE = state.key("room_remove")
ROOM_TREE = state.key("room_tree_view")
ROOM_MAKE_LINK = state.key("room_make_teacher_link")
ROOM_TEACHER_LINK = state.key("_room_teacher_link")  # (code, URL): the teacher link made, shown until Done
ROOM_LINK_DONE = state.key("room_teacher_link_done")

TEACHER_POLL_SECONDS = 1.0  # an answer shows on the count within this (and a poll's run) of its click
STUDENTS_POLL_SECONDS = 3.0  # a joiner shows in the Students list within this
PROJECTOR_LABEL_PX = 16
PROJECTOR_TEXT_PX = 18  # the reveal's sentences and terms, read from the back of a classroom

TEACHER_CSS = f"""
<style>
.st-key-room_join_code_shown h1 {{ font-size: clamp(1.6rem, 3.4vw, 3.4rem); letter-spacing: 0.08em; text-align: center;
  padding: 0; white-space: nowrap; }}
.st-key-room_count h3 {{ padding: 0.25rem 0; white-space: nowrap; }}
/* The QR code as wide as its column, its modules sharp when scaled. */
.st-key-room_qr img {{ width: 100% !important; max-width: none !important; image-rendering: pixelated; }}
/* After the reveal: the result, why, and the terms large enough for a projector. */
.st-key-room_result p, .st-key-room_terms p, .st-key-room_terms th, .st-key-room_terms td {{
  font-size: {PROJECTOR_TEXT_PX}px; }}
</style>
"""


def _act(action: Callable[[], None]) -> None:
    """Run a store action for a button; what it refuses is said on the page."""
    try:
        action()
        st.session_state.pop(ROOM_PROBLEM, None)
    except (RoomRefused, StoreError, ValueError) as problem:
        st.session_state[ROOM_PROBLEM] = full_sentence(str(problem))


def _ask(code_: str, secret: str, make: Callable[[], Question], replacing: int | None = None) -> None:
    """Ask the next question; when the open one has answers, first ask the teacher (a misclick must
    not drop the class's answers)."""
    st.session_state.pop(ROOM_PENDING, None)

    def ask() -> None:
        try:
            RoomStore().ask(code_, secret, make(), replacing=replacing)
        except QuestionOpen as open_question:
            st.session_state[ROOM_PENDING] = (open_question.number, open_question.answered, make)

    _act(ask)


def _confirm_replace(room: RoomState, secret: str) -> bool:
    """The question asked while this one has answers, waiting for the teacher's yes; whether it waits."""
    number, answered, make = st.session_state.get(ROOM_PENDING, (None, 0, None))
    if number != room.number or room.revealed:
        return False
    with st.container(border=True):
        st.warning(f"Question {number} has {plural(answered, 'answer')} and is not revealed yet. Replace it? "
                   "Its answers stay in the history (CSV), marked not revealed.")
        with st.container(horizontal=True):
            st.button("Replace it", key=ROOM_REPLACE, on_click=_ask, args=(room.code, secret, make, number))
            st.button("Keep it", key=ROOM_KEEP, type="primary", on_click=lambda: st.session_state.pop(ROOM_PENDING, None))
    return True


@st.fragment(run_every=TEACHER_POLL_SECONDS)
def _count(room_code: str, number: int, revealed: bool) -> None:
    """"N of M answered" (before anyone joined, that no one has), kept current by polling the store; the page reruns when the room moved on.
    A store failure is a sentence until a poll finds the store back."""
    try:
        room = RoomStore().state(room_code)
    except StoreError as error:
        st.warning(escape(full_sentence(str(error))))
        return
    if room is None or room.closed or room.number != number or room.revealed != revealed:
        st.rerun()
    with st.container(key="room_count"):
        st.subheader(count_words(room), anchor=False)


def count_words(room: RoomState) -> str:
    """The count: how many of the students present answered; before anyone joined, or once every
    student left, that no one is there."""
    if not room.joined:
        return "No one has joined yet"
    if not room.present:
        return "No student is here now"
    return f"{room.answered} of {room.present} answered"


def _joiner_words(joiner: Joiner) -> str:
    here = "here" if joiner.present else "gone"
    return f"Student {joiner.seat} · {here} · {'answered' if joiner.answered else 'no answer yet'}"


@st.fragment(run_every=STUDENTS_POLL_SECONDS)
def _students(room_code: str, secret: str) -> None:
    """Who joined, by the number their page shows, kept current by polling the store, and Remove (a
    prank's extra tabs, a device that should not count)."""
    try:
        joiners = RoomStore().joiners(room_code, secret)
    except (RoomRefused, StoreError):
        return  # the count's poll says what failed
    with st.popover(f"Students ({len(joiners)})", icon=":material/group:", disabled=not joiners):
        by_seat = {joiner.seat: joiner for joiner in joiners}
        seat = st.selectbox("Student (the number their page shows)", list(by_seat), index=None, key=ROOM_STUDENT_CHOSEN,
                            format_func=lambda chosen: _joiner_words(by_seat[chosen]) if chosen in by_seat else "",
                            placeholder="Choose a student…")
        st.button("Remove", key=ROOM_REMOVE, icon=":material/person_remove:", disabled=seat not in by_seat,
                  help="Their answer to the open question no longer counts; their page says they were "
                       "removed, and they join again only by typing the room's code.",
                  on_click=_remove, args=(room_code, secret, seat))


def _remove(room_code: str, secret: str, seat: int) -> None:
    _act(lambda: RoomStore().remove(room_code, secret, seat))
    st.session_state.pop(ROOM_STUDENT_CHOSEN, None)  # that student is gone from the list


def _terms(tree, node: int, question: Question) -> None:
    """The children's terms under the question's rule and C (the best 10), and why: the best won,
    or the choice flips where two children's values cross."""
    scoring = question.scoring
    children = score_children(tree, node, scoring)
    if question.kind == FLIP:
        st.markdown(flip_why(question, flip_reason(tree, question)))
    elif (choice := explain_choice(children, scoring.rule, tree.ties)) is not None:
        st.markdown(why_sentence(choice))
    spec = scoring.spec
    terms = [term for term in spec.terms if term != "mean" and term in children[0].terms]
    st.table(pd.DataFrame(
        {
            "move": code(child.move) + (" ✔" if child.rank == 1 else ""),
            "visits": f"{child.visits:,}",
            mean_header(tree, node): f"{child.terms['mean']:.3f}" if "mean" in child.terms else "",
            **{spec.label(term): f"{child.terms.get(term, float('nan')):.3f}" for term in terms},
        }
        for child in children[:10]
    ))


def _distribution(room: RoomState, secret: str) -> None:
    """After the reveal: how many were right, the right answer, and the answers' distribution."""
    question = room.question
    counted = tally(question, RoomStore().answers(room.code, secret, room.number))
    with st.container(key="room_result"):
        st.markdown(f"**{counted.right} of {counted.answered} right.** {right_answer(question)}")
    if counted.answered:
        chart = choice_chart(question, counted, MOST_BUTTONS) if question.kind == CHOICE else flip_chart(question, counted)
        with st.container(key="room_distribution"):
            st.altair_chart(chart, width="stretch")


def _next_question(room: RoomState, secret: str, tree, loaded: LoadedInput, scoring) -> None:
    """Ask the next question: which child, or where the choice flips, at the chosen node and the page's
    C; after a reveal, straight to the next node down."""
    node = tree.find(st.session_state[ROOM_NODE])
    st.markdown(f"**Next question** at {node_markdown(tree.path(node), root='the root')}, C = {scoring.c:.6g} "
                "(click a node in the picture to ask there).")
    c_max = suggest_c_range(loaded.score_range, scoring.c)[0]
    if _confirm_replace(room, secret):
        return
    with st.container(horizontal=True):
        st.button("Which child?", key=ROOM_ASK_CHOICE, on_click=_ask,
                  args=(room.code, secret, lambda: choice_question(tree, node, scoring)))
        st.button("Where does it flip?", key=ROOM_ASK_FLIP, on_click=_ask,
                  args=(room.code, secret, lambda: flip_question(tree, node, scoring, c_max)))
        question = room.question
        winner = tree.find(question.node + (question.answer,))
        if room.revealed and tree.children[winner]:
            st.button(f"Next node: {escape(question.answer)} ▶", key=ROOM_ASK_NEXT, type="primary",
                      on_click=_ask_next, args=(room.code, secret, tree, winner, scoring))


def _ask_next(room_code: str, secret: str, tree, winner: int, scoring) -> None:
    st.session_state[ROOM_NODE] = tree.path_moves(winner)
    _ask(room_code, secret, lambda: choice_question(tree, winner, scoring))


def _choose_node(tree, node: int) -> None:
    st.session_state[ROOM_NODE] = tree.path_moves(node)


def history_button(room_code: str, data: str | Callable[[], str], *, key: str, label: str = "History (CSV)") -> None:
    """The download of room ``room_code``'s history (``data``: the CSV, or what makes it on click)."""
    st.download_button(label, data, file_name=f"room_{room_code}.csv", mime="text/csv", key=key,
                       icon=":material/download:", on_click="ignore")  # no rerun: see the Explorer's children CSV


def _make_teacher_link(room_code: str, secret: str, teacher_url: Callable[[str, str], str]) -> None:
    def make() -> None:
        st.session_state[ROOM_TEACHER_LINK] = (room_code, teacher_url(room_code, RoomStore().teacher_link(room_code, secret)))

    _act(make)


def _shown_teacher_link(room_code: str) -> None:
    """The teacher link just made, with what it gives, until "Done": then never again."""
    made_for, url = st.session_state.get(ROOM_TEACHER_LINK, (None, None))
    if made_for != room_code:
        return
    with st.container(border=True, key="room_teacher_link"):
        st.warning(f"This link makes whoever opens it the teacher of room {room_code}: they can reveal, ask, "
                   "remove students and close the room. Copy it (the button at its right), open it on your other "
                   "device (it works once) and keep it off the projector like a password: it will not be shown again.",
                   icon=":material/key:")
        st.code(url, language=None, wrap_lines=True)
        st.button("Done", key=ROOM_LINK_DONE, on_click=lambda: st.session_state.pop(ROOM_TEACHER_LINK, None))


def _header(room: RoomState, secret: str, loaded: LoadedInput, on_close: Callable[[str, str, str], None],
            teacher_url: Callable[[str, str], str]) -> None:
    """The room's name and what it is about; the join toggle, the students, the teacher link, the history and Close."""
    with st.container(horizontal=True, vertical_alignment="center"):
        st.markdown(f"**Live room {room.code}** · {escape(input_summary(loaded.read))} · "
                    f"{escape(room.question.scoring.spec.name)}")
        st.toggle("Show how to join", key=ROOM_SHOW_JOIN)
        _students(room.code, secret)
        st.button("Teacher link", key=ROOM_MAKE_LINK, icon=":material/key:", on_click=_make_teacher_link,
                  args=(room.code, secret, teacher_url),
                  help="A link that opens this room as its teacher on another device (the projector's computer), once.")
        history_button(room.code, lambda: history_csv(RoomStore().history(room.code, secret)), key=ROOM_HISTORY)  # made on click
        if st.button("Close room", key=ROOM_CLOSE, icon=":material/close:"):
            _act(lambda: RoomStore().close(room.code, secret))
            if ROOM_PROBLEM not in st.session_state:
                on_close(room.code, room.input_id, secret)


STORAGE_BLOCKED = ("This browser does not keep what this site stores (a private window, or site data blocked), "
                   "so it cannot keep this room's key: if this tab reloads or closes, you are no longer its "
                   "teacher and cannot reveal or close it. Keep this tab open, or make a Teacher link now and open "
                   "it in a browser that keeps site data.")


def show(room: RoomState, secret: str, loaded: LoadedInput, link: str, *,
         on_close: Callable[[str, str, str], None], teacher_url: Callable[[str, str], str], kept: bool = True) -> None:
    """The teacher's view of ``room`` (its input ``loaded``; ``link`` joins it); ``on_close(code,
    input_id, secret)`` after the teacher closed it; ``teacher_url(code, token)``: a teacher link.
    ``kept``: the browser keeps the room's secret (False: storage is blocked, which the page says)."""
    tree = loaded.tree
    question = room.question
    if state.first_run_for_input("room_teacher", room.code):  # a reload: the room's C and node again
        c_control.set_c(question.c)
        st.session_state[ROOM_NODE] = question.node
        st.session_state[ROOM_SHOW_JOIN] = True
    st.html(TEACHER_CSS)
    _header(room, secret, loaded, on_close, teacher_url)
    # One block whatever it holds (the teacher link, a typed C's error): the polling count below keeps
    # its place in the page, and so its fragment id (a poll sent just before a run that moved it
    # would find no fragment).
    with st.container():
        _shown_teacher_link(room.code)
        if not kept:
            st.warning(STORAGE_BLOCKED, icon=":material/lock:")
        # The C for the next question; at rest it names no path and no breakpoint (the room guesses them).
        scoring = selected_path.select(Setup(loaded, question.rule, dict(question.settings)),
                                       reveal_at_rest=False).scoring
    node = tree.find(question.node)
    # Beside the picture: how to join while the question is open (unless hidden), the rule's terms
    # and why once it is revealed.
    show_join = st.session_state.get(ROOM_SHOW_JOIN, True) and not room.revealed
    columns = st.columns([2, 3, 2] if room.revealed else [2, 3, 1.6] if show_join else [2, 3], gap="medium")
    with columns[0]:
        st.markdown(question_markdown(question))
        st.caption(facts_caption(tree, node, question))
        with st.container(horizontal=True, vertical_alignment="center"):
            _count(room.code, room.number, room.revealed)
            if not room.revealed:
                st.button("Reveal", key=ROOM_REVEAL, type="primary", on_click=_act,
                          args=(lambda: RoomStore().reveal(room.code, secret, room.number),))
        if room.revealed:
            _distribution(room, secret)
        if ROOM_PROBLEM in st.session_state:
            st.warning(escape(st.session_state[ROOM_PROBLEM]))
        _next_question(room, secret, tree, loaded, scoring)
    with columns[1]:
        chosen = tree.find(st.session_state[ROOM_NODE])
        room_picture(tree, loaded.key, node, key=ROOM_TREE, inspected=chosen,
                     scoring=question.scoring if room.revealed else None, label_px=PROJECTOR_LABEL_PX,
                     on_click=lambda clicked: _choose_node(tree, clicked))
    if room.revealed:
        with columns[2], st.container(key="room_terms"):
            _terms(tree, node, question)
    elif show_join:
        with columns[2]:
            room_join.join_panel(room.code, link)
