"""The game a search plays and the position it starts from, checked with messages a person understands.

Our search handles OpenSpiel's sequential games of perfect information (chance nodes included):
every player sees the whole state and one player (or chance) acts at a time. ``pyspiel`` is
imported inside the functions, so importing this module costs nothing.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Sequence
from typing import Any

from ..adapters.openspiel import child_names, new_state

SHOWN_NAMES = 20  # legal moves listed in an error message


def load_game(game: Any) -> Any:
    """The ``pyspiel.Game`` to search: ``game`` itself, or loaded from a game string.

    Args:
        game: a ``pyspiel.Game``, or a string ``"name"`` / ``"name(param=value,...)"`` as
            ``pyspiel.load_game`` takes it.

    Raises:
        ValueError: an unknown name (the message lists close names), an unknown or mistyped
            parameter, or a game this search cannot play (simultaneous moves, imperfect
            information).
    """
    import pyspiel

    if isinstance(game, str):
        game = _load(pyspiel, game)
    kind = game.get_type()
    name = kind.short_name
    if kind.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
        raise ValueError(
            f"{name} is a simultaneous-move game; this search plays sequential games only "
            "(simultaneous moves need the decoupled search for simultaneous moves, a separate feature)"
        )
    if kind.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        raise ValueError(
            f"{name} is not a sequential game ({kind.dynamics.name}); this search plays sequential games only"
        )
    if kind.information != pyspiel.GameType.Information.PERFECT_INFORMATION:
        raise ValueError(
            f"{name} is a game of imperfect information (players do not see the whole state); "
            "this search needs perfect information"
        )
    return game


def _load(pyspiel: Any, text: str) -> Any:
    """``pyspiel.load_game(text)`` after checking the name and parameters ourselves.

    OpenSpiel prints its own message on stderr before raising, so the checks come first.
    """
    name = text.split("(", 1)[0].strip()
    known = {kind.short_name: kind for kind in pyspiel.registered_games()}
    if name not in known:
        close = difflib.get_close_matches(name, list(known), n=5)
        hint = f"; did you mean {', '.join(close)}?" if close else "; `pyspiel.registered_names()` lists them"
        raise ValueError(f"unknown game {name!r}{hint}")
    if "(" in text and not text.rstrip().endswith(")"):
        raise ValueError(f"the game string {text!r} must end with ')', like connect_four(rows=5)")
    try:
        given = pyspiel.game_parameters_from_string(text) if "(" in text else {}
    except pyspiel.SpielError as error:
        raise ValueError(f"cannot read the game string {text!r}: {error}") from None
    defaults = known[name].parameter_specification
    for key, value in given.items():
        if key == "name":
            continue
        if key not in defaults:
            known_names = ", ".join(sorted(defaults)) or "none"
            raise ValueError(f"{name} has no parameter {key!r}; its parameters: {known_names}")
        expected = type(defaults[key])
        if not isinstance(value, expected) and not (expected is float and isinstance(value, int)):
            raise ValueError(f"{name}'s parameter {key!r} must be of type {expected.__name__}, got {value!r}")
    try:
        return pyspiel.load_game(text)
    except pyspiel.SpielError as error:
        raise ValueError(f"cannot load {text!r}: {error}") from None


def legal_moves(state: Any) -> tuple[list[int], list[str]]:
    """The actions playable in ``state`` (chance outcomes at a chance node) and their names."""
    actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
    return actions, child_names(state, actions)


def play_moves(game: Any, moves: Iterable[int | str] = ()) -> Any:
    """The game's initial state after ``moves``, each checked before it is played.

    Args:
        game: a ``pyspiel.Game``.
        moves: action ids (ints) or names: a name as the log writes it (:func:`child_names`) or
            as ``state.action_to_string`` spells it. Chance outcomes are moves too.

    Raises:
        ValueError: a move that is not legal where it is played (the message lists the legal
            ones), or a move after the game ended.
    """
    state = new_state(game)
    played: list[str] = []
    for number, move in enumerate(moves, start=1):
        where = f"after {' '.join(played)}" if played else "at the start"
        if state.is_terminal():
            raise ValueError(f"{move!r} (move {number}): the game is already over {where}")
        actions, names = legal_moves(state)
        action = _action(state, move, actions, names)
        if action is None:
            shown = ", ".join(names[:SHOWN_NAMES]) + (", ..." if len(names) > SHOWN_NAMES else "")
            raise ValueError(f"{move!r} (move {number}) is not legal {where}; legal: {shown}")
        played.append(names[actions.index(action)])
        state.apply_action(action)
    return state


def _action(state: Any, move: int | str, actions: Sequence[int], names: Sequence[str]) -> int | None:
    """The legal action ``move`` names, or None."""
    if isinstance(move, bool):
        return None
    if isinstance(move, int):
        return move if move in actions else None
    if move in names:
        return actions[names.index(move)]
    player = state.current_player()
    spelled = [a for a in actions if state.action_to_string(player, a) == move]
    return spelled[0] if len(spelled) == 1 else None


def format_moves(tokens: list[int | str]) -> str:
    """Moves written so that :func:`parse_moves` reads them back: space-separated, or a JSON array
    when a name could not be told apart (empty, all digits, starting with ``[`` or holding a space)."""

    def awkward(token: int | str) -> bool:
        return isinstance(token, str) and (
            not token or token.isdigit() or token.startswith("[") or any(ch.isspace() for ch in token)
        )

    return json.dumps(tokens) if any(map(awkward, tokens)) else " ".join(map(str, tokens))


def parse_moves(text: str) -> list[int | str]:
    """Moves typed on a command line: a JSON array (ints are ids, strings names) or space-separated.

    Space-separated tokens of digits are action ids, other tokens names; a name with spaces in it
    (``"Roll 1"`` in pig) needs the JSON form, ``["roll", "Roll 1"]``.

    Raises:
        ValueError: a JSON array that does not hold only ints and strings.
    """
    text = text.strip()
    if text.startswith("["):
        try:
            moves = json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError(f"--moves: not a valid JSON array: {error.msg} (column {error.colno})") from None
        if not isinstance(moves, list) or not all(
            isinstance(move, (int, str)) and not isinstance(move, bool) for move in moves
        ):
            raise ValueError("--moves: a JSON array must hold action ids (numbers) and names (strings) only")
        return moves
    return [int(token) if token.isascii() and token.isdigit() else token for token in text.split()]
