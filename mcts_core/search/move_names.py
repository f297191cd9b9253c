"""How our logs name an OpenSpiel move: the engine's action string, made unique among a node's moves.

A sequential node's moves are named for the player to move (:func:`child_names`); a simultaneous
node's own moves per player (:func:`own_move_names`). The searches, the game loader and the OpenSpiel
adapter all name moves here, so a log the adapter writes and one our search writes read alike.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

_TAG = re.compile(r"^\[P\d+\]\s*")  # OpenSpiel prefixes some action strings with the player: "[P0]Bid: 3"


def child_names(state: Any, actions: Sequence[int]) -> list[str]:
    """Names the actions playable in ``state``, unique among themselves.

    A name is :func:`action_name` for the player to move; an empty name becomes the action id, and
    names shared by several actions get `` #<action id>`` appended.
    """
    player = state.current_player()
    return unique_names([action_name(state, player, a) for a in actions], actions)


def action_name(state: Any, player: int, action: int) -> str:
    """``state.action_to_string(player, action)``, or "" when OpenSpiel's name is not UTF-8 text.

    Some games spell a column as a byte counted from ``a``, which is not text past the 32nd column
    (hex and breakthrough on wider boards); such a move is named by its action id (as an empty name
    is), which ``--moves`` and the Search page's moves box read back as that action.
    """
    try:
        return state.action_to_string(player, action)
    except UnicodeDecodeError:
        return ""


def unique_names(names: Sequence[str], actions: Sequence[int]) -> list[str]:
    """``names`` of ``actions`` made unique: an empty name becomes the action id, and names shared by
    several actions get `` #<action id>`` appended."""
    names = [name or str(a) for name, a in zip(names, actions)]
    if len(set(names)) < len(names):
        seen: dict[str, int] = {}
        for name in names:
            seen[name] = seen.get(name, 0) + 1
        names = [f"{n} #{a}" if seen[n] > 1 else n for n, a in zip(names, actions)]
    return names


def own_move_names(state: Any, player: int, actions: Sequence[int]) -> list[str]:
    """Names of ``player``'s ``actions`` in ``state``, unique among themselves.

    A name is :func:`action_name` without a leading ``[Pn]`` tag (the table
    already says whose move it is); an empty name becomes the action id, and names shared by
    several actions get `` #<action id>`` appended.
    """
    return unique_names([_TAG.sub("", action_name(state, player, a)) for a in actions], actions)
