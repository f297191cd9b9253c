"""Inputs saved by the hash of their bytes, in SQLite under the data folder, so links to them work later.

An input's id is the SHA-256 of its bytes (hex): the same input always gets the same id, ids say
nothing about each other or about files on the server, and a link cannot name what was never
saved. The database runs in WAL mode, every write is one transaction, and each call opens its own
connection, so several server threads and processes can share it and a crash leaves no half-written
input. The store keeps at most ``max_bytes``: saving beyond that forgets the inputs opened least
recently; a single input larger than ``max_input_bytes`` is refused with a message.

What the store says of an input comes from its content only (``about``: its kind and size in
words, "JSON Lines log, 3,000 simulations, 2 players"), the same whoever saves it: a file name
belongs to the session that uploaded the file, and the store keeps no name anyone gave. Stores
written before this rule had names in that column; opening one blanks them once.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ..common.sqlite_files import StoreError, failure_words, use_wal
from .data_folder import data_folder

MAX_INPUT_BYTES = 200 * 2**20  # the uploader's limit
STORE_BYTES = int(float(os.environ.get("MCTS_EXPLORER_STORE_MB", "2048")) * 2**20)
# The column ``name`` holds ``about`` (it held the name a user gave up to schema version 0).
_SCHEMA = """
CREATE TABLE IF NOT EXISTS inputs (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    size INTEGER NOT NULL,
    saved REAL NOT NULL,
    opened REAL NOT NULL,
    data BLOB NOT NULL
)
"""


SCHEMA_VERSION = 1  # 1: the second column says what the input is (about), never a name a user gave


@dataclass(frozen=True)
class StoredInput:
    """An input's id, what it is in words from its content ("" until a session read it) and its size in bytes."""

    id: str
    about: str
    size: int


def input_id(data: bytes) -> str:
    """The id an input with these bytes has: its SHA-256, hex."""
    return hashlib.sha256(data).hexdigest()


def is_input_id(text: str) -> bool:
    """Whether ``text`` has the form of an input id (64 lowercase hex digits)."""
    return len(text) == 64 and all(ch in "0123456789abcdef" for ch in text)


class InputStore:
    """The saved inputs (see the module docstring)."""

    def __init__(self, path: Path | None = None, *, max_bytes: int = STORE_BYTES, max_input_bytes: int = MAX_INPUT_BYTES):
        self.path = path or data_folder() / "inputs.sqlite3"
        self.max_bytes, self.max_input_bytes = max_bytes, max_input_bytes

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            connection = sqlite3.connect(self.path, timeout=30)
        except (OSError, sqlite3.Error) as error:
            raise StoreError(f"the input store at the data folder cannot be opened: {error}") from None
        try:
            use_wal(connection)
            connection.execute(_SCHEMA)
            _upgrade(connection)
            yield connection
        except sqlite3.Error as error:
            raise StoreError(failure_words(error, "the input store", "inputs")) from None
        finally:
            connection.close()

    def save(self, data: bytes, about: str = "") -> str:
        """Save an input (once: saving the same bytes again marks it opened) with what it is in words,
        ``about`` (from its content; "" when not known yet); returns its id.

        Raises:
            StoreError: the input is larger than the limit, the disk is full, or the store fails.
        """
        if len(data) > self.max_input_bytes:
            raise StoreError(
                f"the input is {len(data) / 2**20:.0f} MB; inputs up to {self.max_input_bytes // 2**20} MB are saved"
            )
        key = input_id(data)
        now = time.time()
        with self._connection() as connection, connection:  # one transaction
            if not self._reopened(connection, key, about, now):
                connection.execute(
                    "INSERT INTO inputs (id, name, size, saved, opened, data) VALUES (?, ?, ?, ?, ?, ?)",
                    (key, about, len(data), now, now, sqlite3.Binary(data)),
                )
                self._forget_beyond_limit(connection, keep=key)
        return key

    def reopen(self, key: str, about: str = "") -> bool:
        """Mark a saved input opened (as :meth:`save` does, without its bytes), noting ``about`` if the
        store has no words for it yet; False when the store does not have it.

        Raises:
            StoreError: the store fails.
        """
        with self._connection() as connection, connection:
            return self._reopened(connection, key, about, time.time())

    @staticmethod
    def _reopened(connection: sqlite3.Connection, key: str, about: str, now: float) -> bool:
        """Mark ``key`` opened, with ``about`` where it had no words yet. False when it is not saved."""
        return connection.execute(
            "UPDATE inputs SET opened = ?, name = CASE WHEN name = '' THEN ? ELSE name END WHERE id = ?",
            (now, about, key),
        ).rowcount > 0

    def _forget_beyond_limit(self, connection: sqlite3.Connection, keep: str) -> None:
        """Forget the inputs opened least recently until the store is within its size."""
        total = connection.execute("SELECT COALESCE(SUM(size), 0) FROM inputs").fetchone()[0]
        if total <= self.max_bytes:
            return
        for key, size in connection.execute("SELECT id, size FROM inputs WHERE id != ? ORDER BY opened", (keep,)).fetchall():
            connection.execute("DELETE FROM inputs WHERE id = ?", (key,))
            total -= size
            if total <= self.max_bytes:
                break

    def load(self, key: str) -> tuple[bytes, str] | None:
        """The bytes of a saved input and what it is in words, or None when the store does not have it."""
        if not is_input_id(key):
            return None
        with self._connection() as connection, connection:
            row = connection.execute("SELECT data, name FROM inputs WHERE id = ?", (key,)).fetchone()
            if row is not None:
                connection.execute("UPDATE inputs SET opened = ? WHERE id = ?", (time.time(), key))
        return (bytes(row[0]), row[1]) if row is not None else None

    def describe(self, keys: list[str]) -> list[StoredInput]:
        """What the store has of these ids, in the order given (missing ones left out)."""
        wanted = [key for key in keys if is_input_id(key)]
        if not wanted:
            return []
        with self._connection() as connection:
            rows = connection.execute(
                f"SELECT id, name, size FROM inputs WHERE id IN ({', '.join('?' * len(wanted))})", wanted
            ).fetchall()
        found = {row[0]: StoredInput(*row) for row in rows}
        return [found[key] for key in wanted if key in found]


def _upgrade(connection: sqlite3.Connection) -> None:
    """Bring a store written by an older version to :data:`SCHEMA_VERSION` (once per file)."""
    if connection.execute("PRAGMA user_version").fetchone()[0] >= SCHEMA_VERSION:
        return
    with connection:  # one transaction: the names users gave go, and the version says so
        connection.execute("UPDATE inputs SET name = ''")
        connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
