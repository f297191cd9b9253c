"""Any accepted input -> its tree: puzzle text, a JSON Lines log or a JSON tree dump, told apart by content."""

from __future__ import annotations

from dataclasses import dataclass, field

from .build import build_tree
from .formats.log import looks_like_log, parse_log
from .formats.text import parse_playouts
from .formats.tree_json import looks_like_tree, parse_tree_json
from .playouts import Playouts
from .tree import Tree

TEXT, LOG, TREE = "text", "log", "tree"


@dataclass(frozen=True, eq=False)
class Input:
    """A read input.

    Attributes:
        tree: its tree.
        playouts: the playouts the tree was built from; None for a tree dump (a finished tree).
        kind: ``"text"``, ``"log"`` or ``"tree"``.
        c: the C the input states (a header's), None when it states none.
        rule: the selection rule the input says it was searched with (a name), None if it does not say.
        settings: that rule's settings besides C, as the input states them.
    """

    tree: Tree
    playouts: Playouts | None
    kind: str
    c: float | None
    rule: str | None
    settings: dict = field(default_factory=dict)


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
        tree, c, rule, settings = parse_tree_json(text)
        return Input(tree, None, kind, c, rule, settings)
    playouts = parse_log(text) if kind == LOG else parse_playouts(text)
    return Input(build_tree(playouts), playouts, kind, playouts.c, playouts.rule, playouts.settings)
