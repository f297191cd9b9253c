"""What a browser needs to follow a drag of C by itself: the exact path, the drawn values, the terms.

Sent once per (input, rule, settings, drawn set, inspected node), as plain JSON-able data, so that a
slider can recompute everything on every ``input`` event without asking the server:

* ``intervals``: ``[c_from, c_to, moves]`` covering the slider's range in order, the selected
  path constant on each half-open ``[c_from, c_to)`` (:func:`~.sweep.path_intervals`, exact in
  floats: a breakpoint already has the new path);
* ``values``: for each drawn node but the root, keyed by its ``data-path`` (the JSON array of its
  moves the tagged SVG writes), its value as its parent's child as ``[intercept, slope]``, so that
  ``value(C) = intercept + slope * C``;
* ``inspected``: for one node, each child's terms as ``{term: [intercept, slope]}``, in tie order,
  and whether its choice is a random draw or a chance node's sample.

``exact`` says whether ``intercept + slope * C`` is bit for bit the float the rule computes (UCB1,
UCB1-Tuned, and constants: true) or only to within a few ulps, i.e. to display precision (the
rules with more float operations: progressive bias, sample thresholds, PUCT). The path never
depends on that: it comes from the intervals, so a browser ranks children by these values for
display but takes the chosen child from the interval (two values a few ulps apart may rank the
other way in JavaScript than in the rule's floats). Non-finite numbers (an unvisited child's +infinity,
its mean NaN) are the strings ``"Infinity"`` and ``"NaN"``, which JavaScript's ``Number`` reads.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from ..model.tree import Tree
from ..selection import PROBABILITY, Scoring, score_children
from .drawn_values import DrawnValues, json_number
from .rule_lines import child_lines
from .sweep import path_intervals


def drag_payload(
    tree: Tree,
    scoring: Scoring,
    c_min: float,
    c_max: float,
    drawn: Collection[int] = (),
    inspected: int | None = None,
) -> dict[str, Any]:
    """The slider's data for ``scoring`` over [c_min, c_max) (module docstring), JSON-able.

    Args:
        tree: the tree.
        scoring: the rule and its settings (its C is ignored).
        c_min: start of the slider's range, finite and >= 0.
        c_max: end of the range (the sweep excludes it; a slider at its maximum shows the last
            interval), finite and > c_min.
        drawn: the drawn nodes (their values are sent; the root has none).
        inspected: the node whose children's terms are sent, None for none.

    Raises:
        ValueError: a bad range.
    """
    scoring = scoring.with_c(1.0)  # the lines read the rule's terms at C = 1 (rule_lines)
    intervals = path_intervals(tree, c_min, c_max, scoring)
    values = DrawnValues(tree, scoring, drawn)
    payload: dict[str, Any] = {
        "rule": scoring.rule,
        "range": [float(c_min), float(c_max)],
        "intervals": [[part.c_from, part.c_to, list(part.moves)] for part in intervals],
        "values": values.lines,
        "inspected": None if inspected is None else inspected_terms(tree, inspected, scoring),
    }
    payload["exact"] = values.plain and (payload["inspected"] is None or payload["inspected"]["exact"])
    return payload


def inspected_terms(tree: Tree, node: int, scoring: Scoring) -> dict[str, Any]:
    """Each child of ``node`` with every term of the rule as ``[intercept, slope]`` in C, in tie order.

    A term C does not enter has slope 0; the others (the exploration term, a ramped C, the value)
    are the child's line (:mod:`.rule_lines`). ``random``: the choice at ``node`` is a draw;
    ``chance``: its children are sampled, and the path follows the most visited.
    """
    lines = child_lines(tree, node, scoring)
    constants = {score.node: score.terms for score in score_children(tree, node, scoring)}  # C-free terms
    children = []
    for line in lines:
        varying = line.form.varying()
        terms = {
            name: [json_number(part) for part in varying.get(name, (value, 0.0))]
            for name, value in constants[line.node].items()
        }
        children.append({"move": line.move, "terms": terms})
    return {
        "path": list(tree.path_moves(node)),
        "random": any(PROBABILITY in terms for terms in constants.values()),
        "chance": tree.is_chance(node),
        "exact": all(line.plain for line in lines),
        "children": children,
    }
