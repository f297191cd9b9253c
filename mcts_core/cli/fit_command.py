"""The ``fit`` command of ``python -m mcts_core``: arena CSV on stdin, the same rows with the fit's columns out.

Reads the CSV ``arena`` prints (or another tool's with the columns of
:data:`mcts_core.strength.arena_csv.FIT_INPUT_COLUMNS`), fits each ``simulations`` value's rows
(:func:`mcts_core.strength.best_c_answer.answers_by_budget`) and prints the header and every row as
read, fit columns already there dropped and :data:`~mcts_core.strength.best_c_answer.ANSWER_COLUMNS`
added: an interval end the data leave open is 0 or inf, a number the fit cannot tell is nan. Each
budget's answer in words goes to stderr. Bad input: exit 2 and one line, ``error: line N: column X: ...``.
"""

from __future__ import annotations

import csv
import sys

from ..common.input_rules import decode_text


def run() -> int:
    """Reads stdin, writes the fitted CSV to stdout; returns the exit status (ParseError propagates)."""
    from ..strength.arena_csv import read_arena_csv
    from ..strength.best_c_answer import ANSWER_COLUMNS, answer_cells, answers_by_budget, describe_answer

    header, cells, rows = read_arena_csv(decode_text(sys.stdin.buffer.read()))
    kept = [index for index, name in enumerate(header) if name not in ANSWER_COLUMNS]
    answers = answers_by_budget(rows)
    for simulations, answer in answers.items():
        print(f"fit: {simulations:,} simulations: {describe_answer(answer)}", file=sys.stderr)
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow([header[index] for index in kept] + list(ANSWER_COLUMNS))
    for line, row in zip(cells, rows):
        writer.writerow([line[index] for index in kept] + answer_cells(answers[row.simulations], row.c))
    return 0
