"""The one game loader: the game a search plays and the position it starts from, checked with
messages a person understands.

The sequential search handles OpenSpiel's sequential games of perfect information (chance nodes
included): every player sees the whole state and one player (or chance) acts at a time. The
decoupled searches handle games where the players move at once (``simultaneous=True``). The
OpenSpiel adapter and the arena load through here too. ``pyspiel`` is imported inside the
functions, so importing this module costs nothing.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

from ..common.input_rules import MAX_MOVES
from ..simultaneous.joint import joint_name
from ..simultaneous.matrix import MatrixGame
from .game_probe import game_problem, spiel_reason
from .move_names import action_name, child_names, own_move_names

SHOWN_NAMES = 20  # legal moves listed in an error message
INT_MIN, INT_MAX = -(2**31), 2**31 - 1  # OpenSpiel's int parameters


class SimultaneousGameError(ValueError):
    """The sequential search was given a game whose players move at once (the decoupled searches play it)."""


def load_game(game: Any, *, simultaneous: bool = False) -> Any:
    """The ``pyspiel.Game`` to search: ``game`` itself, or loaded from a game string.

    Args:
        game: a ``pyspiel.Game``, or a string ``"name"`` / ``"name(param=value,...)"`` as
            ``pyspiel.load_game`` takes it.
        simultaneous: True for the decoupled searches (games where the players move at once).

    Raises:
        SimultaneousGameError: a simultaneous-move game for the sequential search.
        ValueError: an unknown name (the message lists close names), an unknown or mistyped
            parameter, a game OpenSpiel cannot set up or crashes on (:mod:`.game_probe`), or a
            game this search cannot play (for the sequential search: imperfect
            information; for the decoupled ones: no simultaneous moves).
    """
    import pyspiel

    game = opened(game)
    kind = game.get_type()
    name = kind.short_name
    is_simultaneous = kind.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    if simultaneous:
        if not is_simultaneous:
            raise ValueError(
                f"{name} is not a simultaneous-move game; the decoupled search is for games where the players "
                "move at once (the sequential search plays the others)"
            )
        return game
    if is_simultaneous:
        raise SimultaneousGameError(
            f"{name} is a simultaneous-move game; this search plays sequential games only, the decoupled search "
            "for simultaneous moves plays it"
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


def opened(game: Any) -> Any:
    """``game`` itself, or the ``pyspiel.Game`` a game string names, of any kind."""
    import pyspiel

    return _load(pyspiel, game) if isinstance(game, str) else game


def _load(pyspiel: Any, text: str) -> Any:
    """``pyspiel.load_game(text)`` after checking the name and parameters ourselves, and setting the
    game up in a child process (:mod:`.game_probe`): OpenSpiel crashes on some parameters, and prints
    its own message on stderr before raising on others.
    """
    name = text.split("(", 1)[0].strip()
    if not name:
        raise ValueError("no game given: type an OpenSpiel game's name, like tic_tac_toe or connect_four(rows=5)")
    if not text.isascii() or not text.isprintable():
        raise ValueError(f"the game string {text!r} holds a character OpenSpiel does not take: game strings "
                         "are plain ASCII, like connect_four(rows=5)")
    known = {kind.short_name: kind for kind in pyspiel.registered_games()}
    if name not in known:
        close = difflib.get_close_matches(name, list(known), n=5)
        hint = f"; did you mean {', '.join(close)}?" if close else "; `pyspiel.registered_names()` lists them"
        raise ValueError(f"unknown game {name!r}{hint}")
    if "(" in text and not text.rstrip().endswith(")"):
        raise ValueError(f"the game string {text!r} must end with ')', like connect_four(rows=5)")
    _check_parameter_syntax(name, text)
    try:
        given = pyspiel.game_parameters_from_string(text) if "(" in text else {}
    except pyspiel.SpielError as error:
        raise ValueError(f"cannot read the game string {text!r}: {spiel_reason(error)}") from None
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
    problem = game_problem(text)
    if problem is not None:
        raise ValueError(problem)
    try:
        return pyspiel.load_game(text)
    except pyspiel.SpielError as error:
        raise ValueError(f"cannot load {text!r}: {spiel_reason(error)}") from None


def _check_parameter_syntax(name: str, text: str) -> None:
    """Each parameter is ``key=value``, and a whole number fits OpenSpiel's 32 bits (its parser
    prints a failed check on stderr for larger ones, and reads ``rows`` alone as a key ``rows)``).

    Raises:
        ValueError: the first parameter that is neither.
    """
    inside = text.strip()[len(name) + 1:-1] if "(" in text else ""
    depth, start, pieces = 0, 0, []
    for at, char in enumerate(inside):  # split at the commas outside nested games' brackets
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            pieces.append(inside[start:at])
            start = at + 1
    pieces.append(inside[start:])
    for piece in filter(str.strip, pieces):
        key, equals, value = piece.partition("=")
        if not equals or not key.strip():
            raise ValueError(f"{name}'s parameters are written key=value, like connect_four(rows=5); got {piece.strip()!r}")
        if re.fullmatch(r"\s*[-+]?\d+\s*", value) and not INT_MIN <= int(value) <= INT_MAX:
            raise ValueError(f"{name}'s parameter {key.strip()!r} is {value.strip()}; OpenSpiel takes whole numbers "
                             f"from {INT_MIN:,} to {INT_MAX:,}")


def chance_outcomes(state: Any) -> tuple[list[int], list[str], list[float]]:
    """A chance node's outcomes: their actions, names and probabilities."""
    outcomes = state.chance_outcomes()
    actions = [a for a, _ in outcomes]
    return actions, child_names(state, actions), [p for _, p in outcomes]


