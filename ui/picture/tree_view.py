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

A page says what to show as a :class:`Picture` and shows it with :func:`show_tree`; the work a
picture needs is cached by what it depends on, one cache for each thing, shared by the sessions.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Callable, Collection, Sequence
from dataclasses import KW_ONLY, dataclass, field
from functools import cached_property, partial

import streamlit as st

from mcts_core import Scoring, Tree
from mcts_core.analysis import DrawnValues, inspected_terms
from mcts_core.drawing import Arrangement, DotRun, SvgTagger, arrange, dot_available, node_infos, render_tree
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


@dataclass(frozen=True)
class Picture:
    """One tree picture: what to draw, its limits and its marks. Nodes are the tree's nodes, paths
    and lines run root first; the sequences are kept as tuples and ``drawn`` as a frozenset, and a
    ``arrangement`` of None is decided when the picture is made, so a picture never changes.

    Attributes:
        tree: the tree.
        drawn: every node to draw, the paths and the inspected node's ancestors included
            (:func:`mcts_core.drawing.dot.drawn_nodes`); a node's "+k more" line counts its children left out.
        layout_key: identifies the tree (the input's key; a playback frame adds its k).
        arrangement: its direction and labels (:func:`mcts_core.drawing.dot.arrange`); None: the
            first that ``drawn`` fits readably at 1366x768.
        colouring: ``"none"``, ``"mean"`` or ``"visits"`` (a key of the colours is drawn).
        label_px: the smallest label size, in CSS px, the picture's views zoom to (more on a projector).
        height: the picture's height in pixels without graphviz's ``dot``; the interactive picture
            fills the window below its top instead (at least 280 px).
        opening: what the picture opens on (and shows again when ``path`` changes, until the
            view is moved by hand): ``"path"``, the root and the selected path; ``"inspected"``,
            the path down to the inspected node and that node's children.
        path: the selected path's nodes.
        second_path: another path (Compare's setting B), drawn teal and dashed.
        inspected: the node outlined as inspected.
        principal_variation: the most visited line's nodes, marked with an orange band and framed
            by a "Principal variation" button; None marks nothing.
        line: the nodes the layout keeps on one straight row (or column), continued by the most
            visited child; None: ``path``. Where it changes the picture is laid out again
            (Classroom passes none: its walk, not the answer, is the straight row).
        path_follows_c: ``path`` is the selected path at the page's C, so it follows the C control
            while it is dragged; False for a path that does not depend on C (Classroom's walk).
        scoring: the rule whose value at its C each drawn node's hover shows (as its parent's
            child, with its rank); None: no value. Each value is also sent as a line in C, so the
            hover follows the page's C control while it is dragged, and so are the inspected node's
            children, which the C control ranks live.
    """

    # What to draw (a repr of thousands of nodes helps no one).
    tree: Tree = field(repr=False)
    drawn: Collection[int] = field(repr=False)
    _: KW_ONLY
    layout_key: str
    arrangement: Arrangement | None = None
    colouring: str = "none"
    # Its limits.
    label_px: float = 12
    height: int = 560
    opening: str = "path"
    # Its marks.
    path: Sequence[int] = ()
    second_path: Sequence[int] = ()
    inspected: int | None = None
    principal_variation: Sequence[int] | None = None
    line: Sequence[int] | None = None
    path_follows_c: bool = True
    scoring: Scoring | None = None

    def __post_init__(self) -> None:
        # The caller's own lists and sets stay theirs: changing one later never changes the picture.
        fix = partial(object.__setattr__, self)
        fix("drawn", frozenset(self.drawn))
        fix("path", tuple(self.path))
        fix("second_path", tuple(self.second_path))
        if self.principal_variation is not None:
            fix("principal_variation", tuple(self.principal_variation))
        if self.line is not None:
            fix("line", tuple(self.line))
        if self.arrangement is None:
            fix("arrangement", arrange(self.tree, self.drawn))

    @property
    def direction(self) -> str:
        """``"TB"`` (top down) or ``"LR"`` (left to right)."""
        return self.arrangement.direction

    @cached_property
    def drawn_key(self) -> str:
        """The drawn set in a few bytes (a hash of its sorted nodes), for the caches' keys."""
        return hashlib.blake2b(repr(sorted(self.drawn)).encode(), digest_size=12).hexdigest()

    @property
    def lines(self) -> tuple[tuple[int, ...], ...]:
        """The lines the layout keeps straight: ``line``, else ``path``. Only the main line shapes
        the layout: Compare's B path (drawn whole) moves with B's C without one."""
        return (self.path if self.line is None else self.line,)

    @property
    def layout_id(self) -> tuple:
        """What the laid-out SVG depends on, and nothing else (no highlight: a click, or a C that
        keeps the main line, never needs a new one)."""
        return (self.layout_key, self.drawn_key, self.arrangement, self.colouring, self.lines)

    @cached_property
    def at_one(self) -> Scoring | None:
        """The rule at C = 1 (each drawn value is a line in C, made once per drawing and rule); None without a rule."""
        return None if self.scoring is None else self.scoring.with_c(1.0)

    @property
    def values_key(self) -> str:
        """What the drawn nodes' values as lines in C depend on: the drawing and the rule at C = 1."""
        return f"{self.layout_key}|{self.drawn_key}|{self.at_one!r}"

    def moves(self, nodes: Sequence[int]) -> list[list[str]]:
        """Each node's moves from the root, as the page's paths are written."""
        return [list(self.tree.path_moves(node)) for node in nodes]


