"""Joint moves: what a simultaneous log or dump says beyond the sequential columns.

A joint move is one move per player, ``("R", "P")``. The joint tree (a plain
:class:`~mcts_core.model.tree.Tree`) holds every joint move as one move named by :func:`joint_name`
(``"R|P"``), so every sequential page, builder and reader works on it unchanged. What only a
simultaneous node has lives here: each joint move's own moves (:class:`JointMoves`) and the facts
that declare a node simultaneous and list each player's own moves (:class:`SimultaneousFact`).
This module imports nothing from the rest of the package, so the readers can use it freely.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

SEPARATOR = "|"  # joins the players' moves in a joint move's name: "R|P"
ALGORITHMS = ("duct", "smitsimax")  # the header's "algorithm": how the search that wrote the log selected


def joint_name(moves: Sequence[str]) -> str:
    """The name of a joint move in the joint tree: ``R|P``; the JSON array when a move holds ``|``."""
    if any(SEPARATOR in move for move in moves):
        return json.dumps(list(moves), ensure_ascii=False)
    return SEPARATOR.join(moves)


@dataclass(frozen=True)
class JointMoves:
    """Which moves of the joint tree are joint, and their own moves.

    Attributes:
        own_names: own-move names by own id (every player's moves in one table).
        joint_of: for every move id of the joint tree (``tree.moves``), the own ids of its joint
            move, one per player; None for a sequential move (a chance outcome, a lone mover's move).
    """

    own_names: tuple[str, ...]
    joint_of: tuple[tuple[int, ...] | None, ...]

    def names_of(self, move_id: int) -> tuple[str, ...] | None:
        """A joint move's own moves by name, one per player (None for a sequential move)."""
        own = self.joint_of[move_id]
        return None if own is None else tuple(self.own_names[o] for o in own)


@dataclass(frozen=True)
class SimultaneousFact:
    """A log's fact that a node is simultaneous (``"simultaneous": true``), with its own moves.

    Attributes:
        after: how many simulations come before it (it applies from then on).
        path: the node, as move ids of the joint tree from the root.
        line: its 1-based input line.
        simultaneous: what the fact says (``false`` declares a sequential node).
        moves: each player's own moves at the node in the engine's order, as own ids (None: not said).
    """

    after: int
    path: tuple[int, ...]
    line: int
    simultaneous: bool
    moves: tuple[tuple[int, ...], ...] | None = None


@dataclass(frozen=True, eq=False)
class SimultaneousLog:
    """What a log with simultaneous moves adds to its joint :class:`~mcts_core.model.playouts.Playouts`.

    Attributes:
        joint: the joint moves.
        facts: the simultaneous facts in input order.
        rule: the header's rule when it is one for simultaneous nodes only (``regret_matching``,
            ``exp3``); rules of the registry stay in ``Playouts.rule``.
        settings: that rule's settings besides C.
        algorithm: the header's ``"algorithm"``: ``"duct"``, ``"smitsimax"`` or None.
        game: the header's ``"game"``: the OpenSpiel game string searched, or None.
    """

    joint: JointMoves
    facts: tuple[SimultaneousFact, ...] = ()
    rule: str | None = None
    settings: dict | None = None
    algorithm: str | None = None
    game: str | None = None