def legal_moves(state: Any) -> tuple[list[int], list[str]]:
    """The actions playable in ``state`` (chance outcomes at a chance node) and their names."""
    if state.is_chance_node():
        return chance_outcomes(state)[:2]
    actions = state.legal_actions()
    return actions, child_names(state, actions)


def check_log_width(state: Any) -> None:
    """A search from ``state`` lists its moves in the log's first node fact, and the log's readers
    take at most :data:`~mcts_core.common.input_rules.MAX_MOVES` moves at a node.

    Raises:
        ValueError: a position with more moves than that (said before anything is written).
    """
    if state.is_simultaneous_node():
        width = max(len(state.legal_actions(player)) for player in range(state.num_players()))
    elif state.is_chance_node():
        width = len(state.chance_outcomes())
    else:
        width = len(state.legal_actions())
    if width > MAX_MOVES:
        raise ValueError(f"this position has {width:,} moves; a search log lists at most {MAX_MOVES:,} at a node "
                         "(the most the app and the command line read back), so this game is too wide to search here")


def position_picture(state: Any) -> str:
    """The game's own picture of ``state`` (``str(state)``; "" when it draws none), or a note when
    the picture is not UTF-8 text (breakthrough draws boards wider than 31 columns with such bytes)."""
    try:
        return str(state)
    except UnicodeDecodeError:
        return "(OpenSpiel's picture of this position is not UTF-8 text, so it cannot be shown)"


def play_moves(game: Any, moves: Iterable[Any] = ()) -> Any:
    """The game's initial state after ``moves``, each checked before it is played.

    Args:
        game: a ``pyspiel.Game`` or a game string (:func:`opened`).
        moves: action ids (ints) or names: a name as the log writes it (:func:`child_names`) or
            as ``state.action_to_string`` spells it. Chance outcomes are moves too. At a
            simultaneous node a move is a list with one id or name per player.

    Raises:
        ValueError: a move that is not legal where it is played (the message lists the legal
            ones), or a move after the game ended.
    """
    state = opened(game).new_initial_state()
    played: list[str] = []  # the moves so far, by name (a joint move: R|P)
    typed: list[str | list[str]] = []  # the same as --moves takes them (a joint move: a list)
    for number, move in enumerate(moves, start=1):
        where = f"after {' '.join(played)}" if played else "at the start"
        if state.is_terminal():
            raise ValueError(f"{move!r} (move {number}): the game is already over {where}")
        if state.is_simultaneous_node():
            actions, names = _joint_actions(state, move, number, where)
            played.append(joint_name(names))
            typed.append(names)
            state.apply_actions(actions)
            continue
        actions, names = legal_moves(state)
        action = _action(state, state.current_player(), move, actions, names)
        if action is None:
            raise ValueError(f"{move!r} (move {number}) is not legal {where}; {_legal_list(names)}"
                             f"{_json_hint(typed, names) if isinstance(move, str) else ''}")
        played.append(names[actions.index(action)])
        typed.append(played[-1])
        state.apply_action(action)
    return state


