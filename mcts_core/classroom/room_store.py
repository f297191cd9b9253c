"""Live rooms in SQLite under the data folder, shared by every session and process of the server.

A room is a join code, the digest of the teacher's secret, the input it is about (an input store id:
content only, no file name) and its questions; students are digests of tokens their browsers keep,
and each answers the current question once (changing it until the reveal). Like the input store
(:mod:`mcts_core.inputs.store`) the file runs in WAL mode, each call opens its own connection and
every write is one transaction (``BEGIN IMMEDIATE``: writers queue instead of failing when two
sessions answer at once), so a server restart keeps open rooms and a crash leaves no half-written
answer. Failures reach the caller as :class:`~mcts_core.common.sqlite_files.StoreError` sentences;
what a person may not do, as :class:`RoomRefused` sentences. A file SQLite cannot read (corrupt,
not a database) is moved aside and a fresh store started at once: the call that found it says so,
and for a few hours "there is no room" says that the rooms open before are lost.

Rules kept here, not in the pages: only the secret's holder asks, reveals and closes; an answer
goes to the current question before its reveal; a question with answers is replaced by the next
one before its reveal only when the teacher says so (its answers stay in the history); a room idle
for :data:`IDLE_HOURS` is forgotten with everything in it, and a closed room's history stays its
teacher's until then. Wrong codes are limited so that guessing one takes years but a student with
the right code always gets in: a browser (its token) that tried :data:`WRONG_CODES_ALLOWED`
different wrong codes in :data:`WRONG_CODES_MINUTES` minutes is refused every code until the oldest
try is that old; an address (a classroom behind one NAT address shares it) that tried
:data:`ADDRESS_FREE_CODES` different wrong codes in that time waits :data:`ADDRESS_PAUSE_SECONDS`
after its last wrong code before any code is checked, never longer. Both are checked before the
code (or the refusal would tell which codes exist), except for a student who already joined the
room (a reload: their token proves the code). The same wrong code again (a reloaded expired link)
tells a guesser nothing and counts once. An address adds at most :data:`JOINS_PER_MINUTE` new
students a minute (a class behind one NAT address joins at once; a page that mints tokens does
not fill the room). The count a teacher sees is of the students present: seen in the last
:data:`PRESENT_SECONDS` (each student's poll marks them seen) or who answered the current question.
The teacher may remove a student: their answer to the open question goes, their page says so, and
their browser joins again only with the code typed, not by reloading the link. A teacher link opens the
open room as its teacher on another device, once: the store keeps its token's digest, and the browser
that uses it gets a secret of its own (the room keeps every device's digest), so the used link, kept
in a browser's history or a chat, is worth nothing.
"""

from __future__ import annotations

import hmac
import math
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ..common.sqlite_files import StoreError, failure_words, use_wal
from ..inputs.data_folder import data_folder
from .questions import Question, read_answer, tally
from .room_codes import digest, is_link_token, new_code, new_secret
from .room_history import HistoryRow

