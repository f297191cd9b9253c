"""A room's questions: which child a rule picks at a node, or at which C that choice flips; answers judged.

A question is made once, when the teacher asks it, from the tree, the node, the rule and C, and
carries its own right answer, so nobody needs the tree to judge an answer or tally a question:

* :data:`CHOICE`: "which child does the rule pick here?" The options are the node's children's moves,
  in move order (never in rank order: the order must not give the answer away); the right answer
  is the child selection picks (rank 1).
* :data:`FLIP`: "at which C does the choice here flip?" From the question's C, the nearest C above
  it where the node's choice changes (or, when it never changes above, the nearest below), taken
  exactly from the node's envelope (:func:`mcts_core.analysis.node_envelope`). An answer is a
  number from 0 to :data:`ANSWER_RANGE` times the top of the C slider the question was asked with
  (a decimal comma reads as a point); it is right within :data:`FLIP_TOLERANCE` of the breakpoint (relative).
  Why it flips there (:func:`flip_reason`): the values of the child picked and of the one taking
  over, each a line in C, cross at the breakpoint.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..analysis import LARGEST_C, child_lines, node_envelope
from ..analysis.envelope import Line
from ..common.numbers import parse_number
from ..model.tree import Tree
from ..selection import Scoring, score_children

CHOICE = "choice"
FLIP = "flip"
FLIP_TOLERANCE = 0.05  # a flip answer within 5% of the exact C is right: a class reads C off a slider
# A flip answer is at most this many times the slider's top: room for a wild guess, none for one
# that stretches the reveal's axis until the class's answers collapse into one dot.
ANSWER_RANGE = 10


@dataclass(frozen=True)
class Question:
    """One question to the room.

    Attributes:
        kind: :data:`CHOICE` or :data:`FLIP`.
        node: the node's moves from the root (() for the root).
        rule, settings, c: the selection rule, its settings besides C, and C as asked.
        options: the children's moves in move order (what a student chooses from).
        answer: the move selection picks at ``c`` (both kinds: a flip question names it).
        breakpoint: :data:`FLIP`: the exact C where the choice changes; None for :data:`CHOICE`.
        flipped_to: :data:`FLIP`: the move picked on the breakpoint's far side from ``c``.
        raise_c: :data:`FLIP`: the breakpoint is above ``c`` (True) or at or below it.
        c_top: :data:`FLIP`: the top of the C slider it was asked with (an answer is at most
            :data:`ANSWER_RANGE` times it); None for :data:`CHOICE`.
    """

    kind: str
    node: tuple[str, ...]
    rule: str
    settings: Mapping[str, Any]
    c: float
    options: tuple[str, ...]
    answer: str
    breakpoint: float | None = None
    flipped_to: str | None = None
    raise_c: bool = True
    c_top: float | None = None

    @property
    def scoring(self) -> Scoring:
        """The rule, its settings and the question's C."""
        return Scoring(self.rule, self.c, self.settings)

    def to_json(self) -> str:
        """The question as JSON (what the store keeps)."""
        return json.dumps({
            "kind": self.kind, "node": list(self.node), "rule": self.rule, "settings": _plain(self.settings),
            "c": self.c, "options": list(self.options), "answer": self.answer, "breakpoint": self.breakpoint,
            "flipped_to": self.flipped_to, "raise_c": self.raise_c, "c_top": self.c_top,
        }, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Question:
        """A question :meth:`to_json` wrote."""
        data = json.loads(text)
        return cls(data["kind"], tuple(data["node"]), data["rule"], data["settings"], data["c"],
                   tuple(data["options"]), data["answer"], data["breakpoint"], data["flipped_to"], data["raise_c"],
                   data.get("c_top"))  # rooms opened before answers were bounded have none

    @property
    def most_c(self) -> float:
        """:data:`FLIP`: the largest C an answer may be (finite: the slider's top is)."""
        top = self.c_top if self.c_top is not None else 2 * max(self.breakpoint or 0.0, self.c)
        return min(ANSWER_RANGE * top, LARGEST_C)


def _plain(settings: Mapping[str, Any]) -> dict[str, Any]:
    """Settings as JSON holds them (per-move values as plain objects), the unset ones left out."""
    return {name: dict(value) if isinstance(value, Mapping) else value for name, value in settings.items() if value is not None}


def choice_question(tree: Tree, node: int, scoring: Scoring) -> Question:
    """"Which child does the rule pick at ``node``?" at ``scoring``'s C.

    Raises:
        ValueError: ``node`` is a leaf (nothing to pick).
    """
    children = score_children(tree, node, scoring)
    if not children:
        raise ValueError(f"{_node_words(tree, node)} is a leaf: there is no child to pick")
    options = tuple(sorted(child.move for child in children))
    return Question(CHOICE, tree.path_moves(node), scoring.rule, _plain(scoring.settings), scoring.c, options, children[0].move)


def flip_question(tree: Tree, node: int, scoring: Scoring, c_max: float) -> Question:
    """"At which C does the choice at ``node`` flip?": the nearest C above ``scoring``'s where the
    node's choice changes, within [0, ``c_max``); when there is none above, the nearest at or below.

    Raises:
        ValueError: ``node`` is a leaf, or the choice is the same for every C in the range.
    """
    children = score_children(tree, node, scoring)
    if not children:
        raise ValueError(f"{_node_words(tree, node)} is a leaf: there is no choice to flip")
    crossings = node_envelope(tree, node, 0.0, max(c_max, scoring.c), scoring).crossings
    above = [point for point in crossings if point.c > scoring.c]
    below = [point for point in crossings if point.c <= scoring.c]
    if not above and not below:
        raise ValueError(
            f"the choice at {_node_words(tree, node)} is the same for every C from 0 to {max(c_max, scoring.c):g}")
    point, raise_c = (above[0], True) if above else (below[-1], False)
    flipped_to = point.after_move if raise_c else point.before_move
    options = tuple(sorted(child.move for child in children))
    return Question(FLIP, tree.path_moves(node), scoring.rule, _plain(scoring.settings), scoring.c, options,
                    children[0].move, point.c, flipped_to, raise_c, max(c_max, scoring.c))


@dataclass(frozen=True)
class FlipReason:
    """Why a :data:`FLIP` question's choice flips: two children's values, each a line in C, cross.

    Attributes:
        c: the breakpoint.
        held: the line of the child picked on the question's side (its answer).
        taking_over: the line of the child picked beyond the breakpoint (``flipped_to``): the larger
            slope when C was raised to it, the larger intercept when lowered.
        value: the value both reach at ``c`` (the one taking over, as the rule computes it).
    """

    c: float
    held: Line
    taking_over: Line
    value: float


def flip_reason(tree: Tree, question: Question) -> FlipReason:
    """The two children whose values cross at a :data:`FLIP` question's breakpoint, as lines in C.

    Raises:
        ValueError: not a flip question, or not one asked of this tree.
    """
    if question.kind != FLIP:
        raise ValueError("only a flip question has a breakpoint")
    lines = {line.move: line for line in child_lines(tree, tree.find(question.node), question.scoring)}
    if question.answer not in lines or question.flipped_to not in lines:
        raise ValueError("the question's children are not this node's")
    taking_over = lines[question.flipped_to]
    return FlipReason(question.breakpoint, lines[question.answer], taking_over, taking_over.value(question.breakpoint))


def _node_words(tree: Tree, node: int) -> str:
    return f"node {tree.path(node)}" if tree.path(node) else "the root"


def read_answer(question: Question, text: str) -> str:
    """A student's answer as the store keeps it: a child's move (:data:`CHOICE`), or a C written as
    Python's ``repr`` of the float (:data:`FLIP`).

    A C may have a decimal comma ("2,7": European keyboards) and is at most the question's
    :attr:`~Question.most_c`.

    Raises:
        ValueError: not one of the options, or not a number from 0 to the question's largest C (a sentence).
    """
    if question.kind == CHOICE:
        if text not in question.options:
            raise ValueError("that is not one of this node's children")
        return text
    typed = text.strip()
    value = parse_number(typed.replace(",", ".") if typed.count(",") == 1 and "." not in typed else typed)
    if value is None or not 0 <= value <= question.most_c:  # NaN fails the comparison too
        raise ValueError(f"{typed[:40]!r} was not taken: C must be a number from 0 to {question.most_c:g}")
    return repr(value + 0.0)


def is_right(question: Question, answer: str) -> bool:
    """Whether an answer (as :func:`read_answer` keeps it) is right."""
    if question.kind == CHOICE:
        return answer == question.answer
    value = parse_number(answer)
    return value is not None and is_right_c(question, value)


def is_right_c(question: Question, value: float) -> bool:
    """:data:`FLIP`: whether C = ``value`` is right: within :data:`FLIP_TOLERANCE` of the breakpoint (relative)."""
    return abs(value - question.breakpoint) <= FLIP_TOLERANCE * question.breakpoint


def right_band(question: Question) -> tuple[float, float]:
    """:data:`FLIP`: the Cs that count as right, lowest and highest (what the reveal draws)."""
    return (question.breakpoint - FLIP_TOLERANCE * question.breakpoint,
            question.breakpoint + FLIP_TOLERANCE * question.breakpoint)


@dataclass(frozen=True)
class Tally:
    """A question's answers counted.

    Attributes:
        answered, right: how many students answered, and how many rightly.
        counts: :data:`CHOICE`: (move, answers) for every option, in the options' order.
        values: :data:`FLIP`: the answers, smallest first.
    """

    answered: int
    right: int
    counts: tuple[tuple[str, int], ...] = ()
    values: tuple[float, ...] = ()


def tally(question: Question, answers: Iterable[str]) -> Tally:
    """Count ``answers`` (one per student, as :func:`read_answer` keeps them)."""
    answers = list(answers)
    right = sum(is_right(question, answer) for answer in answers)
    if question.kind == CHOICE:
        counted = Counter(answers)
        return Tally(len(answers), right, tuple((move, counted[move]) for move in question.options))
    values = (parse_number(answer) for answer in answers)
    # Only the Cs read_answer takes: a store written before answers were bounded may hold others.
    return Tally(len(answers), right, values=tuple(sorted(value for value in values
                                                          if value is not None and 0 <= value <= question.most_c)))
