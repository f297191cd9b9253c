"""What every selection rule is made of (:class:`Rule`), and the one check of a rule's settings.

A rule is one object in a module of its own (:mod:`mcts_core.selection.rules`): its value as terms
(:attr:`Rule.function`), its value as a line in C (:meth:`Rule.value_form`), an optional fast loop
(:attr:`Rule.statistics_loop`, :meth:`Rule.fast_values`), its settings and their check
(:meth:`Rule.settings_problem`), its labels and LaTeX. Everything that selects, sweeps, searches or
shows a rule asks the object; nothing else names a rule.

Two kinds: :data:`FORMULA` rules score any node's children with their formula;
:data:`SIMULTANEOUS_ONLY` rules (:class:`SamplingRule`: regret matching, EXP3) keep a sampling
distribution per node and player, so they exist only at simultaneous nodes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ..common.json_input import shown
from ..common.numbers import C_RULE, is_finite_number, is_valid_c
from ..model.tree_protocol import SelectableTree
from .terms import RuleFunction, Terms
from .value_form import ValueForm

FORMULA = "formula"  # a rule that scores any node's children with a formula function
SIMULTANEOUS_ONLY = "simultaneous only"  # a rule with a sampling distribution per simultaneous node and player
AVERAGE = "average"  # the term holding a move's share of the average strategy (regret matching, EXP3)

# ``values(parent_visits, visits, total, children, *, c)``: every child's value at once from N.v and
# each child's M.v and M.s (``visits[k]``, ``total[k]`` for child ``k``), an unvisited child worth
# +infinity.
StatisticsLoop = Callable[..., list[float]]
# ``values(tree, node, children)``: every child's value at a live tree's node, in the children's order.
TreeLoop = Callable[[SelectableTree, int, Sequence[int]], list[float]]


@dataclass(frozen=True)
class Setting:
    """One keyword setting of a rule, described so that a UI can build its control.

    Attributes:
        name: the keyword argument.
        label: what the UI shows.
        kind: ``"float"``, ``"int"``, ``"choice"`` or ``"move_values"`` (``move value`` lines,
            parsed by :func:`mcts_core.inputs.formats.move_values.parse_move_values`).
        default: the value used when the setting is not given (mirrors the function's default).
        low: smallest allowed value (numbers, and each value of a ``"move_values"``), None for no bound.
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

    def problem(self, value: Any) -> str | None:
        """Why ``value`` cannot be this setting's value, as a sentence; None when it can."""
        name = self.name
        if self.kind in ("float", "int"):
            if not is_finite_number(value):
                return f"{name} must be a finite number, got {shown(value)}"
            if self.kind == "int" and value != int(value):
                return f"{name} must be a whole number, got {shown(value)}"
            if self.low is not None and value < self.low:
                return f"{name} must be >= {self.low:g}, got {shown(value)}"
        elif self.kind == "choice" and value not in self.choices:
            return f"{name} must be one of {', '.join(self.choices)}, got {shown(value)}"
        elif self.kind == "move_values" and value is not None:  # None: none given, as the default
            if not isinstance(value, Mapping) or not all(
                isinstance(move, str) and move and is_finite_number(x) for move, x in value.items()
            ):
                return f"{name} must be an object {{move: number}}, got {shown(value)}"
            if self.low is not None and any(x < self.low for x in value.values()):  # low bounds each value
                return f"{name} must give each move a number >= {self.low:g}, got {shown(value)}"
        return None


def c_setting(label: str = "exploration constant C") -> Setting:
    """The ``c`` setting every formula rule has (the app's C control drives it)."""
    return Setting("c", label, "float", 1.0, low=0.0, high=10.0, help="weight of the exploration term")


def bias_weight(default: float) -> Setting:
    """The progressive-bias weight W."""
    return Setting("w", "bias weight W", "float", default, high=100.0, help="weight of W·H/√n")


HEURISTIC = Setting(
    "heuristic", "heuristic H per move", "move_values", None,
    help="one `move value` per line; unlisted moves get H = 0",
)

GAMMA = Setting("c", "exploration γ", "float", 0.1, low=0.0, high=1.0,
                help="the share of uniform exploration mixed into the sampling distribution (0..1)")


class Rule:
    """A selection rule: what selects, and what a UI needs to present it.

    Each rule is a subclass with one instance, in its own module; the class attributes are its data.

    Attributes:
        key: the name logs, links and the command line use (UCB1's is ``ucb1``).
        name: display name.
        function: the formula (:class:`~mcts_core.selection.terms.RuleFunction`); None for a
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
        statistics_loop: the rule's fast loop when its value needs only N.v, M.v, M.s and C
            (:data:`StatisticsLoop`: the searches' hot path, the same floats as ``function``), else None.
        reads_sibling_visits: the formula reads ``siblings.visits`` or ``siblings.visited_prior``
            (the engines' rules), which change with any child's visits, not only with a mean.
        node_terms: the terms with one value for all of a node's children (an engine's c(N), W):
            a table says them once above its rows, not in a column.
    """

    key: str
    name: str
    function: RuleFunction | None = None
    formula: str
    source: str
    settings: tuple[Setting, ...]
    inputs: tuple[str, ...] = ()
    terms: tuple[str, ...] = ("mean", "exploration", "value")
    addends: tuple[str, ...] = ("mean", "exploration")
    labels: Mapping[str, str] = MappingProxyType({})
    kind: str = FORMULA
    state_term: str | None = None
    statistics_loop: StatisticsLoop | None = None
    reads_sibling_visits: bool = False
    node_terms: tuple[str, ...] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A formula rule must say its value as a line in C (:meth:`value_form`): the sweep, the
        live C control and the picture's values are built from that line, for every rule."""
        super().__init_subclass__(**kwargs)
        if cls.kind == FORMULA and cls.value_form is Rule.value_form:
            raise TypeError(f"{cls.__name__} is a formula rule without value_form (its value as a line in C)")

    def __repr__(self) -> str:
        return f"<rule {self.key}>"

    def value_form(self, terms: Terms, parent_visits: int, visits: int, total: float,
                   settings: Mapping[str, Any]) -> ValueForm:
        """A child's value as a line in C, from its terms at C = 1 (``settings`` with every default
        filled in): every formula rule defines it (a value C does not enter, the caller keeps flat)."""
        raise NotImplementedError

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

    @property
    def intercept_term(self) -> str | None:
        """The term that is the value at C = 0, when it is one term (UCB1's mean, PUCT's Q): the
        addends but the exploration term, the one C scales. None when they are several (a progressive
        bias's mean + bias) or the value is not a sum."""
        constant = [term for term in self.addends if term != "exploration"]
        return constant[0] if len(constant) == 1 else None

    def c_problem(self, c: Any) -> str | None:
        """Why ``c`` cannot be this rule's C, as a sentence; None when it can."""
        return None if is_valid_c(c) else f"{C_RULE}, got {c!r}"

    def settings_problem(self, settings: Mapping[str, Any]) -> str | None:
        """Why ``settings`` cannot be this rule's settings (besides C), as a sentence; None when they can.

        The one check every reader of settings applies (a Scoring, a header, a link, a bundle):
        only this rule's settings; numbers for number settings (whole numbers for ``int``, at
        least ``low``), one of the choices for a choice, an object ``{move: number}`` (or None)
        for per-move values; then what the rule asks of them together (:meth:`_combined_problem`).
        """
        known = {setting.name: setting for setting in self.settings[1:]}
        for name, value in settings.items():
            setting = known.get(name)
            if setting is None:
                only = "only C (γ)" if self.simultaneous_only else "only C"
                return f"{self.name} has no setting {name!r}; it has {', '.join(known) or only}"
            problem = setting.problem(value)
            if problem is not None:
                return problem
        return self._combined_problem({**self.defaults, **settings})

    def _combined_problem(self, settings: Mapping[str, Any]) -> str | None:
        """What the rule asks of its settings together (each already fits its own kind); None: nothing."""
        return None

    def fast_values(self, c: float, settings: Mapping[str, Any]) -> TreeLoop | None:
        """The rule's fast loop for a live tree's node (:data:`TreeLoop`), None when it has none.

        By default the :attr:`statistics_loop` on the tree's arrays. Every value has the float
        operations of :attr:`function` in the same order (the tests compare bits).
        """
        loop = self.statistics_loop
        if loop is None:
            return None
        return lambda tree, node, kids: loop(tree.visits[node], tree.visits, tree.total, kids, c=c)

    def for_returns(self, settings: Mapping[str, Any], lowest: float, highest: float) -> Mapping[str, Any]:
        """The settings a search uses on a game whose returns lie in [lowest, highest]: these by default."""
        return settings


class SamplingRule(Rule):
    """A rule that keeps a sampling distribution σ per simultaneous node and player (regret matching, EXP3).

    C is γ, the weight of uniform exploration (0 <= γ <= 1). The state per own move (regrets or
    estimates) is a list of floats the search updates after every simulation through the node, and
    a view replays; :meth:`sampling` and :meth:`update_values` are the only places that compute it.
    """

    kind = SIMULTANEOUS_ONLY
    addends = ()
    labels = MappingProxyType({"probability": "σ (sampling)", AVERAGE: "average σ", "value": "σ"})

    def c_problem(self, c: Any) -> str | None:
        return None if is_valid_c(c) and c <= 1 else f"γ (C) must be a number from 0 to 1, got {c!r}"

    def sampling(self, values: Sequence[float], gamma: float, settings: Mapping[str, Any]) -> list[float]:
        """The sampling distribution σ over the node's own moves, from their state ``values``."""
        raise NotImplementedError

    def update_values(self, values: list[float], sigma: Sequence[float], chosen: int, reward: float,
                      settings: Mapping[str, Any]) -> None:
        """Update the state ``values`` in place after a simulation played own move ``chosen``
        (drawn from ``sigma``) and returned ``reward`` for the player."""
        raise NotImplementedError
