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

import graphviz

from ..model.tree import ROOT, Tree

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
    frontier = [(-tree.visits[ROOT], ROOT)]
    while frontier and len(chosen) < max(budget, 1):
        _, node = heapq.heappop(frontier)
        chosen.add(node)
        if max_depth is not None and tree.depth[node] >= max_depth:
            continue
        kids = tree.ranked_children(node)
        if not unvisited:
            kids = [kid for kid in kids if tree.visits[kid]]
        for kid in kids[:top_k]:
            heapq.heappush(frontier, (-tree.visits[kid], kid))
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

    Returns:
        A Digraph; node ids are ``n<index>`` (keys ``legend_<k>`` and ``key_<k>``), never user
        text. A drawn node whose children are not all drawn counts them on a last label line.
    """
    on_second = set(second_path)
    on_path = set(path) - on_second
    on_both = set(path) & on_second
    on_second -= on_both
    drawn = drawn_nodes(tree, visible, path, second_path, inspected=inspected)

    graph = graphviz.Digraph("mcts", graph_attr={"rankdir": direction, "nodesep": "0.15", "ranksep": "0.35"})
    graph.attr("node", shape="box", style="rounded,filled", fillcolor=NODE_FILL, fontname="Helvetica", fontsize="12")
    graph.attr("edge", color="#999999", arrowsize="0.6")
    order = _depth_first_by_move(tree, drawn)
    fills = node_fills(tree, order, colouring)
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
        label = _label(tree, node, decimals, _hidden_children_line(tree, node, drawn))
        graph.node(f"n{node}", label=label, **attributes)
        if node != ROOT:
            parent = tree.parent[node]
            graph.edge(f"n{parent}", f"n{node}", **_path_edge(parent, node, on_path, on_second, on_both))
    if legend is not None:
        _draw_legend(graph, legend)
    if fills:
        _draw_colour_key(graph, tree, order, colouring)
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


def _draw_colour_key(graph: graphviz.Digraph, tree: Tree, nodes: Collection[int], colouring: str) -> None:
    """A boxed key of a colouring's colours, beside the tree."""
    with graph.subgraph(name="cluster_colour_key") as key:
        key.attr(label="Colour", fontname="Helvetica", fontsize="11", color="#cccccc", style="rounded")
        entries = colour_key(tree, nodes, colouring)
        for k, (colour, label) in enumerate(entries):
            key.node(f"key_{k}", label=label, fontsize="11", fillcolor=colour, fontcolor=FILLED_TEXT, **{"class": "filled"})
        for k in range(1, len(entries)):
            key.edge(f"key_{k - 1}", f"key_{k}", style="invis")


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


def _hidden_children_line(tree: Tree, node: int, drawn: set[int]) -> str:
    """The label line that counts a drawn node's children left out of the picture ("" if none)."""
    hidden = [kid for kid in tree.children[node] if kid not in drawn]
    if not hidden:
        return ""
    visits = sum(tree.visits[kid] for kid in hidden)
    unvisited = sum(1 for kid in hidden if not tree.visits[kid])
    parts = []
    if len(hidden) > unvisited:
        parts.append(f"+{len(hidden) - unvisited} more, {visits} visit{'s' if visits != 1 else ''}")
    if unvisited:
        parts.append(f"+{unvisited} unvisited")
    return ", ".join(parts)


def _shortened(text: str, limit: int) -> str:
    """``text``, or its first ``limit`` characters and how many more there are."""
    return text if len(text) <= limit else f"{text[:limit]}… (+{len(text) - limit:,} characters)"


def _label(tree: Tree, node: int, decimals: int, hidden_line: str = "") -> str:
    # graphviz passes entities through to SVG: "&" must be "&amp;" or "&lt;" would show as "<".
    name = "root" if node == ROOT else graphviz.escape(_shortened(tree.move[node], LABEL_MOVE_CHARACTERS)).replace("&", "&amp;")
    visits = tree.visits[node]
    mean = f"{tree.mean(node):.{decimals}f}" if visits else "–"
    marks = "  ■ end" if tree.is_terminal(node) else ""
    outcome = tree.outcome_of(node)
    if outcome is not None:  # proven (a terminal's result, or backed up by a solver): for the mover
        word = "win" if outcome > 0 else "loss" if outcome < 0 else "draw"
        marks += f"  ✓ proven {word}" + (f" for P{tree.mover(node)}" if tree.players > 1 else "")
    # nohtml: a move like "<" must never turn the label into an HTML-like label.
    # "\\n" is graphviz's line break inside a label (a Python newline is not).
    lines = [f"{name}{marks}", f"n={visits}  μ={mean}"] + ([hidden_line] if hidden_line else [])
    return graphviz.nohtml("\\n".join(lines))


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


def fits_top_down(tree: Tree, visible: Collection[int], *, max_rank_width: int = 12) -> bool:
    """Whether a top-down drawing of ``visible`` stays readable once scaled to a page column.

    Browsers scale the picture to the column's width, so a level with many boxes shrinks every
    label; such trees read better left to right, where depth runs across.
    """
    width_at_depth = Counter(tree.depth[node] for node in visible)
    return max(width_at_depth.values()) <= max_rank_width


def dot_available() -> bool:
    """Whether graphviz's ``dot`` program is installed (the server-side layout needs it)."""
    import shutil

    return shutil.which("dot") is not None


def layout_svg(dot: str) -> bytes | None:
    """``dot -Tsvg`` of a DOT text, or None when graphviz's ``dot`` is not installed."""
    if not dot_available():
        return None
    return graphviz.Source(dot).pipe(format="svg")
