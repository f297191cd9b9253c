"""Selection at simultaneous nodes: each player scores its own moves, the joint choice is the tuple.

Every registered rule scores a player's own moves with its own formula function
(:data:`~mcts_core.selection.registry.RULES`), the node's visits as N.v and each own move's visits
and total (from that player's view) as M.v and M.s; ``siblings`` are the player's own moves at the
node, ``prior`` is the rule's ``priors`` setting (else uniform), ``total_sq`` the own move's sum
of squares. Exact ties go to the smaller move, or with ``ties = "first"`` to the first own move in
the node's order (:func:`~mcts_core.selection.scoring.selection_key`). Below a sample threshold a
player draws; the choice shown is the most likely move, as for sequential nodes.

Regret matching and EXP3 keep a sampling distribution per node and player; the view rebuilds it by
replaying the log's simulations through the node in order (:func:`replay`), calling the search's
own :func:`~mcts_core.simultaneous.rules.sampling` and :func:`~mcts_core.simultaneous.rules.update`.
Their terms per own move: the mean, the regret (or EXP3's estimate), σ (the probability the next
simulation plays the move), the average σ (the strategy they recommend) and ``value`` = σ.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..selection.terms import PROBABILITY, Siblings, Terms
from ..selection.registry import RULE_REGISTRY
from ..selection.scoring import Ranked, select_child, selection_key
from ..model.tree import ROOT
from .decoupled_tree import DecoupledTree
from .rules import (
    AVERAGE,
    JointScoring,
    RegretState,
    sampling,
    update,
)


@dataclass(frozen=True)
class OwnScore(Ranked):
    """One player's own move at a node under a rule; ``rank`` 1 is the move the player picks."""

    player: int
    move: str
    position: int
    visits: int
    total: float
    terms: Terms
    rank: int


def own_terms(scoring: JointScoring, parent_visits: int, names: Sequence[str], visits: Sequence[int],
              totals: Sequence[float], totals_sq: Sequence[float]) -> list[Terms]:
    """A registered rule's terms for each of a player's own moves (not for regret matching / EXP3).

    The same call the search makes for its own moves, so a tree read from the log scores exactly
    as the search did.
    """
    spec = RULE_REGISTRY[scoring.rule]
    arguments = {"c": scoring.c, **scoring.settings}
    if "siblings" in spec.inputs:
        means = [t / v for t, v in zip(totals, visits) if v]
        arguments["siblings"] = Siblings(tuple(names), min(means, default=0.0), max(means, default=0.0))
    if "prior" in spec.inputs:
        arguments["prior"] = None  # no declared priors at a simultaneous node: the rule's priors, else uniform
    result = []
    for k, name in enumerate(names):
        if "move" in spec.inputs:
            arguments["move"] = name
        if "total_sq" in spec.inputs:
            arguments["total_sq"] = totals_sq[k]
        result.append(spec.function(parent_visits, visits[k], totals[k], **arguments))
    return result


def score_own_moves(dtree: DecoupledTree, node: int, player: int, scoring: JointScoring) -> list[OwnScore]:
    """Score player ``player``'s own moves at simultaneous node ``node``, best first.

    Raises:
        ValueError: regret matching or EXP3 on a tree dump (no simulations to replay).
    """
    moves = dtree.own_moves(node, player)
    if not moves:
        return []
    names = [m.move for m in moves]
    if scoring.regret_based:
        state = replay(dtree, node, scoring)[player]
        sigma = sampling(scoring.rule, state, scoring.c, scoring.settings)
        average = state.average()
        term = scoring.spec.state_term
        terms = [
            {"mean": m.mean, term: state.values[k], PROBABILITY: sigma[k], AVERAGE: average[k], "value": sigma[k]}
            for k, m in enumerate(moves)
        ]
    else:
        terms = own_terms(scoring, dtree.tree.visits[node], names, [m.visits for m in moves],
                          [m.total for m in moves], [m.total_sq for m in moves])
    ties = dtree.tree.ties
    order = sorted(range(len(moves)), key=lambda k: selection_key(terms[k]["value"], k if ties == "first" else names[k]))
    return [
        OwnScore(player, moves[k].move, k, moves[k].visits, moves[k].total, terms[k], rank)
        for rank, k in enumerate(order, start=1)
    ]


def select_joint(dtree: DecoupledTree, node: int, scoring: JointScoring) -> tuple[str, ...] | None:
    """Each player's choice at simultaneous node ``node`` (the most likely move where it is a draw);
    None at a node that is not simultaneous or where a player has no moves."""
    if not dtree.is_simultaneous(node):
        return None
    choice = []
    for player in range(dtree.players):
        scored = score_own_moves(dtree, node, player, scoring)
        if not scored:
            return None
        choice.append(scored[0].move)
    return tuple(choice)


