"""Node -> pandas DataFrame of its children's selection terms."""

from __future__ import annotations

import pandas as pd

from ..selection import Scoring, score_children
from ..model.tree import Tree


def children_table(tree: Tree, node: int, scoring: Scoring) -> pd.DataFrame:
    """One row per child of ``node``, best first.

    Columns: move, visits, total, then ``declared prior`` when the log gave priors here (and the
    rule has no prior term of its own), ``terminal`` when a child ends the game, then the rule's
    terms (for UCB1: mean, exploration, value: what selection maximises; at a chance node: mean,
    share, value), rank (1 = selected) and selected (bool). Means and totals are from the view of
    the player to move at ``node``. A leaf gives an empty table with the columns the rule declares.
    """
    kids = tree.children[node]
    show_prior = "prior" not in scoring.spec.terms and any(tree.prior_of(kid) is not None for kid in kids)
    show_terminal = any(tree.is_terminal(kid) for kid in kids)
    rows = []
    for child in score_children(tree, node, scoring):
        row = {"move": child.move, "visits": child.visits, "total": child.total}
        if show_prior:
            row["declared prior"] = tree.prior_of(child.node)
        if show_terminal:
            row["terminal"] = tree.is_terminal(child.node)
        rows.append(row | child.terms | {"rank": child.rank, "selected": child.selected})
    if not rows:
        return pd.DataFrame(columns=["move", "visits", "total", *scoring.spec.terms, "rank", "selected"])
    table = pd.DataFrame(rows)
    # Rows may have different terms (a proven child, a chance outcome): one order for all.
    first = [name for name in ("move", "visits", "total", "declared prior", "terminal") if name in table.columns]
    terms = [name for name in (*scoring.spec.terms[:-1], "share", "outcome", "value") if name in table.columns]
    return table[first + terms + ["rank", "selected"]]
