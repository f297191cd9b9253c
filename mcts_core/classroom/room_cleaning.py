"""Idle rooms forgotten on a timer: a room's answers leave the disk within :data:`CLEAN_EVERY_SECONDS`
of its expiry, not only when someone opens a new room. A store with no file yet is left alone (no
room was ever opened: nothing to clean, and no file made for it).

One daemon thread per store file and process does it (a server's sessions share both); several
processes on one file each clean it, harmlessly (a clean is one write transaction).
"""

from __future__ import annotations

import threading
from pathlib import Path

from ..common.sqlite_files import StoreError
from .room_store import RoomStore

CLEAN_EVERY_SECONDS = 600.0  # expired rooms stay on disk at most this long (they are invisible at once)
_cleaning: dict[Path, threading.Event] = {}  # store files cleaned by this process -> what stops it
_starting = threading.Lock()


def clean_on_a_timer(store: RoomStore, every: float = CLEAN_EVERY_SECONDS) -> threading.Event | None:
    """Forget ``store``'s idle rooms now and every ``every`` seconds, in a daemon thread, unless this
    process does so already; returns the event that stops the thread (None: it ran already)."""
    with _starting:
        if store.path in _cleaning:
            return None
        stop = _cleaning[store.path] = threading.Event()

    def clean() -> None:
        while True:
            try:
                if store.path.exists():
                    store.forget_idle()
            except StoreError:
                pass  # the disk failed for a moment: the next round tries again (the pages say so)
            if stop.wait(every):
                _cleaning.pop(store.path, None)
                return

    threading.Thread(target=clean, name="room cleaning", daemon=True).start()
    return stop
