"""When a running search stops, and how it reports progress: one rule for every search in the package.

A search stops after its simulation budget, after its time budget, or when asked to
(``should_stop``); it reports ``progress(done, simulations)`` at most every
:data:`PROGRESS_INTERVAL` seconds while it runs and once when it ends.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

MAX_SIMULATIONS = 1_000_000
MAX_SECONDS = 600.0
PROGRESS_INTERVAL = 0.1  # seconds between progress calls


def check_budget(simulations: int | None, seconds: float | None) -> None:
    """Raises ValueError unless the budget is 1..1,000,000 simulations and/or 0 < seconds <= 600."""
    if simulations is None and seconds is None:
        raise ValueError("give a budget: a number of simulations, a number of seconds, or both")
    if simulations is not None:
        if isinstance(simulations, bool) or not isinstance(simulations, int):
            raise ValueError(f"simulations must be a whole number, got {simulations!r}")
        if not 1 <= simulations <= MAX_SIMULATIONS:
            raise ValueError(f"simulations must be from 1 to {MAX_SIMULATIONS:,}, got {simulations:,}")
    if seconds is not None:
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or math.isnan(seconds):
            raise ValueError(f"seconds must be a number, got {seconds!r}")
        if not 0 < seconds <= MAX_SECONDS:
            raise ValueError(f"seconds must be more than 0 and at most {MAX_SECONDS:g} (10 minutes), got {seconds:g}")


class SearchBudget:
    """Counts a search's simulations from its creation: ``while budget.more(): ...; if budget.spent(): break``.

    Attributes:
        done: simulations finished.
        stopped: True when ``should_stop`` ended the search.
    """

    def __init__(self, simulations: int | None, seconds: float | None,
                 progress: Callable[[int, int | None], None] | None = None,
                 should_stop: Callable[[], bool] | None = None, clock: Callable[[], float] = time.perf_counter):
        self.clock = clock  # seconds, read once per simulation (a test may give its own)
        self.start = clock()
        self.deadline = self.start + seconds if seconds is not None else math.inf
        self.simulations = simulations
        self.limit = simulations if simulations is not None else MAX_SIMULATIONS
        self.progress, self.should_stop = progress, should_stop
        self.next_report = self.start + PROGRESS_INTERVAL
        self.done, self.stopped = 0, False

    def more(self) -> bool:
        """Whether the simulation budget allows another simulation."""
        return self.done < self.limit

    def spent(self) -> bool:
        """Count a finished simulation; True when the search must stop now (time, or asked to)."""
        self.done += 1
        now = self.clock()
        if now >= self.deadline:
            return True
        if self.should_stop is not None and self.should_stop():
            self.stopped = True
            return True
        if self.progress is not None and now >= self.next_report:
            self.progress(self.done, self.simulations)
            self.next_report = now + PROGRESS_INTERVAL
        return False

    def interrupted(self) -> bool:
        """Whether the search must end before the simulation under way finishes (time, or asked to)."""
        if self.clock() >= self.deadline:
            return True
        if self.should_stop is not None and self.should_stop():
            self.stopped = True
            return True
        return False

    def finish(self) -> float:
        """The last progress report; returns the seconds the search took."""
        elapsed = self.clock() - self.start
        if self.progress is not None:
            self.progress(self.done, self.simulations)
        return elapsed
