"""The header keys a JSON Lines log and a JSON tree dump share: players, ties, c, rule, settings, algorithm, game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...common.input_rules import MAX_PLAYERS
from ...common.json_input import shown
from ...common.numbers import is_finite_number
from ...model.playouts import TIES
from ...selection.registry import RULE_REGISTRY, SIMULTANEOUS_RULES, settings_problem
from ...simultaneous.joint import ALGORITHMS


class HeaderProblem(ValueError):
    """A header key with a bad value; the message names the key."""


@dataclass(frozen=True)
class HeaderValues:
    """What a header says about the search (every key optional; the defaults are the puzzle's)."""

    players: int
    ties: str
    c: float | None
    rule: str | None
    settings: dict
    algorithm: str | None
    game: str | None


def header_values(header: dict) -> HeaderValues:
    """The shared keys of a log's or a dump's header, checked.

    Raises:
        HeaderProblem: the first bad value, as a sentence naming its key.
    """
    players = header.get("players", 1)
    if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= MAX_PLAYERS:
        raise HeaderProblem(f'key "players": expected a whole number from 1 to {MAX_PLAYERS}, got {shown(players)}')
    ties = header.get("ties", "smaller")
    if ties not in TIES:
        raise HeaderProblem(f'key "ties": expected "smaller" or "first", got {shown(ties)}')
    c = header.get("c")
    if c is not None:
        if isinstance(c, bool) or not isinstance(c, (int, float)) or not is_finite_number(c) or c < 0:
            raise HeaderProblem(f'key "c": C must be a finite number >= 0, got {shown(c)}')
        c = float(c)
    rule = header.get("rule")
    if rule is not None and rule not in RULE_REGISTRY:
        raise HeaderProblem(f'key "rule": expected one of {", ".join(RULE_REGISTRY)}, got {shown(rule)}')
    settings = header.get("settings", {})
    if not isinstance(settings, dict):
        raise HeaderProblem(f'key "settings": expected an object like {{"normalise": "minmax"}}, got {shown(settings)}')
    if settings and rule is None:
        raise HeaderProblem('key "settings": give the "rule" they belong to')
    problem = settings_problem(rule, settings) if settings else None
    if problem is not None:
        raise HeaderProblem(f'key "settings": {problem}')
    if rule in SIMULTANEOUS_RULES and c is not None and c > 1:
        raise HeaderProblem(f'key "c": for {rule} C is the exploration γ, from 0 to 1; got {shown(c)}')
    algorithm = header.get("algorithm")
    if algorithm is not None and algorithm not in ALGORITHMS:
        raise HeaderProblem(f'key "algorithm": expected one of {", ".join(ALGORITHMS)}, got {shown(algorithm)}')
    game: Any = header.get("game")
    if game is not None and (not isinstance(game, str) or not game):
        raise HeaderProblem(f'key "game": expected an OpenSpiel game string like "oshi_zumo", got {shown(game)}')
    return HeaderValues(players, ties, c, rule, settings, algorithm, game)