IDLE_HOURS = 4.0  # a room nobody asked, answered or joined in this long is forgotten
WRONG_CODES_ALLOWED = 20  # different wrong codes one browser may try ...
WRONG_CODES_MINUTES = 10  # ... in this many minutes (and the window of an address's count)
ADDRESS_FREE_CODES = 20  # different wrong codes an address may try in that window at any pace ...
ADDRESS_PAUSE_SECONDS = 5  # ... beyond them, one per this many seconds (a student waits at most this)
MAX_STUDENTS = 1000  # students one room takes (a bound on what a forged token can add)
JOINS_PER_MINUTE = 60  # new students one address adds a minute: a class of 40 behind one NAT joins at once
PRESENT_SECONDS = 60  # a student seen this recently is present (a poll every few seconds marks them)
SEEN_EVERY_SECONDS = 15  # a poll writes "seen" at most this often (most polls only read)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    secret TEXT NOT NULL,
    input_id TEXT NOT NULL,
    opened REAL NOT NULL,
    touched REAL NOT NULL,
    closed INTEGER NOT NULL DEFAULT 0,
    number INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS questions (
    code TEXT NOT NULL,
    number INTEGER NOT NULL,
    spec TEXT NOT NULL,
    asked REAL NOT NULL,
    revealed REAL,
    PRIMARY KEY (code, number)
);
CREATE TABLE IF NOT EXISTS students (
    code TEXT NOT NULL,
    student TEXT NOT NULL,
    joined REAL NOT NULL,
    seat INTEGER,
    seen REAL NOT NULL DEFAULT 0,
    removed INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (code, student)
);
CREATE TABLE IF NOT EXISTS answers (
    code TEXT NOT NULL,
    number INTEGER NOT NULL,
    student TEXT NOT NULL,
    answer TEXT NOT NULL,
    answered REAL NOT NULL,
    PRIMARY KEY (code, number, student)
);
DROP TABLE IF EXISTS wrong_codes;
CREATE TABLE IF NOT EXISTS wrong_tries (
    client TEXT NOT NULL,
    code TEXT NOT NULL,
    tried REAL NOT NULL,
    PRIMARY KEY (client, code)
);
CREATE TABLE IF NOT EXISTS joins (client TEXT NOT NULL, joined REAL NOT NULL);
CREATE TABLE IF NOT EXISTS teacher_links (
    code TEXT NOT NULL,
    link TEXT NOT NULL,
    made REAL NOT NULL,
    used REAL,
    PRIMARY KEY (code, link)
);
CREATE TABLE IF NOT EXISTS teacher_keys (code TEXT NOT NULL, secret TEXT NOT NULL, PRIMARY KEY (code, secret));
CREATE TABLE IF NOT EXISTS restarts (at REAL NOT NULL, moved_to TEXT NOT NULL);
"""
_DAMAGED = {sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB}  # a file SQLite cannot read: moved aside
_ROOM_TABLES = ("answers", "students", "questions", "teacher_links", "teacher_keys", "rooms")
# Columns a students table made before presence and removal lacks (added to an old file in place).
_STUDENT_COLUMNS = {"seat": "INTEGER", "seen": "REAL NOT NULL DEFAULT 0", "removed": "INTEGER NOT NULL DEFAULT 0"}
# A room as a poll reads it, in one statement (parameters: the student's digest or None, the code,
# since when a student counts as present).
_STATE = """
SELECT rooms.input_id, rooms.closed, rooms.number, rooms.touched, questions.spec, questions.revealed,
    (SELECT COUNT(*) FROM students WHERE students.code = rooms.code AND NOT students.removed),
    (SELECT COUNT(*) FROM students WHERE students.code = rooms.code AND NOT students.removed AND (students.seen >= :since
        OR EXISTS (SELECT 1 FROM answers WHERE answers.code = rooms.code AND answers.number = rooms.number
                   AND answers.student = students.student))),
    (SELECT COUNT(*) FROM answers WHERE answers.code = rooms.code AND answers.number = rooms.number),
    (SELECT answer FROM answers WHERE answers.code = rooms.code AND answers.number = rooms.number AND answers.student = :student),
    (SELECT seat FROM students WHERE students.code = rooms.code AND students.student = :student),
    (SELECT seen FROM students WHERE students.code = rooms.code AND students.student = :student),
    (SELECT removed FROM students WHERE students.code = rooms.code AND students.student = :student)
FROM rooms JOIN questions ON questions.code = rooms.code AND questions.number = rooms.number
WHERE rooms.code = :code
"""
_made: set[Path] = set()  # files whose tables this process has made (once per file, not per call)
_making = threading.Lock()


class RoomRefused(Exception):
    """What a person asked of a room cannot be done; the message says why, as a sentence's end."""


class WaitToJoin(RoomRefused):
    """A join refused for now: ``wait`` seconds until this browser or its address may try again."""

    def __init__(self, words: str, wait: float):
        super().__init__(words)
        self.wait = wait


class TooManyWrongCodes(WaitToJoin):
    """This browser tried too many wrong codes lately, or its address did a moment ago."""

    def __init__(self, wait: float, *, browser: bool):
        if browser:
            minutes = max(1, math.ceil(wait / 60))
            words = (f"too many wrong room codes were tried in this browser: try again in {minutes} "
                     f"minute{'s' if minutes > 1 else ''}")
        else:
            words = f"wrong room codes were tried from this network a moment ago: trying again in {_seconds(wait)}"
        super().__init__(words, wait)


