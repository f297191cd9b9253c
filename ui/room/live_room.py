"""A live room on the Classroom page: the teacher opens it, students join it by its link, code or QR code.

The room's page is ``/classroom?room=CODE`` for everyone, teacher and students alike; what makes a
session the teacher's is the room's secret, which the session that opened the room holds and the
teacher's browser keeps (:mod:`ui.room.room_browser`), so the teacher's reload finds the room again and
the link on the projector lets nobody else in as the teacher. A teacher link (``&teacher=TOKEN``, made
on the teacher's view) makes the browser that opens it the room's teacher once: the token is traded
for a secret of that browser's own, kept as the opener's is, and leaves the address bar. A room's page shows no sidebar and no
page menu (app.py asks :func:`link_code` first): a student sees the room only
(:mod:`ui.room.room_student`), the teacher the room and its controls (:mod:`ui.room.room_teacher`). Rooms and
answers live in the room store (:class:`mcts_core.classroom.RoomStore`), shared by every session of
the server.
"""

from __future__ import annotations

import streamlit as st

from mcts_core import ROOT, Scoring
from mcts_core.classroom import (
    RoomRefused,
    RoomStore,
    WaitToJoin,
    choice_question,
    clean_on_a_timer,
    history_csv,
    read_code,
)
from mcts_core.common import ParseError, StoreError
from mcts_core.inputs import InputStore
from ui.common import state
from ui.common.markdown import escape
from ui.common.routing import run_app_shell_instead
from ui.common.wording import full_sentence
from ui.room import room_browser, room_student, room_teacher
from ui.setup import input_panel
from ui.setup.inputs import LoadedInput, load, with_analysis
from ui.share import share

# Session-state keys this module owns.
ROOM_SHELL = state.key("_room_shell")  # app.py ran this session's room page (the page's guard)
ROOM_SECRETS = state.key("_room_secrets")  # the secrets of the rooms this session opened, by code
ROOM_OPEN = state.key("room_open")
ROOM_OPEN_PROBLEM = state.key("_room_open_problem")
ROOM_JOIN_CODE = state.key("room_join_code")
ROOM_JOIN = state.key("room_join")
ROOM_TYPED = state.key("_room_typed")  # the code this session's student typed (a removed student joins again so)
ROOM_LEAVE = state.key("room_leave")
ROOM_RETRYING = state.key("_room_retrying")  # the page failed for a moment (the store, a wait) and tries again
ROOM_CLOSED = state.key("_room_closed")  # (code, secret) of the room this session closed last: its history
ROOM_CLOSED_HISTORY = state.key("room_closed_history")
ROOM_LINK_PROBLEM = state.key("_room_link_problem")  # (code, why this session's teacher link opened nothing)

STORE_RETRY_SECONDS = 2.0  # a page that failed for a moment tries again this often (as often as a student's poll)
SHORT_WAIT_SECONDS = 60  # a join refused for at most this long is tried again by the page itself
ROOM_PARAM = "room"  # the join link's query name (a contract: tests outside rely on it)
TEACHER_PARAM = "teacher"  # a teacher link's token, beside the room's code


def link_code() -> str | None:
    """The URL's room code as given (None: the URL names no room)."""
    return st.query_params.get(ROOM_PARAM)


def keep_clean() -> None:
    """app.py, on every run: the server forgets expired rooms on a timer (started once per process)."""
    clean_on_a_timer(RoomStore())


def enter() -> None:
    """app.py, on a room's page: the page runs without a sidebar (it marks that app.py ran)."""
    st.session_state[ROOM_SHELL] = True


def join_url(code: str) -> str:
    """The room's join link, from the app's root (relative when no browser says where that is)."""
    return share.link("classroom", {ROOM_PARAM: code})


def teacher_url(code: str, token: str) -> str:
    """A teacher link: the room's page with a token that makes the browser opening it the teacher, once."""
    return share.link("classroom", {ROOM_PARAM: code, TEACHER_PARAM: token})


