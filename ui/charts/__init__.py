"""Every Altair chart the pages show, built from core results: the pages only place them. One module
per product area (``sweep_charts``, ``strength_charts``, ...); ``axes`` holds what charts on several
pages share.

May import common and c (the live C line's chart metadata).
"""
