"""What the five tree classes share (docs/DESIGN.md, "Five trees"), as protocols, and which share which.

- :class:`NodeStatistics`, every node's visits and totals: ``Tree``, ``LiveTree``, ``JointLiveTree``
  and ``PlayerTree``.
- :class:`SelectableTree`, what selection reads of a tree (:func:`~mcts_core.selection.score_children`,
  :func:`~mcts_core.selection.select_child`, the rules' fast loops): ``Tree`` and ``LiveTree``, so a
  search selects with the very code that scores the tree read back from its log. ``JointLiveTree``
  inherits the members, but its simultaneous nodes' children are keyed by own-move positions:
  selection there goes through each player's own moves.
- :class:`GrowingTree`, what the search loop (``search.skeleton``) reads and adds to: ``LiveTree``
  and ``JointLiveTree``.
- ``DecoupledTree`` shares none of them: it holds a joint ``Tree`` (its ``tree``) and adds, at each
  simultaneous node, every player's own-move statistics from that player's view.

``tests/test_tree_protocol.py`` holds each class to its protocols: every member present, an
attribute as an attribute and a method as a method with the same parameter names.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

Item = TypeVar("Item", covariant=True)


class ByNode(Protocol[Item]):
    """A column read by node: ``column[node]``."""

    def __getitem__(self, node: int, /) -> Item: ...


class NodeStatistics(Protocol):
    """Every node's simulations and the sum of their returns (and squares) for the player who moved
    into it; nodes are numbered from 0, the root."""

    visits: Sequence[int]
    total: Sequence[float]
    total_sq: Sequence[float]
    depth: Sequence[int]

    def __len__(self) -> int: ...


class SelectableTree(NodeStatistics, Protocol):
    """What selection reads: a node's children in its order, their moves and statistics, how exact
    ties break (``ties``: ``"smaller"`` move or ``"first"`` child), and what a node is."""

    ties: str
    children: ByNode[Sequence[int]]
    move: ByNode[str]

    def is_chance(self, node: int) -> bool: ...

    def mean(self, node: int) -> float: ...

    def prior_of(self, node: int) -> float | None: ...

    def outcome_of(self, node: int) -> float | None: ...


class GrowingTree(NodeStatistics, Protocol):
    """What the search loop reads and adds to: a node's flags (CHANCE, TERMINAL), its children (a
    chance node's outcomes as a list, in the order of ``odds[node]``), the engine's ``action`` and
    the log's ``element`` into it; one simulation's returns added along its path."""

    flags: list[int]
    children: list[Any]
    odds: dict[int, list[float]]
    action: list[Any]
    element: list[Any]

    def backpropagate(self, path: list[int], returns: Sequence[float]) -> None: ...

    def max_visited_depth(self) -> int: ...
