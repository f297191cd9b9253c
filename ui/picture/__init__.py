"""The tree as the pages show it: the interactive picture (graphviz's SVG in a component), the
outline for trees too big to draw, the children's term table, and the drawn set under the limits.

May import common.
"""
