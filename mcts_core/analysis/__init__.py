"""Questions asked of a built tree: where the path changes with C, two settings compared, why a child won.

Holds the exact C sweep for every rule affine in C (:mod:`.sweep` over the per-node envelopes of
:mod:`.envelope`, of the lines :mod:`.rule_lines` makes of each rule), the data a browser needs to
follow a drag of C by itself (:mod:`.drag_payload`), the drawn nodes' values at any C
(:mod:`.drawn_values`), the slider's range (:mod:`.c_range`),
:func:`compare_paths`, :func:`explain_choice`, and the outline (:func:`outline_children`,
:func:`principal_variation`). May import the model and selection; never drawing, tables (pandas)
or the readers.
"""

from .c_range import LARGEST_C, fit_to_breakpoints, key_step, nice_ceiling, suggest_c_range
from .compare import ChildComparison, Comparison, compare_paths, comparison_rows
from .drag_payload import drag_payload, inspected_terms
from .drawn_values import DrawnValues, json_number
from ..selection import ucb1_latex  # UCB1's formula with the numbers filled in, for the Classroom's why
from .explain import ONLY_CHILD, TIE, UNVISITED, Choice, explain_choice
from .outline import OutlineRow, outline_children, principal_variation
from .rule_lines import child_lines
from .sweep import (
    Breakpoint,
    Interval,
    NodeEnvelope,
    breakpoints,
    breakpoints_of,
    interval_at,
    intervals_below,
    neighbouring_intervals,
    node_envelope,
    range_problem,
    path_intervals,
)

__all__ = [
    "Breakpoint", "ChildComparison", "Choice", "Comparison", "DrawnValues", "Interval", "LARGEST_C", "NodeEnvelope",
    "ONLY_CHILD", "TIE", "UNVISITED",
    "OutlineRow", "breakpoints", "breakpoints_of", "child_lines", "compare_paths",
    "comparison_rows", "drag_payload", "explain_choice", "fit_to_breakpoints", "inspected_terms",
    "interval_at", "intervals_below", "json_number", "key_step", "neighbouring_intervals", "nice_ceiling", "node_envelope", "outline_children",
    "path_intervals", "principal_variation", "range_problem", "suggest_c_range", "ucb1_latex",
]
