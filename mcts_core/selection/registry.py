"""The one registry of selection rules, built from the rule objects of :mod:`.rules`.

:data:`RULE_REGISTRY` maps each rule's key to its :class:`~mcts_core.selection.rule.Rule`; a
rule's :attr:`~mcts_core.selection.rule.Rule.kind` says where it selects:

* :data:`~mcts_core.selection.rule.FORMULA` rules score any node's children with their formula
  (UCB1, PUCT...); :data:`RULES` is the view of the registry that holds them;
* :data:`~mcts_core.selection.rule.SIMULTANEOUS_ONLY` rules (regret matching, EXP3) keep a sampling
  distribution per node and player, so they exist only at simultaneous nodes
  (:data:`SIMULTANEOUS_RULES`, the view that holds them).

A UI builds its controls from :attr:`Rule.settings` and its table headers from :meth:`Rule.label`;
the sweep asks a rule for its value as a line in C, a search for its fast loop. A rule added to
:data:`.rules.ALL` is therefore everywhere. Look a rule up with ``RULE_REGISTRY[key]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from .rule import FORMULA, SIMULTANEOUS_ONLY, Rule
from .rules import ALL, puct, ucb1

RULE_REGISTRY: Mapping[str, Rule] = MappingProxyType({rule.key: rule for rule in ALL})


def _of_kind(kind: str) -> Mapping[str, Rule]:
    """The registry's rules of one kind (a read-only view, in the registry's order)."""
    return MappingProxyType({key: rule for key, rule in RULE_REGISTRY.items() if rule.kind == kind})


RULES = _of_kind(FORMULA)  # the rules that score any node
SIMULTANEOUS_RULES = _of_kind(SIMULTANEOUS_ONLY)  # the rules that score simultaneous nodes only
UCB1 = ucb1.RULE.key  # UCB1 itself (the Classroom teaches its formula; OpenSpiel's uct_value)
PUCT = puct.RULE.key  # PUCT itself (OpenSpiel's puct_value)
DEFAULT_RULE = UCB1  # the puzzle's rule: where no rule is named


def settings_problem(rule: str, settings: Mapping[str, Any]) -> str | None:
    """Why ``settings`` cannot be ``rule``'s settings (besides C), as a sentence; None when they can
    (:meth:`Rule.settings_problem`, the one check)."""
    return RULE_REGISTRY[rule].settings_problem(settings)
