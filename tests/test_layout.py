"""The picture's layout: the selected path runs straight, its choices stand beside it, nothing overlaps.

Positions are read from the SVG graphviz draws (``layout=nop2``), so they are what a browser shows.
"""

import random
import re
from collections import defaultdict

import graphviz
import pytest

from mcts_core import ROOT, Scoring, build_tree, parse_playouts, selected_nodes
from mcts_core.analysis import principal_variation
from mcts_core.drawing.dot import drawn_nodes, render_tree, visible_nodes
from mcts_core.drawing.layout import COLUMN_GAP, ROW_GAP
from mcts_core.inputs.examples import deep_tree

NODE = re.compile(r'<g id="node\d+" class="node[^"]*">\s*<title>n(\d+)</title>(.*?)</g>', re.S)
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def boxes(tree, drawn, path, direction) -> dict[int, tuple[float, float, float, float]]:
    """Each drawn node's box (x0, y0, x1, y1) in the SVG graphviz draws with ``path`` straight."""
    source = render_tree(tree, drawn, direction=direction, tooltips=False, lines=[path]).source
    svg = graphviz.Source(source).pipe(format="svg", encoding="utf-8")
    found = {}
    for node, body in NODE.findall(svg):
        shape = re.search(r'<(?:path|polygon|ellipse)[^>]*?(?:d|points)="([^"]+)"', body).group(1)
        numbers = [float(n) for n in NUMBER.findall(shape)]
        xs, ys = numbers[0::2], numbers[1::2]
        found[int(node)] = (min(xs), min(ys), max(xs), max(ys))
    assert len(found) == len(drawn)
    return found


def centre(box):
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def off_the_most_visited_line(tree) -> tuple[float, list[int]]:
    """A C whose selected path leaves the most visited line early (so straightness is the layout's doing)."""
    pv = principal_variation(tree)
    for c in (1.0, 10.0, 100.0, 1000.0):
        path = selected_nodes(tree, Scoring(c=c))
        if len(path) > 4 and path[:3] != pv[:3]:
            return c, path
    raise AssertionError("no C leaves the most visited line")


@pytest.mark.parametrize("direction", ["LR", "TB"])
def test_the_selected_path_runs_straight_and_each_node_follows_the_last(direction):
    tree = build_tree(parse_playouts(deep_tree()))
    _, path = off_the_most_visited_line(tree)
    drawn = drawn_nodes(tree, visible_nodes(tree, budget=300), path)
    found = boxes(tree, drawn, path, direction)
    across, along = (1, 0) if direction == "LR" else (0, 1)
    centres = [centre(found[node]) for node in path]
    assert max(c[across] for c in centres) - min(c[across] for c in centres) < 0.01, centres
    # One column (row, top down) per move, in order, and close: no column wider than its widest box.
    assert all(a[along] < b[along] for a, b in zip(centres, centres[1:]))
    lengths = [found[node][along + 2] - found[node][along] for node in path]
    gap = COLUMN_GAP if direction == "LR" else ROW_GAP
    assert centres[-1][along] - centres[0][along] < sum(max(
        found[n][along + 2] - found[n][along] for n in drawn if tree.depth[n] == depth
    ) + gap for depth in range(len(path))), lengths


def test_each_path_node_has_all_its_children_next_to_each_other_in_tie_order():
    """The choices a path node faced stand together beside the path's next node, however big their
    subtrees (the question Classroom asks there, framed with the node)."""
    tree = build_tree(parse_playouts(deep_tree()))
    _, path = off_the_most_visited_line(tree)
    drawn = drawn_nodes(tree, visible_nodes(tree, budget=300), path)
    found = boxes(tree, drawn, path, "LR")
    columns = defaultdict(list)
    for node in drawn:
        columns[tree.depth[node]].append(node)
    for parent in path[:-1]:
        column = sorted(columns[tree.depth[parent] + 1], key=lambda node: centre(found[node])[1])
        kids = [kid for kid in tree.tie_order(parent) if kid in drawn]
        start = column.index(kids[0])
        assert column[start : start + len(kids)] == kids


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("direction", ["LR", "TB"])
def test_no_two_boxes_overlap_and_every_edge_leaves_its_parent_and_enters_its_child(seed, direction):
    rng = random.Random(seed)
    lines = [f"{''.join(rng.choices('abcde', k=rng.randint(1, 9)))} {rng.uniform(-5, 5):.2f}" for _ in range(600)]
    tree = build_tree(parse_playouts("\n".join(lines)))
    path = selected_nodes(tree, Scoring(c=rng.choice([0.2, 2.0, 20.0])))
    drawn = drawn_nodes(tree, visible_nodes(tree, budget=rng.choice([40, 150, 300])), path)
    found = boxes(tree, drawn, path, direction)
    ordered = sorted(found.values())
    for k, a in enumerate(ordered):
        for b in ordered[k + 1 :]:
            if b[0] >= a[2]:
                break
            assert b[1] >= a[3] or a[1] >= b[3], (a, b)


def test_a_path_of_a_thousand_moves_is_laid_out_straight():
    words = ["a" * length for length in range(1, 1001)]
    tree = build_tree(parse_playouts("\n".join(f"{word} 1" for word in words)))
    path = selected_nodes(tree, Scoring(c=1.0))
    assert len(path) == 1001
    found = boxes(tree, drawn_nodes(tree, visible_nodes(tree, budget=1001), path), path, "LR")
    assert len({round(centre(found[node])[1], 2) for node in path}) == 1
    assert centre(found[ROOT])[0] < centre(found[path[-1]])[0]
