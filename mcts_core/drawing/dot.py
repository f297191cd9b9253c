"""Tree -> graphviz.Digraph, capped so that a large tree still draws in a second or two.

Drawing is split in two so the app can cache the part that does not depend on C:
:func:`visible_nodes` chooses which nodes to draw (budget, depth limit, top-k children by visits);
:func:`render_tree` adds the selected path and the inspected node and emits the picture. A drawn
node whose children are not all drawn counts them on a last line ("+k more, v visits"): a box per
fold doubled the boxes of a capped picture and quadrupled dot's layout time. Every label is escaped: moves
are user text.

To compare two settings, :func:`render_tree` also draws a second selected path (teal, dashed);
nodes and edges on both paths are purple, and an optional legend names the two paths.
"""

from __future__ import annotations

import heapq
import math
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import graphviz
from graphviz import quoting

from ..model.tree import ROOT, Tree
from .layout import MIN_WIDTH, NODE_GAP, Layout, box_size, tree_layout

PATH_COLOR = "#d62728"
PATH_FILL = "#fde0dd"
INSPECTED_COLOR = "#1f77b4"
NODE_FILL = "#f7f7f7"
SECOND_PATH_COLOR = "#00897b"
SECOND_PATH_FILL = "#d7f0ec"
SHARED_COLOR = "#7b3294"
SHARED_FILL = "#ead9f0"

# dot refuses a quoted string over 16,384 bytes: longer move names and paths are cut (each character
# escapes to at most 5 bytes, "&" as "&amp;", or 4 bytes of UTF-8).
LABEL_MOVE_CHARACTERS = 1_000
TOOLTIP_PATH_CHARACTERS = 2_000

# Node styles of the selected path(s), shared by the drawn nodes and the legend's key.
PATH_STYLE = {"color": PATH_COLOR, "fillcolor": PATH_FILL, "penwidth": "2.5", "fontcolor": "#000000"}
SECOND_PATH_STYLE = {
    "color": SECOND_PATH_COLOR, "fillcolor": SECOND_PATH_FILL, "penwidth": "2.5", "style": "rounded,filled,dashed"
}
SHARED_STYLE = {"color": SHARED_COLOR, "fillcolor": SHARED_FILL, "penwidth": "2.5", "fontcolor": "#000000"}


def visible_nodes(
    tree: Tree,
    *,
    budget: int = 300,
    max_depth: int | None = None,
    top_k: int | None = None,
    unvisited: bool = False,
) -> set[int]:
    """Choose at most ``budget`` nodes to draw, most-visited first, connected to the root.

    Args:
        tree: the tree.
        budget: most nodes to draw (the root always is).
        max_depth: deepest level drawn (None: no limit).
        top_k: most children drawn per node (None: all).
        unvisited: also draw children with 0 visits (a log's declared children).
    """
    chosen: set[int] = set()
    visits = tree.visits
    frontier = [(-visits[ROOT], ROOT)]
    while frontier and len(chosen) < max(budget, 1):
        _, node = heapq.heappop(frontier)
        chosen.add(node)
        if max_depth is not None and tree.depth[node] >= max_depth:
            continue
        # The heap orders by (visits, index) whatever the push order: only a top-k cut needs the ranking.
        kids = tree.children[node] if top_k is None else tree.ranked_children(node)[:top_k]
        for kid in kids:
            if unvisited or visits[kid]:
                heapq.heappush(frontier, (-visits[kid], kid))
    return chosen


def path_neighbourhood(tree: Tree, *paths: Sequence[int]) -> set[int]:
    """The nodes on the given paths and every child of those nodes: the choices each path faced.

    A compact alternative to :func:`visible_nodes` when the point is comparing paths: each level
    shows only the siblings selection chose among, however wide the tree is.
    """
    chosen = {ROOT}
    for path in paths:
        for node in path:
            chosen.add(node)
            chosen.update(tree.children[node])
    return chosen