def _use_teacher_link(code: str) -> None:
    """The URL's teacher link, once: its token traded for this browser's own secret of the room
    (kept as the opener's is), or why it opens nothing. The address bar keeps only the room."""
    token = st.query_params.get(TEACHER_PARAM)
    if token is None:
        return
    try:
        secret = RoomStore().use_teacher_link(code, token)
    except (RoomRefused, StoreError) as problem:
        st.session_state[ROOM_LINK_PROBLEM] = (code, full_sentence(str(problem)))
    else:
        st.session_state[ROOM_SECRETS] = {**st.session_state.get(ROOM_SECRETS, {}), code: secret}
        st.session_state.pop(ROOM_LINK_PROBLEM, None)


def _address() -> str:
    """Where this session's requests come from, for the limit on wrong codes. Streamlit names no
    address for this machine (localhost, or a proxy on it): then the address the proxy appended to
    X-Forwarded-For (the last one: those before it are the client's own words), else "localhost",
    one address for every such session, so the limit holds there too."""
    address = st.context.ip_address
    if address:
        return str(address)
    forwarded = (st.context.headers.get("X-Forwarded-For") or "").split(",")[-1].strip()
    return f"forwarded {forwarded}" if forwarded else "localhost"


def _go_to(code: str | None) -> None:
    """Put the room (or none) in the URL and run the page again in that mode."""
    share.publish({ROOM_PARAM: code} if code is not None else {})
    st.rerun()


def open_button(setup, node: int, c: float) -> None:
    """The single-screen page's "Open a live room" button: a room on this input, the sidebar's rule,
    ``node`` (the root when it is a leaf) and C."""
    if st.button("Open a live room", key=ROOM_OPEN, icon=":material/groups:",
                 help="Students answer on their phones or laptops; you see how many answered, then reveal."):
        tree = setup.tree
        try:
            if setup.input.store_problem:
                raise StoreError(f"the input is not in the store, so students could not open it: {setup.input.store_problem}")
            scoring = Scoring(setup.rule, c, setup.settings)
            question = choice_question(tree, node if tree.children[node] else ROOT, scoring)
            code, secret = RoomStore().open_room(setup.input.key, question)
        except (ValueError, StoreError) as error:
            st.session_state[ROOM_OPEN_PROBLEM] = f"No room was opened: {error}."
        else:
            st.session_state[ROOM_SECRETS] = {**st.session_state.get(ROOM_SECRETS, {}), code: secret}
            st.session_state.pop(ROOM_OPEN_PROBLEM, None)
            _go_to(code)
    if ROOM_OPEN_PROBLEM in st.session_state:
        st.error(escape(st.session_state[ROOM_OPEN_PROBLEM]))
    _closed_history()


def _closed_history() -> None:
    """The history of the room this session closed last, while the store keeps it (until it expires)."""
    code, secret = st.session_state.get(ROOM_CLOSED, (None, None))
    if secret is None:
        return
    try:
        data = history_csv(RoomStore().history(code, secret))
    except (RoomRefused, StoreError):
        st.session_state.pop(ROOM_CLOSED)  # expired, or the store lost it: nothing to download
        return
    room_teacher.history_button(code, data, key=ROOM_CLOSED_HISTORY, label=f"Room {code}'s history (CSV)")


def join_box() -> None:
    """A box to type a room's code in (students without the link or the QR code)."""
    with st.popover("Join a room", icon=":material/login:"):
        typed = st.text_input("Room code", key=ROOM_JOIN_CODE, max_chars=12, placeholder="e.g. K7M2QX")
        if st.button("Join", key=ROOM_JOIN, type="primary"):
            code = read_code(typed)
            if code is None:
                st.error("A room code is 6 letters and digits, as the teacher's screen shows it.")
            else:
                st.session_state[ROOM_TYPED] = code
                _go_to(code)


def _leave_button() -> None:
    if st.button("Back to the Classroom", key=ROOM_LEAVE, icon=":material/arrow_back:"):
        st.session_state.pop(ROOM_LINK_PROBLEM, None)
        _go_to(None)


def room_input(input_key: str) -> LoadedInput | None:
    """The room's input from the input store, read once per server for every session; None when the
    store no longer has it. ``input_key`` is the teacher's input's key: a stored input's id, with
    ``#n`` for an engine file's analysis n other than its last."""
    input_id, _, number = input_key.partition("#")
    stored = InputStore().load(input_id)
    if stored is None:
        return None
    loaded = load(input_id, "room's input", lambda: stored[0], save=False)
    if not isinstance(loaded, LoadedInput):
        return None
    try:
        return with_analysis(loaded, int(number)) if number.isdigit() else loaded
    except (ParseError, IndexError):
        return None


