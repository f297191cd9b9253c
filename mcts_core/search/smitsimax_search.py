"""Smitsimax: one tree per player over its own moves, searched together, writing the simultaneous log.

Each player keeps its own tree, whose nodes are sequences of that player's own moves; the
opponents' moves and chance outcomes are not branched on (a node merges every history with those
own moves). One simulation:

1. **Select**: at every simultaneous step each player picks, at its current node, one of the own
   moves legal in this state with the rule (own moves met for the first time join the node with
   0 visits, in the engine's order); the joint move is played and each player steps into its
   child. Chance outcomes are drawn and not branched on. The tree phase ends after the first step
   where some player's move is new at its node (0 visits), or at the end of the game.
2. **Simulate**: uniformly random moves to the end.
3. **Backpropagate**: each player's nodes on its path get one visit and **its** return.

Because a simulation leaves every tree at the first step that is new to any of them, each player's
tree is the puzzle's rule applied to the simulations' paths projected on that player's moves:
:func:`mcts_core.simultaneous.smitsimax_trees` rebuilds the trees from the log, visit for visit
and bit for bit. The log is the DUCT log's form with ``"algorithm": "smitsimax"``; its only fact
is the root's (a Smitsimax tree node stands for many game states, so it has no state to describe).
Regret matching and EXP3 are not offered here: a merged node's legal moves change from visit to
visit.
"""

from __future__ import annotations

import random
from typing import Any, TextIO

from ..model.tree import ROOT
from ..simultaneous.rules import JointScoring
from .budget import SearchBudget
from .games import chance_outcomes
from .log_writer import LogWriter
from .move_names import child_names, own_move_names
from .own_moves import OwnMoves, own_chooser
from .rollout import random_rollout
from .simultaneous_result import result_of


class PlayerTree:
    """One player's Smitsimax tree during a search: node 0 is the root; each node's own moves are an
    :class:`OwnMoves` whose statistics are its children's (visits and totals from this player's view)."""

    def __init__(self):
        self.own: list[OwnMoves] = [OwnMoves([], [])]
        self.child: list[list[int]] = [[]]  # node -> child node per own-move position
        self.position: list[dict[int, int]] = [{}]  # node -> action -> position
        self.visits = [0]
        self.total = [0.0]
        self.total_sq = [0.0]
        self.depth = [0]

    def __len__(self) -> int:
        return len(self.visits)

    def offer(self, node: int, actions: list[int], names: list[str]) -> list[int]:
        """The positions of ``actions`` at ``node``, adding the ones met for the first time (0 visits)."""
        positions = self.position[node]
        new = [(a, n) for a, n in zip(actions, names) if a not in positions]
        if new:
            own = self.own[node]
            for action, _ in new:
                positions[action] = len(positions)
            own.add([n for _, n in new], [a for a, _ in new])
            for _ in new:
                self.child[node].append(self._node(self.depth[node] + 1))
        return [positions[a] for a in actions]

    def _node(self, depth: int) -> int:
        self.own.append(OwnMoves([], []))
        self.child.append([])
        self.position.append({})
        self.visits.append(0)
        self.total.append(0.0)
        self.total_sq.append(0.0)
        self.depth.append(depth)
        return len(self.visits) - 1

    def max_visited_depth(self) -> int:
        return max((d for d, v in zip(self.depth, self.visits) if v), default=0)


def smitsimax_search(state: Any, scoring: JointScoring, simulations: int | None, seconds: float | None, seed: int,
                     out: TextIO | None, progress, should_stop, game_name: str | None = None):
    """Smitsimax from ``state`` (left unchanged); see :func:`mcts_core.search.decoupled_search.search_simultaneous`."""
    if scoring.regret_based:
        raise ValueError("Smitsimax here selects with the registered rules (UCB1, PUCT, thresholds...); regret "
                         "matching and EXP3 run with the decoupled search (--algorithm duct)")
    rng = random.Random(seed)
    players = state.get_game().num_players()
    trees = [PlayerTree() for _ in range(players)]
    choose = own_chooser(scoring)
    write = LogWriter(out) if out is not None else None
    if write is not None:
        write.header(players, scoring.c, rule=scoring.rule, settings=scoring.settings, algorithm="smitsimax",
                     game=game_name)
        write.record(_root_facts(state, players))
    if state.is_simultaneous_node():
        for player, tree in enumerate(trees):
            actions = state.legal_actions(player)
            tree.offer(ROOT, actions, own_move_names(state, player, actions))

    budget = SearchBudget(simulations, seconds, progress, should_stop)
    while budget.more():
        working = state.clone()
        nodes = [ROOT] * players
        paths = [[ROOT] for _ in range(players)]
        picks: list[list[int]] = [[] for _ in range(players)]
        elements: list = []
        while not working.is_terminal():
            if working.is_chance_node():
                outcomes = working.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
                elements.append(child_names(working, [action])[0])
                working.apply_action(action)
                continue
            if not working.is_simultaneous_node():
                raise ValueError(f"player {working.current_player()} moves alone here: Smitsimax handles "
                                 "simultaneous and chance nodes only")
            joint, names, fresh = [], [], False
            for player, tree in enumerate(trees):
                node = nodes[player]
                actions = working.legal_actions(player)
                legal_names = own_move_names(working, player, actions)
                allowed = tree.offer(node, actions, legal_names)
                own = tree.own[node]
                k = choose(own, tree.visits[node], rng, allowed)
                joint.append(own.actions[k])
                names.append(own.names[k])
                kid = tree.child[node][k]
                picks[player].append(k)
                paths[player].append(kid)
                nodes[player] = kid
                fresh = fresh or not tree.visits[kid]
            working.apply_actions(joint)
            elements.append(names)
            if fresh:
                break
        returns = random_rollout(working, rng, simultaneous=True, interrupted=budget.interrupted)
        if returns is None:  # Stop or the time budget came during a rollout: that simulation is dropped
            break
        for player, tree in enumerate(trees):
            r = returns[player]
            path = paths[player]
            for node in path:
                tree.visits[node] += 1
                tree.total[node] += r
                tree.total_sq[node] += r * r
            for node, k in zip(path, picks[player]):
                tree.own[node].record(k, r)
        if write is not None:
            write.simulation(elements, returns)
        if budget.spent():
            break
    elapsed = budget.finish()
    done, stopped = budget.done, budget.stopped
    root_own = [tree.own[ROOT] for tree in trees]
    depth = max(tree.max_visited_depth() for tree in trees)
    return result_of("smitsimax", scoring, trees[0].visits[ROOT], root_own, depth, done, elapsed, stopped, trees)


def _root_facts(state: Any, players: int) -> dict:
    """The root's facts: its players' own moves (a simultaneous root) or its outcomes (a chance root)."""
    if state.is_simultaneous_node():
        moves = [own_move_names(state, p, state.legal_actions(p)) for p in range(players)]
        return {"node": [], "player": 0, "simultaneous": True, "moves": moves}
    if state.is_chance_node():
        return {"node": [], "player": 0, "children": chance_outcomes(state)[1], "chance": True, "terminal": False}
    raise ValueError(f"player {state.current_player()} moves alone at the root: Smitsimax handles simultaneous "
                     "and chance nodes only")
