"""A player's own moves at a simultaneous node during a search, and how the player picks one.

Both simultaneous searches (:mod:`.decoupled`, :mod:`.smitsimax`) keep, for each player at each
node, the own moves in the engine's order with their visits and totals from that player's view.
A player picks the own move :func:`mcts_core.simultaneous.score_own_moves` ranks first on the
same statistics, except that **exact ties are broken at random** (the seeded RNG), as DUCT
implementations do: the first-in-order rule makes every player pick its first untried move
together, so in rock-paper-scissors only Rock|Rock, Paper|Paper and Scissors|Scissors would ever be
played. A reader of the log (which ranks ties by order) can check that the move played was one of
the best, not which one:

* a rule with a statistics loop (UCB1's :func:`~mcts_core.selection.rules.ucb1.ucb1_values`,
  :attr:`~mcts_core.selection.Rule.statistics_loop`) takes all the values at once from it, the same
  bits as its formula; untried moves are worth +infinity there, so one of them is drawn first;
* every other registered rule goes through :func:`mcts_core.simultaneous.own_terms`, the very
  function the view calls; below a sample threshold the player draws with the seeded RNG, each
  move with its ``probability`` term;
* regret matching and EXP3 draw from their sampling distribution σ
  (:func:`mcts_core.simultaneous.sampling`) and update their state after the simulation
  (:func:`mcts_core.simultaneous.update`), the functions the view replays.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..selection import PROBABILITY
from ..simultaneous.rules import JointScoring, RegretState, sampling
from ..simultaneous.joint_selection import own_terms


class OwnMoves:
    """One player's own moves at one node: names, engine actions and statistics, in the engine's order.

    Attributes:
        names, actions: the moves.
        visits, total, total_sq: simulations that played the move here, and the sum of their
            returns for this player (and of their squares).
        state: regret matching's or EXP3's state (None for the registered rules).
        sigma: the sampling distribution the current simulation drew from (regret matching, EXP3).
    """

    __slots__ = ("actions", "names", "sigma", "state", "total", "total_sq", "visits")

    def __init__(self, names: list[str], actions: list[int], regret: bool = False):
        self.names, self.actions = names, actions
        count = len(names)
        self.visits = [0] * count
        self.total = [0.0] * count
        self.total_sq = [0.0] * count
        self.state = RegretState(count) if regret else None
        self.sigma: list[float] | None = None

    def add(self, names: list[str], actions: list[int]) -> None:
        """Moves seen for the first time (Smitsimax: merged histories), with 0 visits, at the end."""
        self.names.extend(names)
        self.actions.extend(actions)
        self.visits.extend([0] * len(names))
        self.total.extend([0.0] * len(names))
        self.total_sq.extend([0.0] * len(names))

    def record(self, k: int, reward: float) -> None:
        """One simulation played move ``k`` here and returned ``reward`` for this player."""
        self.visits[k] += 1
        self.total[k] += reward
        self.total_sq[k] += reward * reward


Chooser = Callable[[OwnMoves, int, random.Random, "list[int] | None"], int]


def own_chooser(scoring: JointScoring) -> Chooser:
    """``choose(own, parent_visits, rng, allowed) -> position``: the move the player plays.

    ``allowed``, when given, restricts the choice to those positions (Smitsimax: the moves legal
    in this simulation's state); the rule then sees only them as siblings.
    """
    if scoring.regret_based:
        rule, gamma, settings = scoring.rule, scoring.c, scoring.settings

        def draw(own: OwnMoves, parent_visits: int, rng: random.Random, allowed=None) -> int:
            if allowed is not None:
                raise ValueError("regret matching and EXP3 need every own move legal at every visit")
            own.sigma = sampling(rule, own.state, gamma, settings)
            return rng.choices(range(len(own.sigma)), weights=own.sigma)[0]

        return draw
    loop = scoring.spec.statistics_loop
    if loop is not None:
        c = scoring.c

        def by_statistics(own: OwnMoves, parent_visits: int, rng: random.Random, allowed=None) -> int:
            visits = own.visits
            positions = range(len(visits)) if allowed is None else allowed
            if 0 in visits:  # untried moves are worth +inf: one of them, drawn as _best would draw it
                untried = [k for k in positions if not visits[k]]
                if untried:
                    return untried[0] if len(untried) == 1 else rng.choice(untried)
            values = loop(parent_visits, visits, own.total, positions, c=c)
            best = max(values)
            if values.count(best) == 1:  # _best's common case, inline: this runs per player per step
                return positions[values.index(best)]
            return _best(positions, values, rng)

        return by_statistics

    def by_rule(own: OwnMoves, parent_visits: int, rng: random.Random, allowed=None) -> int:
        positions = list(range(len(own.visits))) if allowed is None else list(allowed)
        names = [own.names[k] for k in positions]
        terms = own_terms(scoring, parent_visits, names, [own.visits[k] for k in positions],
                          [own.total[k] for k in positions], [own.total_sq[k] for k in positions])
        if PROBABILITY in terms[0]:  # below a sample threshold: a draw
            return positions[rng.choices(range(len(positions)), weights=[t[PROBABILITY] for t in terms])[0]]
        return _best(positions, [t["value"] for t in terms], rng)

    return by_rule


def _best(positions: Sequence[int], values: list[float], rng: random.Random) -> int:
    """The position of the largest value; exact ties (unvisited moves: +inf) drawn at random."""
    best = max(values)
    if values.count(best) == 1:
        return positions[values.index(best)]
    return rng.choice([positions[k] for k, value in enumerate(values) if value == best])
