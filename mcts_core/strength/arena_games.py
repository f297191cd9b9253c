"""Arena games: one game between our MCTS and its opponents, from a plain, picklable task.

At each of its turns the MCTS side runs a fresh search (no log) from the current state and plays
the most visited root move. The opponents (every other seat) are random (a uniformly random legal
move) or the same search, rule and budget at another C. Chance outcomes are drawn with their
probabilities. Games come in groups of one game per seat: game ``index`` has the MCTS side in seat
``index % players``, and every game of group ``index // players`` takes its random choices from
three RNGs seeded from (seed, group) alone: one for chance outcomes, one for our side's searches,
one for the opponents' (searches or random moves). So a two-player pair meets the same chance
outcomes with the seats swapped, as fishtest's pairs play one opening from both sides; and where the
opponent is our own search at our C, the two games still differ (one RNG shared by both sides gave
each seat the other's seeds: every pair was a mirror, one win and one loss, and told nothing). A
game's result does not depend on which process or machine plays it, or when.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..selection import Scoring
from ..search.sequential_search import search_state
from ..search.games import load_game, play_moves


@dataclass(frozen=True)
class GameTask:
    """One arena game, as plain picklable values (a worker process rebuilds the rest)."""

    game: str
    moves: tuple[int, ...]
    rule: str
    settings: tuple[tuple[str, Any], ...]
    c: float
    opponent_c: float | None  # None: random opponents
    simulations: int
    seed: int
    index: int
    players: int  # seats in the game: the MCTS side sits in seat index % players
    opponent_settings: tuple[tuple[str, Any], ...] | None = None  # the MCTS opponent's rule settings; None: ours

    @property
    def seat(self) -> int:
        return self.index % self.players

    @property
    def group(self) -> int:
        """The games of a group (one per seat) share their seed."""
        return self.index // self.players


@dataclass(frozen=True)
class GameResult:
    """How one game ended: every seat's return, and the MCTS side's first search (None if it never moved)."""

    c: float
    simulations: int
    index: int
    seat: int  # the seat the MCTS side played
    returns: tuple[float, ...]  # by seat
    first_search: tuple[float, int, float] | None  # (visit entropy, depth, top share)

    @property
    def mine(self) -> float:
        """The MCTS side's return."""
        return self.returns[self.seat]

    @property
    def outcome(self) -> int:
        """1 when the MCTS side's return beats every other seat's, -1 when another's beats it, else 0."""
        best_other = max((r for seat, r in enumerate(self.returns) if seat != self.seat), default=self.mine)
        return (self.mine > best_other) - (self.mine < best_other)

    @property
    def win_share(self) -> float:
        """1 / k when the MCTS side is among the k seats with the largest return, else 0."""
        top = max(self.returns)
        return 1 / self.returns.count(top) if self.mine == top else 0.0


def game_score(result: GameResult) -> float:
    """1 for a win, 0.5 for a draw, 0 for a loss (the MCTS side's view)."""
    return (result.outcome + 1) / 2


def game_tasks(game: str, moves: Iterable[int], rule: str, settings: Mapping[str, Any], c: float,
               opponent_c: float | None, simulations: int, seed: int, players: int,
               indices: Iterable[int], opponent_settings: Mapping[str, Any] | None = None) -> list[GameTask]:
    """The games with these indices at one C and budget (the MCTS opponent with our settings unless given)."""
    moves, frozen = tuple(moves), tuple(sorted(settings.items()))
    theirs = None if opponent_settings is None else tuple(sorted(opponent_settings.items()))
    return [GameTask(game, moves, rule, frozen, c, opponent_c, simulations, seed, index, players, theirs)
            for index in indices]


@lru_cache(maxsize=8)
def _loaded(game: str) -> Any:
    """The game, loaded once per process."""
    return load_game(game)


def play_game(task: GameTask) -> GameResult:
    """Plays one arena game (a top-level function, so a spawned worker can run it)."""
    state = play_moves(_loaded(task.game), task.moves)
    # str seeds hash the same everywhere; one RNG per role (module docstring)
    chance, our_rng, their_rng = (random.Random(f"arena/{task.seed}/{task.group}/{role}")
                                  for role in ("chance", "ours", "theirs"))
    settings = dict(task.settings)
    ours = Scoring(task.rule, task.c, settings)
    their_settings = settings if task.opponent_settings is None else dict(task.opponent_settings)
    theirs = Scoring(task.rule, task.opponent_c, their_settings) if task.opponent_c is not None else None
    side = task.seat
    first_search = None
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(chance.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        elif state.current_player() == side or theirs is not None:
            scoring, rng = (ours, our_rng) if state.current_player() == side else (theirs, their_rng)
            result = search_state(state, scoring=scoring, simulations=task.simulations, seed=rng.getrandbits(64))
            if first_search is None and scoring is ours:
                first_search = (result.visit_entropy, result.depth, result.top_share)
            state.apply_action(result.best_action)
        else:
            state.apply_action(their_rng.choice(state.legal_actions()))
    returns = tuple(float(r) for r in state.returns())
    return GameResult(task.c, task.simulations, task.index, side, returns, first_search)


def play_chunk(tasks: list[GameTask]) -> list[GameResult]:
    """Plays several games in one go: one task for a worker, so short games do not drown in overhead."""
    return [play_game(task) for task in tasks]
