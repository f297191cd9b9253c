"""The one simulation policy of our searches: uniformly random moves to the end of the game."""

from __future__ import annotations

import random
from typing import Any


def random_rollout(state: Any, rng: random.Random, simultaneous: bool = False) -> list[float]:
    """Plays ``state`` to the end and returns the returns: a chance node draws an outcome with its
    probability, a simultaneous node (``simultaneous``: the game has them) a uniformly random legal
    move per player, any other node a uniformly random legal move of the player to move."""
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        elif simultaneous and state.is_simultaneous_node():  # asked only in games that have them
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(state.num_players())])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state.returns()
