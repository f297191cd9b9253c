"""Every Altair chart the pages show, built from core results: the pages only place them.

May import common and c (the live C line's chart metadata).
"""