@dataclass(frozen=True)
class _Caches:
    """What the pictures compute, kept for all sessions: one cache per thing, keyed by what it depends on."""

    # layout_id -> the tagged SVG as UTF-8 and its id (a hash of it: made once, not on every
    # rerun); bounded by bytes (a count would evict small ones for nothing and keep large ones too long).
    layouts: BoundedLRU
    # (layout_key, rule at C = 1) -> each parent's child lines, filled in by the drawings of one
    # tree: a new node budget redraws mostly the same parents.
    parent_lines: BoundedLRU
    # values_key -> the drawn nodes' values as lines in C.
    drawn_values: BoundedLRU
    # (layout_key, drawn_key, rule at its C) -> the hover texts: a click that only moves the
    # inspected node costs nothing.
    hovers: BoundedLRU


@st.cache_resource
def _caches() -> _Caches:
    """The caches, one set for the server process."""
    return _Caches(
        layouts=BoundedLRU(256, LAYOUT_BYTES, lambda kept: len(kept[0])),
        parent_lines=BoundedLRU(16),
        drawn_values=BoundedLRU(16),
        hovers=BoundedLRU(16),
    )


def _start_layout(picture: Picture) -> Callable[[], tuple[bytes, str]]:
    """Start the tagged SVG of ``picture`` with its lines straight and no highlight; the function
    returned waits for it and keeps it, with its id, under the picture's ``layout_id``."""
    tree, drawn = picture.tree, picture.drawn
    dot = render_tree(
        tree, drawn, direction=picture.direction, colouring=picture.colouring, tooltips=False, lines=picture.lines,
        stacked=picture.arrangement.stacked,
    ).source
    run = DotRun(dot)  # graphviz draws while the caller makes the hover values

    def tagged() -> tuple[bytes, str]:
        tagger = SvgTagger(node_infos(tree, drawn))
        for piece in run.pieces():  # tagged while graphviz writes the rest
            tagger.feed(piece)
        svg = tagger.finish_bytes()
        kept = svg, hashlib.blake2b(svg, digest_size=8).hexdigest()
        _caches().layouts.put(picture.layout_id, kept)
        return kept

    return tagged