def render_tree(
    tree: Tree,
    visible: Collection[int],
    *,
    path: Sequence[int] = (),
    inspected: int | None = None,
    decimals: int = 2,
    second_path: Sequence[int] = (),
    legend: tuple[str, str] | None = None,
    direction: str = "TB",
    colouring: str = "none",
    tooltips: bool = True,
    lines: Sequence[Sequence[int]] | None = None,
    stacked: bool | None = None,
) -> graphviz.Digraph:
    """Draw the visible nodes, the selected path(s) and the inspected node.

    Args:
        tree: the tree.
        visible: nodes to draw (from :func:`visible_nodes`); the paths and the inspected node's
            ancestors are added so they always show.
        path: selected nodes from the root down, highlighted in red with thick edges.
        inspected: the node whose children the table shows, outlined in blue.
        decimals: digits after the point for means.
        second_path: another setting's selected nodes, highlighted in teal with thick dashed edges;
            nodes and edges on both paths are purple.
        legend: names of ``path`` and ``second_path`` (a newline breaks a long name); when given,
            a key of the colours (and a "both" entry) is drawn beside the tree.
        direction: ``"TB"`` (top down) or ``"LR"`` (left to right).
        colouring: fill nodes by ``"mean"`` (a diverging palette), by ``"visits"``, or ``"none"``;
            a colouring adds a key of its colours.
        tooltips: give nodes graphviz tooltips (an interactive view brings its own).
        lines: None: ``dot`` lays the drawing out. Else node paths from the root, most important
            first, that the drawing keeps straight: the positions come from
            :func:`.layout.tree_layout` (the first line is the main line) and graphviz only draws
            them (``layout=nop2``: seconds faster on thousands of nodes).
        stacked: a label puts one fact on each line (narrow boxes: the main line's, left to right;
            a wide level's, top down across the page); None: when laid out by ``lines`` left to right.

    Returns:
        A Digraph; node ids are ``n<index>`` (keys ``legend_<k>`` and ``key_<k>``), never user
        text. A drawn node whose children are not all drawn counts them on a last label line.
    """
    on_second = set(second_path)
    on_path = set(path) - on_second
    on_both = set(path) & on_second
    on_second -= on_both
    drawn = drawn_nodes(tree, visible, path, second_path, inspected=inspected)

    if stacked is None:
        stacked = lines is not None and direction == "LR"
    order = _depth_first_by_move(tree, drawn)
    labels = {node: _label_lines(tree, node, decimals, _hidden_children(tree, node, drawn), stacked) for node in order}
    fills = node_fills(tree, order, colouring)
    key = colour_key(tree, order, colouring) if fills else []
    layout = None
    if lines is None:
        graph = graphviz.Digraph("mcts", graph_attr={"rankdir": direction, "nodesep": "0.15", "ranksep": "0.35"})
    else:
        graph = graphviz.Digraph("mcts", graph_attr={"layout": "nop2"})
        sizes = {node: box_size(text) for node, text in labels.items()}
        layout = tree_layout(
            tree, drawn, sizes, lines=lines,
            left_to_right=direction == "LR",
            extra=[(f"key_{k}", box_size([label], KEY_FONT_SIZE)) for k, (_, label) in enumerate(key)],
        )
    graph.attr("node", shape="box", style="rounded,filled", fillcolor=NODE_FILL, fontname="Helvetica", fontsize="12")
    graph.attr("edge", color="#999999", arrowsize="0.6")
    # The statements are written here rather than by graph.node/graph.edge, in their format: their
    # per-attribute checks took half the time of a 5,000-node drawing.
    for node in order:
        attributes = _shape(tree, node)
        if node in fills:
            attributes.update(fillcolor=fills[node], fontcolor=FILLED_TEXT, **{"class": "filled"})
        if tooltips:
            attributes["tooltip"] = _tooltip(tree, node)
        if node in on_path:
            attributes.update(PATH_STYLE)
        elif node in on_second:
            attributes.update(SECOND_PATH_STYLE)
        elif node in on_both:
            attributes.update(SHARED_STYLE)
        if node == inspected:
            attributes.update(color=INSPECTED_COLOR, peripheries="2", penwidth="2")
        if layout is not None and not attributes:  # most boxes of a big drawing: written at once
            graph.body.append(_placed_statement(f"n{node}", _label(labels[node]), layout.centres[node], sizes[node]))
        else:
            if layout is not None:
                attributes.update(_placed(layout.centres[node], sizes[node]))
            attributes["label"] = _label(labels[node])
            graph.body.append(_statement(f"n{node}", attributes))
        if node != ROOT:
            parent = tree.parent[node]
            edge = _path_edge(parent, node, on_path, on_second, on_both)
            if layout is not None:
                edge["pos"] = _edge_pos(*layout.edges[node])
            graph.body.append(_statement(f"n{parent} -> n{node}", edge))
    if legend is not None:
        _draw_legend(graph, legend)
    if key:
        _draw_colour_key(graph, key, layout)
    return graph


