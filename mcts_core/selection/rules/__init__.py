"""Each selection rule as one object, one module each: ucb1.py (the puzzle's), ucb1_tuned.py, puct.py,
progressive_bias.py, sample_threshold.py, the engines' katago_puct.py, leela_zero_puct.py and
lc0_puct.py, and the simultaneous-only regret_matching.py and exp3.py.

A rule's module holds its formula (its value as terms), its value as a line in C (a
:class:`~mcts_core.selection.value_form.ValueForm`), its fast loop if it has one, its settings and
their check, its labels and LaTeX, in a :class:`~mcts_core.selection.rule.Rule` named ``RULE``.
:data:`ALL` lists them in the order menus show them; the registry, the sweep, the live C control,
the searches' choosers and the tables are built from them. May import the standard library,
``common``, the model (a fast loop reads a tree through its protocol) and the rest of ``selection``
(never the registry or the scoring, which import these).
"""

from . import (
    exp3, katago_puct, lc0_puct, leela_zero_puct, progressive_bias, puct, regret_matching, sample_threshold, ucb1,
    ucb1_tuned,
)
from ..rule import Rule

ALL: tuple[Rule, ...] = (
    ucb1.RULE, ucb1_tuned.RULE, puct.RULE, progressive_bias.RULE, sample_threshold.RULE,
    katago_puct.RULE, leela_zero_puct.RULE, lc0_puct.RULE, regret_matching.RULE, exp3.RULE,
)

__all__ = ["ALL"]
