"""Node -> pandas DataFrame of its children's selection terms."""

from __future__ import annotations

import pandas as pd

from .selection import Scoring, score_children
from .tree import Tree


def children_table(tree: Tree, node: int, scoring: Scoring) -> pd.DataFrame:
    """One row per child of ``node``, best first.

    Columns: move, visits, total, then the rule's terms (for UCB1: mean, exploration, value: what
    selection maximises), rank (1 = selected) and selected (bool). A leaf gives an empty table with
    the columns the rule declares.
    """
    rows = [
        {"move": child.move, "visits": child.visits, "total": child.total}
        | child.terms
        | {"rank": child.rank, "selected": child.selected}
        for child in score_children(tree, node, scoring)
    ]
    if not rows:
        return pd.DataFrame(columns=["move", "visits", "total", *scoring.spec.terms, "rank", "selected"])
    return pd.DataFrame(rows)
