"""Tree -> graphviz.Digraph, capped so that a large tree still draws in a second or two.

Drawing is split in two so the app can cache the part that does not depend on C:
:func:`visible_nodes` chooses which nodes to draw (budget, depth limit, top-k children by visits);
:func:`render_tree` adds the selected path and the inspected node and emits the picture. Children
that are not drawn are folded into one "+k more" node per parent. Every label is escaped: moves
are user text.
"""

from __future__ import annotations

import heapq
from collections.abc import Collection, Sequence

import graphviz

from .tree import ROOT, Tree

PATH_COLOR = "#d62728"
PATH_FILL = "#fde0dd"
INSPECTED_COLOR = "#1f77b4"
NODE_FILL = "#f7f7f7"
FOLD_COLOR = "#888888"


def ranked_children(tree: Tree, node: int) -> list[int]:
    """Children by visits, most first (ties by move): the order top-k and the budget keep them."""
    return sorted(tree.children[node], key=lambda kid: (-tree.visits[kid], tree.move[kid]))


def visible_nodes(
    tree: Tree, *, budget: int = 300, max_depth: int | None = None, top_k: int | None = None
) -> set[int]:
    """Choose at most ``budget`` nodes to draw, most-visited first, connected to the root.

    Args:
        tree: the tree.
        budget: most nodes to draw (the root always is).
        max_depth: deepest level drawn (None: no limit).
        top_k: most children drawn per node (None: all).
    """
    chosen: set[int] = set()
    frontier = [(-tree.visits[ROOT], ROOT)]
    while frontier and len(chosen) < max(budget, 1):
        _, node = heapq.heappop(frontier)
        chosen.add(node)
        if max_depth is not None and tree.depth[node] >= max_depth:
            continue
        for kid in ranked_children(tree, node)[:top_k]:
            heapq.heappush(frontier, (-tree.visits[kid], kid))
    return chosen


def render_tree(
    tree: Tree,
    visible: Collection[int],
    *,
    path: Sequence[int] = (),
    inspected: int | None = None,
    decimals: int = 2,
) -> graphviz.Digraph:
    """Draw the visible nodes, the selected path and the inspected node.

    Args:
        tree: the tree.
        visible: nodes to draw (from :func:`visible_nodes`); the path and the inspected node's
            ancestors are added so they always show.
        path: selected nodes from the root down, highlighted in red with thick edges.
        inspected: the node whose children the table shows, outlined in blue.
        decimals: digits after the point for means.

    Returns:
        A top-down Digraph; node ids are ``n<index>``, never user text.
    """
    on_path = set(path)
    drawn = set(visible) | on_path
    if inspected is not None:
        drawn.update(tree.path_nodes(inspected))

    graph = graphviz.Digraph("mcts", graph_attr={"rankdir": "TB", "nodesep": "0.15", "ranksep": "0.35"})
    graph.attr("node", shape="box", style="rounded,filled", fillcolor=NODE_FILL, fontname="Helvetica", fontsize="12")
    graph.attr("edge", color="#999999", arrowsize="0.6")
    order = _depth_first_by_move(tree, drawn)
    for node in order:
        attributes = {}
        if node in on_path:
            attributes.update(color=PATH_COLOR, fillcolor=PATH_FILL, penwidth="2.5", fontcolor="#000000")
        if node == inspected:
            attributes.update(color=INSPECTED_COLOR, peripheries="2", penwidth="2")
        graph.node(f"n{node}", label=_label(tree, node, decimals), tooltip=_tooltip(tree, node), **attributes)
        if node != ROOT:
            parent = tree.parent[node]
            edge = {"color": PATH_COLOR, "penwidth": "3"} if node in on_path and parent in on_path else {}
            graph.edge(f"n{parent}", f"n{node}", **edge)
    for node in order:  # after the real children, so folds sit rightmost
        _fold_hidden_children(graph, tree, node, drawn)
    return graph


def _depth_first_by_move(tree: Tree, drawn: set[int]) -> list[int]:
    """Drawn nodes in depth-first order, siblings by move, so graphviz lays them out a, b, c."""
    order, stack = [], [ROOT]
    while stack:
        node = stack.pop()
        order.append(node)
        kids = [kid for kid in tree.children[node] if kid in drawn]
        stack.extend(sorted(kids, key=lambda kid: tree.move[kid], reverse=True))
    return order


def _fold_hidden_children(graph: graphviz.Digraph, tree: Tree, node: int, drawn: set[int]) -> None:
    hidden = [kid for kid in tree.children[node] if kid not in drawn]
    if not hidden:
        return
    visits = sum(tree.visits[kid] for kid in hidden)
    graph.node(
        f"more{node}",
        label=f"+{len(hidden)} more\\n{visits} visit{'s' if visits != 1 else ''}",
        shape="box",
        style="dashed,rounded",
        color=FOLD_COLOR,
        fontcolor=FOLD_COLOR,
        fontsize="10",
    )
    graph.edge(f"n{node}", f"more{node}", style="dashed", color=FOLD_COLOR)


def _label(tree: Tree, node: int, decimals: int) -> str:
    name = "root" if node == ROOT else graphviz.escape(tree.move[node])
    # nohtml: a move like "<" must never turn the label into an HTML-like label.
    # "\\n" is graphviz's line break inside a label (a Python newline is not).
    return graphviz.nohtml(f"{name}\\nn={tree.visits[node]}  μ={tree.mean(node):.{decimals}f}")


def _tooltip(tree: Tree, node: int) -> str:
    return graphviz.nohtml(graphviz.escape(f"path {tree.path(node) or '(root)'}, total {tree.total[node]!r}"))
