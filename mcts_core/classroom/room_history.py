"""A room's history as CSV: one row per question, with its answer counts.

Every cell holding a user's text (a node's moves, a move) is JSON (an array, a quoted string, an
object of counts), so no cell starts with ``=``, ``+``, ``-`` or ``@`` and a spreadsheet never reads
one as a formula.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from datetime import datetime, timezone

from .questions import CHOICE, Question, Tally

HEADER = ("question", "kind", "node", "rule", "c", "answer", "asked_utc", "revealed", "joined", "answered",
          "right", "answers")


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
    """The history as CSV text, :data:`HEADER` first. ``answer`` is the right move (JSON string) or
    the exact C of a flip; ``answers`` counts each move (a JSON object, in move order) or lists the
    Cs answered (a JSON array, smallest first)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(HEADER)
    for row in rows:
        question, counted = row.question, row.tally
        choice = question.kind == CHOICE
        writer.writerow([
            row.number,
            question.kind,
            json.dumps(list(question.node), ensure_ascii=False),
            question.rule,
            repr(question.c),
            json.dumps(question.answer, ensure_ascii=False) if choice else repr(question.breakpoint),
            datetime.fromtimestamp(row.asked, timezone.utc).strftime("%Y-%m-%d %H:%M:%S"),
            "yes" if row.revealed is not None else "no",
            row.joined,
            counted.answered,
            counted.right,
            json.dumps(dict(counted.counts), ensure_ascii=False) if choice else json.dumps(list(counted.values)),
        ])
    return out.getvalue()
