"""Giving freed memory back to the operating system after large transient allocations.

Reading and building a large log allocates temporaries several times the size of what is kept
(numpy arrays, pyarrow buffers). Once freed, glibc's heap and pyarrow's pool keep that memory for
reuse, so a server's resident memory stays at the peak of every large upload. Trimming after such
work returns it.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import dataclasses
import sys
from array import array


def return_free_memory() -> None:
    """Hand memory freed by Python, numpy and pyarrow back to the OS (a no-op where unsupported)."""
    pyarrow = sys.modules.get("pyarrow")
    if pyarrow is not None:
        pyarrow.default_memory_pool().release_unused()
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
            libc.malloc_trim(0)
        except (OSError, AttributeError):  # not glibc: nothing to trim
            pass


def columns_bytes(*records) -> int:
    """The bytes held by the array columns of dataclass records (a Tree, Playouts): their footprint."""
    total = 0
    for record in records:
        if record is None:
            continue
        for field in dataclasses.fields(record):
            value = getattr(record, field.name)
            if isinstance(value, array):
                total += len(value) * value.itemsize
            elif isinstance(value, memoryview):
                total += value.nbytes
    return total
