"""The tree a running search grows: plain growing lists, readable through the Tree interface.

:func:`mcts_core.selection.select_child` and :func:`~mcts_core.selection.score_children` take a
:class:`LiveTree` as they take a :class:`~mcts_core.model.tree.Tree` (both are a
:class:`~mcts_core.model.SelectableTree`), so a search scores children with the very code that
scores a tree read from its log.

Node 0 is the root; a node's children are created together when it is expanded, in the engine's
order, with 0 visits. ``ties`` is ``"first"``: exact ties go to the first child in that order.
"""

from __future__ import annotations

import math
from array import array

from ..model.tree import NodeKinds


class LiveTree(NodeKinds):
    """An MCTS tree under construction.

    Attributes:
        players: how many players the game has.
        ties: ``"first"`` (exact ties go to the first child in the engine's order).
        move: the name of the move leading into each node (``""`` for the root).
        element: the move as the log writes it (here the same list as ``move``).
        action: the engine's action id leading into each node (0 for the root).
        depth: moves from the root.
        visits: simulations that passed through the node.
        total: sum of their returns for the player who moved into the node (``view``).
        total_sq: sum of those returns squared.
        view: whose return the node's total adds: the player at its parent (the root: the player
            at the root).
        player: who moves at the node; at a chance node, the player whose view its outcomes'
            totals take (the player who moved into it).
        flags: the :data:`~mcts_core.model.tree.CHANCE` and :data:`~mcts_core.model.tree.TERMINAL` bits.
        children: each node's children (empty until it is expanded).
        odds: a chance node's outcome probabilities, in its children's order.
        prior: each node's prior as its parent's child (NaN: none), or None when no node has one.
        proven: the returns (one per player) of each node whose outcome is proven (MCTS-Solver:
            a terminal node, or one its children decide); empty when the search proves nothing.
    """

    ties = "first"

    def __init__(self, players: int, root_player: int, *, priors: bool = False):
        self.players = players
        self.move = [""]
        self.action = [0]
        self.depth = [0]
        self.visits = [0]
        self.total = [0.0]
        self.total_sq = [0.0]
        self.view = [root_player]
        self.player = [root_player]
        self.flags = [0]
        self.children: list[list[int]] = [[]]
        self.element = self.move  # the move as the log writes it: its name
        self.odds: dict[int, list[float]] = {}
        self.prior = array("d", [math.nan]) if priors else None
        self.proven: dict[int, list[float]] = {}

    def __len__(self) -> int:
        return len(self.move)

    def expand(self, node: int, player: int, flags: int, actions: list[int], names: list[str],
               priors: list[float] | None = None, odds: list[float] | None = None) -> None:
        """Sets who moves at ``node`` and its flags, and creates its children with 0 visits."""
        self.player[node] = player
        self.flags[node] = flags
        if odds is not None:
            self.odds[node] = odds
        first = len(self.move)
        count = len(actions)
        self.children[node] = list(range(first, first + count))
        self.move.extend(names)
        self.action.extend(actions)
        self.depth.extend([self.depth[node] + 1] * count)
        self.visits.extend([0] * count)
        self.total.extend([0.0] * count)
        self.total_sq.extend([0.0] * count)
        self.view.extend([player] * count)
        self.player.extend([player] * count)  # until the child is expanded
        self.flags.extend([0] * count)
        self.children.extend([] for _ in range(count))
        if self.prior is not None:
            self.prior.extend(priors if priors is not None else [math.nan] * count)

    def backpropagate(self, path: list[int], returns: list[float]) -> None:
        """Adds one visit and each node's view of ``returns`` to every node on ``path``."""
        visits, total, total_sq, view = self.visits, self.total, self.total_sq, self.view
        for node in path:
            score = returns[view[node]]
            visits[node] += 1
            total[node] += score
            total_sq[node] += score * score

    def outcome_of(self, node: int) -> float | None:
        """The node's proven value for the player who moved into it, or None (not proven)."""
        returns = self.proven.get(node)
        return None if returns is None else returns[self.view[node]]

    def mean(self, node: int) -> float:
        """``total / visits``; NaN at 0 visits."""
        visits = self.visits[node]
        return self.total[node] / visits if visits else math.nan

    def mover(self, node: int) -> int:
        """The player whose view the node's total takes."""
        return self.view[node]

    def tie_order(self, node: int) -> list[int]:
        """The node's children in tie order: the engine's."""
        return list(self.children[node])

    def max_visited_depth(self) -> int:
        """The depth of the deepest node with a visit."""
        return max((d for d, v in zip(self.depth, self.visits) if v), default=0)
