"""A simultaneous node as pandas tables: each player's own moves with the rule's terms, the joint children."""

from __future__ import annotations

import pandas as pd

from ..simultaneous.decoupled_tree import DecoupledTree
from ..simultaneous.rules import JointScoring
from ..simultaneous.joint_selection import score_own_moves


def own_moves_table(dtree: DecoupledTree, node: int, player: int, scoring: JointScoring) -> pd.DataFrame:
    """One row per own move of ``player`` at ``node``, best first.

    Columns: move, visits, total, then the rule's terms (``mean`` first: the player's own view),
    rank (1 = the player's pick) and selected.
    """
    terms = scoring.spec.terms
    rows = [
        {"move": s.move, "visits": s.visits, "total": s.total} | s.terms | {"rank": s.rank, "selected": s.selected}
        for s in score_own_moves(dtree, node, player, scoring)
    ]
    if not rows:
        return pd.DataFrame(columns=["move", "visits", "total", *terms, "rank", "selected"])
    table = pd.DataFrame(rows)
    shown = [name for name in terms if name in table.columns]
    return table[["move", "visits", "total", *shown, "rank", "selected"]]


def joint_children_table(dtree: DecoupledTree, node: int, selected: tuple[str, ...] | None = None) -> pd.DataFrame:
    """One row per child of ``node`` (a joint move: one column per player's move), most visited first.

    Columns: joint move, ``player i`` for each player's own move (joint children), visits, share of
    the node's choices, mean (from the view of the node's ``player``, as the joint tree keeps it),
    selected (the joint move the rule picks).
    """
    tree = dtree.tree
    kids = tree.ranked_children(node)
    chosen = sum(tree.visits[kid] for kid in kids)
    rows = []
    for kid in kids:
        joint = dtree.joint_move(kid)
        row = {"joint move": tree.move[kid]}
        if joint is not None:
            row |= {f"player {p}": move for p, move in enumerate(joint)}
        row |= {
            "visits": tree.visits[kid],
            "share": tree.visits[kid] / chosen if chosen else 0.0,
            "mean": tree.mean(kid),
            "selected": joint is not None and joint == selected,
        }
        rows.append(row)
    columns = ["joint move", *(f"player {p}" for p in range(dtree.players)), "visits", "share", "mean", "selected"]
    return pd.DataFrame(rows, columns=[c for c in columns if not rows or c in rows[0]])
