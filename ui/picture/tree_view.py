"""The interactive tree picture every page shows: laid out on the server, highlighted in the browser.

The drawn nodes are laid out along the selected path, straight (:mod:`mcts_core.drawing.layout`),
and graphviz draws them there without any highlight (cached by the tree, the drawn set, the
direction, the colouring and that path); the SVG is tagged with each node's path
(:mod:`mcts_core.drawing.tagged_svg`), and a Streamlit custom component (``ui/picture/tree_view.js``, no iframe,
nothing loaded from the network) shows it with pan, zoom, fit/root/path/inspected buttons, hover
tooltips and arrow keys, and moves CSS classes for the selected path and the inspected node. So a
click, a drag of C and a commit that keeps the path send only which paths to highlight (a commit
that changes the path brings the picture laid out along the new one), the SVG (megabytes for
thousands of nodes) goes to the page once per layout, and each drawn node's value as a line in C
(for hovers while C is dragged) once per drawing and rule. Where graphviz is not installed, the
same drawing goes to ``st.graphviz_chart`` with a note on installing graphviz.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Callable, Collection, Sequence

import streamlit as st

from mcts_core import Scoring, Tree, score_children
from mcts_core.analysis import DrawnValues, inspected_terms
from mcts_core.drawing import DotRun, SvgTagger, dot_available, fits_top_down, node_infos, path_json, render_tree
from ui.common import state
from ui.common.components import asset_component, strict_json
from ui.common.lru import BoundedLRU

# Session-state keys this module owns.
TREE_VIEW_SENT = state.key("_tree_view_sent")

_HTML = """
<div class="tv-root">
  <div class="tv-toolbar" role="toolbar" aria-label="Tree view">
    <button type="button" data-action="fit" title="Show the whole tree (its top levels when it is too big to read whole)">Fit</button>
    <button type="button" data-action="root" title="Centre on the root">Root</button>
    <button type="button" data-action="path" title="Show the selected path (press again to follow it)">Selected path</button>
    <button type="button" data-action="inspected" title="Show the inspected node and its children">Inspected node</button>
    <button type="button" data-action="pv" title="Show the most visited line (press again to follow it)" hidden>Principal variation</button>
    <p class="tv-note" role="status" hidden></p>
  </div>
  <div class="tv-viewport" tabindex="0"
       aria-label="Tree picture: drag to pan, wheel to zoom, click a node to inspect it, arrow keys to move">
    <p class="tv-status" hidden></p>
    <div class="tv-tip" role="tooltip" hidden></div>
    <div class="tv-grab" hidden></div>
  </div>
