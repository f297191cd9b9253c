"""The engines' analysis formats, told apart by content: one :class:`EngineReader` per format.

Each engine's module (``katago.py``, ``leela_zero.py``, ``lc0_stats.py``) defines its readers; this list
is the only place that names them, in the order their ``looks_like`` is asked.
"""

from __future__ import annotations

from . import katago, lc0_stats, leela_zero
from .engine_analysis import EngineReader

READERS: tuple[EngineReader, ...] = (katago.JSON_READER, katago.STREAM_READER, leela_zero.READER, lc0_stats.READER)


def engine_reader(text: str) -> EngineReader | None:
    """The reader whose format ``text`` is in, None when it is in none of them."""
    return next((reader for reader in READERS if reader.looks_like(text)), None)
