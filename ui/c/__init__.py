"""Choosing C: the C control (a slider sized to the scores, an exact box, where the path changes, a
drag followed in the browser), the rule's cached sweep it is sized from, the selected path it decides,
the texts that follow a drag (the path, its length, "C = x", Compare's verdict) and the live C line
over C-axis charts.

May import common and setup.
"""