def _drawn_values(picture: Picture) -> DrawnValues | None:
    """The drawn nodes' values as lines in C (made once per drawing and rule); None without a rule."""
    at_one = picture.at_one
    if at_one is None:
        return None
    caches = _caches()

    def made() -> DrawnValues:
        known = caches.parent_lines.get_or_make((picture.layout_key, repr(at_one)), dict)
        return DrawnValues(picture.tree, at_one, picture.drawn, known)

    return caches.drawn_values.get_or_make(picture.values_key, made)


def _inspected_lines(tree: Tree, scoring: Scoring, inspected: int) -> dict:
    """The inspected node's children with their values as lines in C, for the C control to rank."""
    terms = inspected_terms(tree, inspected, scoring)
    children = [{"move": kid["move"], "value": kid["terms"]["value"]} for kid in terms["children"]]
    return {"path": terms["path"], "chance": terms["chance"], "random": terms["random"], "children": children}


def _hover_values(picture: Picture, values: DrawnValues | None) -> dict[str, str]:
    """What hovering a drawn node adds, keyed by its path: its value under the rule, as its parent's
    child, at this C, and its rank (none without a rule), from the drawn lines (the same floats and
    ranks as scoring each parent, in a quarter of the time)."""
    scoring = picture.scoring
    if scoring is None or values is None:
        return {}

    def made() -> dict[str, str]:
        label = scoring.spec.label("value")
        scored, paths = values.at(scoring.c), values.paths
        return {paths[node]: f"{label} {value:.6g} (rank {rank})" for node, (value, rank) in scored.items()}

    return _caches().hovers.get_or_make((picture.layout_key, picture.drawn_key, repr(scoring)), made)


def _show_in_browser_layout(picture: Picture) -> None:
    """Without ``dot`` on the server: st.graphviz_chart lays the tree out in the browser (slowly, no clicks)."""
    graph = render_tree(
        picture.tree, picture.drawn, path=picture.path, second_path=picture.second_path,
        inspected=picture.inspected, direction=picture.direction, colouring=picture.colouring,
        stacked=picture.arrangement.stacked,
    )
    st.caption(INSTALL_GRAPHVIZ)
    with st.container(height=picture.height):
        st.graphviz_chart(graph, width="stretch")


def show_tree(picture: Picture, *, key: str, on_click: Callable[[int], None] | None = None) -> None:
    """Show ``picture``, its paths and its inspected node highlighted.

    Args:
        picture: what to draw, its limits and its marks.
        key: the picture's widget key (one per page); pan and zoom are kept per key and layout.
        on_click: called with the node a click (or an arrow key) chose, before the rerun's script
            runs; None makes the picture not clickable.
    """
    if not dot_available():
        _show_in_browser_layout(picture)
        return
    tree, inspected, at_one = picture.tree, picture.inspected, picture.at_one
    kept = _caches().layouts.get(picture.layout_id)
    with st.spinner("Laying out the tree…") if kept is None else contextlib.nullcontext():
        tagged = None if kept is not None else _start_layout(picture)
        try:
            values = _drawn_values(picture)
            hover = _hover_values(picture, values)
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
        "selected": picture.moves(picture.path),
        "second": picture.moves(picture.second_path),
        "inspected": None if inspected is None else list(tree.path_moves(inspected)),
        "values": hover,
        "follows_c": picture.path_follows_c,
        "pv": None if picture.principal_variation is None else picture.moves(picture.principal_variation),
        "label_px": picture.label_px,
        "opening": picture.opening,
        "compact": tree.compact,
        "clickable": on_click is not None,
        "view_key": key,
    }
    send_svg = page_has.get("layout") != layout
    page_has["layout"] = layout
    if values is not None:
        lines_id = hashlib.blake2b(picture.values_key.encode(), digest_size=8).hexdigest()
        data["lines_id"] = lines_id
        if page_has.get("lines") != lines_id:
            data["lines"] = values.lines
            page_has["lines"] = lines_id
        data["inspected_lines"] = None if inspected is None else _inspected_lines(tree, at_one, inspected)
        data["value_label"] = picture.scoring.spec.label("value")

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