</div>
"""

_component = asset_component("mcts_tree_view", "picture/tree_view", _HTML)

INSTALL_GRAPHVIZ = (
    "Install graphviz for the interactive picture (pan, zoom, click a node): `apt-get install graphviz` "
    "(Debian/Ubuntu), `brew install graphviz` (macOS), `choco install graphviz` (Windows); then restart the app."
)


LAYOUT_BYTES = 48 * 2**20  # laid-out SVGs kept for all sessions: ~30 drawings of 300 nodes fit many times


@st.cache_resource
def _layouts() -> BoundedLRU:
    """Laid-out pictures (their SVG as UTF-8) shared by the sessions, with their ids (a hash of the
    SVG: made once, not on every rerun), bounded by bytes (a count would evict small ones for nothing
    and keep large ones too long)."""
    return BoundedLRU(256, LAYOUT_BYTES, lambda kept: len(kept[0]))


def _start_layout(
    layout_id: tuple, tree: Tree, drawn: frozenset, direction: str, colouring: str, lines: tuple[tuple[int, ...], ...]
) -> Callable[[], tuple[bytes, str]]:
    """Start the tagged SVG of a drawing with ``lines`` straight (no highlights: a click, or a C
    that keeps the main line, never needs a new one); the function returned waits for it and keeps
    it, with its id, under ``layout_id``."""
    dot = render_tree(tree, drawn, direction=direction, colouring=colouring, tooltips=False, lines=lines).source
    run = DotRun(dot)  # graphviz draws while the caller makes the hover values

    def tagged() -> tuple[bytes, str]:
        tagger = SvgTagger(node_infos(tree, drawn))
        for piece in run.pieces():  # tagged while graphviz writes the rest
            tagger.feed(piece)
        svg = tagger.finish_bytes()
        kept = svg, hashlib.blake2b(svg, digest_size=8).hexdigest()
        _layouts().put(layout_id, kept)
        return kept

    return tagged


def _drawn_key(drawn: Collection[int]) -> str:
    return hashlib.blake2b(repr(sorted(drawn)).encode(), digest_size=12).hexdigest()


@st.cache_resource(max_entries=16, show_spinner=False)
def _parent_lines(layout_key: str, rule_key: str) -> dict:
    """Each parent's child lines under a rule, by parent, filled in by the drawings of one tree: a
    new node budget redraws mostly the same parents."""
    return {}


@st.cache_resource(max_entries=16, show_spinner=False)
def _drawn_values(
    layout_key: str, drawn_key: str, rule_key: str, _tree: Tree, _scoring: Scoring, _drawn
) -> DrawnValues:
    """The drawn nodes' values as lines in C (made once per drawing and rule); ``rule_key`` is
    ``repr`` of the scoring at C = 1 (Streamlit's cache cannot hash a Scoring)."""
    return DrawnValues(_tree, _scoring, _drawn, _parent_lines(layout_key, rule_key))


def _inspected_lines(tree: Tree, scoring: Scoring, inspected: int) -> dict:
    """The inspected node's children with their values as lines in C, for the C control to rank."""
    terms = inspected_terms(tree, inspected, scoring)
    children = [{"move": kid["move"], "value": kid["terms"]["value"]} for kid in terms["children"]]
    return {"path": terms["path"], "chance": terms["chance"], "random": terms["random"], "children": children}


def _scored_values(tree: Tree, drawn: frozenset, scoring: Scoring) -> dict[int, tuple[float, int]]:
    """Each drawn node but the root: ``(value, rank)`` as its parent's child (every parent scored)."""
    values = {}
    for parent in drawn:
        if any(kid in drawn for kid in tree.children[parent]):
            for child in score_children(tree, parent, scoring):
                if child.node in drawn:
                    values[child.node] = (child.value, child.rank)
    return values


@st.cache_resource(max_entries=16, show_spinner=False)
def _hover_values(
    layout_key: str, drawn_key: str, scoring_key: str, _tree: Tree, _scoring: Scoring, _drawn,
    _values: DrawnValues | None,
) -> dict[str, str]:
    """What hovering a drawn node adds, keyed by its path: its value under the rule, as its parent's
    child, at this C, and its rank. From the drawn lines when the rule is affine in C (the same
    floats and ranks, in a quarter of the time); kept per C as well, so a click that only moves the
    inspected node costs nothing here."""
    label = _scoring.spec.label("value")
    if _values is None:
        scored = _scored_values(_tree, _drawn, _scoring)
        paths = {node: path_json(_tree.path_moves(node)) for node in scored}
    else:
        scored, paths = _values.at(_scoring.c), _values.paths
    return {paths[node]: f"{label} {value:.6g} (rank {rank})" for node, (value, rank) in scored.items()}


def _show_in_browser_layout(tree, drawn, path, second_path, inspected, direction, colouring, height) -> None:
    """Without ``dot`` on the server: st.graphviz_chart lays the tree out in the browser (slowly, no clicks)."""
    graph = render_tree(
        tree, drawn, path=path, second_path=second_path, inspected=inspected, direction=direction, colouring=colouring
    )
    st.caption(INSTALL_GRAPHVIZ)
    with st.container(height=height):
        st.graphviz_chart(graph, width="stretch")


def show_tree(
    tree: Tree,
    drawn: Collection[int],
    *,
    layout_key: str,
    key: str,
    direction: str | None = None,
    colouring: str = "none",
    path: Sequence[int] = (),
    second_path: Sequence[int] = (),
    inspected: int | None = None,
    scoring: Scoring | None = None,
    path_follows_c: bool = True,
    principal_variation: Sequence[int] | None = None,
    line: Sequence[int] | None = None,
    opening: str = "path",
    label_px: float = 12,
    height: int = 560,
    on_click: Callable[[int], None] | None = None,
) -> None:
    """Show the tree picture of ``drawn`` with the paths and the inspected node highlighted.

    Args:
        tree: the tree.
        drawn: every node to draw, the paths and the inspected node's ancestors included
            (:func:`mcts_core.drawing.dot.drawn_nodes`); a node's "+k more" line counts its children left out.
        layout_key: identifies the tree (the input's key; a playback frame adds its k).
        key: the picture's widget key (one per page); pan and zoom are kept per key and layout.
        direction: ``"TB"`` or ``"LR"``; None: top-down when the drawing fits the width.
        colouring: ``"none"``, ``"mean"`` or ``"visits"`` (a key of the colours is drawn).
        path: the selected path's nodes, root first.
        second_path: another path (Compare's setting B), drawn teal and dashed.
        inspected: the node outlined as inspected.
        scoring: the rule whose value at its C each drawn node's hover shows (as its parent's
            child, with its rank); None: no value. When the rule is affine in C each value is also
            sent as a line in C, so the hover follows the page's C control while it is dragged, and
            so are the inspected node's children, which the C control ranks live.
        path_follows_c: ``path`` is the selected path at the page's C, so it follows the C control
            while it is dragged; False for a path that does not depend on C (Classroom's walk).
        principal_variation: the most visited line's nodes, root first, marked with an orange band
            and framed by a "Principal variation" button; None marks nothing.
        line: the nodes the layout keeps on one straight row (or column), root first, continued by
            the most visited child; None: ``path``. Where it changes the picture is laid out again
            (Classroom passes none: its walk, not the answer, is the straight row).
        opening: what the picture opens on (and shows again when ``path`` changes, until the
            view is moved by hand): ``"path"``, the root and the selected path; ``"inspected"``,
            the path down to the inspected node and that node's children.
        label_px: the smallest label size, in CSS px, the picture's views zoom to (more on a projector).
        height: the picture's height in pixels without graphviz's ``dot``; the interactive picture
            fills the window below its top instead (at least 280 px).
        on_click: called with the node a click (or an arrow key) chose, before the rerun's script
            runs; None makes the picture not clickable.
    """
    drawn = frozenset(drawn)
    if direction is None:
        direction = "TB" if fits_top_down(tree, drawn) else "LR"
    if not dot_available():
        _show_in_browser_layout(tree, drawn, path, second_path, inspected, direction, colouring, height)
        return
    drawn_key = _drawn_key(drawn)
    # Only the main line shapes the layout: Compare's B path (drawn whole) moves with B's C without one.
    lines = (tuple(path if line is None else line),)
    layout_id = (layout_key, drawn_key, direction, colouring, lines)
    kept = _layouts().get(layout_id)
    with st.spinner("Laying out the tree…") if kept is None else contextlib.nullcontext():
        tagged = None if kept is not None else _start_layout(layout_id, tree, drawn, direction, colouring, lines)
        try:
            # Each drawn value is a line in C, made once per drawing and rule.
            at_one = scoring.with_c(1.0) if scoring is not None else None
            values = None if at_one is None else _drawn_values(layout_key, drawn_key, repr(at_one), tree, at_one, drawn)
            hover = {} if scoring is None else _hover_values(
                layout_key, drawn_key, repr(scoring), tree, scoring, drawn, values
            )
        finally:
            if tagged is not None:
                kept = tagged()
    svg, layout = kept
    # The SVG goes to the page once per layout, the value lines once per layout and rule: later
    # runs only say what to highlight and the values at this C.
    sent: dict[str, dict] = st.session_state.setdefault(TREE_VIEW_SENT, {})
    page_has = sent.setdefault(key, {})
    data = {
        "layout": layout,
        "selected": [list(tree.path_moves(node)) for node in path],
        "second": [list(tree.path_moves(node)) for node in second_path],
        "inspected": None if inspected is None else list(tree.path_moves(inspected)),
        "values": hover,
        "follows_c": path_follows_c,
        "pv": None if principal_variation is None else [list(tree.path_moves(node)) for node in principal_variation],
        "label_px": label_px,
        "opening": opening,
        "compact": tree.compact,
        "clickable": on_click is not None,
        "view_key": key,
    }
    send_svg = page_has.get("layout") != layout
    page_has["layout"] = layout
    if values is not None:
        lines_id = hashlib.blake2b(f"{layout_key}|{drawn_key}|{at_one!r}".encode(), digest_size=8).hexdigest()
        data["lines_id"] = lines_id
        if page_has.get("lines") != lines_id:
            data["lines"] = values.lines
            page_has["lines"] = lines_id
        data["inspected_lines"] = None if inspected is None else _inspected_lines(tree, at_one, inspected)
        data["value_label"] = scoring.spec.label("value")

    def clicked() -> None:
        if on_click is None:
            return
        moves = st.session_state[key]["clicked"]
        node, depth = tree.deepest(tuple(moves))
        if depth == len(moves):
            on_click(node)

    def need_layout() -> None:
        sent.pop(key, None)  # the page lost its copy: send the SVG and the lines with the next run

    _component(
        key=key, data=picture_payload(data, svg if send_svg else None), height="content",
        on_clicked_change=clicked, on_need_layout_change=need_layout,
    )


def picture_payload(data: dict, svg: bytes | None) -> bytes:
    """What the picture is sent: ``data`` as strict JSON (:func:`~ui.common.components.strict_json`), then,
    after a line break, the SVG when it is sent. The SVG goes as it is: inside JSON each of its
    quotes would be escaped, Streamlit would write that JSON twice and hash it, and the browser
    would parse it (at 5,000 nodes 4 MB, 0.2 million quotes). JSON holds no raw line break."""
    head = json.dumps(strict_json(data), separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode()
    return head if svg is None else head + b"\n" + svg


def read_picture_payload(payload: bytes) -> dict:
    """The data of :func:`picture_payload`, with the SVG (text, or None when not sent) under ``"svg"``."""
    head, cut, svg = payload.partition(b"\n")
    return {**json.loads(head), "svg": svg.decode("utf-8") if cut else None}
