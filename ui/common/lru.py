"""A process-wide least-recently-used cache bounded by entries and by bytes, safe across sessions' threads."""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

Value = TypeVar("Value")


class BoundedLRU(Generic[Value]):
    """Keeps at most ``capacity`` values and, when given, ``max_bytes`` bytes (as ``size_of`` counts
    them), forgetting the least recently used first; the newest value is kept whatever its size. A
    value is counted again each time it is read: a value that grows (a cache inside it) is seen growing."""

    def __init__(self, capacity: int, max_bytes: float = math.inf, size_of: Callable[[Value], int] = lambda value: 0):
        self.capacity, self.max_bytes, self.size_of = capacity, max_bytes, size_of
        self.lock = threading.Lock()
        self.entries: OrderedDict[Hashable, Value] = OrderedDict()
        self.sizes: dict[Hashable, int] = {}

    def get(self, key: Hashable) -> Value | None:
        with self.lock:
            value = self.entries.get(key)
            if value is not None:
                self._newest(key, value)
            return value

    def put(self, key: Hashable, value: Value) -> None:
        with self.lock:
            self._newest(key, value)

    def get_or_make(self, key: Hashable, make: Callable[[], Value]) -> Value:
        """The value under ``key``; when there is none, ``make()``'s, kept. It is made outside the
        lock (two threads may both make it; the later is kept), so a slow one blocks no reader."""
        value = self.get(key)
        if value is None:
            value = make()
            self.put(key, value)
        return value

    def _newest(self, key: Hashable, value: Value) -> None:
        """Make ``key`` the most recent, count its size now, and forget the oldest beyond the bounds."""
        self.entries[key] = value
        self.entries.move_to_end(key)
        self.sizes[key] = self.size_of(value)
        while len(self.entries) > 1 and (
            len(self.entries) > self.capacity or sum(self.sizes.values()) > self.max_bytes
        ):
            oldest, _ = self.entries.popitem(last=False)
            del self.sizes[oldest]
