"""The one MCTS loop every tree search here runs: select, expand, simulate, backpropagate.

One simulation, with the puzzle's rule of one new node per simulation:

1. **Select**: from the root, step into a child (at a chance node, an outcome drawn with its
   probability; at any other node, the search's :meth:`Specialisation.step`), playing its move
   (:attr:`Specialisation.play`), until stepping into a child with 0 visits, or reaching a
   terminal node.
2. **Expand**: that child, reached for the first time, learns what it is from its state
   (:meth:`Specialisation.expand`: its children or own moves, its facts written to the log).
3. **Simulate**: :func:`~mcts_core.search.rollout.random_rollout` to the end of the game (a
   Stop or the end of the time budget during a long rollout drops that simulation and ends the
   search).
4. **Backpropagate**: the simulation's path and returns go to the log, then
   :meth:`Specialisation.backpropagate` adds the returns along the path (and writes what they
   prove, with the MCTS-Solver); it may end the search (a proven root).

One seeded :class:`random.Random` makes every
random choice in this order, so a seed and a simulation budget give one log, byte for byte.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from ..model.tree import CHANCE, ROOT, TERMINAL
from ..model.tree_protocol import GrowingTree
from .budget import SearchBudget
from .log_writer import LogWriter
from .rollout import random_rollout


class Specialisation(Protocol):
    """What a search adds to the loop: its tree (a :class:`~mcts_core.model.GrowingTree`) and three steps."""

    tree: GrowingTree
    simultaneous: bool  # the game has simultaneous nodes (the rollout asks only then)
    play: Callable[[Any, Any], None]  # play(state, action[child]): the engine's apply_action or apply_actions

    def step(self, tree: GrowingTree, node: int, rng: random.Random) -> int:
        """The child the search picks at decision node ``node``."""

    def expand(self, node: int, state: Any, path: list) -> None:
        """Makes ``node``, entered for the first time in ``state``, what it is (``path``: its moves)."""

    def backpropagate(self, path: list[int], elements: list, returns: list[float]) -> bool:
        """Adds one simulation's ``returns`` to the nodes on ``path`` (root first; ``elements``: the
        moves into them); True ends the search."""


def run_simulations(search: Specialisation, state: Any, rng: random.Random, budget: SearchBudget,
                    write: LogWriter | None) -> None:
    """Runs simulations from ``state`` (left unchanged) until ``budget`` says stop."""
    tree = search.tree
    visits, flags, children, odds, action, element = (
        tree.visits, tree.flags, tree.children, tree.odds, tree.action, tree.element)
    step, play, expand, backpropagate = search.step, search.play, search.expand, search.backpropagate
    simultaneous = search.simultaneous
    while budget.more():
        working = state.clone()
        node, path, elements = ROOT, [ROOT], []
        while not flags[node] & TERMINAL:
            if flags[node] & CHANCE:
                kid = rng.choices(children[node], odds[node])[0]
                working.apply_action(action[kid])
            else:
                kid = step(tree, node, rng)
                play(working, action[kid])
            path.append(kid)
            elements.append(element[kid])
            node = kid
            if not visits[kid]:  # the one new node of this simulation
                expand(kid, working, elements)
                break
        returns = random_rollout(working, rng, simultaneous, budget.interrupted)
        if returns is None:  # Stop or the time budget came during a rollout: that simulation is dropped
            break
        if write is not None:
            write.simulation(elements, returns)
        finished = backpropagate(path, elements, returns)
        if budget.spent() or finished:
            break