def _joint_actions(state: Any, move: Any, number: int, where: str) -> tuple[list[int], list[str]]:
    """The actions of a joint move (one id or name per player) and their names."""
    players = state.num_players()
    if not isinstance(move, (list, tuple)) or len(move) != players:
        raise ValueError(f"{move!r} (move {number}): a simultaneous node needs one move per player, "
                         f"{players} in a JSON array like [\"a\", \"b\"]")
    actions, names = [], []
    for player, own in enumerate(move):
        legal = state.legal_actions(player)
        own_names = own_move_names(state, player, legal)
        action = _action(state, player, own, legal, own_names)
        if action is None:
            raise ValueError(f"{own!r} (move {number}) is not legal for player {player} {where}; "
                             f"{_legal_list(own_names)}")
        actions.append(action)
        names.append(own_names[legal.index(action)])
    return actions, names


def _legal_list(names: Sequence[str]) -> str:
    """``legal: a, b, ...`` (the first :data:`SHOWN_NAMES`)."""
    return "legal: " + ", ".join(names[:SHOWN_NAMES]) + (", ..." if len(names) > SHOWN_NAMES else "")


def _json_hint(typed: list, names: Sequence[str]) -> str:
    """How to type the moves when a legal name has a space in it (space-separated moves split it)."""
    spaced = next((name for name in names if any(ch.isspace() for ch in name)), None)
    return f" (a name with a space needs the JSON array form: {json.dumps([*typed, spaced])})" if spaced else ""


def _action(state: Any, player: int, move: int | str, actions: Sequence[int], names: Sequence[str]) -> int | None:
    """The legal action ``move`` names for ``player``, or None."""
    if isinstance(move, bool):
        return None
    if isinstance(move, int):
        return move if move in actions else None
    if not isinstance(move, str):
        return None
    if move in names:
        return actions[names.index(move)]
    spelled = [a for a in actions if action_name(state, player, a) == move]
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


def matrix_game(game: Any) -> MatrixGame:
    """The payoffs of a two-player one-shot OpenSpiel game (a ``pyspiel.MatrixGame`` or a game string).

    Raises:
        ValueError: a game that is not one simultaneous move of two players.
    """
    game = opened(game)
    name = str(game)
    state = game.new_initial_state()
    if game.num_players() != 2 or not state.is_simultaneous_node():
        raise ValueError(f"{name} is not a matrix game: two players moving once, at the same time")
    rows, columns = state.legal_actions(0), state.legal_actions(1)
    payoffs: tuple[list, list] = ([], [])
    for r in rows:
        line = ([], [])
        for c in columns:
            child = state.clone()
            child.apply_actions([r, c])
            if not child.is_terminal():
                raise ValueError(f"{name} is not a matrix game: the game goes on after the first moves")
            returns = child.returns()
            line[0].append(float(returns[0]))
            line[1].append(float(returns[1]))
        payoffs[0].append(tuple(line[0]))
        payoffs[1].append(tuple(line[1]))
    actions = (tuple(own_move_names(state, 0, rows)), tuple(own_move_names(state, 1, columns)))
    return MatrixGame(name, actions, (tuple(payoffs[0]), tuple(payoffs[1])))
