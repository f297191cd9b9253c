"""Selection rules as pure functions, a registry of them, and the selected path.

Every rule has one signature: the parent's visit count and the child's visits and total score come
positionally, everything else is keyword-only::

    rule(parent_visits, visits, total, *, c, <settings...>, <inputs...>) -> Terms

Every rule takes ``c``, the exploration constant the app's C slider drives (its label uses the
rule's own symbol, e.g. c_puct). *Settings* are what the user picks (C, W, a threshold, priors...);
they are listed with defaults, ranges and labels in :attr:`Rule.settings` so a UI can build its
controls generically. *Inputs* are extra per-child data the rule declares in :attr:`Rule.inputs`;
:func:`score_children` fills them:
the name of a per-node list of :class:`~mcts_core.tree.Tree` (``"move"``, ``"total_sq"``) gives
the child's entry, and ``"siblings"`` gives the :class:`Siblings` of the node choosing, computed once
per node (for PUCT's min-max normalisation, uniform priors and fallback policies).

A rule returns the child's terms in display order; the key ``"value"`` is what selection maximises.
Ties between exactly equal values go to the smaller move (:func:`selection_key`).

Random choices. Below a sample threshold a node does not select by a formula but draws a child at
random (seeds 003, 004). Such a rule returns the key ``"probability"`` (this child's chance) and
sets ``"value"`` to it, so :func:`select_child` and :func:`select_path` follow the most likely child
(ties to the smaller move) and never pretend a single answer is certain: :func:`under_threshold` and
:attr:`ChildScore.random` say the choice was a draw, :attr:`ChildScore.probability` gives the chance
(1 for the selected child and 0 for the others when the choice is deterministic).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from .tree import ROOT, Tree

Terms = dict[str, float]
MoveValues = Mapping[str, float]

PROBABILITY = "probability"  # the term a rule returns when its choice at a node is a random draw


def ucb1(parent_visits: int, visits: int, total: float, *, c: float) -> Terms:
    """UCB1 as the puzzle defines it: ``M.s / M.v + C * sqrt(ln(N.v) / M.v)``.

    Source: the puzzle statement (seeds/001) and Auer, Cesa-Bianchi, Fischer (2002),
    https://doi.org/10.1023/A:1013689704352. The value is computed in exactly the statement's form
    so that it is the same float a C++ or Python solution of the puzzle gets.

    Args:
        parent_visits: N.v, visits of the node choosing a child.
        visits: M.v, visits of the child (>= 1).
        total: M.s, sum of the child's scores.
        c: the exploration constant C >= 0.

    Returns:
        ``mean`` (exploitation), ``exploration`` and their sum ``value``.
    """
    mean = total / visits
    exploration = c * math.sqrt(math.log(parent_visits) / visits)
    return {"mean": mean, "exploration": exploration, "value": mean + exploration}


def ucb1_tuned(
    parent_visits: int, visits: int, total: float, *, c: float, total_sq: float, cap: float = 0.25
) -> Terms:
    """UCB1-Tuned: ``mean + C * sqrt(ln(N.v) / M.v * min(cap, V))`` with a variance bound V.

    ``V = M.s2 / M.v - mean**2 + sqrt(2 ln(N.v) / M.v)``, where ``M.s2`` is the child's sum of
    squared scores: the sample variance plus a confidence margin. Source: Auer, Cesa-Bianchi, Fischer
    (2002), section 4, https://doi.org/10.1023/A:1013689704352, where C = 1 and cap = 1/4 (the largest
    variance of rewards in [0, 1]); for scores in [a, b] the matching cap is (b - a)**2 / 4.

    Args:
        parent_visits: N.v.
        visits: M.v (>= 1).
        total: M.s.
        c: multiplies the exploration term (1 in the paper).
        total_sq: M.s2, sum of the child's squared scores (input ``"total_sq"``).
        cap: upper bound on the variance term.

    Returns:
        ``mean``, ``variance`` (the sample variance), ``exploration`` and ``value``.
    """
    mean = total / visits
    variance = max(0.0, total_sq / visits - mean * mean)  # rounding can dip below 0
    log_n = math.log(parent_visits)
    bound = min(cap, variance + math.sqrt(2.0 * log_n / visits))
    exploration = c * math.sqrt(log_n / visits * bound)
    return {"mean": mean, "variance": variance, "exploration": exploration, "value": mean + exploration}


@dataclass(frozen=True)
class Siblings:
    """The children of the node choosing, as rules may need them (computed once per node).

    Attributes:
        moves: the children's moves in creation order.
        min_mean: smallest child mean.
        max_mean: largest child mean.
    """

    moves: tuple[str, ...]
    min_mean: float
    max_mean: float

    @property
    def count(self) -> int:
        return len(self.moves)

    @classmethod
    def of(cls, tree: Tree, node: int) -> Siblings:
        """The siblings among which ``node`` chooses (``node`` must have children)."""
        kids = tree.children[node]
        means = [tree.mean(kid) for kid in kids]
        return cls(tuple(tree.move[kid] for kid in kids), min(means), max(means))


NORMALISATIONS = ("raw", "minmax")


def puct(
    parent_visits: int,
    visits: int,
    total: float,
    *,
    c: float,
    move: str,
    siblings: Siblings,
    priors: MoveValues | None = None,
    normalise: str = "raw",
) -> Terms:
    """PUCT as in AlphaZero: ``Q + C * P * sqrt(N.v) / (1 + M.v)``.

    Source: seeds/002 (decoupled UCT with AlphaZero's selection) and Silver et al. (2018),
    https://doi.org/10.1126/science.aar6404. AlphaZero's N is the sum of the children's visits; here
    it is N.v, as in the puzzle. Q is the child's mean, either ``"raw"`` or ``"minmax"``-normalised
    over the siblings, ``(mean - min) / (max - min)``, as MuZero normalises values of unknown scale
    (Schrittwieser et al. 2020, https://doi.org/10.1038/s41586-020-03051-4); when all siblings have
    the same mean, Q = 0.5 for each. P is ``priors[move]`` (0 for a move not listed, not
    renormalised), or uniform ``1 / number of children`` when ``priors`` is None or empty.

    Args:
        parent_visits: N.v.
        visits: M.v (>= 1).
        total: M.s.
        c: c_puct.
        move: the child's move (input).
        siblings: the children of the node choosing (input).
        priors: P per move, or None for uniform.
        normalise: ``"raw"`` or ``"minmax"``.

    Returns:
        ``mean``, ``q``, ``prior``, ``exploration`` and ``value``.
    """
    mean = total / visits
    if normalise == "raw":
        q = mean
    elif normalise == "minmax":
        spread = siblings.max_mean - siblings.min_mean
        q = (mean - siblings.min_mean) / spread if spread > 0 else 0.5
    else:
        raise ValueError(f"normalise must be one of {NORMALISATIONS}, got {normalise!r}")
    prior = _value_of(priors, move) if priors else 1.0 / siblings.count
    exploration = c * prior * math.sqrt(parent_visits) / (1 + visits)
    return {"mean": mean, "q": q, "prior": prior, "exploration": exploration, "value": q + exploration}


def progressive_bias(
    parent_visits: int,
    visits: int,
    total: float,
    *,
    c: float,
    move: str,
    w: float = 1.0,
    heuristic: MoveValues | None = None,
) -> Terms:
    """UCB1 plus a progressive-bias term: ``UCB1 + W * H(move) / sqrt(M.v)``.

    Source: Chaslot et al. (2008), "Progressive strategies for Monte-Carlo tree search",
    https://doi.org/10.1142/S1793005708001094, and seeds/004 (CodeCup 2022, 5th place), which uses
    W = 34 and ``sqrt(7 ln N.v) / sqrt(M.v)``, i.e. C = sqrt(7). The UCB1 part is :func:`ucb1` itself,
    so with W = 0 the value is bit-identical to UCB1. H is ``heuristic[move]`` (0 when not listed).

    Args:
        parent_visits: N.v.
        visits: M.v (>= 1).
        total: M.s.
        c: the exploration constant C.
        move: the child's move (input).
        w: the bias weight W.
        heuristic: H per move; None means H = 0 everywhere.

    Returns:
        ``mean``, ``bias``, ``exploration`` and ``value``.
    """
    base = ucb1(parent_visits, visits, total, c=c)
    bias = w * _value_of(heuristic, move) / math.sqrt(visits)
    return {
        "mean": base["mean"],
        "bias": bias,
        "exploration": base["exploration"],
        "value": base["value"] + bias,
    }


FALLBACKS = ("random", "heuristic")


def ramped_c(parent_visits: int, *, c: float, c0: float, t: int, t2: int) -> float:
    """The exploration constant after the sample threshold: linear from C0 at N.v = T to C at T2.

    ``C0 + (C - C0) * (N.v - T) / (T2 - T)`` for T <= N.v < T2 and exactly C from T2 on (also when
    T2 <= T, i.e. no ramp). Below T the node does not use a formula at all (:func:`sample_threshold`).
    """
    if parent_visits >= t2:
        return c
    return c0 + (c - c0) * (parent_visits - t) / (t2 - t)


def sample_threshold(
    parent_visits: int,
    visits: int,
    total: float,
    *,
    c: float,
    move: str,
    siblings: Siblings,
    t: int = 10,
    t2: int = 10,
    c0: float = 0.0,
    fallback: str = "random",
    w: float = 0.0,
    heuristic: MoveValues | None = None,
) -> Terms:
    """A fallback policy below T parent visits, then progressive-bias UCB with a ramping C.

    Below T (N.v < T) the node draws a child: ``"random"`` uniformly (seeds/004: the first 1000
    visits to a node pick a random child) or ``"heuristic"`` uniformly among the children of largest
    H (seeds/003, Smitsimax: "an action is decided by UCT only if the number of samples reaches a
    certain threshold; otherwise, it uses the policy", a random one of the best actions). The terms
    then hold ``probability`` and ``value`` = probability (see the module docstring).

    From T on it is :func:`progressive_bias` with C replaced by :func:`ramped_c`, which climbs
    linearly from C0 at N.v = T to C at N.v = T2 (seeds/003: "deciding by the tree starts from a very
    small exploration ... The exploration reaches its normal formula after a certain threshold of
    samples"; the seed gives no numbers, the linear ramp is this explorer's choice). With T = T2 = 0
    and W = 0 it is UCB1, bit for bit.

    Args:
        parent_visits: N.v.
        visits: M.v (>= 1).
        total: M.s.
        c: the normal exploration constant C, reached at T2.
        move: the child's move (input).
        siblings: the children of the node choosing (input).
        t: the sample threshold T.
        t2: where the ramp ends, T2 (no ramp when T2 <= T).
        c0: the exploration constant at T.
        fallback: ``"random"`` or ``"heuristic"``.
        w: the progressive-bias weight W (0: plain UCB1).
        heuristic: H per move, for the bias and the heuristic fallback.

    Returns:
        Below T: ``mean``, ``heuristic``, ``probability``, ``value``. From T on: ``mean``, ``bias``,
        ``effective_c``, ``exploration``, ``value``.
    """
    if fallback not in FALLBACKS:
        raise ValueError(f"fallback must be one of {FALLBACKS}, got {fallback!r}")
    if parent_visits >= t:
        c_now = ramped_c(parent_visits, c=c, c0=c0, t=t, t2=t2)
        terms = progressive_bias(
            parent_visits, visits, total, c=c_now, move=move, w=w, heuristic=heuristic
        )
        return {
            "mean": terms["mean"],
            "bias": terms["bias"],
            "effective_c": c_now,
            "exploration": terms["exploration"],
            "value": terms["value"],
        }
    h = _value_of(heuristic, move)
    if fallback == "random":
        probability = 1.0 / siblings.count
    else:  # argmax H with ties drawn uniformly; O(children) per child, and nodes have few children
        values = [_value_of(heuristic, m) for m in siblings.moves]
        best = max(values)
        probability = 1.0 / values.count(best) if h == best else 0.0
    return {"mean": total / visits, "heuristic": h, PROBABILITY: probability, "value": probability}


def _value_of(values: MoveValues | None, move: str) -> float:
    """``values[move]``, 0 when the move is not listed or there are no values."""
    return values.get(move, 0.0) if values else 0.0


@dataclass(frozen=True)
class Setting:
    """One keyword setting of a rule, described so that a UI can build its control.

    Attributes:
        name: the keyword argument.
        label: what the UI shows.
        kind: ``"float"``, ``"int"``, ``"choice"`` or ``"move_values"`` (a ``move value`` text box,
            parsed by :func:`mcts_core.move_values.parse_move_values`).
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


@dataclass(frozen=True)
class Rule:
    """A registered selection rule: the function plus what the UI needs to present it.

    Attributes:
        name: display name.
        function: the rule (the module docstring's signature).
        formula: LaTeX.
        source: where the formula comes from (papers, seeds, links).
        settings: the keyword settings, in the order a UI should show them (``c`` first).
        inputs: per-child data :func:`score_children` passes (see the module docstring).
        terms: every term key the rule can return, in display order (``"value"`` last).
    """

    name: str
    function: Callable[..., Terms]
    formula: str  # LaTeX
    source: str
    settings: tuple[Setting, ...] = ()
    inputs: tuple[str, ...] = ()
    terms: tuple[str, ...] = ("mean", "exploration", "value")

    @property
    def defaults(self) -> dict[str, Any]:
        """Setting name -> default."""
        return {setting.name: setting.default for setting in self.settings}


def _c(label: str = "exploration constant C") -> Setting:
    """The ``c`` setting every rule has (the app's C slider drives it)."""
    return Setting("c", label, "float", 1.0, low=0.0, high=10.0, help="weight of the exploration term")


def _w(default: float) -> Setting:
    """The progressive-bias weight W."""
    return Setting("w", "bias weight W", "float", default, high=100.0, help="weight of W·H/√n")


_HEURISTIC = Setting(
    "heuristic", "heuristic H per move", "move_values", None,
    help="one `move value` per line; unlisted moves get H = 0",
)

RULES: dict[str, Rule] = {
    "ucb1": Rule(
        name="UCB1",
        function=ucb1,
        formula=r"\frac{M.s}{M.v} + C\sqrt{\frac{\ln N.v}{M.v}}",
        source="https://www.codingame.com/training/hard/monte-carlo-tree-search-exercise",
        settings=(_c(),),
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
            "seeds/002; Silver et al. (2018), https://doi.org/10.1126/science.aar6404; min-max "
            "normalisation: Schrittwieser et al. (2020), https://doi.org/10.1038/s41586-020-03051-4"
        ),
        settings=(
            _c("c_puct"),
            Setting("normalise", "value normalisation", "choice", "raw", choices=NORMALISATIONS,
                    help="Q = raw mean, or (mean - min) / (max - min) over the siblings"),
            Setting("priors", "prior P per move", "move_values", None,
                    help="one `move value` per line; empty = uniform 1/children; unlisted moves get 0"),
        ),
        inputs=("move", "siblings"),
        terms=("mean", "q", "prior", "exploration", "value"),
    ),
    "progressive_bias": Rule(
        name="UCB1 + progressive bias",
        function=progressive_bias,
        formula=r"\frac{M.s}{M.v} + \frac{W\,H(M)}{\sqrt{M.v}} + C\sqrt{\frac{\ln N.v}{M.v}}",
        source=(
            "Chaslot et al. (2008), https://doi.org/10.1142/S1793005708001094; seeds/004, "
            "https://github.com/Mangara/CodeCup2022"
        ),
        settings=(_c(), _w(1.0), _HEURISTIC),
        inputs=("move",),
        terms=("mean", "bias", "exploration", "value"),
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
        source="seeds/003 (Smitsimax: policy below a threshold, then a ramping exploration); seeds/004",
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
    ),
}
DEFAULT_RULE = "ucb1"

# Named settings from the seeds: name -> (rule key, settings). Priors and heuristics are data, not
# constants, so they are left to the user.
RULE_PRESETS: dict[str, tuple[str, dict[str, Any]]] = {
    # seeds/002 names no constants; c_puct = 1.25 is AlphaZero's c_init, min-max because puzzle
    # scores have no fixed scale.
    "seed 002 (AlphaZero PUCT)": ("puct", {"c": 1.25, "normalise": "minmax"}),
    # seeds/003 gives no numbers; these only show the shape: heuristic policy, then a ramp.
    "seed 003 (Smitsimax)": (
        "sample_threshold",
        {"c": 1.0, "t": 20, "t2": 200, "c0": 0.05, "fallback": "heuristic"},
    ),
    # seeds/004: random below 1000 visits, then value + 34 H / sqrt(n) + sqrt(7 ln N) / sqrt(n).
    "seed 004 (CodeCup 2022)": (
        "sample_threshold",
        {"c": math.sqrt(7), "t": 1000, "t2": 1000, "c0": math.sqrt(7), "fallback": "random", "w": 34.0},
    ),
    "seed 004, bias term only": ("progressive_bias", {"c": math.sqrt(7), "w": 34.0}),
}


def selection_key(value: float, move: str) -> tuple[float, str]:
    """Sort key putting the child that selection picks first.

    Larger value first; exactly equal floats tie, and a tie goes to the smaller move character (by
    code point, so ``a`` before ``b``, ``0`` before ``a``), as the puzzle statement requires.
    """
    return (-value, move)


@dataclass(frozen=True)
class ChildScore:
    """One child's statistics and terms under a rule; ``rank`` 1 is the child selection picks."""

    node: int
    move: str
    visits: int
    total: float
    terms: Terms
    rank: int

    @property
    def value(self) -> float:
        return self.terms["value"]

    @property
    def selected(self) -> bool:
        return self.rank == 1

    @property
    def random(self) -> bool:
        """True when the choice at this child's parent is a random draw (under a sample threshold)."""
        return PROBABILITY in self.terms

    @property
    def probability(self) -> float:
        """The chance selection picks this child: the drawn probability, or 1 / 0 when deterministic."""
        return self.terms.get(PROBABILITY, 1.0 if self.selected else 0.0)


def _child_terms(
    tree: Tree, node: int, rule: str, settings: dict[str, Any]
) -> Iterator[tuple[int, Terms]]:
    """(child, terms) for every child of ``node`` in creation order, inputs filled in."""
    spec = RULES[rule]
    clash = set(spec.inputs) & set(settings)
    if clash:
        raise TypeError(f"{sorted(clash)} are filled in per child and cannot be given as settings")
    kids = tree.children[node]
    if not kids:
        return
    arguments = dict(settings)
    per_child = [name for name in spec.inputs if name != "siblings"]
    if "siblings" in spec.inputs:
        arguments["siblings"] = Siblings.of(tree, node)
    parent_visits = tree.visits[node]
    for kid in kids:
        for name in per_child:
            arguments[name] = getattr(tree, name)[kid]
        yield kid, spec.function(parent_visits, tree.visits[kid], tree.total[kid], **arguments)


def score_children(tree: Tree, node: int, *, rule: str = DEFAULT_RULE, **settings) -> list[ChildScore]:
    """Score every child of ``node``, best first.

    Args:
        tree: the tree.
        node: the node choosing a child.
        rule: a key of :data:`RULES`.
        **settings: the rule's keyword settings (for UCB1: ``c``); its inputs are filled in here.

    Returns:
        One :class:`ChildScore` per child, sorted by :func:`selection_key` (empty for a leaf).
    """
    scored = sorted(
        _child_terms(tree, node, rule, settings),
        key=lambda item: selection_key(item[1]["value"], tree.move[item[0]]),
    )
    return [
        ChildScore(kid, tree.move[kid], tree.visits[kid], tree.total[kid], terms, rank)
        for rank, (kid, terms) in enumerate(scored, start=1)
    ]


def select_child(tree: Tree, node: int, *, rule: str = DEFAULT_RULE, **settings) -> int | None:
    """The child selection picks at ``node`` (the most likely one if drawn), or None at a leaf."""
    best, best_key = None, None
    for kid, terms in _child_terms(tree, node, rule, settings):
        key = selection_key(terms["value"], tree.move[kid])
        if best_key is None or key < best_key:  # no "best so far = 0": values may be negative
            best, best_key = kid, key
    return best


def under_threshold(tree: Tree, node: int, *, rule: str = DEFAULT_RULE, **settings) -> bool:
    """True when the choice at ``node`` is a random draw (False at a leaf)."""
    first = next(_child_terms(tree, node, rule, settings), None)
    return first is not None and PROBABILITY in first[1]


def selected_nodes(tree: Tree, *, rule: str = DEFAULT_RULE, start: int = ROOT, **settings) -> list[int]:
    """Nodes on the selected path from ``start`` down to a leaf, both included.

    Where a node draws at random (:func:`under_threshold`) the path follows the most likely child,
    ties to the smaller move.
    """
    nodes = [start]
    kid = select_child(tree, start, rule=rule, **settings)
    while kid is not None:
        nodes.append(kid)
        kid = select_child(tree, kid, rule=rule, **settings)
    return nodes


def select_path(tree: Tree, *, rule: str = DEFAULT_RULE, **settings) -> str:
    """The moves selection follows from the root to a leaf (the puzzle's answer)."""
    return "".join(tree.move[node] for node in selected_nodes(tree, rule=rule, **settings)[1:])
