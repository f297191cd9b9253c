"""Selection at a simultaneous node: every registered rule per player, plus two rules of its own.

At a simultaneous node each player chooses among its own moves as if alone (decoupled UCT): the
rule sees the node's visits as N.v and the player's own-move visits and totals (from that player's
view) as each child's M.v and M.s. Every rule of :data:`~mcts_core.selection.registry.RULES` works
so, through its own formula function. Two rules exist only here, registered in
:data:`SIMULTANEOUS_RULES`:

* ``regret_matching``: regret matching with exploration (Lanctot, Lisý, Winands (2013), "Monte
  Carlo Tree Search in Simultaneous Move Games with Applications to Goofspiel"; Lisý et al. (2013),
  "Convergence of Monte Carlo Tree Search in Simultaneous Move Games", NIPS). The player samples
  ``σ(a) = (1 - γ) R⁺(a) / ΣR⁺ + γ / K`` (uniform while no regret is positive); after the
  simulation returns ``x`` for it, every own move b gets ``R(b) += x̃(b) - x`` with
  ``x̃(a) = x / σ(a)`` for the move played and 0 for the others.
* ``exp3``: EXP3 (Auer et al. (2002), "The nonstochastic multiarmed bandit problem"; in SM-MCTS
  as in Lanctot et al. (2013)). ``σ(a) = (1 - γ) exp(η X̂(a)) / Σ exp(η X̂(b)) + γ / K`` with
  η = γ / K unless set; the played move gets ``X̂(a) += x' / σ(a)``, x' the return mapped from
  [low, high] to [0, 1].

For both, C is γ, the weight of uniform exploration (0 <= γ <= 1), and the strategy they recommend
is the **average of the sampling distributions** σ over the node's updates, not the visit shares.
Their state (regrets or estimates, and the sum of the σ) is accumulated during a search, one per
node and player. A log does not store it: the view recomputes it by replaying the log's
simulations through the node in order with :func:`sampling` and :func:`update`, the very functions
the search calls, so the recomputed state is the search's bit for bit (:mod:`.scoring`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from ..common.json_input import shown
from ..common.numbers import is_finite_number, is_valid_c
from ..selection.formulas import PROBABILITY
from ..selection.registry import RULES, RuleLabels, Setting
from ..selection.registry import settings_problem as sequential_settings_problem
from ..selection.scoring import Scoring

REGRET_MATCHING = "regret_matching"
EXP3 = "exp3"
AVERAGE = "average"  # the term holding a move's share of the average strategy


@dataclass(frozen=True)
class SimultaneousRule(RuleLabels):
    """A rule that exists only at simultaneous nodes: a sampling distribution kept per node and player.

    Attributes:
        name: display name.
        formula: LaTeX of the sampling distribution.
        source: where it comes from.
        settings: keyword settings in display order, ``c`` (γ) first.
        terms: every term it shows per own move, ``"value"`` last (the sampling probability).
        labels: column headers for terms whose key is not what a reader expects.
        state_term: the name of the per-move state (regret or estimate).
    """

    name: str
    formula: str
    source: str
    settings: tuple[Setting, ...]
    terms: tuple[str, ...]
    labels: dict[str, str] = field(default_factory=dict)
    state_term: str = "regret"


_GAMMA = Setting("c", "exploration γ", "float", 0.1, low=0.0, high=1.0,
                 help="the share of uniform exploration mixed into the sampling distribution (0..1)")

SIMULTANEOUS_RULES: dict[str, SimultaneousRule] = {
    REGRET_MATCHING: SimultaneousRule(
        name="Regret matching (γ-exploration)",
        formula=r"\sigma(a) = (1-\gamma)\frac{R^+(a)}{\sum_b R^+(b)} + \frac{\gamma}{K},\quad "
        r"R(b) \mathrel{+}= \tilde{x}(b) - x,\ \tilde{x}(a) = \frac{x}{\sigma(a)}",
        source=(
            "Lanctot, Lisý, Winands (2013), Monte Carlo Tree Search in Simultaneous Move Games with "
            "Applications to Goofspiel, https://doi.org/10.1007/978-3-319-05428-5_3; Lisý et al. (2013), "
            "Convergence of MCTS in Simultaneous Move Games, NIPS"
        ),
        settings=(_GAMMA,),
        terms=("mean", "regret", PROBABILITY, AVERAGE, "value"),
        labels={PROBABILITY: "σ (sampling)", AVERAGE: "average σ", "value": "σ"},
    ),
    EXP3: SimultaneousRule(
        name="EXP3 (γ-exploration)",
        formula=r"\sigma(a) = (1-\gamma)\frac{e^{\eta \hat{X}(a)}}{\sum_b e^{\eta \hat{X}(b)}} + \frac{\gamma}{K},"
        r"\quad \hat{X}(a) \mathrel{+}= \frac{x'}{\sigma(a)}",
        source="Auer et al. (2002), https://doi.org/10.1137/S0097539701398375; SM-MCTS: Lanctot et al. (2013)",
        settings=(
            _GAMMA,
            Setting("eta", "learning rate η (0 = γ/K)", "float", 0.0, low=0.0, high=10.0,
                    help="weight of the estimates in the exponent; 0 takes γ / K"),
            Setting("low", "lowest return", "float", -1.0, high=1_000.0,
                    help="returns are mapped from [low, high] to [0, 1]"),
            Setting("high", "highest return", "float", 1.0, high=1_000.0,
                    help="returns are mapped from [low, high] to [0, 1]"),
        ),
        terms=("mean", "estimate", PROBABILITY, AVERAGE, "value"),
        labels={PROBABILITY: "σ (sampling)", AVERAGE: "average σ", "value": "σ", "estimate": "X̂"},
        state_term="estimate",
    ),
}

ALL_RULES: tuple[str, ...] = (*RULES, *SIMULTANEOUS_RULES)


def rule_name(rule: str) -> str:
    """A rule's display name, registered or simultaneous-only."""
    return RULES[rule].name if rule in RULES else SIMULTANEOUS_RULES[rule].name


