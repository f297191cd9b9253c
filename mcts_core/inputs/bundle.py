"""A view as one zip file: the input as given, the tree, every node's statistics, the picture, the settings.

A bundle holds ``input.<txt|jsonl|json>`` (the bytes as given), ``tree.json`` (the tree dump with
each node's selected child), ``nodes.csv`` (one row per node: path as a JSON array of moves, depth, visits, total, mean,
the rule's value as its parent's child, whether its parent selects it, whether it is on the
selected path), ``picture.dot`` and ``picture.svg`` (the drawn tree; the SVG needs graphviz's
``dot``), ``settings.json`` (page, C, rule and settings, inspected node, drawing limits) and a
``README.txt`` saying how to reopen it: uploading the bundle opens exactly that view.
"""

from __future__ import annotations

import csv
import io
import json
import zipfile
import zlib
from dataclasses import dataclass, field
from typing import Any

from ..common.input_rules import ParseError
from ..common.json_input import key_text, load_json, shown
from ..common.numbers import C_RULE, is_valid_c
from .formats.tree_json_writer import write_tree_json
from .loading import LOG, TREE, Input
from ..selection import Scoring, score_children, select_child, selected_nodes
from ..selection.registry import DEFAULT_RULE, RULES, settings_problem
from ..model.tree import ROOT

BUNDLE_VERSION = 1
INPUT_NAMES = {LOG: "input.jsonl", TREE: "input.json"}  # else input.txt
MAX_MEMBER_BYTES = 512 * 2**20  # a bundle member larger than this is refused (zip bombs)
README = """\
MCTS Explorer bundle

Reopen it: upload this zip in the MCTS Explorer app (sidebar, "upload a large log"); it opens the
input with the same page, C, rule, inspected node and drawing limits. The input alone is
{input_name}: paste or upload it, or run `python -m mcts_core tree < {input_name}`.

Files: {input_name} (the input as given), tree.json (every node, and the child the rule selects
at each), nodes.csv (one row per node), picture.dot / picture.svg (the drawn tree), settings.json.
"""


@dataclass(frozen=True)
class View:
    """What a bundle records about the view besides the input.

    Attributes:
        scoring: the rule, C and settings.
        page: the page's URL path ("" for the Explorer).
        inspected: the inspected node's moves.
        limits: the drawing limits, named as in a share link: budget, depth (0: none), topk (0: all),
            unvisited (bool), colour.
    """

    scoring: Scoring
    page: str = ""
    inspected: tuple[str, ...] = ()
    limits: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict:
        settings = {name: dict(value) if hasattr(value, "items") else value for name, value in self.scoring.settings.items()}
        return {
            "mcts_bundle": BUNDLE_VERSION,
            "page": self.page,
            "c": self.scoring.c,
            "rule": self.scoring.rule,
            "settings": settings,
            "inspected": list(self.inspected),
            "limits": self.limits,
        }


@dataclass(frozen=True)
class Bundle:
    """A read bundle: the input's bytes and name, and the view."""

    input_bytes: bytes
    input_name: str
    view: View


def node_rows(read: Input, scoring: Scoring) -> list[dict[str, Any]]:
    """One row per node (the root first, then in creation order) for ``nodes.csv``.

    A node's path is its moves as a JSON array (the root's ``[]``): a CSV reader sees the root as a
    path, not as a missing value, and a move holding a space or a comma stays one move.
    """
    tree = read.tree
    on_path = set(selected_nodes(tree, scoring))
    value_of: dict[int, float] = {}
    picked: set[int] = set()
    for node in range(len(tree)):
        if tree.children.count(node):
            for child in score_children(tree, node, scoring):
                value_of[child.node] = child.value
            picked.add(select_child(tree, node, scoring))
    return [
        {
            "path": json.dumps(list(tree.path_moves(node)), ensure_ascii=False),
            "depth": tree.depth[node],
            "visits": tree.visits[node],
            "total": tree.total[node],
            "mean": tree.mean(node),
            "value": value_of.get(node, ""),
            "selected": node in picked,
            "on_path": node in on_path,
        }
        for node in range(len(tree))
    ]


