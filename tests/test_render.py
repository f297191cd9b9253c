"""Drawing: caps, folds, highlighting and escaping of user text."""

import re
import subprocess

import pytest

from mcts_core import ROOT, build_tree, parse_playouts, selected_nodes
from mcts_core.presets import deep_tree
from mcts_core.render import PATH_COLOR, render_tree, visible_nodes
from conftest import STATEMENT_EXAMPLE


def drawn_ids(graph):
    return set(re.findall(r"^\s*n(\d+) \[", graph.source, flags=re.M))


def test_small_tree_draws_every_node_with_move_visits_and_mean():
    tree = build_tree(parse_playouts(STATEMENT_EXAMPLE))
    graph = render_tree(tree, visible_nodes(tree), path=selected_nodes(tree, c=0.1))
    assert drawn_ids(graph) == {"0", "1", "2", "3"}
    assert 'label="b\\nn=2  μ=17.00"' in graph.source
    assert "more" not in graph.source


def test_selected_path_is_red_and_thick():
    tree = build_tree(parse_playouts(STATEMENT_EXAMPLE))
    a = tree.find("a")
    graph = render_tree(tree, visible_nodes(tree), path=[ROOT, a])
    assert re.search(rf'n0 -> n{a} \[color="{PATH_COLOR}" penwidth=3\]', graph.source)
    assert re.search(r"n0 -> n1\s*$", graph.source, flags=re.M)  # b's edge stays plain


def test_budget_top_k_and_depth_limit_cap_the_picture_and_fold_the_rest():
    tree = build_tree(parse_playouts(deep_tree()))
    assert len(tree) > 300
    capped = visible_nodes(tree, budget=40)
    assert len(capped) == 40
    assert max(tree.depth[n] for n in visible_nodes(tree, max_depth=2)) == 2
    top2 = visible_nodes(tree, top_k=2)
    assert all(sum(1 for kid in tree.children[n] if kid in top2) <= 2 for n in top2)
    graph = render_tree(tree, capped)
    folds = re.findall(r'label="\+(\d+) more\\n(\d+) visits?"', graph.source)
    hidden = len(tree) - len(capped)
    # every hidden node sits under some fold; folds count direct hidden children
    assert folds and sum(int(k) for k, _ in folds) <= hidden
    root_hidden = [kid for kid in tree.children[ROOT] if kid not in capped]
    if root_hidden:
        assert f"more{ROOT}" in graph.source


def test_path_and_inspected_node_are_drawn_even_beyond_the_cap():
    tree = build_tree(parse_playouts(deep_tree()))
    path = selected_nodes(tree, c=50.0)
    deepest = max(range(len(tree)), key=tree.depth.__getitem__)
    graph = render_tree(tree, visible_nodes(tree, budget=5), path=path, inspected=deepest)
    assert {str(n) for n in path} | {str(n) for n in tree.path_nodes(deepest)} <= drawn_ids(graph)
    assert f'n{deepest} [label=' in graph.source and "peripheries=2" in graph.source


@pytest.mark.parametrize("move", ['"', "\\", "<", ">", "{", "&", "]"])
def test_user_moves_are_escaped_and_dot_renders_them_literally(move):
    tree = build_tree(parse_playouts(f"1 1\n{move}x 5\n"))
    graph = render_tree(tree, visible_nodes(tree))
    svg = subprocess.run(["dot", "-Tsvg"], input=graph.source.encode(), capture_output=True, check=True).stdout
    text = svg.decode()
    escaped = {"<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;"}.get(move, move)
    assert f">{escaped}</text>" in text
    assert "n=1" in text
