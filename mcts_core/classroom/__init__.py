"""Live classroom rooms: a teacher asks the room a question about a tree, students answer on their devices.

:mod:`.room_codes` makes the short join codes, the teacher's secret and the digests the store keeps
of secrets and students' tokens; :mod:`.questions` holds the questions (which child a rule picks at
a node; at which C that choice flips, and why: two children's values crossing), reading and judging an answer, and tallying a question's
answers; :mod:`.room_store` keeps rooms, questions, students and answers in SQLite in the data
folder (shared by the server's sessions and processes), with expiry, limits on wrong codes and joins, presence and removal;
:mod:`.room_history` writes a room's questions and answer counts as CSV; :mod:`.room_cleaning`
forgets expired rooms on a timer.
May import common, inputs (the data folder), model, selection and analysis; no pandas, no drawing.
"""

from .questions import (
    ANSWER_RANGE,
    CHOICE,
    FLIP,
    FLIP_TOLERANCE,
    FlipReason,
    Question,
    Tally,
    choice_question,
    flip_question,
    flip_reason,
    is_right,
    is_right_c,
    read_answer,
    right_band,
    tally,
)
from .room_cleaning import CLEAN_EVERY_SECONDS, clean_on_a_timer
from .room_codes import CODE_LENGTH, is_student_token, new_code, read_code
from .room_history import HistoryRow, history_csv
from .room_store import (
    ADDRESS_FREE_CODES,
    ADDRESS_PAUSE_SECONDS,
    IDLE_HOURS,
    JOINS_PER_MINUTE,
    PRESENT_SECONDS,
    WRONG_CODES_ALLOWED,
    WRONG_CODES_MINUTES,
    Joiner,
    QuestionOpen,
    RoomRefused,
    RoomState,
    RoomStore,
    StudentRemoved,
    TooManyJoins,
    TooManyWrongCodes,
    WaitToJoin,
)

__all__ = [
    "ADDRESS_FREE_CODES", "ADDRESS_PAUSE_SECONDS", "ANSWER_RANGE", "CHOICE", "CLEAN_EVERY_SECONDS", "CODE_LENGTH", "FLIP", "FLIP_TOLERANCE", "IDLE_HOURS", "JOINS_PER_MINUTE", "PRESENT_SECONDS", "WRONG_CODES_ALLOWED", "WRONG_CODES_MINUTES",
    "FlipReason", "HistoryRow", "Joiner", "Question", "QuestionOpen", "RoomRefused", "RoomState", "RoomStore", "StudentRemoved", "Tally",
    "TooManyJoins", "TooManyWrongCodes", "WaitToJoin",
    "choice_question", "clean_on_a_timer", "flip_question", "flip_reason", "history_csv", "is_right", "is_right_c", "is_student_token", "new_code",
    "read_answer", "read_code", "right_band", "tally",
]
