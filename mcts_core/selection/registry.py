"""The one registry of selection rules: each rule with its kind, settings, terms, labels and LaTeX.

:data:`RULE_REGISTRY` holds every rule; a rule's :attr:`Rule.kind` says where it selects:

* :data:`FORMULA` rules score any node's children with a formula function (UCB1, PUCT...);
  :data:`RULES` is the view of the registry that holds them;
* :data:`SIMULTANEOUS_ONLY` rules (regret matching, EXP3) keep a sampling distribution per node
  and player, so they exist only at simultaneous nodes (:data:`SIMULTANEOUS_RULES`, the view that
  holds them; :mod:`mcts_core.simultaneous.rules` holds their sampling and update).

A UI builds its controls from :attr:`Rule.settings` and its table headers from :meth:`Rule.label`,
so adding a rule here adds it everywhere. Look a rule up with ``RULE_REGISTRY[key]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .formulas import (
    FALLBACKS,
    NORMALISATIONS,
    PROBABILITY,
    RuleFunction,
    progressive_bias,
    puct,
    sample_threshold,
    ucb1,
    ucb1_tuned,
)


@dataclass(frozen=True)
class Setting:
    """One keyword setting of a rule, described so that a UI can build its control.

    Attributes:
        name: the keyword argument.
        label: what the UI shows.
        kind: ``"float"``, ``"int"``, ``"choice"`` or ``"move_values"`` (``move value`` lines,
            parsed by :func:`mcts_core.inputs.formats.move_values.parse_move_values`).
        default: the value used when the setting is not given (mirrors the function's default).
        low: smallest sensible value (numbers), None for no bound.
        high: largest value a slider should offer (numbers), None for no bound.
        choices: the allowed values of a ``"choice"``.
        help: one sentence for a tooltip.
    """

    name: str
    label: str
    kind: str
    default: Any
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()
    help: str = ""


FORMULA = "formula"  # a rule that scores any node's children with a formula function
SIMULTANEOUS_ONLY = "simultaneous only"  # a rule with a sampling distribution per simultaneous node and player

REGRET_MATCHING = "regret_matching"
EXP3 = "exp3"
AVERAGE = "average"  # the term holding a move's share of the average strategy (regret matching, EXP3)


@dataclass(frozen=True)
class Rule:
    """A registered selection rule: what selects, and what a UI needs to present it.

    Attributes:
        name: display name.
        function: the formula (:class:`~mcts_core.selection.formulas.RuleFunction`); None for a
            :data:`SIMULTANEOUS_ONLY` rule.
        formula: LaTeX.
        source: where the formula comes from (papers, links).
        settings: the keyword settings, in the order a UI should show them (``c`` first).
        inputs: per-child data the scoring passes: ``"move"``, ``"total_sq"``, ``"prior"``,
            ``"siblings"``.
        terms: every term key the rule can return, in display order (``"value"`` last).
        addends: the terms whose sum is the value (the others feed them, or say why); empty for a
            value that is not a sum (a sampling distribution).
        labels: column headers for terms whose key is not what a reader expects.
        kind: :data:`FORMULA` or :data:`SIMULTANEOUS_ONLY`.
        state_term: a simultaneous-only rule's per-move state (``"regret"``, ``"estimate"``).
    """

    name: str
    function: RuleFunction | None
    formula: str
    source: str
    settings: tuple[Setting, ...] = ()
    inputs: tuple[str, ...] = ()
    terms: tuple[str, ...] = ("mean", "exploration", "value")
    addends: tuple[str, ...] = ("mean", "exploration")
    labels: dict[str, str] = field(default_factory=dict)
    kind: str = FORMULA
    state_term: str | None = None

    @property
    def simultaneous_only(self) -> bool:
        """True for the rules that select only at simultaneous nodes (regret matching, EXP3)."""
        return self.kind == SIMULTANEOUS_ONLY

    @property
    def defaults(self) -> dict[str, Any]:
        """Setting name -> default."""
        return {setting.name: setting.default for setting in self.settings}

    @property
    def c_label(self) -> str:
        """The name of this rule's exploration constant (its ``c`` setting's label)."""
        return self.settings[0].label

    def label(self, term: str) -> str:
        """The header a table shows for ``term``: ``value`` is the rule's name for what it maximises."""
        return self.labels.get(term, term)


def _c(label: str = "exploration constant C") -> Setting:
    """The ``c`` setting every rule has (the app's C control drives it)."""
    return Setting("c", label, "float", 1.0, low=0.0, high=10.0, help="weight of the exploration term")