# Fills for colouring nodes: light enough for dark text in light and dark themes, no red (the
# selected path's colour). Means: orange (low) to purple (high), PuOr; visits: yellow to green.
MEAN_PALETTE = ("#e08214", "#fdb863", "#fee0b6", "#f7f7f7", "#d8daeb", "#b2abd2", "#9e9ac8")
VISITS_PALETTE = ("#ffffe5", "#f7fcb9", "#d9f0a3", "#addd8e", "#78c679", "#41ab5d")
FILLED_TEXT = "#111111"
COLOURINGS = ("none", "mean", "visits")


def colour_scale(tree: Tree, nodes: Collection[int], colouring: str) -> tuple[float, float, float] | None:
    """(low, middle, high) of what the colouring maps: means (middle 0 when they straddle it) or log visits."""
    if colouring == "mean":
        values = [tree.mean(node) for node in nodes if tree.visits[node]]
        if not values:
            return None
        low, high = min(values), max(values)
        return low, 0.0 if low < 0 < high else (low + high) / 2, high
    if colouring == "visits":
        values = [math.log1p(tree.visits[node]) for node in nodes]
        return (min(values), (min(values) + max(values)) / 2, max(values)) if values else None
    return None


def node_fills(tree: Tree, nodes: Collection[int], colouring: str) -> dict[int, str]:
    """Each node's fill colour under a colouring (empty for ``"none"``; unvisited nodes stay plain)."""
    scale = colour_scale(tree, nodes, colouring)
    if scale is None:
        return {}
    low, middle, high = scale
    palette = MEAN_PALETTE if colouring == "mean" else VISITS_PALETTE
    fills = {}
    for node in nodes:
        if colouring == "mean":
            if not tree.visits[node]:
                continue
            value = tree.mean(node)
            # Each side of the middle gets half the palette, so equal distances get equal steps.
            half = len(palette) // 2
            if value >= middle:
                share = (value - middle) / (high - middle) if high > middle else 0.0
                index = half + round(share * half)
            else:
                share = (middle - value) / (middle - low) if middle > low else 0.0
                index = half - round(share * half)
        else:
            value = math.log1p(tree.visits[node])
            share = (value - low) / (high - low) if high > low else 1.0
            index = round(share * (len(palette) - 1))
        fills[node] = palette[min(max(index, 0), len(palette) - 1)]
    return fills


