"""SQLite files that several server threads and processes open at once (the input store, the arena's results).

Rule: every connection puts the file in WAL mode first, waiting while another process does the
same, and a failure reaches the caller as :class:`StoreError`, a sentence, never a raw sqlite3 error.
"""

from __future__ import annotations

import sqlite3
import time


class StoreError(Exception):
    """A store could not save or read; the message says why in words."""


def use_wal(connection: sqlite3.Connection, wait: float = 30.0) -> None:
    """Put the database in WAL mode (it stays so in the file), waiting while another process does.

    Switching the mode needs an exclusive lock and SQLite answers "database is locked" at once,
    without the connection's busy timeout, when several processes open a new store together.
    """
    deadline = time.monotonic() + wait
    while connection.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
        try:
            connection.execute("PRAGMA journal_mode=WAL")
        except sqlite3.OperationalError as error:
            if "locked" not in str(error).lower() or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def failure_words(error: sqlite3.Error, store: str, things: str) -> str:
    """What a failed operation on ``store`` (which keeps ``things``) tells a person: a full disk by
    name, else SQLite's own words."""
    if "full" in str(error).lower():
        return f"the disk is full: {things} cannot be saved"
    return f"{store} failed: {error}"
