"""A process-wide least-recently-used cache bounded by entries and by bytes, safe across sessions' threads."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

Value = TypeVar("Value")


class BoundedLRU(Generic[Value]):
    """Keeps at most ``capacity`` values and ``max_bytes`` bytes (as ``size_of`` counts them),
    forgetting the least recently used first; the newest value is kept whatever its size."""

    def __init__(self, capacity: int, max_bytes: int, size_of: Callable[[Value], int]):
        self.capacity, self.max_bytes, self.size_of = capacity, max_bytes, size_of
        self.lock = threading.Lock()
        self.entries: OrderedDict[Hashable, Value] = OrderedDict()
        self.sizes: dict[Hashable, int] = {}

    def get(self, key: Hashable) -> Value | None:
        with self.lock:
            if key in self.entries:
                self.entries.move_to_end(key)
            return self.entries.get(key)

    def put(self, key: Hashable, value: Value) -> None:
        with self.lock:
            self.entries[key] = value
            self.entries.move_to_end(key)
            self.sizes[key] = self.size_of(value)
            while len(self.entries) > 1 and (
                len(self.entries) > self.capacity or sum(self.sizes.values()) > self.max_bytes
            ):
                oldest, _ = self.entries.popitem(last=False)
                del self.sizes[oldest]
