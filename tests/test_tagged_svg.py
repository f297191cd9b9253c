"""The tagged picture: every drawn node and edge where graphviz put it, named by its path, hostile moves escaped.

The tagging works on graphviz's bytes (faster than on text); these pin what the browser reads from it
against graphviz's own SVG of the same drawing: positions, label lines, classes and the data-
attributes the viewer uses (``data-path`` on nodes and the edges into them, ``data-tip`` on nodes).
"""

import importlib
import json
import random
import re
import subprocess
import xml.etree.ElementTree as ET

import pytest

import required
from mcts_core import ROOT, Scoring, selected_nodes
from mcts_core.drawing import (
    SvgTagger, dot_svg, drawn_nodes, node_infos, path_json, render_tree, tag_svg, tagged_svg, visible_nodes,
)
from mcts_core.inputs import read_input

required.program("dot")

# The module (the package exports a function of the same name).
tagged_svg_module = importlib.import_module("mcts_core.drawing.tagged_svg")

SVG = "{http://www.w3.org/2000/svg}"
# Quotes, markup, an entity, a backslash, non-ASCII, a tab, an apostrophe, a line separator, a space.
MOVES = ["a", '"q"', "<b>&amp;", "\\n", "μ", "tab\there", "it's", "\u2028", "x y"]


def hostile_tree():
    records = [json.dumps({"path": [MOVES[k % 9], MOVES[(k * 4) % 9]], "score": k % 3}) for k in range(40)]
    return read_input('{"mcts_log": 1}\n' + "\n".join(records) + "\n").tree


def groups(svg: str, kind: str) -> list[ET.Element]:
    return [g for g in ET.fromstring(svg).iter(f"{SVG}g") if g.get("class", "").split()[:1] == [kind]]


def texts(group: ET.Element) -> list[tuple[str, str, str]]:
    return [(t.get("x"), t.get("y"), t.text) for t in group.iter(f"{SVG}text")]


@pytest.mark.parametrize("direction", ["LR", "TB"])
def test_tagged_picture_keeps_graphviz_positions_and_names_every_node_by_its_path(direction):
    tree = hostile_tree()
    drawn = drawn_nodes(tree, visible_nodes(tree), selected_nodes(tree, Scoring(c=1.0)), inspected=ROOT)
    path = tuple(selected_nodes(tree, Scoring(c=1.0)))
    dot = render_tree(tree, drawn, direction=direction, colouring="mean", tooltips=False, lines=(path,)).source
    own = dot_svg(dot).decode()  # graphviz's own SVG, drawn as the app has it drawn
    svg = tagged_svg(dot, node_infos(tree, drawn))

    # graphviz's nodes by name (its <title>), in its order, with their label lines where it put them.
    own_nodes = {g.find(f"{SVG}title").text: g for g in groups(own, "node")}
    nodes = groups(svg, "node")
    tree_nodes = [g for g in nodes if g.get("data-path") is not None]
    assert len(tree_nodes) == len(drawn)
    by_path = {g.get("data-path"): g for g in tree_nodes}
    infos = node_infos(tree, drawn)
    for node in drawn:
        group = by_path[path_json(tree.path_moves(node))]
        assert texts(group) == texts(own_nodes[f"n{node}"])  # same lines, same places
        assert group.get("data-tip") == infos[f"n{node}"].tooltip  # line breaks and quotes survive
        assert group.get("class") == own_nodes[f"n{node}"].get("class")
    # The colour key's boxes (no path) stay, at their places, untagged.
    keys = [g for g in nodes if g.get("data-path") is None]
    assert [texts(g) for g in keys] == [texts(own_nodes[name]) for name in own_nodes if name.startswith("key_")]

    # Every edge is named by the node it enters, and its arrowhead is where graphviz drew it.
    edges = groups(svg, "edge")
    own_edges = groups(own, "edge")
    assert len(edges) == len(own_edges) == len(drawn) - 1
    for edge, own_edge in zip(edges, own_edges):
        head = int(own_edge.find(f"{SVG}title").text.split("->")[1].lstrip("n"))
        assert json.loads(edge.get("data-path")) == list(tree.path_moves(head))
        assert edge.find(f"{SVG}polygon").get("points") == own_edge.find(f"{SVG}polygon").get("points")

    # Nothing the browser would show as a tooltip or read as markup: no titles, no comments, no ids.
    assert "<title>" not in svg and "<!--" not in svg and " id=" not in svg
    assert ET.fromstring(svg).get("viewBox") == ET.fromstring(own).get("viewBox")


