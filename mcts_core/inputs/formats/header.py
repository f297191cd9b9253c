"""Headers: the keys a JSON Lines log and a JSON tree dump share (players, ties, c, rule, settings,
algorithm, game), and a log's header line read into a :class:`LogHeader`, which both log readers take."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...common.input_rules import MAX_PLAYERS, ParseError
from ...common.json_input import key_text, load_json, shown
from ...common.numbers import is_finite_number
from ...model.playouts import TIES
from ...selection.registry import RULE_REGISTRY, RULES, SIMULTANEOUS_RULES, settings_problem
from ...simultaneous.joint import ALGORITHMS, JointMoves, SimultaneousLog

LOG_HEADER_KEYS = ("mcts_log", "players", "ties", "c", "rule", "settings", "algorithm", "game")


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


class LogHeader:
    """A JSON Lines log's header line: its settings."""

    def __init__(self, players: int, ties: str, c: float | None, rule: str | None, settings: dict,
                 algorithm: str | None = None, game: str | None = None, line: int = 1):
        self.players, self.ties, self.c, self.rule, self.settings = players, ties, c, rule, settings
        self.algorithm, self.game, self.line = algorithm, game, line

    @property
    def simultaneous_rule(self) -> bool:
        """The rule exists only at simultaneous nodes (regret matching, EXP3)."""
        return self.rule is not None and self.rule not in RULES

    def sequential_rule(self) -> tuple[str | None, dict]:
        """The rule and settings the joint Playouts carry: the header's, unless simultaneous-only."""
        return (None, {}) if self.simultaneous_rule else (self.rule, self.settings)

    def simultaneous(self, joint: JointMoves, facts: tuple = ()) -> SimultaneousLog:
        rule, settings = (self.rule, self.settings) if self.simultaneous_rule else (None, None)
        return SimultaneousLog(joint, facts, rule, settings, self.algorithm, self.game)


def parse_header(line: str, number: int) -> LogHeader:
    record = log_object(line, number)
    if record.get("mcts_log") != 1:
        raise ParseError(number, 'the first line must be the header {"mcts_log": 1, ...}')
    check_keys(record, LOG_HEADER_KEYS, number, "the header")
    try:
        values = header_values(record)
    except HeaderProblem as problem:
        raise ParseError(number, str(problem)) from None
    return LogHeader(values.players, values.ties, values.c, values.rule, values.settings, values.algorithm,
                   values.game, number)


def log_object(line: str, number: int) -> dict:
    """One line of a log as a JSON object (no repeated key).

    Raises:
        ParseError: the line is not one JSON object.
    """
    record = load_json(line, line=number, flat=True)
    if not isinstance(record, dict):
        raise ParseError(number, f"expected a JSON object {{...}}, got {shown(record)}")
    return record


def check_keys(record: dict, allowed: Sequence[str], number: int, what: str) -> None:
    """Refuses a key of ``record`` (line ``number``, ``what`` it is) that is not ``allowed``."""
    unknown = [key for key in record if key not in allowed]
    if unknown:
        raise ParseError(
            number, f'unknown key "{key_text(unknown[0])}" in {what}; known keys: {", ".join(allowed)}'
        )