def colour_key(tree: Tree, nodes: Collection[int], colouring: str) -> list[tuple[str, str]]:
    """(colour, label) pairs explaining a colouring, lowest first."""
    scale = colour_scale(tree, nodes, colouring)
    if scale is None:
        return []
    low, middle, high = scale
    if colouring == "mean":
        return [(MEAN_PALETTE[0], f"mean {low:.3g}"), (MEAN_PALETTE[3], f"mean {middle:.3g}"), (MEAN_PALETTE[-1], f"mean {high:.3g}")]
    def visits(log_visits: float) -> str:
        count = round(math.expm1(log_visits))
        return f"{count:,} visit{'' if count == 1 else 's'}"

    return [
        (VISITS_PALETTE[0], visits(low)),
        (VISITS_PALETTE[len(VISITS_PALETTE) // 2], visits(middle)),
        (VISITS_PALETTE[-1], visits(high)),
    ]


KEY_FONT_SIZE = 11


def _draw_colour_key(graph: graphviz.Digraph, entries: Sequence[tuple[str, str]], layout: Layout | None) -> None:
    """A key of a colouring's colours: boxed beside the tree, or placed where the layout put it."""
    if layout is not None:
        for k, (colour, label) in enumerate(entries):
            graph.node(f"key_{k}", label=label, fontsize=str(KEY_FONT_SIZE), fillcolor=colour, fontcolor=FILLED_TEXT,
                       **{"class": "filled"}, **_placed(layout.centres[f"key_{k}"], box_size([label], KEY_FONT_SIZE)))
        return
    with graph.subgraph(name="cluster_colour_key") as key:
        key.attr(label="Colour", fontname="Helvetica", fontsize="11", color="#cccccc", style="rounded")
        for k, (colour, label) in enumerate(entries):
            key.node(f"key_{k}", label=label, fontsize=str(KEY_FONT_SIZE), fillcolor=colour, fontcolor=FILLED_TEXT,
                     **{"class": "filled"})
        for k in range(1, len(entries)):
            key.edge(f"key_{k - 1}", f"key_{k}", style="invis")


def _statement(head: str, attributes: dict[str, str]) -> str:
    """A DOT node or edge statement as graphviz.Digraph writes it: attributes sorted by name, the
    label first, values quoted unless they are plain words or numbers."""
    label = attributes.pop("label", None)
    parts = [] if label is None else [f"label={_quote(label)}"]
    parts += [f"{name}={_quote(value)}" for name, value in sorted(attributes.items())]
    return f"\t{head} [{' '.join(parts)}]\n" if parts else f"\t{head}\n"


def _quote(value: str) -> str:
    """``graphviz.quoting.quote`` for the values we write (never HTML-like: labels are nohtml)."""
    if quoting.ID.match(value) and value.lower() not in quoting.KEYWORDS:
        return value
    return f'"{quoting.ESCAPE_UNESCAPED_QUOTES(value)}"' if '"' in value else f'"{value}"'


def _placed_statement(name: str, label: str, centre: tuple[float, float], size: tuple[float, float]) -> str:
    """``_statement`` of a box with nothing but its label and :func:`_placed` attributes: the same text."""
    return (
        f'\t{name} [label={_quote(label)} fixedsize=true height={size[1] / 72:.4f} '
        f'pos="{centre[0]:.2f},{centre[1]:.2f}" width={size[0] / 72:.4f}]\n'
    )


def _placed(centre: tuple[float, float], size: tuple[float, float]) -> dict[str, str]:
    """A box's attributes at a given position (points) and size (graphviz wants inches)."""
    return {"pos": f"{centre[0]:.2f},{centre[1]:.2f}", "width": f"{size[0] / 72:.4f}", "height": f"{size[1] / 72:.4f}",
            "fixedsize": "true"}


def _edge_pos(points: Sequence[tuple[float, float]], tip: tuple[float, float]) -> str:
    """An edge's graphviz ``pos``: its arrowhead's point, then its Bézier points."""
    # One formatting of all the numbers: a 5,000-node drawing's edges took 18 ms point by point.
    return ("e,%.2f,%.2f" + " %.2f,%.2f" * len(points)) % (*tip, *(value for point in points for value in point))


def _path_edge(
    parent: int, node: int, on_path: set[int], on_second: set[int], on_both: set[int]
) -> dict[str, str]:
    """Edge attributes: an edge belongs to a path when both its ends do (a shared parent counts)."""
    if node in on_both and parent in on_both:
        return {"color": SHARED_COLOR, "penwidth": "3"}
    if node in on_path and parent in on_path | on_both:
        return {"color": PATH_COLOR, "penwidth": "3"}
    if node in on_second and parent in on_second | on_both:
        return {"color": SECOND_PATH_COLOR, "penwidth": "3", "style": "dashed"}
    return {}


def _draw_legend(graph: graphviz.Digraph, names: tuple[str, str]) -> None:
    """A boxed key of the path colours, stacked beside the tree (so it adds no height to wide trees)."""
    entries = [(names[0], PATH_STYLE), (names[1], SECOND_PATH_STYLE), ("on both paths", SHARED_STYLE)]
    with graph.subgraph(name="cluster_legend") as key:
        key.attr(label="Legend", fontname="Helvetica", fontsize="11", color="#cccccc", style="rounded")
        for k, (name, style) in enumerate(entries):
            # Names may hold user text: escape each line like node labels, then join with graphviz's "\\n".
            label = graphviz.nohtml("\\n".join(graphviz.escape(line) for line in name.split("\n")))
            key.node(f"legend_{k}", label=label, fontsize="11", **style)
        for k in range(1, len(entries)):  # invisible links stack the entries in this order
            key.edge(f"legend_{k - 1}", f"legend_{k}", style="invis")


def _depth_first_by_move(tree: Tree, drawn: set[int]) -> list[int]:
    """Drawn nodes in depth-first order, siblings in tie order, so graphviz lays them out a, b, c."""
    order, stack = [], [ROOT]
    while stack:
        node = stack.pop()
        order.append(node)
        stack.extend(reversed([kid for kid in tree.tie_order(node) if kid in drawn]))
    return order


def _hidden_children(tree: Tree, node: int, drawn: Collection[int]) -> list[str]:
    """The parts of the label line that counts a drawn node's children left out ([] if none):
    "+k more, v visits" and "+u unvisited"."""
    hidden = [kid for kid in tree.children[node] if kid not in drawn]
    if not hidden:
        return []
    visits = sum(tree.visits[kid] for kid in hidden)
    unvisited = sum(1 for kid in hidden if not tree.visits[kid])
    parts = []
    if len(hidden) > unvisited:
        parts += [f"+{len(hidden) - unvisited} more", f"{visits} visit{'s' if visits != 1 else ''}"]
    if unvisited:
        parts.append(f"+{unvisited} unvisited")
    return parts


def _shortened(text: str, limit: int) -> str:
    """``text``, or its first ``limit`` characters and how many more there are."""
    return text if len(text) <= limit else f"{text[:limit]}… (+{len(text) - limit:,} characters)"


def _label_lines(tree: Tree, node: int, decimals: int, hidden: Sequence[str], stacked: bool) -> list[str]:
    """A node's label as lines of plain text: its move and marks, visits and mean, the children left
    out. ``stacked`` (left to right drawings, where a column is as wide as its widest box) puts one
    fact on each line: the selected path's boxes follow each other across the page."""
    name = "root" if node == ROOT else _shortened(tree.move[node], LABEL_MOVE_CHARACTERS)
    visits = tree.visits[node]
    mean = f"{tree.mean(node):.{decimals}f}" if visits else "–"
    marks = "  ■ end" if tree.is_terminal(node) else ""
    outcome = tree.outcome_of(node)
    if outcome is not None:  # proven (a terminal's result, or backed up by a solver): for the mover
        word = "win" if outcome > 0 else "loss" if outcome < 0 else "draw"
        marks += f"  ✓ proven {word}" + (f" for P{tree.mover(node)}" if tree.players > 1 else "")
    if not stacked:
        return [f"{name}{marks}", f"n={visits}  μ={mean}"] + ([", ".join(hidden)] if hidden else [])
    # Each fact on its own line; the parts of the "+k more" line keep their commas, so the lines
    # read as that line does.
    return [name, *([marks.strip()] if marks else []), f"n={visits}", f"μ={mean}",
            *[part + ("," if k < len(hidden) - 1 else "") for k, part in enumerate(hidden)]]


def _label(lines: Sequence[str]) -> str:
    """Label lines as a graphviz label: escaped (moves are user text), never HTML-like."""
    # graphviz passes entities through to SVG: "&" must be "&amp;" or "&lt;" would show as "<".
    # nohtml: a move like "<" must never turn the label into an HTML-like label.
    # "\\n" is graphviz's line break inside a label (a Python newline is not).
    return graphviz.nohtml("\\n".join(graphviz.escape(line).replace("&", "&amp;") for line in lines))


def _tooltip(tree: Tree, node: int) -> str:
    path = _shortened(tree.path(node), TOOLTIP_PATH_CHARACTERS) or "(root)"
    return graphviz.nohtml(graphviz.escape(f"path {path}, total {tree.total[node]!r}"))


def _shape(tree: Tree, node: int) -> dict[str, str]:
    """Chance nodes are drawn as ellipses (their children are sampled, not selected)."""
    return {"shape": "ellipse"} if tree.is_chance(node) else {}


def drawn_nodes(
    tree: Tree, visible: Collection[int], *paths: Sequence[int], inspected: int | None = None
) -> set[int]:
    """What :func:`render_tree` draws: the visible nodes, the paths, the inspected node and its ancestors."""
    drawn = set(visible)
    for path in paths:
        drawn.update(path)
    if inspected is not None:
        drawn.update(tree.path_nodes(inspected))
    return drawn


def hidden_count(tree: Tree, drawn: Collection[int]) -> int:
    """How many nodes of the tree a picture of ``drawn`` leaves out (counted on "+k more" lines)."""
    return len(tree) - len(drawn)


# Widths in points (1 px a point at 12 px labels) that a top-down drawing must fit at 1366x768 with the
# sidebar open: the picture beside the table (483 px) or across the page (1000 px), less the view's
# 24 px margins (tree_view.js VIEW_MARGIN).
BESIDE_TABLE_POINTS = 435.0
ACROSS_PAGE_POINTS = 950.0
MAX_TOP_DOWN_DEPTH = 3  # a deeper path is taller than the picture at 1366x768 (four boxes down)


@dataclass(frozen=True)
class Arrangement:
    """How a picture is laid out: its ``direction`` (``"TB"`` or ``"LR"``), ``stacked`` labels (one
    fact a line: narrow boxes) and whether it sits ``beside`` the table (else across the page)."""

    direction: str
    stacked: bool
    beside: bool


BESIDE_TABLE = Arrangement("TB", stacked=False, beside=True)
BESIDE_TABLE_STACKED = Arrangement("TB", stacked=True, beside=True)
ACROSS_PAGE = Arrangement("TB", stacked=True, beside=False)
LEFT_TO_RIGHT = Arrangement("LR", stacked=True, beside=False)


def arrange(tree: Tree, visible: Collection[int]) -> Arrangement:
    """The first arrangement whose drawing of ``visible`` is readable at 1366x768: top down beside
    the table (the table's rows stay above the fold), with one fact a label line if need be (7 or 8
    children of the root); else top down across the page, one fact a line (a wide level of a shallow
    tree: a 21-node tree of 16 leaves is 880 points wide so, where left to right it stood 950 tall
    in a 340-pixel picture); else left to right (deep trees: depth runs along the page's width)."""
    per_level = Counter(tree.depth[node] for node in visible)
    # Boxes are at least MIN_WIDTH wide: a level that cannot fit is told without laying it out (a
    # 300-node drawing of a big input took 10 ms, on every commit of C).
    if max(per_level) > MAX_TOP_DOWN_DEPTH or max(per_level.values()) * (MIN_WIDTH + NODE_GAP) > ACROSS_PAGE_POINTS:
        return LEFT_TO_RIGHT
    if top_down_width(tree, visible, stacked=False) <= BESIDE_TABLE_POINTS:
        return BESIDE_TABLE
    stacked_width = top_down_width(tree, visible, stacked=True)
    if stacked_width <= BESIDE_TABLE_POINTS:
        return BESIDE_TABLE_STACKED
    if stacked_width <= ACROSS_PAGE_POINTS:
        return ACROSS_PAGE
    return LEFT_TO_RIGHT


def top_down_width(tree: Tree, drawn: Collection[int], *, stacked: bool) -> float:
    """The width in points of :func:`render_tree`'s top-down drawing of ``drawn`` (on its most
    visited line; another main line packs the same boxes a little differently)."""
    drawn = set(drawn)
    sizes = {node: box_size(_label_lines(tree, node, 2, _hidden_children(tree, node, drawn), stacked))
             for node in drawn}
    centres = tree_layout(tree, drawn, sizes, left_to_right=False).centres
    return max(x + sizes[node][0] / 2 for node, (x, _) in centres.items()) - min(
        x - sizes[node][0] / 2 for node, (x, _) in centres.items())


def dot_available() -> bool:
    """Whether graphviz's ``dot`` program is installed (the server-side layout needs it)."""
    import shutil

    return shutil.which("dot") is not None


def layout_svg(dot: str) -> bytes | None:
    """``dot -Tsvg`` of a DOT text, or None when graphviz's ``dot`` is not installed."""
    if not dot_available():
        return None
    return graphviz.Source(dot).pipe(format="svg")
