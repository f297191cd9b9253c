"""A room's history as CSV: one row per question, with its answer counts, every cell plain text.

A node is its moves separated by spaces (the root: empty), a choice's answers ``move: count``
pairs separated by "; " (in move order), a flip's answers the Cs separated by "; " (smallest
first). A cell a spreadsheet would read as a formula (starting with ``=``, ``+``, ``-``, ``@``, a
tab or a carriage return: a move is user text) starts with an apostrophe instead, as spreadsheets
write such text themselves.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import datetime, timezone

from .questions import CHOICE, Question, Tally

HEADER = ("question", "kind", "node", "rule", "c", "answer", "asked_utc", "revealed", "joined", "answered",
          "right", "answers")
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet runs as a formula


@dataclass(frozen=True)
class HistoryRow:
    """One question of a room: its number, the question, when it was asked and revealed (seconds
    since the epoch; revealed None: not yet), the students who had joined by then, its tally."""

    number: int
    question: Question
    asked: float
    revealed: float | None
    joined: int
    tally: Tally


def history_csv(rows: list[HistoryRow]) -> str:
    """The history as CSV text, :data:`HEADER` first. ``answer`` is the right move or the exact C
    of a flip; ``answers`` counts each move or lists the Cs answered (see the module docstring)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(HEADER)
    for row in rows:
        question, counted = row.question, row.tally
        choice = question.kind == CHOICE
        answers = ("; ".join(f"{move}: {count}" for move, count in counted.counts) if choice
                   else "; ".join(repr(value) for value in counted.values))
        writer.writerow([_plain_cell(cell) for cell in (
            row.number,
            question.kind,
            " ".join(question.node),
            question.rule,
            repr(question.c),
            question.answer if choice else repr(question.breakpoint),
            datetime.fromtimestamp(row.asked, timezone.utc).strftime("%Y-%m-%d %H:%M:%S"),
            "yes" if row.revealed is not None else "no",
            row.joined,
            counted.answered,
            counted.right,
            answers,
        )])
    return out.getvalue()


def _plain_cell(value: object) -> str:
    """A cell as text no spreadsheet runs as a formula."""
    text = str(value)
    return "'" + text if text[:1] in _FORMULA_STARTS else text
