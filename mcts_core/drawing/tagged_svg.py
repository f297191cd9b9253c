"""The tree laid out once by graphviz's ``dot``, tagged so a browser can highlight it without a new layout.

:func:`tagged_svg` runs ``dot -Tsvg`` on a drawing without highlights and gives every node group
``data-path`` (its moves as a JSON array, in single quotes; ``[]`` is the root) and ``data-tip`` (what hovering
shows), and every edge the ``data-path`` of the node it leads into. Everything written is escaped:
paths are ASCII JSON and then attribute-escaped, tooltips are attribute-escaped, so no move text
can become markup. ``<title>`` elements are dropped (browsers would show node ids as tooltips),
and so are the XML prologue, comments and the fixed size (the viewer sizes the picture); the
labels' anchor, font and most common size are said once on the ``<svg>``, straight pieces of paths
are written as lines, and graphviz's element ids are dropped. The colours the viewer's CSS
(``ui/picture/tree_view.css``) sets on every element of a kind are dropped too (all outlines and
lines, the label colours, the fill of a box not coloured by a value, the edges' ``fill="none"``),
and the line breaks between elements: the picture in the viewer is the same, pixel for pixel, and a
5,000-node drawing's SVG is 0.9 MB (a fifth) smaller than with them (bench/RESULTS.md, issue 38).
A big drawing's label lines come inside a comment in each box, for the viewer to make elements of
near the view; its edges are drawn by two paths (all lines, all arrowheads), each edge marked by a
comment after its node, for the viewer to make an element of when it highlights it.
:class:`SvgTagger` does all of this piece by piece while graphviz writes the SVG.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from typing import NamedTuple

from ..model import path_json
from ..model.tree import ROOT, Tree
from .graphviz_run import dot_svg


class NodeInfo(NamedTuple):
    """What the picture needs about one graphviz node, by its name: its path and its tooltip."""

    path: Sequence[str] | None  # moves from the root ([] is the root); None: not a tree node
    tooltip: str = ""


def node_infos(tree: Tree, drawn: Collection[int]) -> dict[str, NodeInfo]:
    """The NodeInfo of every drawn node, by its graphviz name ``n<index>``."""
    infos = {}
    for node in drawn:
        visits = tree.visits[node]
        lines = [tree.path(node) or "(root)", f"{visits:,} visit{'' if visits == 1 else 's'}, total {tree.total[node]:.6g}"]
        if visits:
            view = f" for player {tree.mover(node)}" if tree.players > 1 else ""
            lines.append(f"mean{view} {tree.mean(node):.6g}")
        if tree.is_terminal(node):
            lines.append("the game ended here")
        infos[f"n{node}"] = NodeInfo(tree.path_moves(node) if node != ROOT else (), "\n".join(lines))
    return infos


# The SVG is worked on as UTF-8 bytes: a label's "μ" makes the text two bytes a character in
# Python, and each pass over the bytes takes a third of the time (a 5,000-node drawing is 7 MB).
_COMMENT = re.compile(rb"<!--.*?-->\s*", re.DOTALL)
_SVG_SIZE = re.compile(rb'^(<svg)\s+width="[^"]*"\s+height="[^"]*"')
# dot writes each node and edge as <g id=".." class="node"> followed by <title>NAME</title>; the
# id (node12, edge7) is graphviz's own, nothing uses it.
_GROUP = re.compile(rb'<g id="[^"]*" (class="(node|edge|graph|cluster)(?: [^"]*)?"[^>]*)>\s*<title>([^<]*)</title>\s*')
# The viewer's CSS paints every outline and line (stroke), every label and every shape but a box
# coloured by a value (class "filled"; fill): its tv-base layer outranks any presentation attribute.
# That box's fill is kept in single quotes, which _PAINT passes by. Only graphviz's attributes
# match: it writes a label's quotes as &quot;, and the moves in data-path come later.
_FILLED_BOX = re.compile(rb'(class="node filled"[^>]*>\s*<title>[^<]*</title>\s*<(?:path|polygon|ellipse)) fill="([^"]*)"')
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")  # not allowed in XML, even escaped
# Every label line repeats its anchor, font and (mostly) its size: said once on the <svg> (they
# inherit). With the paint dropped, a 5,000-node drawing is 40% smaller than graphviz wrote it.
_ANCHOR, _FONT = b' text-anchor="middle"', b' font-family="Helvetica,sans-Serif"'
_FONT_SIZE = re.compile(rb' font-size="[^"]*"')
_PAINT = re.compile(rb' (?:stroke|fill)="[^"]*"')
# graphviz writes a straight piece of a path as a Bézier whose control points are its ends.
_PATH = re.compile(rb' d="M([^"C]+)C([^"]+)"')
# A box's label lines, one <text> each. In a big drawing they are written inside a comment, which
# the browser parses as one string, not as elements it must style: the viewer makes them elements
# when their node comes near the view (tree_view.js). A 5,000-node drawing then parses in half the
# time and its first frame takes a third less (bench/RESULTS.md, issue 38). No label can end the
# comment, or hold "--": graphviz writes a label's "-" as "&#45;" and its ">" as "&gt;". A box's
# lines follow its shape (an empty element, "/>") and end its group: two replacements, where a
# regular expression over the whole SVG took 60 ms at 5,000 nodes.
_LABELS_START, _LABELS_END = (b"/><text", b"/><!--<text"), (b"</text></g>", b"</text>--></g>")
# A big drawing's edges: each one an element (a group, its line, its arrowhead) was 3 of the 5
# elements a node brings. They are drawn by two paths instead, graphviz's lines and arrowheads
# joined (a polygon as a closed subpath), under the boxes: one path's overlapping lines are painted
# once, so the shared stems look as light as one edge. Where graphviz wrote an edge, right after the
# node it enters (graphviz writes a node, then the edge into it), the comment EDGE_MARK says so; the
# viewer makes the k-th such edge an element again, from the k-th line and arrowhead of the joined
# paths, while it highlights it. A 5,000-node drawing's new picture then takes a third less of the
# browser's time (bench/RESULTS.md, issue 38).
_MERGED_EDGE = re.compile(rb'<g class="edge"[^>]* data-merge><path d="M([^"M]*)"/><polygon points="([^"]*)"/></g>')
EDGE_MARK = b"<!--e-->"
# Drawings of this many nodes or more are big: their labels come in comments and their edges as two
# paths (about 1,000 label lines: the viewer shows only the labels near the view from there on).
BIG_DRAWING_FROM = 300


def tag_svg(svg: str | bytes, nodes: Mapping[str, NodeInfo]) -> str:
    """Give node groups ``data-path``/``data-tip`` and edges the ``data-path`` of the node they enter;
    a drawing of :data:`BIG_DRAWING_FROM` nodes or more has each box's label lines in a comment, and its
    edges drawn by two paths, each marked by a comment after the node it enters."""
    tagger = SvgTagger(nodes)
    tagger.feed(svg.encode("utf-8") if isinstance(svg, str) else svg)
    return tagger.finish()


class SvgTagger:
    """:func:`tag_svg` piece by piece, while graphviz writes the SVG: the same text in the end.

    A piece ends after a group's ``</g>`` (graphviz never nests node and edge groups), so every
    rewrite finds whole elements; each piece is worked on after the ``>`` that ends the one before
    it, so a line break between the two goes as it would in the whole.
    """

    PIECE = 1 << 16  # bytes gathered before a piece is tagged: fewer, larger passes
    # The labels' common size is the most common among the first this many bytes of the groups.
    SIZES_FROM = 1 << 16

    def __init__(self, nodes: Mapping[str, NodeInfo]) -> None:
        self.nodes = nodes
        self.pending = bytearray()  # graphviz's bytes not tagged yet
        self.tagged: list[bytes] = []
        self.common: bytes | None = None  # the labels' font-size attribute, once the <svg> tag is written
        self.path_tags: dict[bytes, bytes] = {}  # a node's data-path attribute by its name, for the edge into it too
        self.big = len(nodes) >= BIG_DRAWING_FROM
        self.last_node_tag = b""  # the data-path of the node group tagged last
        self.edge_lines: list[bytes] = []  # a big drawing's edges, joined: their lines' paths
        self.edge_arrows: list[bytes] = []  # and their arrowheads', each a closed subpath

    def feed(self, data: bytes) -> None:
        """Take graphviz's next bytes; the whole groups among them are tagged once there are enough."""
        self.pending += data
        if len(self.pending) >= self.PIECE:
            self._tag_pending(final=False)

    def finish(self) -> str:
        """The tagged SVG, once graphviz has written all of it."""
        return self.finish_bytes().decode("utf-8")

    def finish_bytes(self) -> bytes:
        """:meth:`finish` as UTF-8 bytes."""
        self._tag_pending(final=True)
        svg = b"".join(self.tagged)
        if not self.edge_lines:
            return svg
        # The joined edges go first in the graph's group, under everything (its background first).
        graph = svg.find(b'<g class="graph"')
        at = svg.find(b">", graph) + 1
        if svg.startswith(b"<polygon", at):
            at = svg.find(b"/>", at) + 2
        edges = (
            b'<path class="tv-edge-lines" d="' + b"".join(self.edge_lines) + b'"/>'
            b'<path class="tv-edge-arrows" d="' + b"".join(self.edge_arrows) + b'"/>'
        )
        return svg[:at] + edges + svg[at:]

    def _tag_pending(self, final: bool) -> None:
        data = bytes(self.pending)
        last_group_end = data.rfind(b"</g>")
        if not final and last_group_end < 0:
            return
        cut = len(data) if final else last_group_end + 4
        if self.common is None:
            start = data.index(b"<svg") if final else data.find(b"<svg")
            end = data.find(b">", start) + 1  # of the <svg> tag, which takes the labels' anchor, font and size
            if not final and (start < 0 or not 0 < end <= cut):
                return
            tag = data[start:end]
            size = _SVG_SIZE.match(tag)
            opening = b"<svg" + tag[size.end() if size else 4 :]
            body = self._unwrapped(data[end:cut].lstrip(b"\n"))
            # The first labels' most common size (a big drawing's colour key is a few lines among thousands).
            found = _FONT_SIZE.findall(body, 1, 1 + self.SIZES_FROM)
            if not final and (len(body) - 1 < self.SIZES_FROM or not found):
                return  # too few labels yet to say which size is the common one
            sizes = Counter(found or _FONT_SIZE.findall(body, 1)).most_common(1)
            self.common = sizes[0][0] if sizes else b""
            self.tagged.append(opening[:4] + _ANCHOR + _FONT + self.common + opening[4:])
        else:
            body = self._unwrapped(data[:cut])
        self.tagged.append(self._written(body)[1:])
        del self.pending[:cut]

    @staticmethod
    def _unwrapped(piece: bytes) -> bytes:
        """A piece after the ``>`` before it, without graphviz's comments, a coloured box's fill kept apart."""
        return _FILLED_BOX.sub(rb"\1 fill='\2'", _COMMENT.sub(b"", b">" + piece))

    def _written(self, piece: bytes) -> bytes:
        """A piece without what the <svg> tag or the viewer's CSS says, its groups tagged."""
        common = self.common
        piece = piece.replace(b"<text" + _ANCHOR + b" ", b"<text ").replace(_FONT + common, b"")  # font, size: adjacent
        piece = _PAINT.sub(b"", piece.replace(_FONT + b" font-size=", b" font-size="))  # the other sizes' font
        # A line break between elements is a text node the browser makes and keeps, one per element.
        piece = _GROUP.sub(self._tag_group, straight_sides(piece.replace(b">\n<", b"><")))
        if self.big:
            piece = _MERGED_EDGE.sub(self._merged_edge, piece).replace(b" data-merge>", b">")
            piece = piece.replace(*_LABELS_START).replace(*_LABELS_END)
        return piece

    def _merged_edge(self, match: re.Match[bytes]) -> bytes:
        """A big drawing's edge: its line and arrowhead joined to the others', a mark in its place."""
        line, arrowhead = match.group(1, 2)
        self.edge_lines += (b"M", line)
        self.edge_arrows += (b"M", arrowhead, b"Z")
        return EDGE_MARK

    def _path_tag(self, name: bytes) -> bytes:
        """A node's ``data-path`` attribute (for its group and the edge into it), b"" for a box of no node."""
        tag = self.path_tags.get(name)
        if tag is None:
            info = self.nodes.get(name.decode())
            tag = b"" if info is None or info.path is None else f" data-path='{_path_attribute(info.path)}'".encode()
            self.path_tags[name] = tag
        return tag

    def _tag_group(self, match: re.Match[bytes]) -> bytes:
        attributes, kind, title = match.group(1, 2, 3)
        if kind == b"node":  # named by our name for it, never escaped
            info = self.nodes.get(title.decode())
            tip = f' data-tip="{_attribute(info.tooltip)}"'.encode() if info is not None and info.tooltip else b""
            self.last_node_tag = self._path_tag(title)
            return b"<g " + attributes + self.last_node_tag + tip + b">"
        if kind == b"edge":  # "n1&#45;&gt;n2", or with ports "n1:s&#45;&gt;n2:n": into n2
            tag = self._path_tag(title.rpartition(b"&gt;")[2].partition(b":")[0])
            follows_its_node = bool(tag) and tag == self.last_node_tag
            self.last_node_tag = b""
            if self.big and follows_its_node:  # joined (_MERGED_EDGE); the viewer finds it after its node
                return b"<g " + attributes + tag + b" data-merge>"
            return b"<g " + attributes + tag + b">"
        self.last_node_tag = b""
        return b"<g " + attributes + b">"


