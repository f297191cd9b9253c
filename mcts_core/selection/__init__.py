"""Selection: each rule as one object, the one registry built from them, and scoring a tree with one of them.

:mod:`.rules` holds each rule in a module of its own (its formula, its value as a line in C, its
fast loop, its settings and their check, its labels: a :class:`~.rule.Rule`); :mod:`.registry`
names them (each with its kind: sequential or simultaneous); :mod:`.scoring` applies one (a
:class:`Scoring`) to a tree's nodes; :mod:`.presets` has contest bots' settings; :mod:`.terms` and
:mod:`.value_form` are what a formula returns and what its line in C is. May import the standard
library, ``common`` and the model.
"""

from .presets import RULE_PRESETS
from .registry import DEFAULT_RULE, PUCT, RULE_REGISTRY, RULES, SIMULTANEOUS_RULES, UCB1, settings_problem
from .rule import AVERAGE, Rule, SamplingRule, Setting
from .rules.progressive_bias import progressive_bias
from .rules.puct import puct
from .rules.sample_threshold import ramped_c, sample_threshold
from .rules.ucb1 import ucb1, ucb1_latex
from .rules.ucb1_tuned import ucb1_tuned
from .scoring import (
    ChildScore,
    Scoring,
    child_keys,
    score_children,
    select_child,
    select_path,
    selected_nodes,
    selection_key,
    siblings_of,
    under_threshold,
)
from .terms import PROBABILITY, RuleFunction, Siblings, Terms
from .value_form import ValueForm

__all__ = [
    "AVERAGE",
    "DEFAULT_RULE",
    "PROBABILITY",
    "PUCT",
    "RULES",
    "RULE_REGISTRY",
    "RULE_PRESETS",
    "SIMULTANEOUS_RULES",
    "UCB1",
    "ChildScore",
    "Rule",
    "RuleFunction",
    "SamplingRule",
    "Scoring",
    "Setting",
    "Siblings",
    "Terms",
    "ValueForm",
    "child_keys",
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
    "ucb1_latex",
    "ucb1_tuned",
    "under_threshold",
    "settings_problem",
]
