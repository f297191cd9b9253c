"""The tree laid out once by graphviz's ``dot``, tagged so a browser can highlight it without a new layout.

:func:`tagged_svg` runs ``dot -Tsvg`` on a drawing without highlights and gives every node group
``data-path`` (its moves as a JSON array; ``[]`` is the root) and ``data-tip`` (what hovering
shows), and every edge the ``data-path`` of the node it leads into. Everything written is escaped:
paths are ASCII JSON and then attribute-escaped, tooltips are attribute-escaped, so no move text
can become markup. ``<title>`` elements are dropped (browsers would show node ids as tooltips),
and so are the XML prologue, comments and the fixed size (the viewer sizes the picture).
"""

from __future__ import annotations

import html
import re
from collections.abc import Collection, Mapping, Sequence
from typing import NamedTuple

from ..model import path_json
from ..model.tree import ROOT, Tree


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


_COMMENT = re.compile(r"<!--.*?-->\s*", re.DOTALL)
_SVG_SIZE = re.compile(r'^(<svg)\s+width="[^"]*"\s+height="[^"]*"')
# dot writes each node and edge as <g id=".." class="node"> followed by <title>NAME</title>.
_GROUP = re.compile(r'(<g id="[^"]*" class="(node|edge|graph|cluster)(?: [^"]*)?"[^>]*)>\s*<title>([^<]*)</title>\s*')
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")  # not allowed in XML, even escaped


def tag_svg(svg: str, nodes: Mapping[str, NodeInfo]) -> str:
    """Give node groups ``data-path``/``data-tip`` and edges the ``data-path`` of the node they enter."""
    svg = svg[svg.index("<svg") :]
    svg = _COMMENT.sub("", svg)
    svg = _SVG_SIZE.sub(r"\1", svg, count=1)

    def tag(match: re.Match[str]) -> str:
        opening, kind, title = match.group(1), match.group(2), html.unescape(match.group(3))
        if kind == "node":
            info = nodes.get(title)
            if info is None:
                return opening + ">"
            attributes = f' data-tip="{_attribute(info.tooltip)}"' if info.tooltip else ""
            if info.path is not None:
                attributes = f' data-path="{_attribute(path_json(info.path))}"' + attributes
            return f"{opening}{attributes}>"
        if kind == "edge":
            head = title.rpartition("->")[2].partition(":")[0]  # "n1:s->n2:n" -> "n2"
            info = nodes.get(head)
            if info is not None and info.path is not None:
                return f'{opening} data-path="{_attribute(path_json(info.path))}">'
        return opening + ">"

    return _GROUP.sub(tag, svg)


def tagged_svg(dot: str, nodes: Mapping[str, NodeInfo]) -> str:
    """``dot -Tsvg`` of a drawing, tagged (see the module docstring). Needs graphviz's ``dot``."""
    import graphviz

    return tag_svg(graphviz.Source(dot).pipe(format="svg", encoding="utf-8"), nodes)


def _attribute(text: str) -> str:
    """Text as an XML attribute value: escaped, line breaks kept (XML turns raw ones into spaces)."""
    text = _CONTROL.sub("\ufffd", text).encode("utf-8", "replace").decode("utf-8")
    return html.escape(text, quote=True).replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
