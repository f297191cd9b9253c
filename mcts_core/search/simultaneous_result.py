"""What a simultaneous search (DUCT or Smitsimax) found: each player's own moves at the root and the
strategy the search recommends there."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ..simultaneous.rules import JointScoring
from .own_moves import OwnMoves


@dataclass(frozen=True)
class OwnMoveResult:
    """One player's own move at the root after the search (totals from that player's view)."""

    move: str
    action: int
    visits: int
    total: float

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else math.nan


@dataclass(frozen=True)
class SimultaneousResult:
    """What a simultaneous search found.

    Attributes:
        algorithm: ``"duct"`` or ``"smitsimax"``.
        scoring: the rule every player used.
        root_visits: simulations through the root.
        root: per player, its own moves at the root in the engine's order.
        strategy: per player, the strategy the search recommends at the root: the visit shares,
            or for regret matching and EXP3 the average sampling distribution.
        best: per player, its move of largest ``strategy`` share (ties: the first).
        depth: the deepest node a simulation reached (in the joint tree; Smitsimax: the deepest
            own-move node of any player).
        simulations, elapsed, stopped: how many, how long, whether ``should_stop`` ended it.
        log: the log's text when no ``out`` stream was given, else None.
        tree: the live tree (DUCT) or trees (Smitsimax, one per player).
    """

    algorithm: str
    scoring: JointScoring
    root_visits: int
    root: tuple[tuple[OwnMoveResult, ...], ...]
    strategy: tuple[dict[str, float], ...]
    best: tuple[str, ...]
    depth: int
    simulations: int
    elapsed: float
    stopped: bool
    log: str | None
    tree: Any = field(repr=False, compare=False)


def result_of(algorithm: str, scoring: JointScoring, root_visits: int, root_own: list[OwnMoves] | None,
              depth: int, done: int, elapsed: float, stopped: bool, tree: Any) -> SimultaneousResult:
    """The search's summary from the root's own moves."""
    root, strategies, best = [], [], []
    for own in root_own or []:
        root.append(tuple(OwnMoveResult(n, a, v, t) for n, a, v, t in zip(own.names, own.actions, own.visits, own.total)))
        if own.state is not None:
            shares = own.state.average()
        else:
            chosen = sum(own.visits)
            shares = [v / chosen if chosen else 1.0 / len(own.visits) for v in own.visits]
        strategies.append(dict(zip(own.names, shares)))
        best.append(own.names[shares.index(max(shares))])
    return SimultaneousResult(algorithm, scoring, root_visits, tuple(root), tuple(strategies), tuple(best), depth,
                              done, elapsed, stopped, None, tree)