def test_straight_box_sides_are_lines_through_graphviz_corners():
    tree = hostile_tree()
    drawn = visible_nodes(tree)
    dot = render_tree(tree, drawn, direction="LR", tooltips=False, lines=((ROOT,),)).source
    own = dot_svg(dot).decode()  # graphviz's own SVG, drawn as the app has it drawn
    svg = tagged_svg(dot, node_infos(tree, drawn))

    def corners(d: str) -> list[str]:
        """The point each piece of a path ends at (after C, every third point)."""
        ends, command, points = [], "", []
        for token in re.findall(r"[MLC]|[-\d.]+,[-\d.]+", d):
            if token in "MLC":
                command, points = token, []
                continue
            points.append(token)
            if command != "C" or len(points) % 3 == 0:
                ends.append(token)
        return ends

    own_boxes = [g.find(f"{SVG}path").get("d") for g in groups(own, "node")]
    boxes = [g.find(f"{SVG}path").get("d") for g in groups(svg, "node")]
    assert [corners(d) for d in boxes] == [corners(d) for d in own_boxes]
    assert all("L" in d for d in boxes)


def test_graphviz_failure_is_raised_with_its_message():
    with pytest.raises(subprocess.CalledProcessError) as failure:
        dot_svg("digraph { a -> }")
    assert b"syntax error" in failure.value.stderr


@pytest.mark.parametrize("colouring", ["none", "mean"])
def test_the_picture_sends_no_colour_the_viewers_css_sets_and_the_labels_size_once(colouring):
    """A 5,000-node drawing's SVG carried 0.43 MB of colours the viewer's stylesheet overrides and
    0.25 MB of ``font-size``, one per label line: what is left is what the viewer shows (its pixels are
    compared with graphviz's own in tests/browser/test_browser_tagged_picture.py)."""
    tree = hostile_tree()
    drawn = drawn_nodes(tree, visible_nodes(tree), selected_nodes(tree, Scoring(c=1.0)), inspected=ROOT)
    dot = render_tree(tree, drawn, direction="LR", colouring=colouring, tooltips=False, lines=((ROOT,),)).source
    own = dot_svg(dot).decode()  # graphviz's own SVG, drawn as the app has it drawn
    svg = tagged_svg(dot, node_infos(tree, drawn))
    picture = ET.fromstring(svg)

    # Only a box coloured by a value (the tree's, the colour key's) keeps its fill, graphviz's; no
    # outline, line or label has a colour of its own.
    boxes = [(g.get("class"), g.find(f"{SVG}path").get("fill")) for g in groups(svg, "node")]
    own_boxes = [(g.get("class"), g.find(f"{SVG}path").get("fill")) for g in groups(own, "node")]
    assert boxes == [(kind, fill if "filled" in kind else None) for kind, fill in own_boxes]
    assert any("filled" in kind for kind, _ in boxes) == (colouring == "mean")
    painted = [e for e in picture.iter() if e.get("stroke") is not None or e.get("fill") is not None]
    assert painted == [g.find(f"{SVG}path") for g in picture.iter(f"{SVG}g") if g.get("class", "").startswith("node filled")]
    # Each label's size is the <svg>'s unless it differs (the colour key's smaller labels).
    own_sizes = [t.get("font-size") for t in ET.fromstring(own).iter(f"{SVG}text")]
    labels = [t.get("font-size") for t in picture.iter(f"{SVG}text")]
    assert [size or picture.get("font-size") for size in labels] == own_sizes
    assert [size for size in labels if size] == [size for size in own_sizes if size != picture.get("font-size")]


@pytest.mark.parametrize(("seed", "big"), [(1, False), (2, False), (3, True), (4, True)])
def test_tagged_while_graphviz_writes_it_the_picture_is_the_same(monkeypatch, seed, big):
    """The app tags graphviz's SVG piece by piece as it is written: wherever its bytes happen to be
    cut (a multi-byte "μ", a tag, a line break between groups, a node and the edge into it), the
    picture is the one tagged whole, a big drawing's (labels and edges in comments) too."""
    if big:
        monkeypatch.setattr(tagged_svg_module, "BIG_DRAWING_FROM", 1)
    tree = hostile_tree()
    drawn = drawn_nodes(tree, visible_nodes(tree), selected_nodes(tree, Scoring(c=1.0)), inspected=ROOT)
    dot = render_tree(tree, drawn, direction="LR", colouring="mean", tooltips=False, lines=((ROOT,),)).source
    raw, infos = dot_svg(dot), node_infos(tree, drawn)
    whole = tag_svg(raw, infos)
    # Pieces of a few hundred bytes, so this small picture is tagged in many (the app's are 64 KB).
    monkeypatch.setattr(SvgTagger, "PIECE", 300)
    monkeypatch.setattr(SvgTagger, "SIZES_FROM", 2000)
    rng = random.Random(seed)
    tagger, at = SvgTagger(infos), 0
    while at < len(raw):
        size = rng.choice([1, 2, 7, 64, 333, 1000])
        tagger.feed(raw[at : at + size])
        at += size
    assert len(tagger.tagged) > 20  # tagged in pieces indeed
    assert tagger.finish() == whole
    edges = len(drawn) - 1
    assert whole.count("data-path=") == len(drawn) + (0 if big else edges) and "\n<" not in whole
    assert whole.count("<!--e-->") == (edges if big else 0)


