"""Choosing C: the C control (a slider sized to the scores, an exact box, where the path changes, a
drag followed in the browser), the selected path it decides, and the live C line over C-axis charts.

May import common and setup.
"""
