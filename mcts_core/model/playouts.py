"""Parsed simulations as columns: what every input format reads into and the tree is built from.

A playout (simulation) is a path of moves from the root and one return per player. Moves are
numbered: ``moves[id]`` is the name of move ``id``. Playout ``i``'s moves are
``move_ids[starts[i]:starts[i + 1]]`` and its returns ``returns[i * players:(i + 1) * players]``.
Columns are ``array.array`` (or ``range``) so that a large input costs a few bytes per move and
numpy can view them without a copy. Node facts (who moves, declared children, priors, chance,
terminal, proven outcomes) ride along in input order; they hold from the first playout on.
"""

from __future__ import annotations

import json
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field

TIES = ("smaller", "first")  # exact ties go to the smaller move, or to the first child in node order


@dataclass(frozen=True, slots=True)  # slots: a log can hold hundreds of thousands of facts
class Fact:
    """What a log says about one node.

    Attributes:
        after: how many playouts come before it in the input (where it stood, for messages that
            follow input order; the tree applies every fact before the first playout).
        path: the node, as move ids from the root.
        line: its 1-based input line.
        player: who moves at the node (None: not said).
        children: the node's children in the engine's order, as move ids (None: not said).
        priors: prior per child move id.
        chance: the node's children are sampled, not selected (None: not said).
        terminal: the game ended at the node (None: not said).
        outcome: the node's proven value, one number per player (None: not proven).
    """

    after: int
    path: tuple[int, ...]
    line: int
    player: int | None = None
    children: tuple[int, ...] | None = None
    priors: dict[int, float] = field(default_factory=dict)
    chance: bool | None = None
    terminal: bool | None = None
    outcome: tuple[float, ...] | None = None


@dataclass(frozen=True, eq=False)
class Playouts:
    """Parsed input: playouts in input order, the header's settings and the node facts.

    Attributes:
        moves: move names by id.
        starts: ``len + 1`` offsets into ``move_ids``.
        move_ids: every playout's moves, one after the other.
        returns: ``players`` numbers per playout: each player's return.
        lines: each playout's 1-based input line.
        c: the header's C, None when there is none.
        players: 1 (the puzzle) or more; totals are kept from the view of the player who moved.
        ties: ``"smaller"`` (the puzzle) or ``"first"`` (the first child in the node's order).
        facts: node facts in input order.
        compact: every move is one character, so a path is written without spaces (``ba``).
        rule: the selection rule the input says it was searched with (a registry key), if any.
        settings: that rule's settings besides C, as the input states them.
    """

    moves: tuple[str, ...]
    starts: Sequence[int]
    move_ids: Sequence[int]
    returns: Sequence[float]
    lines: Sequence[int]
    c: float | None = None
    players: int = 1
    ties: str = "smaller"
    facts: tuple[Fact, ...] = ()
    compact: bool = True
    rule: str | None = None
    settings: dict = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.starts) - 1

    def __eq__(self, other: object) -> bool:
        """Equal when they hold the same playouts, facts and settings (columns compared by value)."""
        if not isinstance(other, Playouts):
            return NotImplemented
        columns = ("starts", "move_ids", "returns", "lines")
        plain = ("c", "players", "ties", "facts", "compact", "rule", "settings")
        return (
            self.moves == other.moves
            and all(getattr(self, name) == getattr(other, name) for name in plain)
            and all(list(getattr(self, name)) == list(getattr(other, name)) for name in columns)
        )

    __hash__ = None  # mutable columns inside: not a cache key

    def path(self, i: int) -> tuple[str, ...]:
        """Playout ``i``'s moves, by name."""
        moves = self.moves
        return tuple(moves[m] for m in self.move_ids[self.starts[i] : self.starts[i + 1]])

    def word(self, i: int) -> str:
        """Playout ``i``'s moves as text: ``baa``, or ``e2e4 e7e5`` for named moves."""
        return join_path(self.path(i), self.compact)

    def score(self, i: int) -> float:
        """Playout ``i``'s return for player 0 (the puzzle's score)."""
        return self.returns[i * self.players]

    @property
    def scores(self) -> Sequence[float]:
        """Player 0's return of every playout."""
        if self.players == 1:
            return self.returns
        return self.returns[:: self.players]

    @property
    def words(self) -> tuple[str, ...]:
        """Every playout as text (:meth:`word`); for small inputs and tests."""
        return tuple(self.word(i) for i in range(len(self)))

    def score_range(self) -> tuple[float, float]:
        """(smallest, largest) return over every playout and player; (0, 0) without playouts."""
        if not len(self.returns):
            return (0.0, 0.0)
        if len(self.returns) > 10_000:
            import numpy as np

            values = np.frombuffer(self.returns, dtype=np.float64)
            return (float(values.min()), float(values.max()))
        return (min(self.returns), max(self.returns))


def join_path(moves: Sequence[str], compact: bool) -> str:
    """A path as text: moves run together when every move is one character, else spaced."""
    return "".join(moves) if compact else " ".join(moves)


def path_json(moves: Sequence[str]) -> str:
    """A path as the picture and the browser name it: compact ASCII JSON (``\\uXXXX`` for the rest)."""
    text = "".join(moves)
    # Printable ASCII without quotes or backslashes is its own JSON: joined directly, a drawing's
    # thousands of paths take a fifth of json.dumps's time.
    if text.isascii() and text.isprintable() and '"' not in text and "\\" not in text:
        return '["' + '","'.join(moves) + '"]' if moves else "[]"
    return json.dumps(list(moves), separators=(",", ":"))


def split_path(text: str, compact: bool) -> tuple[str, ...]:
    """The moves a typed path names: characters (spaces ignored) for compact trees, else words."""
    if compact:
        return tuple(text.replace(" ", ""))
    return tuple(text.split())


def is_compact(moves: Sequence[str]) -> bool:
    """Whether paths of these moves can be written without spaces: every move one visible character."""
    return all(len(move) == 1 and not move.isspace() for move in moves)


def narrow_ids(ids: array, count: int) -> array:
    """Move ids in the smallest array type that holds ``count`` distinct moves."""
    code = "B" if count <= 1 << 8 else "H" if count <= 1 << 16 else "i"
    return ids if ids.typecode == code else array(code, ids)