def _w(default: float) -> Setting:
    """The progressive-bias weight W."""
    return Setting("w", "bias weight W", "float", default, high=100.0, help="weight of W·H/√n")


_HEURISTIC = Setting(
    "heuristic", "heuristic H per move", "move_values", None,
    help="one `move value` per line; unlisted moves get H = 0",
)

_GAMMA = Setting("c", "exploration γ", "float", 0.1, low=0.0, high=1.0,
                 help="the share of uniform exploration mixed into the sampling distribution (0..1)")

RULE_REGISTRY: Mapping[str, Rule] = MappingProxyType({
    "ucb1": Rule(
        name="UCB1",
        function=ucb1,
        formula=r"\frac{M.s}{M.v} + C\sqrt{\frac{\ln N.v}{M.v}}",
        source="https://www.codingame.com/training/hard/monte-carlo-tree-search-exercise",
        settings=(_c(),),
        labels={"value": "UCB1", "exploration": "C·√(ln N/n)"},
    ),
    "ucb1_tuned": Rule(
        name="UCB1-Tuned",
        function=ucb1_tuned,
        formula=(
            r"\bar{x} + C\sqrt{\frac{\ln N.v}{M.v}\min\left(\mathit{cap},\ "
            r"\frac{M.s_2}{M.v} - \bar{x}^2 + \sqrt{\frac{2\ln N.v}{M.v}}\right)}, "
            r"\quad \bar{x} = \frac{M.s}{M.v}"
        ),
        source="Auer, Cesa-Bianchi, Fischer (2002), section 4, https://doi.org/10.1023/A:1013689704352",
        settings=(
            _c(),
            Setting("cap", "variance cap", "float", 0.25, low=0.0, high=10_000.0,
                    help="1/4 for scores in [0, 1]; (b - a)²/4 for scores in [a, b]"),
        ),
        inputs=("total_sq",),
        terms=("mean", "variance", "exploration", "value"),
    ),
    "puct": Rule(
        name="PUCT (AlphaZero)",
        function=puct,
        formula=r"Q(M) + C\,P(M)\,\frac{\sqrt{N.v}}{1 + M.v}",
        source=(
            "Silver et al. (2018), https://doi.org/10.1126/science.aar6404; min-max "
            "normalisation: Schrittwieser et al. (2020), https://doi.org/10.1038/s41586-020-03051-4"
        ),
        settings=(
            _c("c_puct"),
            Setting("normalise", "value normalisation", "choice", "raw", choices=NORMALISATIONS,
                    help="Q = raw mean, or (mean - min) / (max - min) over the siblings"),
            Setting("priors", "prior P per move", "move_values", None,
                    help="one `move value` per line; empty = uniform 1/children; unlisted moves get 0"),
        ),
        inputs=("move", "siblings", "prior"),
        terms=("mean", "q", "prior", "exploration", "value"),
        addends=("q", "exploration"),
    ),
    "progressive_bias": Rule(
        name="UCB1 + progressive bias",
        function=progressive_bias,
        formula=r"\frac{M.s}{M.v} + \frac{W\,H(M)}{\sqrt{M.v}} + C\sqrt{\frac{\ln N.v}{M.v}}",
        source=(
            "Chaslot et al. (2008), https://doi.org/10.1142/S1793005708001094; "
            "https://github.com/Mangara/CodeCup2022"
        ),
        settings=(_c(), _w(1.0), _HEURISTIC),
        inputs=("move",),
        terms=("mean", "bias", "exploration", "value"),
        addends=("mean", "bias", "exploration"),
    ),
    "sample_threshold": Rule(
        name="Sample threshold + ramping C",
        function=sample_threshold,
        formula=(
            r"\begin{cases} \text{fallback policy (random draw)} & N.v < T \\ "
            r"\frac{M.s}{M.v} + \frac{W\,H(M)}{\sqrt{M.v}} + C_{N.v}\sqrt{\frac{\ln N.v}{M.v}} "
            r"& N.v \ge T "
            r"\end{cases}, \quad C_{N.v} = C_0 + (C - C_0)\min\left(1, \frac{N.v - T}{T_2 - T}\right)"
        ),
        source="Smitsimax (a policy below a sample threshold, then a ramping exploration); CodeCup 2022",
        settings=(
            _c("normal exploration constant C"),
            Setting("t", "sample threshold T", "int", 10, low=0, high=10_000,
                    help="below T parent visits the node draws a child by the fallback policy"),
            Setting("fallback", "below T", "choice", "random", choices=FALLBACKS,
                    help="uniformly random child, or a random one of the children of largest H"),
            Setting("t2", "ramp end T2", "int", 10, low=0, high=10_000,
                    help="C climbs linearly from C0 at T to C at T2 (no ramp if T2 <= T)"),
            Setting("c0", "exploration constant C0 at T", "float", 0.0, low=0.0, high=10.0),
            _w(0.0),
            _HEURISTIC,
        ),
        inputs=("move", "siblings"),
        terms=("mean", "heuristic", "bias", "effective_c", "exploration", PROBABILITY, "value"),
        addends=("mean", "bias", "exploration"),  # from T on; below T the value is a probability
    ),
    REGRET_MATCHING: Rule(
        name="Regret matching (γ-exploration)",
        function=None,
        formula=r"\sigma(a) = (1-\gamma)\frac{R^+(a)}{\sum_b R^+(b)} + \frac{\gamma}{K},\quad "
        r"R(b) \mathrel{+}= \tilde{x}(b) - x,\ \tilde{x}(a) = \frac{x}{\sigma(a)}",
        source=(
            "Lanctot, Lisý, Winands (2013), Monte Carlo Tree Search in Simultaneous Move Games with "
            "Applications to Goofspiel, https://doi.org/10.1007/978-3-319-05428-5_3; Lisý et al. (2013), "
            "Convergence of MCTS in Simultaneous Move Games, NIPS"
        ),
        settings=(_GAMMA,),
        terms=("mean", "regret", PROBABILITY, AVERAGE, "value"),
        addends=(),
        labels={PROBABILITY: "σ (sampling)", AVERAGE: "average σ", "value": "σ"},
        kind=SIMULTANEOUS_ONLY,
        state_term="regret",
    ),
    EXP3: Rule(
        name="EXP3 (γ-exploration)",
        function=None,
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
        addends=(),
        labels={PROBABILITY: "σ (sampling)", AVERAGE: "average σ", "value": "σ", "estimate": "X̂"},
        kind=SIMULTANEOUS_ONLY,
        state_term="estimate",
    ),
})


