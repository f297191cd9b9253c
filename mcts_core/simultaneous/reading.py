"""A simultaneous input as the app and the CLI use it: the decoupled tree, the Smitsimax view, what it states."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model.playouts import Playouts
from ..model.tree import Tree
from .decoupled_tree import DecoupledTree
from .joint import SimultaneousLog
from ..selection.registry import DEFAULT_RULE, RULE_REGISTRY
from .rules import JointScoring


@dataclass(frozen=True, eq=False)
class SimultaneousInput:
    """The simultaneous side of a read input (:attr:`mcts_core.inputs.loading.Input.simultaneous`).

    Attributes:
        decoupled: the joint tree with each player's own-move statistics.
        log: the joint moves and what the header says (rule, algorithm, game); for a tree dump, the
            same read from its header.
        playouts: the joint playouts (None for a tree dump).
        rule: the rule the input says it was searched with (any registered or simultaneous rule).
        settings: that rule's settings besides C.
    """

    decoupled: DecoupledTree
    log: SimultaneousLog
    playouts: Playouts | None
    rule: str | None = None
    settings: dict = field(default_factory=dict)
    _smitsimax: list = field(default_factory=list, repr=False)

    @property
    def tree(self) -> Tree:
        return self.decoupled.tree

    @property
    def algorithm(self) -> str | None:
        return self.log.algorithm

    @property
    def game(self) -> str | None:
        return self.log.game

    def smitsimax(self) -> tuple[Tree, ...]:
        """Each player's Smitsimax tree (built once).

        Raises:
            ValueError: a tree dump (the view needs the simulations).
        """
        if self.playouts is None:
            raise ValueError("the Smitsimax view is built from the simulations; a tree dump has only the joint tree")
        if not self._smitsimax:
            from .smitsimax_trees import smitsimax_trees

            self._smitsimax.append(smitsimax_trees(self.playouts, self.log))
        return self._smitsimax[0]

    def scoring(self, c: float | None = None) -> JointScoring:
        """The input's own rule and settings at ``c`` (the input's C, else the rule's default)."""
        rule = self.rule or DEFAULT_RULE
        if c is None:
            c = RULE_REGISTRY[rule].defaults["c"]
        return JointScoring(rule, c, self.settings)


def simultaneous_input(decoupled: DecoupledTree, log: SimultaneousLog, playouts: Playouts | None,
                       rule: str | None, settings: dict | None) -> SimultaneousInput:
    """The simultaneous side of an input, with the rule it states (the header's, whichever kind)."""
    if log.rule is not None:
        rule, settings = log.rule, log.settings
    return SimultaneousInput(decoupled, log, playouts, rule, dict(settings or {}))
