"""Any accepted input -> its tree: puzzle text, a JSON Lines log or a JSON tree dump, told apart by content."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..model.build import build_tree
from .formats.log import looks_like_log, read_log
from .formats.text import parse_playouts
from .formats.tree_json import looks_like_tree, read_tree_dump
from ..model.playouts import Playouts
from ..selection.registry import RULES
from ..model.tree import Tree

if TYPE_CHECKING:
    from ..simultaneous.reading import SimultaneousInput

TEXT, LOG, TREE = "text", "log", "tree"


@dataclass(frozen=True, eq=False)
class Input:
    """A read input.

    Attributes:
        tree: its tree.
        playouts: the playouts the tree was built from; None for a tree dump (a finished tree).
        kind: ``"text"``, ``"log"`` or ``"tree"``.
        c: the C the input states (a header's), None when it states none.
        rule: the selection rule the input says it was searched with (a name), None if it does not say
            or names a rule for simultaneous nodes only (``simultaneous.rule`` keeps it).
        settings: that rule's settings besides C, as the input states them.
        simultaneous: for a log or dump with simultaneous moves, the decoupled tree and the
            Smitsimax view (:class:`~mcts_core.simultaneous.reading.SimultaneousInput`); None
            otherwise. ``tree`` is then the joint tree: every joint move one move named ``R|P``, so
            every sequential page can show it; a joint child's total is from the view of its
            parent's ``player``.
    """

    tree: Tree
    playouts: Playouts | None
    kind: str
    c: float | None
    rule: str | None
    settings: dict = field(default_factory=dict)
    simultaneous: SimultaneousInput | None = None


def input_kind(text: str) -> str:
    """Which format ``text`` is in, from its first characters."""
    if looks_like_tree(text):
        return TREE
    if looks_like_log(text):
        return LOG
    return TEXT


def read_input(text: str) -> Input:
    """Parse ``text`` in whichever format it is and build its tree.

    Raises:
        ParseError: the first problem, naming its line (and key).
    """
    kind = input_kind(text)
    if kind == TREE:
        tree, c, rule, settings, dumped = read_tree_dump(text)
        simultaneous = None
        if dumped is not None:
            from ..simultaneous.reading import simultaneous_input

            decoupled, meta = dumped
            simultaneous = simultaneous_input(decoupled, meta, None, rule, settings)
            if rule not in RULES:
                rule, settings = None, {}
        return Input(tree, None, kind, c, rule, settings, simultaneous)
    if kind == TEXT:
        playouts = parse_playouts(text)
        return Input(build_tree(playouts), playouts, kind, playouts.c, playouts.rule, playouts.settings)
    playouts, log = read_log(text)
    tree = build_tree(playouts)
    simultaneous = None
    if log is not None:
        from ..simultaneous.decoupled_tree import build_decoupled
        from ..simultaneous.reading import simultaneous_input

        decoupled = build_decoupled(playouts, log, tree=tree)
        simultaneous = simultaneous_input(decoupled, log, playouts, playouts.rule, playouts.settings)
    return Input(tree, playouts, kind, playouts.c, playouts.rule, playouts.settings, simultaneous)
