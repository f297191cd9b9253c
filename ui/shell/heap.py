"""The server process's garbage-collector setting: imported libraries frozen out of every collection."""

import gc
import threading

_lock = threading.Lock()
_frozen = False


def freeze_libraries() -> None:
    """Imports the libraries the pages use, then freezes every object alive now, once per process.

    A full collection (Python's own, and Streamlit's after every script run where
    ``runner.postScriptGC`` is on) walks every object the collector tracks: with pandas, pyarrow and
    altair imported, about 130,000 (45 ms on this machine), a third of a C slider round trip. Those
    objects live as long as the process, so the collector need never walk them; objects made later
    (inputs, trees, tables) are collected as before.
    """
    global _frozen
    with _lock:
        if _frozen:
            return
        import altair  # noqa: F401  (the pages import it later; frozen with the rest)
        import numpy  # noqa: F401
        import pandas  # noqa: F401
        import pyarrow  # noqa: F401

        gc.collect()  # garbage made by the imports is freed, not frozen
        gc.freeze()
        _frozen = True
