"""What the teacher's and the students' views of a live room share: the question in words, its verdicts, the picture.

Moves are user text: they reach markdown through :func:`ui.common.markdown.code` or :func:`ui.common.markdown.escape` only.
"""

from __future__ import annotations

from mcts_core import ROOT, Tree
from mcts_core.classroom import CHOICE, FLIP_TOLERANCE, FlipReason, Question
from mcts_core.drawing import drawn_nodes
from ui.common.markdown import code
from ui.common.wording import node_markdown, plural
from ui.picture.drawn_nodes import cached_visible_nodes
from ui.picture.tree_view import Picture, show_tree

PICTURE_BUDGET = 60  # nodes drawn besides the walked path and the question's children (a phone reads them)
MOST_BUTTONS = 12  # more children than this are answered from a menu (a joint node can have thousands)


def node_name(question: Question) -> str:
    """The question's node for markdown: its moves as code, or "the root"."""
    return node_markdown(" ".join(question.node), root="the root")


def rule_name(question: Question) -> str:
    return question.scoring.spec.name


def question_markdown(question: Question) -> str:
    """The question as a heading, and for a flip what it starts from (markdown)."""
    if question.kind == CHOICE:
        return f"## Which child does {rule_name(question)} pick at {node_name(question)}?"
    direction = "Raise" if question.raise_c else "Lower"
    return (f"## At which C does the choice at {node_name(question)} flip?\n\n"
            f"At C = {question.c:.6g}, {rule_name(question)} picks {code(question.answer)} there. "
            f"{direction} C: at which C does it pick another child?")


def facts_caption(tree: Tree, node: int, question: Question) -> str:
    """The node's facts the question is asked at (markdown, for a caption)."""
    where = "The root" if node == ROOT else f"Node {node_name(question)}"
    return f"C = {question.c:.6g}. {where}: {plural(tree.visits[node], 'visit')}, mean {tree.mean(node):.4g}."


def right_answer(question: Question) -> str:
    """The right answer as a sentence (markdown)."""
    if question.kind == CHOICE:
        return f"{rule_name(question)} picks {code(question.answer)}."
    side = "above" if question.raise_c else "below"
    return (f"The choice flips at C = {question.breakpoint:.6g}: {side} it, {rule_name(question)} picks "
            f"{code(question.flipped_to)}.")


def flip_why(question: Question, reason: FlipReason) -> str:
    """Why the choice flips (markdown): the two children's values as lines in C, where they cross,
    and why the one taking over is the larger beyond it (it grows faster with C, or starts higher)."""
    held, over = reason.held, reason.taking_over
    lines = (f"{code(held.move)}'s {rule_name(question)} value is {held.intercept:.4g} + {held.slope:.4g}·C and "
             f"{code(over.move)}'s is {over.intercept:.4g} + {over.slope:.4g}·C")
    if question.raise_c:
        beyond = f"{code(over.move)}'s grows faster with C, so above it {code(over.move)} is the larger"
    else:
        beyond = (f"{code(over.move)}'s starts higher at C = 0 and grows more slowly, so below it "
                  f"{code(over.move)} is the larger")
    return (f"Why: {lines}. They cross at C = {reason.c:.6g}, both {reason.value:.4g}; {beyond} and takes over "
            f"from {code(held.move)}.")


def answer_words(question: Question, answer: str) -> str:
    """A student's answer as shown to them (markdown)."""
    return code(answer) if question.kind == CHOICE else f"C = {float(answer):.6g}"


def verdict(question: Question, answer: str | None, right: bool) -> tuple[str, str]:
    """After the reveal, a student's verdict: (kind of box: "success", "error" or "info", markdown).
    The sentence says "right" or "wrong" about the answer (a contract: tests outside rely on it)."""
    if answer is None:
        return "info", f"You did not answer. {right_answer(question)}"
    within = f" (within {FLIP_TOLERANCE:.0%})" if question.kind != CHOICE and right else ""
    said = f"Your answer {answer_words(question, answer)} is {'right' if right else 'wrong'}{within}. "
    return ("success" if right else "error"), said + right_answer(question)


def room_picture(tree: Tree, input_key: str, node: int, *, key: str, inspected: int | None = None,
                 scoring=None, label_px: float = 12, on_click=None) -> None:
    """The tree with the path from the root to the question's node in red and its children drawn;
    ``inspected`` (default: the question's node) outlined. ``scoring``: hovers show its values (None:
    none, for a picture that must not give the answer away); ``on_click``: as :func:`ui.picture.tree_view.show_tree`'s."""
    walked = tree.path_nodes(node)
    children = sorted(tree.children[node], key=lambda kid: -tree.visits[kid])[:MOST_BUTTONS]
    visible = cached_visible_nodes(input_key, tree, PICTURE_BUDGET)
    outlined = node if inspected is None else inspected
    picture = Picture(
        tree,
        drawn_nodes(tree, visible, walked, children, inspected=outlined),
        layout_key=input_key,
        path=walked,
        path_follows_c=False,  # the question's node, whatever C the teacher moves to
        inspected=outlined,
        scoring=scoring,
        label_px=label_px,
    )
    show_tree(picture, key=key, on_click=on_click)
