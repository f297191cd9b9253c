"""The drawn nodes' values under a rule at any C, from each child's line in C made once.

A picture's hover shows each drawn node's value and rank as its parent's child at the page's C,
and a browser following a drag needs the same values as lines. Both come from one pass over the
drawn nodes' parents (:func:`~.rule_lines.child_lines`); a new C then only evaluates the lines and
ranks them (on 1,500 drawn nodes about 5 ms, against 20 ms for scoring every parent again).
"""

from __future__ import annotations

import math
from collections.abc import Collection

from ..model import path_json
from ..model.tree import ROOT, Tree
from ..selection import Scoring
from ..selection.scoring import selection_key, tie_of
from .envelope import Line
from .rule_lines import child_lines


class DrawnValues:
    """Every drawn node's value as its parent's child under one rule, at any C.

    ``at(c)`` gives each drawn node but the root ``(value, rank)``: the float and the rank
    :func:`~mcts_core.selection.score_children` gives it at ``c`` (rank 1 is the child selection
    picks; every child of the parent is ranked, drawn or not). ``lines`` is the same as JSON-able
    data: each drawn node's ``data-path`` -> ``[intercept, slope]``, so ``value(C) = intercept +
    slope * C`` (non-finite numbers as the strings ``"Infinity"``, ``"-Infinity"``, ``"NaN"``);
    ``plain`` says whether that sum is bit for bit the rule's float for every child (else it is so
    to within a few ulps). ``paths``: each drawn node but the root -> its ``data-path``.

    ``known``: each parent's child lines under this rule (child -> line) from an earlier drawing
    of the same tree, read and filled in: they do not depend on what is drawn, so a new node budget
    makes only the lines of parents not drawn before.
    """

    def __init__(self, tree: Tree, scoring: Scoring, drawn: Collection[int], known: dict[int, dict[int, Line]] | None = None):
        scoring = scoring.with_c(1.0)  # the lines read the rule's terms at C = 1
        known = {} if known is None else known
        drawn = frozenset(drawn)
        # Per parent, its children in the order score_children ranks them from (ties included):
        # (line, tie, drawn).
        self._parents: list[list[tuple[Line, str | int, bool]]] = []
        self.paths: dict[int, str] = {}
        self.lines: dict[str, list] = {}
        plain = True
        for parent in sorted({tree.parent[node] for node in drawn if node != ROOT}):
            line_of = known.get(parent)
            if line_of is None:
                line_of = known[parent] = {line.node: line for line in child_lines(tree, parent, scoring)}
            children = []
            for position, kid in enumerate(tree.children[parent]):
                line = line_of[kid]
                plain = plain and line.plain
                children.append((line, tie_of(tree, kid, position), kid in drawn))
                if kid in drawn:
                    self.paths[kid] = path_json(tree.path_moves(kid))
                    self.lines[self.paths[kid]] = [json_number(line.intercept), json_number(line.slope)]
            self._parents.append(children)
        self.plain = plain

    def at(self, c: float) -> dict[int, tuple[float, int]]:
        """Each drawn node but the root: ``(value, rank)`` as its parent's child at ``c``."""
        values = {}
        for children in self._parents:
            scored = sorted(((line.value(c), tie, line.node, drawn) for line, tie, drawn in children),
                            key=lambda item: selection_key(item[0], item[1]))
            for rank, (value, _, node, drawn) in enumerate(scored, start=1):
                if drawn:
                    values[node] = (value, rank)
        return values


def json_number(x: float) -> float | str:
    """A float JSON can carry: itself when finite, else ``"Infinity"``, ``"-Infinity"`` or ``"NaN"``."""
    if math.isfinite(x):
        return x
    return "NaN" if math.isnan(x) else ("Infinity" if x > 0 else "-Infinity")
