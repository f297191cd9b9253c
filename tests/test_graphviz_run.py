"""graphviz draws the pictures with its own font metrics: the same label spacing on every machine,
every label line inside its box, and a drawing still made where the plugin folder cannot be."""

import os
import re
import shutil

import pytest

import required
from mcts_core import ROOT, Scoring, selected_nodes
from mcts_core.drawing import dot_svg, drawn_nodes, render_tree, visible_nodes
from mcts_core.drawing import graphviz_run
from mcts_core.inputs import read_input
from mcts_core.inputs.examples import deep_tree

required.program("dot")

NODE = re.compile(r'<g id="node\d+" class="node[^"]*">\s*<title>n(\d+)</title>(.*?)</g>', re.S)
BASELINE = re.compile(r'<text[^>]* y="(-?[\d.]+)"')
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
# Helvetica's ascender and descender, in ems: a line's ink stays between them around its baseline.
ASCENT, DESCENT = 0.77, 0.23


def test_label_lines_are_spaced_by_graphvizs_own_metrics_not_the_machines_fonts():
    """pango spaced 12-point lines 13 points apart here (its fonts decide); graphviz's own metrics
    space them 1.2 times the size, on any machine."""
    svg = dot_svg('digraph { layout=nop2; a [pos="0,0" fontsize=12 label="one\\ntwo\\nthree"] }').decode()
    baselines = [float(y) for y in BASELINE.findall(svg)]
    assert len(baselines) == 3
    assert [round(b - a, 2) for a, b in zip(baselines, baselines[1:])] == [14.4, 14.4]


def boxes_and_lines(svg: str) -> list[tuple[tuple[float, float], list[float]]]:
    """Each node's box (top, bottom) and its label lines' baselines, in the SVG's units (y down)."""
    found = []
    for _, body in NODE.findall(svg):
        shape = re.search(r'<(?:path|polygon|ellipse)[^>]*?(?:d|points)="([^"]+)"', body).group(1)
        ys = [float(n) for n in NUMBER.findall(shape)][1::2]
        found.append(((min(ys), max(ys)), [float(y) for y in BASELINE.findall(body)]))
    return found


@pytest.mark.parametrize("direction", ["LR", "TB"])
@pytest.mark.parametrize("example", ["deep", "unvisited"])
def test_every_label_line_is_drawn_inside_its_box(direction, example):
    """The boxes are sized for graphviz's line spacing: 13.2 points a line left five-line labels
    less than 2 points from their outlines."""
    if example == "deep":
        tree = read_input(deep_tree()).tree
    else:  # a log's declared children: "+k unvisited" lines, and five-line boxes left to right
        records = ['{"path": ["a", "x"], "score": 1}', '{"path": ["b"], "score": 0}', '{"path": ["a", "y"], "score": 1}']
        children = '{"node": [], "children": ["a", "b", "c", "d"]}'
        tree = read_input('{"mcts_log": 1}\n' + "\n".join([children, *records]) + "\n").tree
    path = tuple(selected_nodes(tree, Scoring(c=1.0)))
    drawn = drawn_nodes(tree, visible_nodes(tree, budget=8), path, inspected=ROOT)
    svg = dot_svg(render_tree(tree, drawn, direction=direction, tooltips=False, lines=(path,)).source).decode()
    found = boxes_and_lines(svg)
    assert len(found) == len(drawn) and any(len(lines) >= 4 for _, lines in found) == (direction == "LR")
    for (top, bottom), lines in found:  # with air between the ink and the outline (MARGIN_Y is 4)
        assert top + 3 <= lines[0] - ASCENT * 12 and lines[-1] + DESCENT * 12 <= bottom - 3


def test_where_the_plugin_folder_cannot_be_made_dot_draws_as_installed(monkeypatch):
    def refused(*_):
        raise OSError("links are not allowed here")

    graphviz_run._plugin_folder.cache_clear()
    monkeypatch.setattr(graphviz_run.os, "symlink", refused)
    try:
        assert graphviz_run._plugin_folder() is None
        assert graphviz_run.dot_environment().get("GVBINDIR") == os.environ.get("GVBINDIR")
        svg = dot_svg('digraph { layout=nop2; a [pos="0,0" label="one\\ntwo"] }').decode()
        assert svg.count("<text") == 2
    finally:
        graphviz_run._plugin_folder.cache_clear()


def test_a_plugin_folder_removed_under_a_running_server_is_made_again():
    """A long-running server's temporary folder can be cleaned away: the next drawing makes another."""
    first = graphviz_run.dot_environment()["GVBINDIR"]
    shutil.rmtree(first)
    svg = dot_svg('digraph { layout=nop2; a [pos="0,0" label="one\\ntwo"] }').decode()
    assert svg.count("<text") == 2
    again = graphviz_run.dot_environment()["GVBINDIR"]
    assert again != first and graphviz_run.os.path.isdir(again)
