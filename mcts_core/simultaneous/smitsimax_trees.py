"""The Smitsimax view: one tree per player over its own moves, built from the same log.

Smitsimax (the CodinGame bots' name for fully decoupled search) keeps one tree per player whose
nodes are sequences of that player's own moves: the opponents' moves (and chance outcomes) are not
branched on, so a node merges every joint history with those own moves. From a log, player i's
tree is the puzzle's rule applied to each simulation's path **projected on player i's moves**: a
joint move contributes its i-th move, a sequential move (a chance outcome) nothing. Each tree is a
one-player :class:`~mcts_core.model.tree.Tree` whose totals are player i's returns, so every sequential
tool (drawing, tables, the rules) reads it as it is. The root's own moves a ``"moves"`` fact
declares exist with 0 visits, in the engine's order.

A Smitsimax search (:mod:`mcts_core.search.smitsimax_search`) grows its trees with exactly this rule:
a simulation leaves the trees at the first step where some player's move is new there, so the
projected paths rebuild its trees visit for visit and bit for bit.
"""

from __future__ import annotations

from array import array

from ..model.build import build_tree
from ..model.playouts import Fact, Playouts, is_compact, narrow_ids
from ..model.tree import Tree
from .joint import SimultaneousLog


def project(playouts: Playouts, log: SimultaneousLog, player: int) -> Playouts:
    """The log as player ``player`` sees it in Smitsimax: its own moves only, its own return only."""
    import numpy as np

    players = playouts.players
    table = np.full(max(len(playouts.moves), 1), -1, dtype=np.int64)
    for move, own in enumerate(log.joint.joint_of):
        if own is not None:
            table[move] = own[player]
    ids = np.asarray(playouts.move_ids, dtype=np.int64)
    own_ids = table[ids] if len(ids) else ids
    kept = own_ids >= 0
    before = np.zeros(len(ids) + 1, dtype=np.int64)
    np.cumsum(kept, out=before[1:])
    starts = before[np.asarray(playouts.starts, dtype=np.int64)]
    names = log.joint.own_names
    returns = np.asarray(playouts.returns, dtype=np.float64)[player::players]
    facts = tuple(
        Fact(fact.after, (), fact.line, children=fact.moves[player])
        for fact in log.facts if not fact.path and fact.moves is not None
    )
    return Playouts(
        moves=names,
        starts=array("q", starts.tobytes()),
        move_ids=narrow_ids(array("i", own_ids[kept].astype(np.int32).tobytes()), len(names)),
        returns=array("d", returns.tobytes()),
        lines=playouts.lines,
        c=playouts.c,
        players=1,
        ties=playouts.ties,
        facts=facts,
        compact=is_compact(names),
    )


def smitsimax_trees(playouts: Playouts, log: SimultaneousLog, upto: int | None = None) -> tuple[Tree, ...]:
    """Each player's Smitsimax tree after the first ``upto`` simulations (all when None)."""
    return tuple(build_tree(project(playouts, log, player), upto) for player in range(playouts.players))
