"""Long work in the background: a thread the page polls for progress, with a Stop that really stops.

A Streamlit button cannot interrupt a script that is busy computing, so long work (a search, an
arena grid) runs in a daemon thread; the page's fragment polls it a few times a second for a
progress bar, and Stop sets an event the work checks after every step. A page keeps its latest job
with :func:`keep`; it survives navigation, and another page may read it (Strength offers Search's).
"""

from __future__ import annotations

import threading
import time
import traceback
from collections.abc import Callable
from typing import Any

import streamlit as st

from mcts_core.common import StoreError
from ui.common import state

# Session-state keys this module owns.
LATEST_JOB = state.key_family("_{}_job")  # a page's latest job, by the page's name


class BackgroundJob:
    """Work running in a daemon thread.

    Attributes:
        done, total: steps finished and steps to do (the work's progress callback writes them).
        stop: set by a Stop button; the work polls it.
        result: what the work returned, once it ended without an error.
        error: the problem as a sentence (a ValueError's message is the core's own), or None.
        started: the monotonic time it started.
    """

    def __init__(self, work: Callable[[Callable[[int, int | None], None], Callable[[], bool]], Any], name: str):
        """Start ``work(progress, should_stop)`` in a thread."""
        self.done, self.total = 0, None
        self.stop = threading.Event()
        self.result: Any = None
        self.error: str | None = None
        self.started = time.monotonic()
        self._work = work
        self.thread = threading.Thread(target=self._run, name=name, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.result = self._work(self._progress, self.stop.is_set)
        except (ValueError, StoreError) as error:  # the core's sentences: a bad game, position or budget; a store that fails
            self.error = str(error)
        except Exception as error:  # noqa: BLE001 - shown on the page rather than lost in a thread
            traceback.print_exc()
            self.error = f"it failed: {type(error).__name__}: {error}"

    def _progress(self, done: int, total: int | None) -> None:
        self.done, self.total = done, total

    @property
    def running(self) -> bool:
        return self.thread.is_alive()


def keep(page: str, job: BackgroundJob) -> None:
    """Keep ``job`` as ``page``'s latest job."""
    st.session_state[LATEST_JOB.format(page)] = job


def latest(page: str) -> BackgroundJob | None:
    """``page``'s latest job, None before its first."""
    return st.session_state.get(LATEST_JOB.format(page))