def write_bundle(
    out: io.BufferedIOBase | io.BytesIO,
    *,
    input_bytes: bytes,
    read: Input,
    view: View,
    dot: str,
    svg: bytes | None,
) -> None:
    """Write the bundle of a view (see the module docstring) to a binary stream.

    Args:
        out: where the zip goes.
        input_bytes: the input exactly as given.
        read: the input read.
        view: the view's settings.
        dot: the drawn picture's DOT text.
        svg: the same picture laid out by ``dot`` (None when graphviz is not installed).
    """
    input_name = INPUT_NAMES.get(read.kind, "input.txt")
    tree_text = io.StringIO()
    write_tree_json(
        read.tree, tree_text, c=view.scoring.c, rule=view.scoring.rule, settings=view.scoring.settings,
        selected=lambda node: select_child(read.tree, node, view.scoring),
    )
    rows = node_rows(read, view.scoring)
    nodes_text = io.StringIO()
    writer = csv.DictWriter(nodes_text, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(input_name, input_bytes)
        archive.writestr("tree.json", tree_text.getvalue())
        archive.writestr("nodes.csv", nodes_text.getvalue())
        archive.writestr("picture.dot", dot)
        if svg is not None:
            archive.writestr("picture.svg", svg)
        archive.writestr("settings.json", json.dumps(view.as_json(), indent=2))
        archive.writestr("README.txt", README.format(input_name=input_name))


def bundle_bytes(input_bytes: bytes, read: Input, view: View, dot: str | None = None) -> bytes:
    """The bundle of a view as zip bytes, with its picture: ``dot`` (else :func:`picture_dot`) and its SVG."""
    from ..drawing.dot import layout_svg

    dot = picture_dot(read, view) if dot is None else dot
    out = io.BytesIO()
    write_bundle(out, input_bytes=input_bytes, read=read, view=view, dot=dot, svg=layout_svg(dot))
    return out.getvalue()


def is_bundle(data: bytes) -> bool:
    """Whether ``data`` is a zip file (a bundle, or a zip that is not one)."""
    return data[:4] == b"PK\x03\x04"


def read_bundle(data: bytes) -> Bundle:
    """Read a bundle's input and view.

    Raises:
        ParseError: not a bundle, or a bundle whose settings are bad (line 1: a zip has no lines;
            the message names the member and the key).
    """
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        names = archive.namelist()
        inputs = [name for name in names if name in ("input.txt", "input.jsonl", "input.json")]
        if "settings.json" not in names or len(inputs) != 1:
            raise ParseError(1, "this zip is not an MCTS Explorer bundle: it needs settings.json and one input file")
        for name in ("settings.json", inputs[0]):
            if archive.getinfo(name).file_size > MAX_MEMBER_BYTES:
                raise ParseError(1, f"{name} in the bundle is larger than {MAX_MEMBER_BYTES // 2**20} MB")
        settings_bytes = archive.read("settings.json")
        input_bytes = archive.read(inputs[0])
    # zipfile raises these for a damaged archive, an unknown compression method (NotImplementedError),
    # an encrypted member (RuntimeError) or a corrupt compressed stream (zlib.error, EOFError).
    except (zipfile.BadZipFile, zipfile.LargeZipFile, KeyError, OSError, NotImplementedError, RuntimeError,
            EOFError, ValueError, zlib.error) as error:
        raise ParseError(1, f"the bundle cannot be read as a zip file: {error}") from None
    try:
        settings = load_json(settings_bytes, too_deep="nested too deeply")
    except ParseError as error:
        raise ParseError(1, f"settings.json in the bundle, its line {error.line}: {error.message}") from None
    return Bundle(input_bytes, inputs[0], _view(settings))


LIMIT_HIGHEST = 10**6  # drawing limits are whole numbers up to this (the app narrows them further)


def _view(settings: Any) -> View:
    """The view a bundle's settings.json describes, checked."""
    if not isinstance(settings, dict) or settings.get("mcts_bundle") != BUNDLE_VERSION:
        raise ParseError(1, 'settings.json: expected {"mcts_bundle": 1, ...}')
    rule, c, rule_settings = settings.get("rule", DEFAULT_RULE), settings.get("c", 1.0), settings.get("settings") or {}
    if not isinstance(rule, str) or rule not in RULES:
        raise ParseError(1, f'settings.json: key "rule": expected one of {", ".join(RULES)}, got {shown(rule)}')
    if not is_valid_c(c):
        raise ParseError(1, f'settings.json: key "c": {C_RULE}, got {shown(c)}')
    if not isinstance(rule_settings, dict):
        raise ParseError(1, f'settings.json: key "settings": expected an object, got {shown(rule_settings)}')
    problem = settings_problem(rule, rule_settings)
    if problem is not None:
        raise ParseError(1, f'settings.json: key "settings": {problem}')
    scoring = Scoring(rule, c, rule_settings)  # the rule, C and the settings were checked above
    inspected = settings.get("inspected", [])
    if not isinstance(inspected, list) or not all(isinstance(move, str) for move in inspected):
        raise ParseError(1, 'settings.json: key "inspected" must be a list of moves')
    limits = settings.get("limits", {})
    page = settings.get("page", "")
    if not isinstance(limits, dict) or not isinstance(page, str):
        raise ParseError(1, 'settings.json: keys "limits" (an object) and "page" (a page name) are bad')
    for name, value in limits.items():
        problem = _limit_problem(name, value)
        if problem is not None:
            raise ParseError(1, f'settings.json: key "limits/{key_text(name)}": {problem}')
    return View(scoring, page, tuple(inspected), limits)


def _limit_problem(name: str, value: Any) -> str | None:
    """Why ``value`` cannot be the drawing limit ``name`` (a sentence), None when it can."""
    from ..drawing import COLOURINGS

    if name in ("budget", "depth", "topk"):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= LIMIT_HIGHEST:
            return f"expected a whole number from 0 to {LIMIT_HIGHEST:,}, got {shown(value)}"
    elif name == "unvisited":
        if not isinstance(value, bool):
            return f"expected true or false, got {shown(value)}"
    elif name == "colour":
        if value not in COLOURINGS:
            return f"expected one of {', '.join(COLOURINGS)}, got {shown(value)}"
    else:
        return "unknown drawing limit; known: budget, depth, topk, unvisited, colour"
    return None


def picture_dot(read: Input, view: View, *, budget: int = 300) -> str:
    """The DOT of the view's picture: the most visited nodes, the selected path, the inspected node."""
    from ..drawing.dot import render_tree, visible_nodes

    tree = read.tree
    limits = {"budget": budget, **view.limits}
    visible = visible_nodes(
        tree, budget=int(limits.get("budget", budget)), max_depth=limits.get("depth") or None,
        top_k=limits.get("topk") or None, unvisited=bool(limits.get("unvisited", False)),
    )
    inspected, _ = tree.deepest(view.inspected)
    path = selected_nodes(tree, view.scoring)
    return render_tree(tree, visible, path=path, inspected=inspected if inspected != ROOT else None).source
