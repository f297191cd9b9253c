"""Selection: the rules' formulas, the one registry that presents them, and scoring a tree with one of them.

:mod:`.formulas` holds each rule as a pure function of a child's statistics; :mod:`.registry` names
them (each with its kind: sequential or simultaneous), their terms and settings; :mod:`.scoring`
applies one (a :class:`Scoring`) to a tree's nodes; :mod:`.presets` has contest bots' settings.
May import the standard library and the model."""

from .formulas import (
    PROBABILITY,
    RuleFunction,
    Siblings,
    Terms,
    progressive_bias,
    puct,
    ramped_c,
    sample_threshold,
    ucb1,
    ucb1_tuned,
)
from .presets import RULE_PRESETS
from .registry import DEFAULT_RULE, RULE_REGISTRY, RULES, Rule, Setting, settings_problem
from .scoring import (
    ChildScore,
    Scoring,
    score_children,
    select_child,
    select_path,
    selected_nodes,
    selection_key,
    siblings_of,
    under_threshold,
)

__all__ = [
    "DEFAULT_RULE",
    "PROBABILITY",
    "RULES",
    "RULE_REGISTRY",
    "RULE_PRESETS",
    "ChildScore",
    "Rule",
    "RuleFunction",
    "Scoring",
    "Setting",
    "Siblings",
    "Terms",
    "progressive_bias",
    "puct",
    "ramped_c",
    "sample_threshold",
    "score_children",
    "select_child",
    "select_path",
    "selected_nodes",
    "selection_key",
    "siblings_of",
    "ucb1",
    "ucb1_tuned",
    "under_threshold",
    "settings_problem",
]