class TooManyJoins(WaitToJoin):
    """:data:`JOINS_PER_MINUTE` new students joined from this address in the last minute."""

    def __init__(self, wait: float):
        super().__init__(f"{JOINS_PER_MINUTE} students joined from this network in the last minute: trying again "
                         f"in {_seconds(wait)}", wait)


def _seconds(wait: float) -> str:
    """A short wait in words, rounded up: "1 second", "5 seconds"."""
    seconds = max(1, math.ceil(wait))
    return f"{seconds} second{'s' if seconds > 1 else ''}"


class StudentRemoved(RoomRefused):
    """The teacher removed this student from the room: they join again only with the code typed."""

    def __init__(self, code: str):
        super().__init__(f"the teacher removed you from room {code}: to join again, type its code under "
                         "“Join a room”")


class QuestionOpen(RoomRefused):
    """The room's question has answers and is not revealed: asking another needs the teacher's yes."""

    def __init__(self, number: int, answered: int):
        super().__init__(f"question {number} has {answered} answer{'s' if answered != 1 else ''} and is not revealed yet")
        self.number = number
        self.answered = answered


@dataclass(frozen=True)
class RoomState:
    """A room as one poll sees it.

    Attributes:
        code: the join code.
        input_id: the input store id of the tree it is about.
        closed: the teacher closed it.
        number: the current question's number (1 for the first).
        question: the current question.
        revealed: the current question's answer is out.
        joined: students who opened the room (and were not removed).
        answered: students who answered the current question.
        own_answer: the polling student's answer to it (None: none yet, or not a student's poll).
        present: students seen in the last :data:`PRESENT_SECONDS` or who answered the current question.
        seat: the polling student's number in the room (1 for the first who joined; None: not a
            student's poll).
        removed: the teacher removed the polling student.
    """

    code: str
    input_id: str
    closed: bool
    number: int
    question: Question
    revealed: bool
    joined: int
    answered: int
    own_answer: str | None = None
    present: int = 0
    seat: int | None = None
    removed: bool = False


@dataclass(frozen=True)
class Joiner:
    """A student in a room as the teacher's list shows them: their number in the room, whether they
    are present (as the count has it) and whether they answered the current question."""

    seat: int
    present: bool
    answered: bool


