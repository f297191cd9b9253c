"""A selection setting as one value, and selection itself: score a node's children, walk the path.

:class:`Scoring` is the rule plus its settings (C included); every function that selects takes one.
Exact ties go to the smaller move, or, when the tree says ``ties = "first"``, to the first child in
the node's order (:func:`selection_key`). Where a rule draws at random (below a sample threshold)
the path follows the most likely child, and :attr:`ChildScore.random` says the choice was a draw.
At a chance node nothing is selected: the path follows the most visited outcome
(:attr:`ChildScore.sampled`). A child with a proven outcome (MCTS-Solver: a terminal or solved
node) is worth exactly that outcome under every deterministic rule, as in OpenSpiel's MCTS.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from ..model.tree import ROOT, Tree
from ..model.tree_protocol import SelectableTree
from .registry import DEFAULT_RULE, RULE_REGISTRY, RULES
from .rule import Rule
from .terms import PROBABILITY, Siblings, Terms


@dataclass(frozen=True)
class Scoring:
    """A selection rule with its settings: what selection maximises at every node.

    Attributes:
        rule: a key of :data:`~mcts_core.selection.registry.RULES` (the rules that score any node).
        c: the exploration constant (every rule has one).
        settings: the rule's other keyword settings; missing ones take the rule's defaults.
            Per-move values (priors, heuristics) are mappings ``move -> value``.

    Hashable and comparable by value, so it can key a cache.
    """

    rule: str = DEFAULT_RULE
    c: float = 1.0
    settings: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        self._check()
        frozen = {
            name: MappingProxyType(dict(value)) if isinstance(value, Mapping) else value
            for name, value in self.settings.items()
        }
        object.__setattr__(self, "settings", MappingProxyType(frozen))

    def _check(self) -> None:
        """Raises ValueError unless the rule is one that scores any node and C and the settings fit
        it (the rule's own check, :meth:`~mcts_core.selection.rule.Rule.settings_problem`)."""
        spec = RULE_REGISTRY.get(self.rule)
        if spec is None or spec.simultaneous_only:
            here = " here: it scores simultaneous moves only" if spec is not None else ""
            raise ValueError(f"unknown rule {self.rule!r}{here}; known: {', '.join(RULES)}")
        self._check_with(spec)

    def _check_with(self, spec: Rule) -> None:
        """Raises ValueError with the rule's sentence unless C and the settings fit ``spec``."""
        problem = spec.c_problem(self.c) or spec.settings_problem(self.settings)
        if problem is not None:
            raise ValueError(problem)

    @classmethod
    def of(cls, rule: str = DEFAULT_RULE, *, c: float | None = None, **settings) -> Scoring:
        """``Scoring(rule, c, settings)`` with settings as keywords; C defaults to the rule's."""
        return cls(rule, RULE_REGISTRY[rule].defaults["c"] if c is None else c, settings)

    @property
    def spec(self) -> Rule:
        """The registered rule."""
        return RULE_REGISTRY[self.rule]

    def setting(self, name: str) -> Any:
        """A setting's value, or its default."""
        return self.settings.get(name, self.spec.defaults.get(name))

    def resolved_settings(self) -> dict[str, Any]:
        """Every setting but C: the given ones, the others at their defaults."""
        return {setting.name: self.setting(setting.name) for setting in self.spec.settings[1:]}

    def with_c(self, c: float) -> Scoring:
        """The same rule and settings at another C."""
        return replace(self, c=c)

    def keywords(self) -> dict[str, Any]:
        """The formula's keyword arguments: ``c`` and the settings."""
        return {"c": self.c, **self.settings}

    def __hash__(self) -> int:
        return hash((self.rule, self.c, tuple(sorted((k, _hashable(v)) for k, v in self.settings.items()))))

    def describe(self, separator: str = ", ") -> str:
        """A short plain-text name: the rule, C, and every other setting not at its default.

        Per-move values (priors, heuristics) are counted, not listed; the text holds no user text.
        """
        spec = self.spec
        parts = [spec.name, f"{'γ' if spec.simultaneous_only else 'C'} = {self.c:.6g}"]
        for setting in spec.settings[1:]:
            value = self.settings.get(setting.name, setting.default)
            if value == setting.default or (setting.kind == "move_values" and not value):
                continue
            if setting.kind == "move_values":
                parts.append(f"{setting.name}: {len(value)} move{'s' if len(value) != 1 else ''}")
            elif isinstance(value, float):
                parts.append(f"{setting.name} = {value:.6g}")
            else:
                parts.append(f"{setting.name} = {value}")
        return separator.join(parts)


def _hashable(value: Any) -> Any:
    return tuple(sorted(value.items())) if isinstance(value, Mapping) else value


def selection_key(value: float, tie: str | int) -> tuple[float, str | int]:
    """Sort key putting the child that selection picks first.

    Larger value first; exactly equal floats tie, and the tie goes to the smaller ``tie``: the move
    (by code point, so ``a`` before ``b``, ``0`` before ``a``) or the child's position in its
    node's order, as the tree's ``ties`` says (:func:`tie_of`).
    """
    return (-value, tie)


def tie_of(tree: SelectableTree, kid: int, position: int) -> str | int:
    """What breaks an exact tie for this child: its move, or its position among its siblings."""
    return position if tree.ties == "first" else tree.move[kid]


SHARE = "share"  # the term of a chance node's outcome: its share of the node's visits
OUTCOME = "outcome"  # the term of a child with a proven value


class Ranked:
    """What any scored choice offers, from the ``terms`` and ``rank`` (1: the one picked) its
    dataclass declares."""

    @property
    def value(self) -> float:
        return self.terms["value"]

    @property
    def selected(self) -> bool:
        return self.rank == 1

    @property
    def random(self) -> bool:
        """True when the choice is a random draw (a sample threshold, regret matching, EXP3)."""
        return PROBABILITY in self.terms

    @property
    def probability(self) -> float:
        """The chance the choice falls here: the drawn probability, or 1 / 0 when deterministic."""
        return self.terms.get(PROBABILITY, 1.0 if self.selected else 0.0)


@dataclass(frozen=True)
class ChildScore(Ranked):
    """One child's statistics and terms under a rule; ``rank`` 1 is the child selection picks."""

    node: int
    move: str
    visits: int
    total: float
    terms: Terms
    rank: int

    @property
    def sampled(self) -> bool:
        """True when this child is an outcome of a chance node (the path follows the most visited)."""
        return SHARE in self.terms


def siblings_of(tree: SelectableTree, node: int) -> Siblings:
    """The siblings among which ``node`` chooses (``node`` must have children)."""
    kids = tree.children[node]
    visited = [kid for kid in kids if tree.visits[kid]]
    means = [tree.total[kid] / tree.visits[kid] for kid in visited]
    priors = [tree.prior_of(kid) for kid in visited]
    return Siblings(tuple(tree.move[kid] for kid in kids), min(means, default=0.0), max(means, default=0.0),
                    sum(tree.visits[kid] for kid in visited), sum(prior for prior in priors if prior is not None))


def _child_input(tree: SelectableTree, kid: int, name: str):
    """One per-child input of a formula."""
    if name == "move":
        return tree.move[kid]
    if name == "total_sq":
        return tree.total_sq[kid]
    if name == "prior":
        return tree.prior_of(kid)
    raise ValueError(f"unknown rule input {name!r}")


def _child_terms(tree: SelectableTree, node: int, scoring: Scoring, positions: Iterable[int] | None = None,
                 siblings: Siblings | None = None) -> Iterator[tuple[int, int, Terms]]:
    """(child, position, terms) for every child of ``node`` in its order (or for the children at
    ``positions`` only, in that order), inputs filled in (``siblings``: :func:`siblings_of`, when
    the caller has it)."""
    kids = tree.children[node]
    if not kids:
        return
    chosen = enumerate(kids) if positions is None else ((position, kids[position]) for position in positions)
    if tree.is_chance(node):
        parent_visits = tree.visits[node]
        for position, kid in chosen:
            share = tree.visits[kid] / parent_visits if parent_visits else 0.0
            yield kid, position, {"mean": tree.mean(kid), SHARE: share, "value": float(tree.visits[kid])}
        return
    spec = scoring.spec
    arguments = scoring.keywords()
    per_child = [name for name in spec.inputs if name != "siblings"]
    if "siblings" in spec.inputs:
        arguments["siblings"] = siblings_of(tree, node) if siblings is None else siblings
    parent_visits = tree.visits[node]
    for position, kid in chosen:
        for name in per_child:
            arguments[name] = _child_input(tree, kid, name)
        terms = spec.function(parent_visits, tree.visits[kid], tree.total[kid], **arguments)
        outcome = tree.outcome_of(kid)
        if outcome is not None and PROBABILITY not in terms:
            terms = {"mean": tree.mean(kid), OUTCOME: outcome, "value": outcome}
        yield kid, position, terms


def score_children(tree: SelectableTree, node: int, scoring: Scoring) -> list[ChildScore]:
    """Score every child of ``node``, best first (sorted by :func:`selection_key`; empty for a leaf)."""
    scored = sorted(
        _child_terms(tree, node, scoring),
        key=lambda item: selection_key(item[2]["value"], tie_of(tree, item[0], item[1])),
    )
    return [
        ChildScore(kid, tree.move[kid], tree.visits[kid], tree.total[kid], terms, rank)
        for rank, (kid, _, terms) in enumerate(scored, start=1)
    ]


def select_child(tree: SelectableTree, node: int, scoring: Scoring) -> int | None:
    """The child selection picks at ``node`` (the most likely one if drawn), or None at a leaf."""
    best, best_key = None, None
    for kid, position, terms in _child_terms(tree, node, scoring):
        key = selection_key(terms["value"], tie_of(tree, kid, position))
        if best_key is None or key < best_key:  # no "best so far = 0": values may be negative
            best, best_key = kid, key
    return best


def child_keys(tree: SelectableTree, node: int, scoring: Scoring, positions: Iterable[int],
               siblings: Siblings | None = None) -> list[tuple[float, str | int]]:
    """The :func:`selection_key` of the children of ``node`` at ``positions`` (their places in its
    order), in that order: what :func:`select_child` compares, computed for those children alone
    (a formula's siblings are still all of them: ``siblings_of(tree, node)``, or ``siblings`` when
    the caller asking many times has it)."""
    return [selection_key(terms["value"], tie_of(tree, kid, position))
            for kid, position, terms in _child_terms(tree, node, scoring, positions, siblings)]


def under_threshold(tree: SelectableTree, node: int, scoring: Scoring) -> bool:
    """True when the choice at ``node`` is a random draw (False at a leaf)."""
    first = next(_child_terms(tree, node, scoring), None)
    return first is not None and PROBABILITY in first[2]


def selected_nodes(tree: SelectableTree, scoring: Scoring, *, start: int = ROOT) -> list[int]:
    """Nodes on the selected path from ``start`` down to a leaf, both included."""
    nodes = [start]
    kid = select_child(tree, start, scoring)
    while kid is not None:
        nodes.append(kid)
        kid = select_child(tree, kid, scoring)
    return nodes


def select_path(tree: Tree, scoring: Scoring) -> str:
    """The moves selection follows from the root to a leaf, as :meth:`Tree.path` writes them."""
    return tree.path(selected_nodes(tree, scoring)[-1])
