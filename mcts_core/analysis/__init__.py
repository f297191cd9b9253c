"""Questions asked of a built tree: where the path changes with C, two settings compared, why a child won.

Holds the exact C sweep for every rule affine in C (:mod:`.sweep` over the per-node envelopes of
:mod:`.envelope`, of the lines :mod:`.rule_lines` makes of each rule), the data a browser needs to
follow a drag of C by itself (:mod:`.drag_payload`), the drawn nodes' values at any C
(:mod:`.drawn_values`), the slider's range (:mod:`.c_range`), the search over time
(:func:`convergence`: a node's children after each of its visits) and the visits until the choice
flips (:func:`visits_to_flip`), both asking a node's star (:mod:`.node_star`),
:func:`compare_paths`, :func:`explain_choice`, and the outline (:func:`outline_children`,
:func:`principal_variation`). May import the model and selection; never drawing, tables (pandas)
or the readers.
"""

from .c_range import LARGEST_C, fit_to_breakpoints, key_step, nice_ceiling, suggest_c_range
from .compare import ChildComparison, Comparison, compare_paths, comparison_rows
from .drag_payload import drag_payload, inspected_terms
from .convergence import (
    CONVERGENCE_COLUMNS,
    MAX_POINTS,
    NAMED_CHILDREN,
    NO_CHILD,
    OTHERS,
    Convergence,
    GroupedSeries,
    NoOrder,
    convergence,
    log_grid,
    selected_over_time,
    update_series,
)
from .drawn_values import DrawnValues, json_number
from ..selection import ucb1_latex  # UCB1's formula with the numbers filled in, for the Classroom's why
from .flip_visits import HORIZON, held_statistics, visits_to_flip
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
    "Breakpoint", "CONVERGENCE_COLUMNS", "ChildComparison", "Choice", "Comparison", "Convergence", "DrawnValues", "GroupedSeries", "HORIZON", "Interval",
    "LARGEST_C", "MAX_POINTS", "NAMED_CHILDREN", "NO_CHILD", "OTHERS", "NoOrder", "NodeEnvelope", "ONLY_CHILD", "TIE", "UNVISITED",
    "OutlineRow", "breakpoints", "breakpoints_of", "child_lines", "compare_paths",
    "comparison_rows", "convergence", "drag_payload", "explain_choice", "fit_to_breakpoints", "held_statistics", "inspected_terms",
    "interval_at", "intervals_below", "json_number", "key_step", "log_grid", "neighbouring_intervals", "nice_ceiling", "node_envelope", "outline_children",
    "path_intervals", "principal_variation", "range_problem", "selected_over_time", "suggest_c_range", "ucb1_latex", "update_series", "visits_to_flip",
]