class RoomStore:
    """The rooms (see the module docstring). ``clock`` gives the time in seconds (tests move it)."""

    def __init__(self, path: Path | None = None, *, idle_hours: float = IDLE_HOURS,
                 clock: Callable[[], float] = time.time):
        self.path = path or data_folder() / "rooms.sqlite3"
        self.idle_seconds = idle_hours * 3600
        self.clock = clock

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # Autocommit: transactions are the explicit BEGINs below.
            connection = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        except (OSError, sqlite3.Error) as error:
            raise StoreError(f"the room store at the data folder cannot be opened: {error}") from None
        try:
            self._prepare(connection)
            yield connection
        except sqlite3.Error as error:
            if getattr(error, "sqlite_errorcode", 0) & 0xFF not in _DAMAGED:
                raise StoreError(failure_words(error, "the room store", "answers")) from None
            connection.close()
            raise StoreError(self._start_afresh(error)) from None
        finally:
            connection.close()

    def _start_afresh(self, error: sqlite3.Error) -> str:
        """The file is damaged: move it aside (with its WAL files), start an empty store that notes
        when, and say so (a sentence's end)."""
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(self.clock()))
        moved = self.path.with_name(f"{self.path.name}.damaged-{stamp}")
        for suffix in ("", "-wal", "-shm"):
            try:
                self.path.with_name(self.path.name + suffix).replace(moved.with_name(moved.name + suffix))
            except FileNotFoundError:
                pass  # no WAL file, or another session moved it first
            except OSError as failure:
                return f"the room store is damaged ({error}) and cannot be moved aside: {failure}"
        _made.discard(self.path)
        with self._write() as connection:
            connection.execute("INSERT INTO restarts (at, moved_to) VALUES (?, ?)", (self.clock(), moved.name))
        return (f"the room store was damaged ({error}): it was moved aside as {moved.name} and a fresh one "
                "started, so every room open before is lost (open a new one)")

    def restarted_note(self) -> str:
        """When the store started afresh lately (a damaged file), a sentence's end that says the
        rooms open before are lost; else ""."""
        with self._read() as connection:
            row = connection.execute("SELECT MAX(at) FROM restarts").fetchone()
        if row[0] is None or self._idle(row[0]):
            return ""
        at = time.strftime("%H:%M UTC", time.gmtime(row[0]))
        return f" (the room store was damaged and started afresh at {at}: rooms open before then are lost)"

    def _prepare(self, connection: sqlite3.Connection) -> None:
        """WAL mode and the tables, once per file and process (a poll pays for neither again)."""
        if self.path in _made and self.path.exists():
            return
        with _making:
            use_wal(connection)
            connection.executescript(_SCHEMA)
            have = {row[1] for row in connection.execute("PRAGMA table_info(students)")}
            for column, kind in _STUDENT_COLUMNS.items():
                if column not in have:
                    try:
                        connection.execute(f"ALTER TABLE students ADD COLUMN {column} {kind}")
                    except sqlite3.OperationalError as error:
                        if "duplicate column" not in str(error):  # another process added it first
                            raise
            connection.execute("UPDATE students SET seat = rowid WHERE seat IS NULL")  # an old file's students
            _made.add(self.path)

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, taking the write lock at once (a deferred one that read first
        fails with "database is locked" when another session wrote in between)."""
        with self._connection() as connection:
            connection.execute("BEGIN IMMEDIATE")
            try:
                yield connection
            except BaseException:
                connection.execute("ROLLBACK")
                raise
            connection.execute("COMMIT")

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        """One read transaction: its queries see one moment of the file."""
        with self._connection() as connection:
            connection.execute("BEGIN")
            try:
                yield connection
            finally:
                connection.execute("COMMIT")

    # The teacher's side -------------------------------------------------------------------------

    def open_room(self, input_id: str, question: Question) -> tuple[str, str]:
        """Open a room on ``input_id`` asking ``question`` first; returns (join code, teacher's secret).

        Raises:
            StoreError: the store fails.
        """
        secret = new_secret()
        now = self.clock()
        with self._write() as connection:
            self._forget_idle(connection, now)
            code = new_code()
            while connection.execute("SELECT 1 FROM rooms WHERE code = ?", (code,)).fetchone():
                code = new_code()
            connection.execute(
                "INSERT INTO rooms (code, secret, input_id, opened, touched, number) VALUES (?, ?, ?, ?, ?, 1)",
                (code, digest(secret), input_id, now, now),
            )
            connection.execute("INSERT INTO questions (code, number, spec, asked) VALUES (?, 1, ?, ?)",
                               (code, question.to_json(), now))
        return code, secret

    def is_teacher(self, code: str, secret: str) -> bool:
        """Whether ``secret`` is a secret of the open room ``code`` (its opener's, or that of a device
        a teacher link opened it on)."""
        with self._read() as connection:
            return self._teacher_row(connection, code, secret) is not None

    def _teacher_row(self, connection: sqlite3.Connection, code: str, secret: str, *, closed_too: bool = False):
        """The room's row when ``secret`` is the secret of its opener or of a device a teacher link
        opened it on (and it is open, or closed and ``closed_too``); else None."""
        row = connection.execute("SELECT secret, number, closed, touched FROM rooms WHERE code = ?", (code,)).fetchone()
        if row is None or (row[2] and not closed_too) or self._idle(row[3]):
            return None
        held = digest(secret or "")
        if not hmac.compare_digest(row[0], held) and connection.execute(
                "SELECT 1 FROM teacher_keys WHERE code = ? AND secret = ?", (code, held)).fetchone() is None:
            return None
        return row

    def _as_teacher(self, connection: sqlite3.Connection, code: str, secret: str, what: str, *,
                    closed_too: bool = False) -> int:
        """The current question's number, when ``secret`` is the open room's (or the closed room's,
        ``closed_too``); else RoomRefused."""
        row = self._teacher_row(connection, code, secret, closed_too=closed_too)
        if row is None:
            when = "until it expires" if closed_too else "while it is open"
            raise RoomRefused(f"only the teacher who opened room {code} can {what}, {when}")
        return row[1]

    def teacher_link(self, code: str, secret: str) -> str:
        """A new teacher link's token for the open room ``code`` (what the link carries besides the
        code); the store keeps only its digest, so it is shown once.

        Raises:
            RoomRefused: not the teacher's secret, or the room is closed.
        """
        token = new_secret()
        now = self.clock()
        with self._write() as connection:
            self._as_teacher(connection, code, secret, "make a teacher link")
            connection.execute("INSERT INTO teacher_links (code, link, made) VALUES (?, ?, ?)",
                               (code, digest(code, token), now))
        return token

    def use_teacher_link(self, code: str, token: str) -> str:
        """Open room ``code`` as its teacher by a teacher link's ``token`` (once); returns the secret
        this device keeps from now on (its own: the link is used up).

        Raises:
            RoomRefused: the link was used already, or it is not one of the open room's (wrong, or
                the room closed or expired).
        """
        now = self.clock()
        with self._write() as connection:
            row = connection.execute("SELECT touched, closed FROM rooms WHERE code = ?", (code,)).fetchone()
            link = connection.execute("SELECT used FROM teacher_links WHERE code = ? AND link = ?",
                                      (code, digest(code, token))).fetchone() if is_link_token(token) else None
            if row is None or row[1] or self._idle(row[0]) or link is None:
                raise RoomRefused(f"this teacher link does not open room {code}: it is not the room's, or the room "
                                  "was closed; ask its teacher for a new link")
            if link[0] is not None:
                raise RoomRefused(f"this teacher link was used already: a teacher link opens room {code} once; "
                                  "make a new one on the teacher's page")
            secret = new_secret()
            connection.execute("UPDATE teacher_links SET used = ? WHERE code = ? AND link = ?",
                               (now, code, digest(code, token)))
            connection.execute("INSERT INTO teacher_keys (code, secret) VALUES (?, ?)", (code, digest(secret)))
            connection.execute("UPDATE rooms SET touched = ? WHERE code = ?", (now, code))
        return secret

    def ask(self, code: str, secret: str, question: Question, *, replacing: int | None = None) -> int:
        """Ask the room the next question (the current one's answers stay in the history); returns its number.

        ``replacing``: the number of an open question with answers the teacher agreed to replace
        (its answers stay in the history, not revealed); without it such a question is not replaced.

        Raises:
            QuestionOpen: the current question has answers, is not revealed and is not ``replacing``.
            RoomRefused: not the teacher's secret, or the room is closed.
        """
        now = self.clock()
        with self._write() as connection:
            current = self._as_teacher(connection, code, secret, "ask a question")
            if current != replacing:
                answered, revealed = connection.execute(
                    "SELECT (SELECT COUNT(*) FROM answers WHERE code = ? AND number = ?), revealed "
                    "FROM questions WHERE code = ? AND number = ?", (code, current, code, current)).fetchone()
                if answered and revealed is None:
                    raise QuestionOpen(current, answered)
            number = current + 1
            connection.execute("INSERT INTO questions (code, number, spec, asked) VALUES (?, ?, ?, ?)",
                               (code, number, question.to_json(), now))
            connection.execute("UPDATE rooms SET number = ?, touched = ? WHERE code = ?", (number, now, code))
        return number

    def reveal(self, code: str, secret: str, number: int) -> None:
        """Reveal question ``number``'s answer (again: nothing changes; an older question: refused).

        Raises:
            RoomRefused: not the teacher's secret, the room is closed, or ``number`` is not current.
        """
        now = self.clock()
        with self._write() as connection:
            if self._as_teacher(connection, code, secret, "reveal the answer") != number:
                raise RoomRefused(f"question {number} is no longer the room's question")
            connection.execute("UPDATE questions SET revealed = COALESCE(revealed, ?) WHERE code = ? AND number = ?",
                               (now, code, number))
            connection.execute("UPDATE rooms SET touched = ? WHERE code = ?", (now, code))

    def close(self, code: str, secret: str) -> None:
        """Close the room: students see that it closed; its history stays (for its teacher) until it expires.

        Raises:
            RoomRefused: not the teacher's secret, or closed already.
        """
        now = self.clock()
        with self._write() as connection:
            self._as_teacher(connection, code, secret, "close the room")
            connection.execute("UPDATE rooms SET closed = 1, touched = ? WHERE code = ?", (now, code))

    def answers(self, code: str, secret: str, number: int) -> list[str]:
        """Every answer to question ``number`` (the teacher's reveal counts them).

        Raises:
            RoomRefused: not the teacher's secret.
        """
        with self._read() as connection:
            self._as_teacher(connection, code, secret, "see the answers")
            return [row[0] for row in connection.execute(
                "SELECT answer FROM answers WHERE code = ? AND number = ? ORDER BY answered", (code, number))]

    def history(self, code: str, secret: str) -> list[HistoryRow]:
        """Every question the room was asked, with its answers tallied (oldest first); after Close
        too, until the room expires.

        Raises:
            RoomRefused: not the teacher's secret, or the room expired.
        """
        with self._read() as connection:
            self._as_teacher(connection, code, secret, "download the history", closed_too=True)
            joined = connection.execute("SELECT joined FROM students WHERE code = ?", (code,)).fetchall()
            rows = []
            for number, spec, asked, revealed in connection.execute(
                    "SELECT number, spec, asked, revealed FROM questions WHERE code = ? ORDER BY number", (code,)).fetchall():
                question = Question.from_json(spec)
                answers = [row[0] for row in connection.execute(
                    "SELECT answer FROM answers WHERE code = ? AND number = ?", (code, number))]
                # Joined: the students who had opened the room by the time the question ended (or now).
                end = revealed if revealed is not None else math.inf
                rows.append(HistoryRow(number, question, asked, revealed, sum(1 for (at,) in joined if at <= end),
                                       tally(question, answers)))
            return rows

    # The students' side -------------------------------------------------------------------------

    def join(self, code: str, token: str, address: str, *, typed: bool = False) -> RoomState:
        """A student (``token``, from their browser) opens room ``code``: counted once as joined.

        ``address`` names where the request comes from: its wrong codes and new students, and the
        browser's wrong codes, are limited. ``typed``: the student typed the code (a student the
        teacher removed joins again only so).

        Raises:
            TooManyWrongCodes: this browser tried too many wrong codes lately, or its address a
                moment ago (checked first: even a right code is refused then, or the limit would
                tell which codes exist; a student who joined already is let in).
            TooManyJoins: :data:`JOINS_PER_MINUTE` new students joined from ``address`` in the last minute.
            StudentRemoved: the teacher removed this student and the code was not typed.
            RoomRefused: no open or closed room has this code (it never did, or it expired), or it is full.
        """
        now = self.clock()
        student = digest(code, token)
        browser = "browser " + digest(token)
        with self._write() as connection:
            row = connection.execute("SELECT touched, closed FROM rooms WHERE code = ?", (code,)).fetchone()
            missing = row is None or self._idle(row[0])
            known = None if missing else connection.execute(
                "SELECT removed FROM students WHERE code = ? AND student = ?", (code, student)).fetchone()
            if known is None:
                self._check_wrong_codes(connection, browser, "address " + address, now)
            elif known[0] and not typed:
                raise StudentRemoved(code)
            if missing:
                # Committed although the join fails (refused below): the next try counts it.
                connection.executemany("INSERT OR REPLACE INTO wrong_tries (client, code, tried) VALUES (?, ?, ?)",
                                       [(browser, code, now), ("address " + address, code, now)])
            else:
                if (known is None or known[0]) and not row[1]:
                    self._seat(connection, code, student, "address " + address, now, new=known is None)
                state = self._state(connection, code, student)
        if missing:
            raise RoomRefused(f"there is no room {code}: check the code, or ask for the link again{self.restarted_note()}")
        return state

    def _seat(self, connection: sqlite3.Connection, code: str, student: str, address: str, now: float, *,
              new: bool) -> None:
        """Let a new student (or a removed one who typed the code) in, within the room's size and the
        address's joins a minute."""
        if connection.execute("SELECT COUNT(*) FROM students WHERE code = ? AND NOT removed",
                              (code,)).fetchone()[0] >= MAX_STUDENTS:
            raise RoomRefused(f"room {code} is full ({MAX_STUDENTS} students)")
        connection.execute("DELETE FROM joins WHERE joined <= ?", (now - 60,))
        recent = [at for (at,) in connection.execute(
            "SELECT joined FROM joins WHERE client = ? ORDER BY joined DESC LIMIT ?", (address, JOINS_PER_MINUTE))]
        if len(recent) >= JOINS_PER_MINUTE:
            raise TooManyJoins(recent[-1] + 60 - now)
        connection.execute("INSERT INTO joins (client, joined) VALUES (?, ?)", (address, now))
        if new:
            connection.execute(
                "INSERT INTO students (code, student, joined, seat, seen) "
                "VALUES (?, ?, ?, (SELECT COALESCE(MAX(seat), 0) + 1 FROM students WHERE code = ?), ?)",
                (code, student, now, code, now))
        else:
            connection.execute("UPDATE students SET removed = 0, seen = ? WHERE code = ? AND student = ?",
                               (now, code, student))
        connection.execute("UPDATE rooms SET touched = ? WHERE code = ?", (now, code))

    def _check_wrong_codes(self, connection: sqlite3.Connection, browser: str, address: str, now: float) -> None:
        window = WRONG_CODES_MINUTES * 60
        connection.execute("DELETE FROM wrong_tries WHERE tried <= ?", (now - window,))
        tries = [row[0] for row in connection.execute(
            "SELECT tried FROM wrong_tries WHERE client = ? ORDER BY tried", (browser,))]
        if len(tries) >= WRONG_CODES_ALLOWED:
            raise TooManyWrongCodes(tries[len(tries) - WRONG_CODES_ALLOWED] + window - now, browser=True)
        count, last = connection.execute(
            "SELECT COUNT(*), MAX(tried) FROM wrong_tries WHERE client = ?", (address,)).fetchone()
        if count >= ADDRESS_FREE_CODES and now - last < ADDRESS_PAUSE_SECONDS:
            raise TooManyWrongCodes(last + ADDRESS_PAUSE_SECONDS - now, browser=False)

    def answer(self, code: str, token: str, number: int, text: str) -> str:
        """Student ``token`` answers question ``number`` (again: the new answer replaces the old);
        returns the answer as kept.

        Raises:
            RoomRefused: the student has not joined, the room is closed or gone, the question is not
                current or was revealed, or the answer is not one the question takes.
        """
        now = self.clock()
        with self._write() as connection:
            row = connection.execute("SELECT number, closed, touched FROM rooms WHERE code = ?", (code,)).fetchone()
            if row is None or self._idle(row[2]):
                raise RoomRefused(f"room {code} is gone")
            if row[1]:
                raise RoomRefused(f"room {code} is closed")
            if row[0] != number:
                raise RoomRefused("the teacher has asked a new question")
            student = digest(code, token)
            joined = connection.execute("SELECT removed FROM students WHERE code = ? AND student = ?",
                                        (code, student)).fetchone()
            if joined is None:
                raise RoomRefused(f"this page has not joined room {code}: reload it")
            if joined[0]:
                raise StudentRemoved(code)
            spec, revealed = connection.execute(
                "SELECT spec, revealed FROM questions WHERE code = ? AND number = ?", (code, number)).fetchone()
            if revealed is not None:
                raise RoomRefused("the answer is out: this question takes no more answers")
            try:
                kept = read_answer(Question.from_json(spec), text)
            except ValueError as error:
                raise RoomRefused(str(error)) from None
            connection.execute(
                "INSERT INTO answers (code, number, student, answer, answered) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (code, number, student) DO UPDATE SET answer = excluded.answer, answered = excluded.answered",
                (code, number, student, kept, now),
            )
            connection.execute("UPDATE rooms SET touched = ? WHERE code = ?", (now, code))
        return kept

    # Both ---------------------------------------------------------------------------------------

    def state(self, code: str, token: str | None = None) -> RoomState | None:
        """The room now (a poll), with student ``token``'s answer to the current question when given;
        None when the room is gone (never opened, or expired). A student's poll marks them seen
        (written at most every :data:`SEEN_EVERY_SECONDS`: most polls only read)."""
        student = None if token is None else digest(code, token)
        with self._connection() as connection:
            room, seen = self._state_and_seen(connection, code, student)  # one statement: one moment of the file
            now = self.clock()
            if room is not None and not room.removed and seen is not None and seen < now - SEEN_EVERY_SECONDS:
                try:
                    connection.execute("UPDATE students SET seen = ? WHERE code = ? AND student = ?", (now, code, student))
                except sqlite3.OperationalError:
                    pass  # locked long, read-only or full: the room still shows; the next poll marks them
        return room

    def _state(self, connection: sqlite3.Connection, code: str, student: str | None) -> RoomState | None:
        return self._state_and_seen(connection, code, student)[0]

    def _state_and_seen(self, connection: sqlite3.Connection, code: str,
                        student: str | None) -> tuple[RoomState | None, float | None]:
        """The room, and when the student was last seen (None: not a student of the room)."""
        row = connection.execute(_STATE, {"student": student, "code": code,
                                          "since": self.clock() - PRESENT_SECONDS}).fetchone()
        if row is None or self._idle(row[3]):
            return None, None
        input_id, closed, number, _, spec, revealed, joined, present, answered, own, seat, seen, removed = row
        return RoomState(code, input_id, bool(closed), number, Question.from_json(spec), revealed is not None,
                         joined, answered, own, present, seat, bool(removed)), seen

    def joiners(self, code: str, secret: str) -> list[Joiner]:
        """The room's students (not removed), first joined first.

        Raises:
            RoomRefused: not the teacher's secret, or the room is closed.
        """
        with self._read() as connection:
            number = self._as_teacher(connection, code, secret, "see who joined")
            since = self.clock() - PRESENT_SECONDS
            return [Joiner(seat, seen >= since or bool(answered), bool(answered)) for seat, seen, answered in connection.execute(
                "SELECT seat, seen, EXISTS (SELECT 1 FROM answers WHERE answers.code = students.code "
                "AND answers.number = ? AND answers.student = students.student) "
                "FROM students WHERE code = ? AND NOT removed ORDER BY seat", (number, code))]

    def remove(self, code: str, secret: str, seat: int) -> None:
        """Remove student ``seat`` from the room: their answer to the open question goes (a revealed
        one stays), their page says so, and they join again only with the code typed.

        Raises:
            RoomRefused: not the teacher's secret, or the room is closed.
        """
        now = self.clock()
        with self._write() as connection:
            number = self._as_teacher(connection, code, secret, "remove a student")
            found = connection.execute("SELECT student FROM students WHERE code = ? AND seat = ?", (code, seat)).fetchone()
            if found is None:
                return
            connection.execute("UPDATE students SET removed = 1 WHERE code = ? AND seat = ?", (code, seat))
            connection.execute(
                "DELETE FROM answers WHERE code = ? AND number = ? AND student = ? AND NOT EXISTS "
                "(SELECT 1 FROM questions WHERE code = ? AND number = ? AND revealed IS NOT NULL)",
                (code, number, found[0], code, number))
            connection.execute("UPDATE rooms SET touched = ? WHERE code = ?", (now, code))

    def _idle(self, touched: float) -> bool:
        return self.clock() - touched > self.idle_seconds

    def forget_idle(self) -> int:
        """Forget the rooms idle too long, with everything in them, and the wrong codes and joins too
        old to count; returns how many rooms (the server runs this on a timer).

        Raises:
            StoreError: the store fails.
        """
        now = self.clock()
        with self._write() as connection:
            connection.execute("DELETE FROM wrong_tries WHERE tried <= ?", (now - WRONG_CODES_MINUTES * 60,))
            connection.execute("DELETE FROM joins WHERE joined <= ?", (now - 60,))
            return self._forget_idle(connection, now)

    def _forget_idle(self, connection: sqlite3.Connection, now: float) -> int:
        """Forget the rooms idle too long, with their questions, students and answers; returns how many."""
        idle = [row[0] for row in connection.execute("SELECT code FROM rooms WHERE touched < ?", (now - self.idle_seconds,))]
        for code in idle:
            for table in _ROOM_TABLES:
                connection.execute(f"DELETE FROM {table} WHERE code = ?", (code,))
        return len(idle)