def rule_terms(rule: str) -> tuple[str, ...]:
    return RULES[rule].terms if rule in RULES else SIMULTANEOUS_RULES[rule].terms


def rule_label(rule: str, term: str) -> str:
    return RULES[rule].label(term) if rule in RULES else SIMULTANEOUS_RULES[rule].label(term)


def rule_formula(rule: str) -> str:
    return RULES[rule].formula if rule in RULES else SIMULTANEOUS_RULES[rule].formula


def rule_c_label(rule: str) -> str:
    return RULES[rule].c_label if rule in RULES else SIMULTANEOUS_RULES[rule].c_label


def settings_problem(rule: str, settings: Mapping[str, Any]) -> str | None:
    """Why ``settings`` cannot be ``rule``'s settings besides C (a sentence), None when they can."""
    if rule in RULES:
        return sequential_settings_problem(rule, dict(settings))
    spec = SIMULTANEOUS_RULES[rule]
    known = {setting.name: setting for setting in spec.settings[1:]}
    for name, value in settings.items():
        setting = known.get(name)
        if setting is None:
            return f"{spec.name} has no setting {name!r}; it has {', '.join(known) or 'only C (γ)'}"
        if not is_finite_number(value):
            return f"{name} must be a finite number, got {shown(value)}"
        if setting.low is not None and value < setting.low:
            return f"{name} must be >= {setting.low:g}, got {value!r}"
    if rule == EXP3:
        low, high = settings.get("low", -1.0), settings.get("high", 1.0)
        if not low < high:
            return f"low must be smaller than high, got {low!r} and {high!r}"
    return None


