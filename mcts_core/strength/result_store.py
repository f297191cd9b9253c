"""Arena results on disk (SQLite), so a finished grid reappears at once and an interrupted one resumes.

A row is stored under its key: the game (its full string with parameters), the start position (as
action ids), the rule with its settings (canonical JSON), simulations per search, games per C, the
opponent, the seed, and C. The file is in WAL mode, and every call opens its own connection and
writes in one transaction, so threads and processes may share the file.
"""

from __future__ import annotations

import json
import math
import sqlite3
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..common.sqlite_files import StoreError, failure_words, use_wal
from ..inputs.data_folder import data_folder
from .arena import ArenaRow

FILE_NAME = "arena.sqlite3"
KEY_COLUMNS = ("game", "moves", "rule", "simulations", "games", "opponent", "seed")
# The row's own columns; its ``games`` is the key's. NULL stands for NaN (no first search).
ROW_COLUMNS = ("c", "wins", "draws", "losses", "score", "low", "high", "entropy", "depth", "top_share")
SCHEMA = """
CREATE TABLE IF NOT EXISTS arena_rows (
    game TEXT NOT NULL, moves TEXT NOT NULL, rule TEXT NOT NULL, simulations INTEGER NOT NULL,
    games INTEGER NOT NULL, opponent TEXT NOT NULL, seed INTEGER NOT NULL, c REAL NOT NULL,
    wins INTEGER NOT NULL, draws INTEGER NOT NULL, losses INTEGER NOT NULL,
    score REAL NOT NULL, low REAL NOT NULL, high REAL NOT NULL,
    entropy REAL, depth REAL, top_share REAL,
    PRIMARY KEY (game, moves, rule, simulations, games, opponent, seed, c)
)
"""


@dataclass(frozen=True)
class ArenaKey:
    """What an arena row's numbers depend on, C aside."""

    game: str
    moves: tuple[int, ...]
    rule: str  # the rule and its settings as canonical JSON (:func:`canonical_rule`)
    simulations: int
    games: int
    opponent: str
    seed: int

    def columns(self) -> tuple:
        """The key as stored, in :data:`KEY_COLUMNS` order."""
        return (self.game, json.dumps(list(self.moves)), self.rule, self.simulations, self.games,
                self.opponent, self.seed)


def canonical_rule(rule: str, settings: Mapping[str, Any]) -> str:
    """The rule and its settings as JSON with sorted keys (per-move values sorted too)."""
    return json.dumps({"rule": rule, "settings": settings}, sort_keys=True, default=dict)


class ResultStore:
    """Arena rows in a SQLite file: ``<data folder>/arena.sqlite3`` unless a path is given."""

    def __init__(self, path: Path | str | None = None):
        self.path = Path(path) if path is not None else data_folder() / FILE_NAME
        with self._connection() as connection:
            connection.execute(SCHEMA)

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        """A fresh connection whose work is one transaction (committed unless it raised), then closed.

        Raises:
            StoreError: the file cannot be opened or the work failed (in words).
        """
        try:
            connection = sqlite3.connect(self.path, timeout=30)
        except sqlite3.Error as error:
            raise StoreError(f"the arena's result store at {self.path} cannot be opened: {error}") from None
        try:
            use_wal(connection)
            with connection:
                yield connection
        except sqlite3.Error as error:
            raise StoreError(failure_words(error, "the arena's result store", "results")) from None
        finally:
            connection.close()

    def save(self, key: ArenaKey, row: ArenaRow) -> None:
        """Stores ``row`` under ``key``, replacing a row stored for the same C."""
        if row.games != key.games:
            raise ValueError(f"a row of {row.games} games cannot be stored under a key of {key.games}")
        names = (*KEY_COLUMNS, *ROW_COLUMNS)
        with self._connection() as connection:
            connection.execute(
                f"INSERT OR REPLACE INTO arena_rows ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})",
                (*key.columns(), *(getattr(row, name) for name in ROW_COLUMNS)),
            )

    def load(self, key: ArenaKey) -> list[ArenaRow]:
        """The rows stored under ``key``, by C."""
        where = " AND ".join(f"{name} = ?" for name in KEY_COLUMNS)
        with self._connection() as connection:
            found = connection.execute(
                f"SELECT {', '.join(ROW_COLUMNS)} FROM arena_rows WHERE {where} ORDER BY c", key.columns()
            ).fetchall()
        return [_row(dict(zip(ROW_COLUMNS, values)), key.games) for values in found]


def _row(values: dict[str, Any], games: int) -> ArenaRow:
    stats = {name: math.nan if values[name] is None else values[name] for name in ("entropy", "depth", "top_share")}
    return ArenaRow(**{**values, **stats, "games": games})
