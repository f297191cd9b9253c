"""Own-move names at a simultaneous node of an OpenSpiel game, as the searches log them."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ..adapters.openspiel import action_name, unique_names

_TAG = re.compile(r"^\[P\d+\]\s*")  # OpenSpiel prefixes some action strings with the player: "[P0]Bid: 3"


def own_move_names(state: Any, player: int, actions: Sequence[int]) -> list[str]:
    """Names of ``player``'s ``actions`` in ``state``, unique among themselves.

    A name is :func:`~mcts_core.adapters.openspiel.action_name` without a leading ``[Pn]`` tag (the table
    already says whose move it is); an empty name becomes the action id, and names shared by
    several actions get `` #<action id>`` appended.
    """
    return unique_names([_TAG.sub("", action_name(state, player, a)) for a in actions], actions)
