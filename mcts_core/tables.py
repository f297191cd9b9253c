"""Node -> pandas DataFrame of its children's selection terms."""

from __future__ import annotations

import pandas as pd

from .selection import DEFAULT_RULE, RULES, score_children
from .tree import Tree


def children_table(tree: Tree, node: int, *, rule: str = DEFAULT_RULE, **settings) -> pd.DataFrame:
    """One row per child of ``node``, best first.

    Columns: move, visits, total, then the rule's terms (for UCB1: mean, exploration), ``ucb`` (the
    value selection maximises), rank (1 = selected) and selected (bool). A leaf gives an empty
    table with the columns the rule declares.
    """
    scored = score_children(tree, node, rule=rule, **settings)
    rows = [
        {"move": child.move, "visits": child.visits, "total": child.total}
        | {("ucb" if name == "value" else name): term for name, term in child.terms.items()}
        | {"rank": child.rank, "selected": child.selected}
        for child in scored
    ]
    if not rows:
        terms = [("ucb" if name == "value" else name) for name in RULES[rule].terms]
        return pd.DataFrame(columns=["move", "visits", "total", *terms, "rank", "selected"])
    return pd.DataFrame(rows)