def straight_sides(svg: bytes) -> bytes:
    """``svg`` with its paths' straight Bézier pieces written as lines (the same shapes, fewer bytes)."""
    return _PATH.sub(_straight_pieces, svg)


def _straight_pieces(match: re.Match[bytes]) -> bytes:
    """A path's straight Bézier pieces as lines: a node's box is 0.1 KB smaller (its four sides)."""
    start, points = match.group(1, 2)
    points = points.split(b" ")
    if len(points) % 3:
        return match.group(0)
    pieces = [b' d="M', start]
    for first, second, end in zip(points[0::3], points[1::3], points[2::3]):
        pieces += (b"L", end) if first == start and second == end else (b"C", first, b" ", second, b" ", end)
        start = end
    pieces.append(b'"')
    return b"".join(pieces)


def tagged_svg(dot: str, nodes: Mapping[str, NodeInfo]) -> str:
    """``dot -Tsvg`` of a drawing, tagged (see the module docstring). Needs graphviz's ``dot``."""
    return tag_svg(dot_svg(dot), nodes)


def _path_attribute(path: Sequence[str]) -> str:
    """A path as JSON in a single-quoted attribute value: its many double quotes stay as they are
    (a fifth of the bytes of a deep drawing's paths were ``&quot;``)."""
    return html.escape(path_json(path), quote=False).replace("'", "&#39;")


def _attribute(text: str) -> str:
    """Text as an XML attribute value: escaped, line breaks kept (XML turns raw ones into spaces)."""
    text = _CONTROL.sub("\ufffd", text).encode("utf-8", "replace").decode("utf-8")
    return html.escape(text, quote=True).replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