@dataclass(frozen=True)
class JointStep:
    """One step of the selected path: the node, and the joint move chosen there (None: not simultaneous)."""

    node: int
    joint: tuple[str, ...] | None
    child: int | None


def sequential_choice(dtree: DecoupledTree, node: int, scoring: JointScoring) -> int | None:
    """The child chosen at a node that is not simultaneous: the rule's choice, the most visited one
    under regret matching / EXP3 (they score only simultaneous moves); None at a leaf."""
    tree = dtree.tree
    if not len(tree.children[node]):
        return None
    sequential = scoring.sequential
    if sequential is not None:
        return select_child(tree, node, sequential)
    return max(tree.tie_order(node), key=lambda kid: tree.visits[kid])


def selected_path(dtree: DecoupledTree, scoring: JointScoring, *, start: int = ROOT) -> list[JointStep]:
    """The path selection follows from ``start``: the joint choice at simultaneous nodes, the rule's
    child at sequential ones (the most visited under regret matching / EXP3, and at chance nodes).

    The last step's ``child`` is None: a leaf, or a joint move no simulation has made yet.
    """
    steps = []
    node = start
    tree = dtree.tree
    while True:
        if dtree.is_simultaneous(node):
            joint = select_joint(dtree, node, scoring)
            child = dtree.joint_child(node, joint) if joint is not None else None
            steps.append(JointStep(node, joint, child))
        elif len(tree.children[node]):
            steps.append(JointStep(node, None, sequential_choice(dtree, node, scoring)))
        else:
            steps.append(JointStep(node, None, None))
        if steps[-1].child is None or len(steps) > 1000:
            return steps
        node = steps[-1].child


def replay(dtree: DecoupledTree, node: int, scoring: JointScoring) -> list[RegretState]:
    """Each player's regret-matching or EXP3 state at ``node`` after the log's simulations.

    Replays, in order, every simulation that chose a joint move at the node: σ from the state so
    far, then the update with the move it played and its return, as the search did.

    Raises:
        ValueError: a tree dump (it keeps no simulations), or a rule without such a state.
    """
    if not scoring.regret_based:
        raise ValueError(f"{scoring.rule} keeps no sampling distribution")
    key = ("replay", node, scoring)
    found = dtree.cache.get(key)
    if found is not None:
        return found
    if dtree.playouts is None:
        raise ValueError(
            f"{scoring.spec.name} needs the simulations in order to rebuild its regrets; "
            "a tree dump keeps only the totals (load the search's log instead)"
        )
    players = dtree.players
    position_of = []
    for player in range(players):
        position_of.append({dtree.slot_move[slot]: k for k, slot in enumerate(dtree.slots(node, player))})
    states = [RegretState(len(positions)) for positions in position_of]
    returns = dtree.playouts.returns
    joint_of, move_id = dtree.joint.joint_of, dtree.tree.move_id
    rule, gamma, settings = scoring.rule, scoring.c, scoring.settings
    for playout, child in _choices_at(dtree, node):
        own = joint_of[move_id[child]]
        for player in range(players):
            state = states[player]
            sigma = sampling(rule, state, gamma, settings)
            update(rule, state, sigma, position_of[player][own[player]], returns[playout * players + player], settings)
    dtree.cache[key] = states
    return states


def _choices_at(dtree: DecoupledTree, node: int) -> list[tuple[int, int]]:
    """(simulation, joint child it entered) for every simulation that chose at ``node``, in order."""
    import numpy as np

    tree = dtree.tree
    count = dtree.count
    if not count or not len(tree.children[node]):
        return []
    reached = np.asarray(tree.reached, dtype=np.int64)[:count]
    depth = np.asarray(tree.depth, dtype=np.int64)
    parent = np.asarray(tree.parent, dtype=np.int64)
    level = int(depth[node]) + 1
    candidates = np.flatnonzero(depth[reached] >= level)
    current = reached[candidates]
    while True:  # lift each simulation's deepest node to the depth of node's children
        deeper = depth[current] > level
        if not deeper.any():
            break
        current[deeper] = parent[current[deeper]]
    mine = parent[current] == node
    return list(zip(candidates[mine].tolist(), current[mine].tolist()))


def strategy(dtree: DecoupledTree, node: int, player: int, scoring: JointScoring) -> dict[str, float]:
    """The strategy the search recommends for ``player`` at ``node``: the average σ for regret
    matching and EXP3, else the visit shares of its own moves."""
    if scoring.regret_based:
        state = replay(dtree, node, scoring)[player]
        names = [m.move for m in dtree.own_moves(node, player)]
        return dict(zip(names, state.average()))
    return dtree.visit_shares(node, player)