@dataclass(frozen=True)
class JointScoring:
    """The rule every player uses at simultaneous nodes, with its settings (C included).

    Attributes:
        rule: a key of :data:`RULES` or of :data:`SIMULTANEOUS_RULES`.
        c: the exploration constant; for regret matching and EXP3, γ in [0, 1].
        settings: the rule's other settings (missing ones take its defaults).

    Hashable, so it can key a cache.
    """

    rule: str = "ucb1"
    c: float = 1.0
    settings: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        if self.rule in RULES:
            Scoring(self.rule, self.c, self.settings)  # its own checks, with its own messages
        elif self.rule in SIMULTANEOUS_RULES:
            if not is_valid_c(self.c) or self.c > 1:
                raise ValueError(f"γ (C) must be a number from 0 to 1, got {self.c!r}")
            problem = settings_problem(self.rule, self.settings)
            if problem is not None:
                raise ValueError(problem)
        else:
            raise ValueError(f"unknown rule {self.rule!r}; known: {', '.join(ALL_RULES)}")
        frozen = {name: MappingProxyType(dict(v)) if isinstance(v, Mapping) else v for name, v in self.settings.items()}
        object.__setattr__(self, "settings", MappingProxyType(frozen))

    @classmethod
    def of(cls, rule: str = "ucb1", *, c: float | None = None, **settings) -> JointScoring:
        """The rule with settings as keywords; C defaults to the rule's."""
        if c is None:
            c = RULES[rule].defaults["c"] if rule in RULES else SIMULTANEOUS_RULES[rule].defaults["c"]
        return cls(rule, c, settings)

    @property
    def regret_based(self) -> bool:
        """True for the rules that keep a sampling distribution per node (regret matching, EXP3)."""
        return self.rule in SIMULTANEOUS_RULES

    @property
    def sequential(self) -> Scoring | None:
        """The registry's :class:`Scoring` for this rule; None for regret matching and EXP3."""
        return None if self.regret_based else Scoring(self.rule, self.c, self.settings)

    def with_c(self, c: float) -> JointScoring:
        return replace(self, c=c)

    def setting(self, name: str) -> Any:
        """A setting's value, or its default."""
        spec = RULES[self.rule] if self.rule in RULES else SIMULTANEOUS_RULES[self.rule]
        return self.settings.get(name, spec.defaults.get(name))

    def describe(self) -> str:
        """The rule, C and the settings not at their defaults, in words."""
        if self.rule in RULES:
            return Scoring(self.rule, self.c, self.settings).describe()
        spec = SIMULTANEOUS_RULES[self.rule]
        parts = [spec.name, f"γ = {self.c:.6g}"]
        parts += [f"{s.name} = {self.settings[s.name]:.6g}" for s in spec.settings[1:]
                  if s.name in self.settings and self.settings[s.name] != s.default]
        return ", ".join(parts)

    def __hash__(self) -> int:
        return hash((self.rule, self.c, tuple(sorted((k, _hashable(v)) for k, v in self.settings.items()))))


def _hashable(value: Any) -> Any:
    return tuple(sorted(value.items())) if isinstance(value, Mapping) else value


# --- regret matching and EXP3: the sampling distribution and its update (search and replay) ---


class RegretState:
    """One player's state at one node for regret matching or EXP3: per own move, in the node's order.

    Attributes:
        values: regrets R (regret matching) or estimates X̂ (EXP3).
        strategy_sum: the sum of the sampling distributions σ over the updates so far.
        updates: how many updates (simulations that chose here) there were.
    """

    __slots__ = ("strategy_sum", "updates", "values")

    def __init__(self, moves: int):
        self.values = [0.0] * moves
        self.strategy_sum = [0.0] * moves
        self.updates = 0

    def average(self) -> list[float]:
        """The average sampling distribution; uniform before the first update."""
        k = len(self.values)
        if not self.updates:
            return [1.0 / k] * k if k else []
        return [s / self.updates for s in self.strategy_sum]


def sampling(rule: str, state: RegretState, gamma: float, settings: Mapping[str, Any]) -> list[float]:
    """The sampling distribution σ over the node's own moves, from the state before an update."""
    values = state.values
    k = len(values)
    if rule == REGRET_MATCHING:
        positive = [r if r > 0.0 else 0.0 for r in values]
        total = math.fsum(positive)
        if total > 0.0:
            return [(1.0 - gamma) * p / total + gamma / k for p in positive]
        return [1.0 / k] * k
    eta = settings.get("eta", 0.0) or gamma / k
    top = max(values)
    weights = [math.exp(eta * (x - top)) for x in values]  # shifted: no overflow for large estimates
    total = math.fsum(weights)
    return [(1.0 - gamma) * w / total + gamma / k for w in weights]


def update(rule: str, state: RegretState, sigma: list[float], chosen: int, reward: float,
           settings: Mapping[str, Any]) -> None:
    """Add one simulation that played own move ``chosen`` (drawn from ``sigma``) and returned ``reward``."""
    p = sigma[chosen]
    values = state.values
    if rule == REGRET_MATCHING:
        estimate = reward / p if p > 0.0 else 0.0  # a foreign log may play a move σ gave no chance
        for b in range(len(values)):
            values[b] += (estimate if b == chosen else 0.0) - reward
    else:
        low, high = settings.get("low", -1.0), settings.get("high", 1.0)
        scaled = (reward - low) / (high - low)
        values[chosen] += scaled / p if p > 0.0 else 0.0
    strategy = state.strategy_sum
    for b in range(len(strategy)):
        strategy[b] += sigma[b]
    state.updates += 1
