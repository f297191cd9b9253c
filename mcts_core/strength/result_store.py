"""Arena games and SPSA steps on disk (SQLite), so finished games reappear at once and an interrupted run resumes.

Every finished game is stored under its key: the game (its full string with parameters), the start
position (as action ids), the rule with its settings (canonical JSON), the opponent and the seed,
then the simulations per search, C and the game's index. Rows are made from stored games, so a
run of more games, an SPRT or a tuner reuses every game played before with the same settings.
The file is in WAL mode, and every call opens its own connection and writes in one transaction,
so threads and processes may share the file. An SPSA run's iterations are stored in ``spsa_steps``
under the run's settings as canonical JSON (:mod:`.spsa_games`), one row per iteration with its
values as JSON (floats in ``repr``, read back bit for bit). (The tables of earlier versions, played under other
seedings, are left as they were: ``arena_rows``, rows of whole series; ``arena_games``, games whose
two sides shared one RNG.)
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..common.sqlite_files import StoreError, failure_words, use_wal
from ..inputs.data_folder import data_folder
from .arena_games import GameResult
from .spsa import SpsaStep

FILE_NAME = "arena.sqlite3"
KEY_COLUMNS = ("game", "moves", "rule", "opponent", "seed")
GAME_COLUMNS = ("simulations", "c", "game_index", "seat", "returns", "entropy", "depth", "top_share")
SCHEMA = """
CREATE TABLE IF NOT EXISTS arena_games_v2 (
    game TEXT NOT NULL, moves TEXT NOT NULL, rule TEXT NOT NULL, opponent TEXT NOT NULL, seed INTEGER NOT NULL,
    simulations INTEGER NOT NULL, c REAL NOT NULL, game_index INTEGER NOT NULL,
    seat INTEGER NOT NULL, returns TEXT NOT NULL, entropy REAL, depth INTEGER, top_share REAL,
    PRIMARY KEY (game, moves, rule, opponent, seed, simulations, c, game_index)
)
"""
SPSA_SCHEMA = """
CREATE TABLE IF NOT EXISTS spsa_steps (
    run TEXT NOT NULL, k INTEGER NOT NULL, theta TEXT NOT NULL, plus TEXT NOT NULL, minus TEXT NOT NULL,
    result INTEGER NOT NULL, after TEXT NOT NULL,
    PRIMARY KEY (run, k)
)
"""


@dataclass(frozen=True)
class ArenaKey:
    """What an arena game's result depends on, besides its budget, C and index."""

    game: str
    moves: tuple[int, ...]
    rule: str  # the rule and its settings as canonical JSON (:func:`canonical_rule`)
    opponent: str
    seed: int

    def columns(self) -> tuple:
        """The key as stored, in :data:`KEY_COLUMNS` order."""
        return (self.game, json.dumps(list(self.moves)), self.rule, self.opponent, self.seed)


def canonical_rule(rule: str, settings: Mapping[str, Any]) -> str:
    """The rule and its settings as JSON with sorted keys (per-move values sorted too)."""
    return json.dumps({"rule": rule, "settings": settings}, sort_keys=True, default=dict)


class ResultStore:
    """Arena games in a SQLite file: ``<data folder>/arena.sqlite3`` unless a path is given."""

    def __init__(self, path: Path | str | None = None):
        self.path = Path(path) if path is not None else data_folder() / FILE_NAME
        with self._connection() as connection:
            connection.execute(SCHEMA)
            connection.execute(SPSA_SCHEMA)

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

    def save(self, key: ArenaKey, results: Iterable[GameResult]) -> None:
        """Stores these games under ``key`` (a game stored before is replaced by the same result)."""
        names = (*KEY_COLUMNS, *GAME_COLUMNS)
        rows = [(*key.columns(), r.simulations, r.c, r.index, r.seat, json.dumps(r.returns),
                 *(r.first_search or (None, None, None))) for r in results]
        if not rows:
            return
        with self._connection() as connection:
            connection.executemany(
                f"INSERT OR REPLACE INTO arena_games_v2 ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})", rows)

    def load(self, key: ArenaKey, simulations: int, c: float) -> dict[int, GameResult]:
        """The games stored under ``key`` at this budget and C, by index."""
        where = " AND ".join(f"{name} = ?" for name in (*KEY_COLUMNS, "simulations", "c"))
        with self._connection() as connection:
            found = connection.execute(
                f"SELECT game_index, seat, returns, entropy, depth, top_share FROM arena_games_v2 WHERE {where}",
                (*key.columns(), simulations, c),
            ).fetchall()
        return {
            index: GameResult(c, simulations, index, seat, tuple(json.loads(returns)),
                              None if entropy is None else (entropy, depth, top_share))
            for index, seat, returns, entropy, depth, top_share in found
        }

    def save_spsa_step(self, run: str, step: SpsaStep) -> None:
        """Stores one SPSA iteration under ``run`` (the run's settings as canonical JSON)."""
        with self._connection() as connection:
            connection.execute(
                "INSERT OR REPLACE INTO spsa_steps (run, k, theta, plus, minus, result, after) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (run, step.k, *(json.dumps(values) for values in (step.theta, step.plus, step.minus)), step.result,
                 json.dumps(step.after)))

    def load_spsa_steps(self, run: str) -> list[SpsaStep]:
        """The iterations stored under ``run`` from the first on, up to the first one missing."""
        with self._connection() as connection:
            found = connection.execute(
                "SELECT k, theta, plus, minus, result, after FROM spsa_steps WHERE run = ? ORDER BY k", (run,)).fetchall()
        steps = []
        for k, theta, plus, minus, result, after in found:
            if k != len(steps) + 1:
                break
            steps.append(SpsaStep(k, *(tuple(json.loads(values)) for values in (theta, plus, minus)), result,
                                  tuple(json.loads(after))))
        return steps
