"""The one writer of our JSON Lines MCTS log: the format's version, the header, facts and simulations.

Every search here and the OpenSpiel adapter write through :class:`LogWriter`, so the log's form is
decided in one place. A line is ``json.dumps`` of one record (default separators ``", "`` and
``": "``); a simulation line is ``{"path": [...], "returns": [...]}`` in that key order.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

LOG_VERSION = 1  # the header's "mcts_log": the version of the format this writer writes


class LogWriter:
    """Writes log records to a text stream, one JSON object per line."""

    def __init__(self, out: TextIO):
        self._write = out.write

    def record(self, record: dict) -> None:
        """Any record: a fact, a header, a simulation."""
        self._write(json.dumps(record) + "\n")

    def header(self, players: int, c: float, *, rule: str | None = None, settings: Mapping[str, Any] | None = None,
               algorithm: str | None = None, game: str | None = None) -> None:
        """``{"mcts_log", "players", "ties": "first", "c"}``, then ``rule``, ``settings`` (those not None,
        so that the log read back selects exactly as the search did), ``algorithm`` and ``game`` when given."""
        header: dict[str, Any] = {"mcts_log": LOG_VERSION, "players": players, "ties": "first", "c": float(c)}
        if rule is not None:
            header["rule"] = rule
        given = {name: dict(value) if hasattr(value, "items") else value
                 for name, value in (settings or {}).items() if value is not None}
        if given:
            header["settings"] = given
        if algorithm is not None:
            header["algorithm"] = algorithm
        if game is not None:
            header["game"] = game
        self.record(header)

    def terminal(self, path: list) -> None:
        """The facts of a node where the game has ended."""
        self.record({"node": path, "children": [], "chance": False, "terminal": True})

    def chance(self, path: list, player: int, names: list[str]) -> None:
        """The facts of a chance node: its outcomes, whose totals take ``player``'s view."""
        self.record({"node": path, "player": player, "children": names, "chance": True, "terminal": False})

    def simulation(self, path: list, returns: Sequence[float]) -> None:
        """``{"path": path, "returns": returns}``: one simulation, written without building a dict."""
        self._write(f'{{"path": {json.dumps(path)}, "returns": {json.dumps(list(returns))}}}\n')
