"""Node -> pandas DataFrame of its children's selection terms."""

from __future__ import annotations

import pandas as pd

from ..inputs.formats.engine_analysis import EngineAnalysis
from ..selection import Scoring, score_children
from ..model.tree import ROOT, Tree


def engine_column(engine: EngineAnalysis, name: str) -> str:
    """The table's name for one of the engine's own columns: ``lc0 S``, ``KataGo winrate``."""
    return f"{engine.engine} {name}"


def children_table(tree: Tree, node: int, scoring: Scoring, engine: EngineAnalysis | None = None) -> pd.DataFrame:
    """One row per child of ``node``, best first.

    Columns: move, visits, total, then ``declared prior`` when the log gave priors here (and the
    rule has no prior term of its own), ``terminal`` when a child ends the game, then the rule's
    terms (for UCB1: mean, exploration, value: what selection maximises; at a chance node: mean,
    share, value), then at the root of an engine's analysis (``engine``) the engine's own numbers
    for each child as it printed them (:func:`engine_column` names them; missing: NaN), then rank
    (1 = selected) and selected (bool). Means and totals are from the view of the player to move at
    ``node``. A leaf gives an empty table with the columns the rule declares.
    """
    printed = {move.move: move.columns for move in engine.moves} if engine is not None and node == ROOT else {}
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
        row |= child.terms
        if printed:
            numbers = printed.get(child.move, {})
            row |= {engine_column(engine, name): numbers.get(name, float("nan")) for name in engine.columns}
        rows.append(row | {"rank": child.rank, "selected": child.selected})
    if not rows:
        return pd.DataFrame(columns=["move", "visits", "total", *scoring.spec.terms, "rank", "selected"])
    table = pd.DataFrame(rows)
    # Rows may have different terms (a proven child, a chance outcome): one order for all.
    first = [name for name in ("move", "visits", "total", "declared prior", "terminal") if name in table.columns]
    terms = [name for name in (*scoring.spec.terms[:-1], "share", "outcome", "value") if name in table.columns]
    own = [engine_column(engine, name) for name in engine.columns] if printed else []
    return table[first + terms + own + ["rank", "selected"]]
