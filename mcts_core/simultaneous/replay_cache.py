"""What a decoupled tree keeps of its replays (regret matching and EXP3 states, per node and γ).

A read input, and so its decoupled tree, is shared by every app session that opens it, and a γ
slider asks for a new replay at every value it passes: the cache is locked and holds at most
:data:`MAX_ENTRIES` replays and :data:`MAX_BYTES` (estimated), the least recently used leaving first.
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from typing import Any

MAX_ENTRIES = 256
MAX_BYTES = 16 * 2**20
KEY_BYTES = 200  # a key: a tag, a node number and a scoring


def size_of(value: Any) -> int:
    """Bytes held by a replay: lists, tuples and slotted objects (a RegretState) followed down."""
    size = sys.getsizeof(value)
    if isinstance(value, (list, tuple)):
        size += sum(size_of(item) for item in value)
    elif hasattr(value, "__slots__"):
        size += sum(size_of(getattr(value, name)) for name in value.__slots__ if hasattr(value, name))
    return size


class ReplayCache:
    """A locked, bounded mapping of replays (``get`` and ``cache[key] = value``), least recently used out."""

    def __init__(self, max_entries: int = MAX_ENTRIES, max_bytes: int = MAX_BYTES):
        self.max_entries, self.max_bytes = max_entries, max_bytes
        self._entries: OrderedDict[Any, tuple[Any, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, key: Any, default: Any = None) -> Any:
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                return default
            self._entries.move_to_end(key)
            return found[0]

    def __setitem__(self, key: Any, value: Any) -> None:
        size = size_of(value) + KEY_BYTES
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            if size > self.max_bytes:
                return  # larger than the whole cache: not kept
            self._entries[key] = (value, size)
            self._bytes += size
            while len(self._entries) > self.max_entries or self._bytes > self.max_bytes:
                self._bytes -= self._entries.popitem(last=False)[1][1]

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def nbytes(self) -> int:
        """The estimated bytes the kept replays hold."""
        return self._bytes