def _of_kind(kind: str) -> Mapping[str, Rule]:
    """The registry's rules of one kind (a read-only view, in the registry's order)."""
    return MappingProxyType({key: rule for key, rule in RULE_REGISTRY.items() if rule.kind == kind})


RULES = _of_kind(FORMULA)  # the rules that score any node
SIMULTANEOUS_RULES = _of_kind(SIMULTANEOUS_ONLY)  # the rules that score simultaneous nodes only
DEFAULT_RULE = "ucb1"


def settings_problem(rule: str, settings: Mapping[str, Any]) -> str | None:
    """Why ``settings`` cannot be ``rule``'s settings (besides C), as a sentence; None when they can.

    Numbers for number settings (whole numbers for ``int``), one of the choices for a choice, and
    an object ``{move: number}`` for per-move values; EXP3's ``low`` below its ``high``.
    """
    from ..common.json_input import shown
    from ..common.numbers import is_finite_number

    spec = RULE_REGISTRY[rule]
    known = {setting.name: setting for setting in spec.settings[1:]}
    for name, value in settings.items():
        setting = known.get(name)
        if setting is None:
            only = "only C (γ)" if spec.simultaneous_only else "only C"
            return f"{spec.name} has no setting {name!r}; it has {', '.join(known) or only}"
        if setting.kind in ("float", "int"):
            if not is_finite_number(value):
                return f"{name} must be a finite number, got {shown(value)}"
            if setting.kind == "int" and value != int(value):
                return f"{name} must be a whole number, got {value!r}"
            if setting.low is not None and value < setting.low:
                return f"{name} must be >= {setting.low:g}, got {value!r}"
        elif setting.kind == "choice" and value not in setting.choices:
            return f"{name} must be one of {', '.join(setting.choices)}, got {value!r}"
        elif setting.kind == "move_values":
            if not isinstance(value, dict) or not all(
                isinstance(move, str) and move and is_finite_number(x) for move, x in value.items()
            ):
                return f"{name} must be an object {{move: number}}, got {value!r}"
    if rule == EXP3:
        low, high = settings.get("low", -1.0), settings.get("high", 1.0)
        if not low < high:
            return f"low must be smaller than high, got {low!r} and {high!r}"
    return None
