"""An engine's analysis (KataGo, Leela Zero, lc0) in one shape, and the partial tree it describes.

Engines report the root and its children (visits, prior, value and their own columns) and each
child's principal variation, not the whole tree. Each engine's reader (``katago.py``,
``leela_zero.py``, ``lc0_stats.py`` beside this module) turns its files into :class:`EngineAnalysis`,
converting every value once, there, to the tree's perspective: a child's ``value`` is for the
player who moved into it (the player to move at the root), in the engine's own scale (a winrate in
[0, 1], or a Q in [-1, 1]). :func:`engine_tree` builds the tree: the root, its children in the
engine's order with their priors (0-visit children declared), and below each child its PV as a line
of nodes. A PV node has the visits the file gives for it (pvVisits) or 0; the engines report no
value for PV nodes, so each carries its line's first value, from its own mover's view.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...common.input_rules import MAX_PLAYOUTS
from ...model.tree import Tree
from .tree_json import tree_of_nodes

WINRATE = "winrate"  # values in [0, 1]: the other player's value is 1 - v
SIGNED = "signed"  # values in [-1, 1] (or utilities around 0): the other player's value is -v


@dataclass(frozen=True)
class EngineMove:
    """One root child as the engine reports it.

    Attributes:
        move: the engine's name for it (``Q16``, ``pass``, ``e2e4``).
        visits: its visits (the edge's, where the engine tells them apart).
        value: its value for the player who makes it, in the engine's scale; None when unvisited.
        prior: its policy prior (0..1); None when the file gives none.
        columns: the engine's own numbers for it, by the engine's column names, in display units
            (``winrate`` 52.3, ``LCB``, ``U``, ``S``, ``scoreLead``...).
        pv: the moves of its principal variation after it.
        pv_visits: the visits of each of those PV nodes (None: the file gives none).
    """

    move: str
    visits: int
    value: float | None
    prior: float | None
    columns: Mapping[str, float] = field(default_factory=dict)
    pv: tuple[str, ...] = ()
    pv_visits: tuple[int, ...] | None = None


@dataclass(frozen=True)
class EngineAnalysis:
    """What one analysis (one position, one moment of the search) says.

    Attributes:
        engine: ``"KataGo"``, ``"Leela Zero"`` or ``"lc0"``.
        title: the line the app shows first ("KataGo analysis, move 42, 1,600 visits; winrates for Black").
        rule: the key of the engine's selection rule (``katago``, ``leela_zero``, ``lc0``).
        settings: that rule's settings besides C that the file states or implies (the root's
            value for the first-play value...).
        c: the cpuct the file states, None when it states none (the rule's default then).
        root_visits: the root's visits.
        root_value: the root's value for the player to move there, in the engine's scale (None: not given).
        moves: the root's children, in the engine's order.
        columns: the engine's column names, in the order its users read them.
        scale: :data:`WINRATE` or :data:`SIGNED`.
        line: the 1-based line of the file where this analysis starts.
        search: which search of the file it reports, counted from 0 in file order: the analyses of
            one search (the updates of one analyze command, one query's reports) share it.
    """

    engine: str
    title: str
    rule: str
    settings: Mapping[str, Any]
    c: float | None
    root_visits: int
    root_value: float | None
    moves: tuple[EngineMove, ...]
    columns: tuple[str, ...]
    scale: str = WINRATE
    line: int = 1
    search: int = 0

    def other(self, value: float) -> float:
        """``value`` from the other player's view."""
        return 1.0 - value if self.scale == WINRATE else -value


class SearchCounter:
    """Numbers a stream's searches: an update starts a new search when a line other than an update
    (a GTP command or answer, a ``go``) came since the update before it."""

    def __init__(self):
        self.number = -1
        self._fresh = True

    def boundary(self) -> None:
        """A line that ends the search under way: the next update starts another."""
        self._fresh = True

    def update(self) -> int:
        """The search number of an update read now."""
        if self._fresh:
            self.number += 1
            self._fresh = False
        return self.number


@dataclass(frozen=True)
class EngineReader:
    """One engine format: how to recognise it and read it.

    Attributes:
        name: what the format is called in messages ("KataGo analysis JSON").
        looks_like: whether a text is in this format (from its first lines; cheap).
        read: every analysis in the text, in file order (several ids, turns, or updates of a
            stream); raises ParseError naming the line.
    """

    name: str
    looks_like: Callable[[str], bool]
    read: Callable[[str], tuple[EngineAnalysis, ...]]


def engine_tree(analysis: EngineAnalysis, *, max_nodes: int = MAX_PLAYOUTS, lines: bool = True) -> Tree:
    """The partial tree ``analysis`` describes (module docstring): two players, ties to the first child.
    Without ``lines``, the root and its children only (what the root's selection reads)."""
    children = []
    for move in analysis.moves:
        node: dict[str, Any] = {"move": move.move, "visits": move.visits}
        if move.prior is not None:
            node["prior"] = move.prior
        if move.value is not None and move.visits:
            node["value"] = move.value
        line_nodes = []
        value, visits = move.value, move.visits
        for depth, pv_move in enumerate(move.pv if lines else ()):
            value = None if value is None else analysis.other(value)
            given = move.pv_visits[depth] if move.pv_visits is not None and depth < len(move.pv_visits) else 0
            visits = min(given, visits)  # a PV node has no more visits than its parent
            pv_node: dict[str, Any] = {"move": pv_move, "visits": visits}
            if value is not None and visits:
                pv_node["value"] = value
            line_nodes.append(pv_node)
        for parent, child in zip([node, *line_nodes], line_nodes):
            parent["children"] = [child]
        children.append(node)
    root: dict[str, Any] = {"move": None, "visits": analysis.root_visits, "children": children}
    if analysis.root_value is not None and analysis.root_visits:
        root["value"] = analysis.root_value
    return tree_of_nodes(root, players=2, ties="first", max_nodes=max_nodes)
