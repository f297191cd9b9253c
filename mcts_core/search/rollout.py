"""The one simulation policy of our searches: uniformly random moves to the end of the game."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

CHECK_MOVES = 1000  # moves between looks at ``interrupted``: a random game on a huge board runs for hours


def random_rollout(state: Any, rng: random.Random, simultaneous: bool = False,
                   interrupted: Callable[[], bool] | None = None) -> list[float] | None:
    """Plays ``state`` to the end and returns the returns: a chance node draws an outcome with its
    probability, a simultaneous node (``simultaneous``: the game has them) a uniformly random legal
    move per player, any other node a uniformly random legal move of the player to move. None when
    ``interrupted()`` (asked every :data:`CHECK_MOVES` moves) says the search must end first."""
    moves = 0
    while not state.is_terminal():
        moves += 1
        if interrupted is not None and moves % CHECK_MOVES == 0 and interrupted():
            return None
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        elif simultaneous and state.is_simultaneous_node():  # asked only in games that have them
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(state.num_players())])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state.returns()