def with_edges_made(svg: str) -> str:
    """A big drawing as the viewer would have it with every edge an element: each edge mark after a
    node replaced by the edge into it, from its piece of the joined paths, which go."""
    joined = {kind: re.search(rf'<path class="tv-edge-{kind}" d="([^"]*)"/>', svg).group(1).split("M")[1:] for kind in ("lines", "arrows")}
    svg = re.sub(r'<path class="tv-edge-(?:lines|arrows)" d="[^"]*"/>', "", svg)
    pieces = iter(zip(joined["lines"], joined["arrows"]))

    def edge(match: re.Match) -> str:
        line, arrow = next(pieces)
        return f'{match.group(0)[: -len("<!--e-->")]}<g class="edge" data-path=\'{match.group(1)}\'><path d="M{line}"/><polygon points="{arrow[:-1]}"/></g>'

    made = re.sub(r"<g class=\"node[^\"]*\" data-path='([^']*)'[^>]*>(?:(?!</g>).)*</g><!--e-->", edge, svg, flags=re.S)
    assert next(pieces, None) is None  # a piece for every mark, a mark for every piece
    return made


def test_a_big_drawings_labels_and_edges_come_in_comments_no_move_can_end_one(monkeypatch):
    """From BIG_DRAWING_FROM nodes on, each box's label lines are graphviz's own markup inside a
    comment (the viewer makes them elements near the view), and two paths draw all the edges' lines
    and arrowheads, a comment after each node marking the edge into it (the viewer makes it an
    element while it is highlighted). With them made elements, the picture is the one with elements;
    no move, however written, ends a comment early or opens another."""
    moves = ["-->", "--!>", "<!--", "a--b", "-", "&gt;"]
    records = [json.dumps({"path": [moves[k % 6], moves[(k * 5) % 6]], "score": k % 3}) for k in range(30)]
    tree = read_input('{"mcts_log": 1}\n' + "\n".join(records) + "\n").tree
    drawn = drawn_nodes(tree, visible_nodes(tree), selected_nodes(tree, Scoring(c=1.0)), inspected=ROOT)
    dot = render_tree(tree, drawn, direction="LR", colouring="mean", tooltips=False, lines=((ROOT,),)).source
    raw, infos = dot_svg(dot), node_infos(tree, drawn)
    plain = tag_svg(raw, infos)
    assert "<!--" not in plain and "tv-edge" not in plain and len(drawn) < tagged_svg_module.BIG_DRAWING_FROM
    monkeypatch.setattr(tagged_svg_module, "BIG_DRAWING_FROM", len(drawn))
    big = tag_svg(raw, infos)
    comments = re.findall(r"<!--(.*?)-->", big, re.S)
    labels = [body for body in comments if body != "e"]
    assert len(labels) == len(drawn) + 3 and comments.count("e") == len(drawn) - 1 == plain.count('<g class="edge"')
    assert all(body.startswith("<text") and body.endswith("</text>") and "--!>" not in body for body in labels)
    without_comments = re.sub(r"<!--.*?-->", "", big, flags=re.S)
    assert "<text" not in without_comments and '<g class="edge"' not in without_comments
    assert big.index("tv-edge-arrows") < big.index('<g class="node')  # the edges under every box
    assert re.sub(r"<!--(?!e-->)|(?<!<!--e)-->", "", with_edges_made(big)) == plain
    # graphviz writes a label's "-" as "&#45;" and its ">" as "&gt;": no "--" in a comment (valid XML too).
    assert any(">a&#45;&#45;b<" in body for body in labels) and any(">&#45;&#45;&gt;<" in body for body in labels)
    assert "--" not in "".join(comments)
    ET.fromstring(big)
