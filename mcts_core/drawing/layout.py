"""Where each drawn node goes: a layered tree whose main line runs straight, computed in O(n · depth).

``dot`` placed a deep selected path's nodes thousands of points apart (ranks of hundreds of boxes,
each path node wherever crossing minimisation put it) and took seconds on thousands of nodes. Here
the drawing's main line (the selected path, continued by the most visited child) is one straight
row, each of its nodes' children stand next to its next node (the choices the path faced, in tie
order across the row), and everything else hangs outwards from the line as tidy subtrees (each
aligned on its own most visited line, packed against the subtrees laid before it,
Reingold-Tilford style). Graphviz still draws the picture, at these positions (``layout=nop2``).

Depth runs along ``x`` (left to right) or ``y`` (top down, graphviz's ``rankdir=TB``); all nodes of one
depth share a column (a row top down), as in ``dot``. Sizes are in points, from Helvetica's widths
(:func:`text_width`): browsers draw the labels in Helvetica or a font with its widths (Liberation Sans).
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from ..model.tree import ROOT, Tree

# Helvetica's advance widths (AFM, thousandths of an em) of the printable ASCII characters.
_ASCII_WIDTHS = (
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,  # space to /
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,  # 0 to ?
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,  # @ to O
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,  # P to _
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,  # ` to o
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,  # p to ~
)  # fmt: skip
# The few other characters our labels write; anything else counts a full em (CJK is that wide).
_OTHER_WIDTHS = {"μ": 576, "–": 556, "…": 1000, "■": 800, "✓": 850, "∞": 713, "\u00a0": 278}
LINE_HEIGHT = 1.2  # a label line's height, times the font size (graphviz's own metrics: graphviz_run.py)
FONT_SIZE = 12.0


# A big drawing's lines repeat ("n=12", "μ=0.50", "+3 more,"): 24,000 lines of a 5,000-node drawing
# are 2,504 different ones.
@functools.lru_cache(maxsize=1 << 16)
def text_width(text: str, font_size: float = FONT_SIZE) -> float:
    """The width in points of one line of ``text`` in Helvetica at ``font_size``."""
    units = 0
    for char in text:
        code = ord(char)
        units += _ASCII_WIDTHS[code - 32] if 32 <= code < 127 else _OTHER_WIDTHS.get(char, 1000)
    return units * font_size / 1000


# Box margins (points) around a label, and the smallest box, as graphviz's defaults would make them.
MARGIN_X = 4.0
MARGIN_Y = 4.0
MIN_WIDTH = 36.0
MIN_HEIGHT = 36.0


def box_size(lines: Sequence[str], font_size: float = FONT_SIZE) -> tuple[float, float]:
    """(width, height) in points of a box holding these label lines, with a little room to spare
    (the browser's font may run a few percent wider than Helvetica's metrics)."""
    width = max((text_width(line, font_size) for line in lines), default=0.0) * 1.04 + 2 * MARGIN_X
    height = len(lines) * font_size * LINE_HEIGHT + 2 * MARGIN_Y
    return max(width, MIN_WIDTH), max(height, MIN_HEIGHT)


NODE_GAP = 8.0  # points between neighbouring boxes of one column
# Points between depths, where the edges run: an edge needs its bend and its arrowhead (ARROW).
# Left to right, 12 keeps a 12-move path's 13 columns inside a 1366-pixel screen's picture at 12 px
# labels (24 fitted 10); top down (at most 3 levels, see ``dot.arrange``) rows keep more air.
COLUMN_GAP = 12.0
ROW_GAP = 24.0
ARROW = 6.0  # points: graphviz's arrowhead at arrowsize 0.6


@dataclass(frozen=True)
class Layout:
    """Positions of a drawing, in points, graphviz's way up (``y`` grows upwards).

    Attributes:
        centres: node (or an extra box's name) -> (x, y) of its box's centre.
        edges: child -> the edge from its parent: cubic Bézier points (``3k + 1`` of them) ending
            where the arrowhead starts, and the arrowhead's point.
    """

    centres: Mapping[int | str, tuple[float, float]]
    edges: Mapping[int, tuple[tuple[tuple[float, float], ...], tuple[float, float]]]


def main_line(tree: Tree, drawn: Collection[int], lines: Sequence[Sequence[int]] = ()) -> list[int]:
    """The straight line from the root to a drawn leaf: at each node the child the first of
    ``lines`` through the node takes, else its most visited drawn child (tie order breaks ties)."""
    wanted = [list(line) for line in lines if line]
    line = [ROOT]
    while True:
        kids = [kid for kid in tree.tie_order(line[-1]) if kid in drawn]
        if not kids:
            return line
        line.append(_preferred(tree, line[-1], kids, wanted, len(line)))


def _preferred(tree: Tree, node: int, kids: Sequence[int], lines: Sequence[Sequence[int]], depth: int) -> int:
    """The child continuing ``node``'s line (``node`` at ``depth - 1``): a line's, else the most visited."""
    for line in lines:
        if len(line) > depth and line[depth - 1] == node and line[depth] in kids:
            return line[depth]
    return max(kids, key=lambda kid: tree.visits[kid])  # the first of equals: kids come in tie order


def tree_layout(
    tree: Tree,
    drawn: Collection[int],
    sizes: Mapping[int, tuple[float, float]],
    *,
    lines: Sequence[Sequence[int]] = (),
    left_to_right: bool = True,
    extra: Sequence[tuple[str, tuple[float, float]]] = (),
) -> Layout:
    """Lay out the drawn nodes with the main line straight (see the module docstring).

    Args:
        tree: the tree.
        drawn: the nodes to place (with their parents: a node whose parent is not drawn is left out).
        sizes: each drawn node's (width, height) in points.
        lines: node paths from the root, most important first (the selected path first): the main
            line follows the first as far as it is drawn, and a node with a child on any of them
            lines up with that child (else with its most visited child).
        left_to_right: depth runs along x (else top down).
        extra: named boxes (a colour key) stacked in order before the root, in its column, on
            the side where its first children go.
    """
    order = _breadth_first(tree, drawn)
    kids = {}
    depth_of = {ROOT: 0}
    for node in order:
        kids[node] = [kid for kid in tree.tie_order(node) if kid in drawn]
        for kid in kids[node]:
            depth_of[kid] = depth_of[node] + 1
    wanted = [list(line) for line in lines if line]
    # Across the direction of growth a box takes its height (left to right) or its width.
    cross = 1 if left_to_right else 0
    half = {node: sizes[node][cross] / 2 for node in kids}
    offset: dict[int, float] = {}  # node -> its centre across, from its parent's line
    bend: dict[int, float] = {}  # node -> where its children's line is, from the node (0 if absent)
    spine = main_line(tree, kids, wanted)

    # Off the main line: each child's subtree is packed against its earlier siblings' (contours
    # per depth) and a node sits on its preferred child's line. Post-order: no recursion.
    contours: dict[int, tuple[list[float], list[float]]] = {}  # node -> (lowest, highest) edge per depth
    on_spine = set(spine)
    starts = [kid for node in spine for kid in kids[node] if kid not in on_spine]
    for node in _post_order(kids, starts):
        low, high = [-half[node]], [half[node]]
        if kids[node]:
            below_low, below_high = _pack(tree, node, kids[node], contours, offset, wanted, depth_of[node] + 1)
            low += below_low
            high += below_high
        contours[node] = (low, high)

    # The main line at 0. Each of its nodes' other children stands next to the line's next node,
    # in tie order outwards, and the subtree under it goes outwards past whatever the deeper part
    # of the line already holds: every node of the line has its choices beside the line.
    deepest = max(depth_of.values())
    upper = [0.0] * (deepest + 1)  # the outermost edge used at each depth, before the line (negative)
    lower = [0.0] * (deepest + 1)  # and after it
    for depth, node in enumerate(spine):
        upper[depth], lower[depth] = -half[node], half[node]
    for depth in range(len(spine) - 2, -1, -1):
        node = spine[depth]
        index = kids[node].index(spine[depth + 1])
        for side, edge, siblings in ((-1, upper, kids[node][index - 1 :: -1] if index else []),
                                     (1, lower, kids[node][index + 1 :])):  # fmt: skip
            for kid in siblings:
                centre = edge[depth + 1] + side * (NODE_GAP + half[kid])
                offset[kid] = centre
                edge[depth + 1] = centre + side * half[kid]
                low, high = contours[kid]
                inner, outer = (high, low) if side < 0 else (low, high)
                line = centre
                for level in range(1, len(low)):
                    clear = edge[depth + 1 + level] + side * NODE_GAP - inner[level]
                    line = min(line, clear) if side < 0 else max(line, clear)
                bend[kid] = line - centre
                for level in range(1, len(low)):
                    edge[depth + 1 + level] = line + outer[level]
    for depth, node in enumerate(spine):
        offset[node] = 0.0
    for name, size in reversed(extra):  # the last next to the root: they read in order
        half[name] = size[cross] / 2
        centre = upper[0] - NODE_GAP - half[name]
        offset[name] = centre
        upper[0] = centre - half[name]
    return _place(order, kids, depth_of, sizes, dict(extra), half, offset, bend, left_to_right)


def _breadth_first(tree: Tree, drawn: Collection[int]) -> list[int]:
    """The drawn nodes reachable from the root through drawn nodes, parents first."""
    order = [ROOT]
    for node in order:
        order.extend(kid for kid in tree.children[node] if kid in drawn)
    return order


def _post_order(kids: Mapping[int, list[int]], starts: list[int]) -> list[int]:
    """Every node under ``starts`` (included), children before their parent."""
    order, stack = [], list(starts)
    while stack:
        node = stack.pop()
        order.append(node)
        stack.extend(kids[node])
    order.reverse()
    return order


def _pack(tree, node, children, contours, offset, lines, depth) -> tuple[list[float], list[float]]:
    """Pack ``node``'s children's subtrees side by side, in order, each as near its neighbour as
    their contours allow; set each child's offset from ``node`` (which lines up with its preferred
    child) and return the children's contour from ``node``'s line (consumed contours are dropped)."""
    places = []
    low: list[float] = []
    high: list[float] = []
    for kid in children:
        kid_low, kid_high = contours.pop(kid)
        place = 0.0
        if low:
            place = max(high[level] - kid_low[level] for level in range(min(len(low), len(kid_low)))) + NODE_GAP
        places.append(place)
        for level, (a, b) in enumerate(zip(kid_low, kid_high)):
            if level < len(low):
                low[level] = min(low[level], place + a)
                high[level] = max(high[level], place + b)
            else:
                low.append(place + a)
                high.append(place + b)
    anchor = places[children.index(_preferred(tree, node, children, lines, depth))]
    for kid, place in zip(children, places):
        offset[kid] = place - anchor
    return [value - anchor for value in low], [value - anchor for value in high]


def _place(order, kids, depth_of, sizes, extra_sizes, half, offset, bend, left_to_right) -> Layout:
    """Absolute positions (columns by depth) and the edges' curves, in graphviz's coordinates."""
    along = 0 if left_to_right else 1
    sizes = {**sizes, **extra_sizes}
    across = {ROOT: 0.0}
    for node in order:  # parents first
        for kid in kids[node]:
            across[kid] = across[node] + bend.get(node, 0.0) + offset[kid]
    for name in extra_sizes:
        across[name] = offset[name]
    # Columns: as long as the longest box of their depth, a gap apart; boxes centred in them.
    deepest = max(depth_of.values())
    length = [0.0] * (deepest + 1)
    for node, depth in depth_of.items():
        length[depth] = max(length[depth], sizes[node][along])
    for name in extra_sizes:
        length[0] = max(length[0], sizes[name][along])
    gap = COLUMN_GAP if left_to_right else ROW_GAP
    start = [0.0] * (deepest + 1)
    for depth in range(1, deepest + 1):
        start[depth] = start[depth - 1] + length[depth - 1] + gap
    middle = [start[depth] + length[depth] / 2 for depth in range(deepest + 1)]
    top = min(across[node] - half[node] for node in across)

    def point(a: float, c: float) -> tuple[float, float]:
        # graphviz's y grows upwards: the first children go above (left to right) or left (top down).
        c -= top
        return (a, -c) if left_to_right else (c, -a)

    centres = {node: point(middle[depth_of.get(node, 0)], across[node]) for node in across}
    edges = {}
    for node, children in kids.items():
        depth = depth_of[node]
        leave = middle[depth] + sizes[node][along] / 2
        column_end = start[depth] + length[depth]
        for kid in children:
            arrive = middle[depth + 1] - sizes[kid][along] / 2
            a, b = across[node], across[kid]
            mid = (column_end + start[depth + 1]) / 2
            curve = [(leave, a)]
            if column_end > leave:
                _straight(curve, (column_end, a))
            bend_end = start[depth + 1] - ARROW if arrive - ARROW <= start[depth + 1] else start[depth + 1]
            curve += [(mid, a), (mid, b), (bend_end, b)]
            if arrive - ARROW > bend_end:
                _straight(curve, (arrive - ARROW, b))
            edges[kid] = (tuple(point(*p) for p in curve), point(arrive, b))
    return Layout(centres, edges)


def _straight(curve: list[tuple[float, float]], to: tuple[float, float]) -> None:
    """Continue a Bézier curve with a straight piece to ``to`` (its control points at its ends, as
    graphviz writes one: the SVG then says it as a line)."""
    curve += [curve[-1], to, to]