def forget_room(code: str, input_id: str, secret: str) -> None:
    """The teacher closed room ``code``: back to the single-screen page, on the room's input, where
    the room's history stays to download."""
    secrets = dict(st.session_state.get(ROOM_SECRETS, {}))
    secrets.pop(code, None)
    st.session_state[ROOM_SECRETS] = secrets
    st.session_state[ROOM_CLOSED] = (code, secret)
    input_panel.keep_stored(input_id.partition("#")[0], "room's input", by_content=True)
    _go_to(None)


def show(text: str) -> None:
    """The room page for the URL's ``room=text``: the teacher's view, a student's, or why neither.

    Every run has one skeleton: the view, a student's answers, what comes under them, the retry. So
    each polling fragment is called once in every run at the same place (a fragment's id is its
    place), polling only while needed: a poll the browser sent just before the run that stopped
    polling then finds its fragment (Streamlit logs one it cannot find)."""
    if ROOM_SHELL not in st.session_state:
        run_app_shell_instead()
    st.session_state.pop(ROOM_RETRYING, None)
    with st.container():
        shown, retrying = _room(text)
    room_student.answers(shown)
    with st.container():
        if shown is not None:
            room_student.picture(shown)
    st.fragment(_try_again, run_every=STORE_RETRY_SECONDS if retrying else None)(retrying)


def _room(text: str) -> tuple[room_student.Shown | None, bool]:
    """The room's view down to a student's question; (that question or None, whether the page tries
    again by itself)."""
    code = read_code(text)
    if code is None:
        st.error(escape(f"“{text[:40]}” is not a room code: a room code is 6 letters and digits."))
        join_box()
        _leave_button()
        return None, False
    _use_teacher_link(code)
    share.publish({ROOM_PARAM: code})  # the address bar shows the join link, nothing else (no teacher link)
    opened_here = st.session_state.get(ROOM_SECRETS, {})
    failed_for, link_problem = st.session_state.get(ROOM_LINK_PROBLEM, (None, None))
    if failed_for == code:  # the teacher's device, not a student: it joins nobody
        st.error(escape(link_problem))
        _leave_button()
        return None, False
    browser = room_browser.keys(keep=opened_here)
    secret = opened_here.get(code) or (browser.rooms.get(code) if browser is not None else None)
    store = RoomStore()
    try:
        if secret is not None and store.is_teacher(code, secret):
            room = store.state(code)
            loaded = room_input(room.input_id) if room is not None else None
            if loaded is None:
                st.error(f"Room {code}'s input is no longer in the store.")
                return None, False
            room_teacher.show(room, secret, loaded, join_url(code), on_close=forget_room,
                              teacher_url=teacher_url, kept=browser is None or browser.stored)
        elif browser is None:
            st.caption(f"Opening room {code}…")  # until the browser says who this is (a moment)
        else:
            shown = room_student.show(code, browser.student, _address(), room_input,
                                      typed=st.session_state.get(ROOM_TYPED) == code)
            st.session_state.pop(ROOM_TYPED, None)  # joined: a later removal needs the code typed again
            return shown, False
    except WaitToJoin as refused:
        st.error(escape(full_sentence(str(refused))))
        return None, refused.wait <= SHORT_WAIT_SECONDS  # the page tries again by itself
    except RoomRefused as refused:
        st.error(escape(full_sentence(str(refused))))
        join_box()
        _leave_button()
    except StoreError as error:
        st.error(escape(full_sentence(str(error))))  # the store's words name it
        return None, True
    return None, False


def _try_again(retrying: bool) -> None:
    """While ``retrying`` (after a store failure or a short wait to join): the whole page again every
    :data:`STORE_RETRY_SECONDS` (this draws nothing), so the page is back as soon as the store is, or
    the wait is over."""
    if not retrying:
        return  # a poll the browser sent before the run that stopped retrying
    if st.session_state.pop(ROOM_RETRYING, False):  # a timed run, not the page's run that drew it
        st.rerun()
    st.session_state[ROOM_RETRYING] = True
