"""Where the exact C sweep and select_path may disagree through float rounding: the sweep tests' oracle.

The sweep keeps, of two parallel twins, the one with the larger intercept; select_path may pick the
other where their float values round together (:mod:`mcts_core.analysis.envelope`). The tests
accept a disagreement only at a node this says has such twins.
"""

import math
from collections.abc import Sequence

from mcts_core.analysis.envelope import Line


def twins_may_tie(lines: Sequence[Line], c_max: float) -> bool:
    """Whether rounding can tie two parallel twins for some C < ``c_max`` (:mod:`mcts_core.analysis.envelope`'s docstring).

    True when two non-flat children have bit-identical slopes and intercepts close enough for their
    float values to round to the same float (or, for rules whose float value is not
    ``intercept + C * slope``, to swap), and the twin the sweep drops could then win: it is first in
    tie order, or the float values are not plain. The sweep follows the twin with the larger
    intercept; select_path may pick the other one at some C, anywhere in the range.
    """
    groups: dict[float, list[Line]] = {}
    for line in lines:
        if line.slope != 0.0:  # flat lines are exact constants: no rounding between them
            groups.setdefault(line.slope, []).append(line)
    for twins in groups.values():
        twins.sort(key=lambda line: line.rank)
        kept = max(twins, key=lambda line: line.intercept)  # max keeps the first (in tie order) of equals
        for line in twins:
            if line is kept:
                continue
            # Two values round together only within the ulps their operations can be off by.
            magnitude = max(kept.magnitude(c_max), line.magnitude(c_max))
            reach = 2 * (kept.roundings + line.roundings) * math.ulp(magnitude)
            if kept.intercept - line.intercept <= reach and (line.rank < kept.rank or not (kept.plain and line.plain)):
                return True
    return False
