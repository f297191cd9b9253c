"""The tagged picture paints exactly as graphviz's own under the viewer's stylesheet.

The tagging drops what the viewer's CSS sets anyway (graphviz's colours of outlines, lines and
labels, the fill of a box not coloured by a value) and says the labels' size once (issue 38: a 5,000-node
drawing's SVG is a fifth smaller). What a user sees must not change: both SVGs of one drawing,
drawn by chromium at the same size with ``ui/picture/tree_view.css``, light and dark, plain and
coloured by mean, with the selected path marked as the viewer marks it, give the same pixels.
"""

from __future__ import annotations

import io
import json
import re
from itertools import pairwise

import pytest
from PIL import Image, ImageChops

from bench.harness.server import REPO
from mcts_core import ROOT, Scoring, selected_nodes
from mcts_core.drawing import dot_svg, drawn_nodes, node_infos, path_json, render_tree, tag_svg, visible_nodes
from mcts_core.drawing.tagged_svg import straight_sides
from mcts_core.inputs import read_input

# Streamlit's theme variables as the dark theme sets them on the component's host.
DARK = "--st-text-color: #fafafa; --st-background-color: #0e1117; --st-secondary-background-color: #262730;"


def small_tree():
    """A tree a few levels deep with "+k more" folds."""
    moves = ["a", "b", "c", "d", "e", "f"]
    records = [json.dumps({"path": [moves[k % 6], moves[(k * 5) % 4], moves[k % 3]], "score": k % 3 - 1}) for k in range(60)]
    return read_input('{"mcts_log": 1}\n' + "\n".join(records) + "\n").tree


def as_viewed(svg: str, on_path: set[str]) -> str:
    """``svg`` with the viewer's class ``tv-path`` on the groups named in ``on_path`` (by graphviz's
    title or by the tagged ``data-path``), as tree_view.js marks the selected path; graphviz's own
    tree nodes (titles ``n<index>``) get a ``data-path`` too, which the CSS tells from "+k more" folds."""
    def mark(match: re.Match) -> str:
        title, tagged = match.group(2), match.group(3)
        classes = f"{match.group(1)} tv-path" if (title or tagged) in on_path else match.group(1)
        tree_node = title is not None and re.fullmatch(r"n\d+", title) is not None
        return f'class="{classes}"' + (' data-path=""' if tree_node else "")

    return re.sub(r'class="([^"]*)"(?=>\s*<title>([^<]*)</title>| data-path=\'([^\']*)\')', mark, svg)


def painted(page, svg: str, theme: str) -> Image.Image:
    style = (REPO / "ui" / "picture" / "tree_view.css").read_text()
    page.set_content(
        f"<style>{style} svg {{ width: 900px; height: 420px; display: block; }}</style>"
        f'<div class="tv-root" style="{theme}">{svg}</div>'
    )
    return Image.open(io.BytesIO(page.locator("svg").first.screenshot())).convert("RGB")


@pytest.mark.parametrize("colouring", ["none", "mean"])
def test_the_tagged_picture_paints_as_graphvizs_own_in_the_viewers_style(page, colouring):
    tree = small_tree()
    path = tuple(selected_nodes(tree, Scoring(c=1.0)))
    drawn = drawn_nodes(tree, visible_nodes(tree, budget=12), path, inspected=ROOT)
    dot = render_tree(tree, drawn, direction="LR", colouring=colouring, tooltips=False, lines=(path,)).source
    own = dot_svg(dot).decode()  # graphviz's own SVG, drawn as the app has it drawn
    tagged = tag_svg(own.encode(), node_infos(tree, drawn))
    # graphviz's own picture with its boxes' straight sides as lines, as the tagging has written
    # them since issue 38's first speed-up (tests/test_tagged_svg.py pins their corners): the same
    # shapes, but Skia's anti-aliasing of a line and of a flat Bézier differs in a few pixels.
    own = straight_sides(own[own.index("<svg") :].encode()).decode()

    # The path's nodes and the edges into them, by graphviz's names and by their tagged paths.
    on_path = {f"n{node}" for node in path}
    on_path |= {f"n{parent}&#45;&gt;n{child}" for parent, child in pairwise(path)}
    on_path |= {path_json(tree.path_moves(node)) for node in path}
    assert as_viewed(own, on_path).count("tv-path") == as_viewed(tagged, on_path).count("tv-path") == 2 * len(path) - 1
    for theme in ("", DARK):
        before = painted(page, as_viewed(own, on_path), theme)
        after = painted(page, as_viewed(tagged, on_path), theme)
        assert before.size == after.size == (900, 420)
        marked = ImageChops.difference(before, painted(page, as_viewed(own, set()), theme)).getbbox()
        assert marked is not None  # the marked path shows: the comparison sees the viewer's classes
        differ = ImageChops.difference(before, after).getbbox()
        assert differ is None, f"pixels differ within {differ} ({'dark' if theme else 'light'}, colouring {colouring})"
