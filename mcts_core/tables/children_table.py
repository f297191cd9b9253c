"""Node -> pandas DataFrame of its children's selection terms."""

from __future__ import annotations

import math

import pandas as pd

from ..analysis import visits_to_flip
from ..inputs.formats.engine_analysis import EngineAnalysis
from ..selection import Scoring, score_children
from ..model.tree import Tree

VISITS_TO_FLIP = "visits to flip"  # the column :func:`children_table` adds when asked


def engine_table(engine: EngineAnalysis, selected: str | None = None) -> pd.DataFrame:
    """The root's children as the engine printed them: ``move``, then the engine's own columns by its
    names (``N``, ``P``, ``U``, ``S``...), then ``selected`` (the move ``selected``: the one the rule
    picks), one row per child in the engine's order (missing: NaN)."""
    rows = [{"move": move.move, **{name: move.columns.get(name, math.nan) for name in engine.columns},
             "selected": move.move == selected} for move in engine.moves]
    return pd.DataFrame(rows, columns=["move", *engine.columns, "selected"])


def children_table(tree: Tree, node: int, scoring: Scoring, *, flips: bool = False) -> pd.DataFrame:
    """One row per child of ``node``, best first.

    Columns: move, visits, total, then ``declared prior`` when the log gave priors here (and the
    rule has no prior term of its own), ``terminal`` when a child ends the game, then the rule's
    terms (for UCB1: mean, exploration, value: what selection maximises; at a chance node: mean,
    share, value), with ``flips`` :data:`VISITS_TO_FLIP` (:func:`~mcts_core.analysis.visits_to_flip`:
    None for the selected child, infinity for one that never passes; absent where nothing is selected),
    then rank (1 = selected) and selected (bool). Means and totals are from the view of the player to
    move at ``node``. A leaf gives an empty table with the columns the rule declares.
    """
    kids = tree.children[node]
    show_prior = "prior" not in scoring.spec.terms and any(tree.prior_of(kid) is not None for kid in kids)
    show_terminal = any(tree.is_terminal(kid) for kid in kids)
    counts = visits_to_flip(tree, node, scoring) if flips else {}
    rows = []
    for child in score_children(tree, node, scoring):
        row = {"move": child.move, "visits": child.visits, "total": child.total}
        if show_prior:
            row["declared prior"] = tree.prior_of(child.node)
        if show_terminal:
            row["terminal"] = tree.is_terminal(child.node)
        if counts:
            count = None if child.selected else counts[child.node]
            row[VISITS_TO_FLIP] = None if child.selected else (math.inf if count is None else count)
        rows.append(row | child.terms | {"rank": child.rank, "selected": child.selected})
    if not rows:
        return pd.DataFrame(columns=["move", "visits", "total", *scoring.spec.terms, "rank", "selected"])
    table = pd.DataFrame(rows)
    # Rows may have different terms (a proven child, a chance outcome): one order for all.
    first = [name for name in ("move", "visits", "total", "declared prior", "terminal") if name in table.columns]
    terms = [name for name in (*scoring.spec.terms[:-1], "share", "outcome", "value") if name in table.columns]
    flip = [VISITS_TO_FLIP] if counts else []
    return table[first + terms + flip + ["rank", "selected"]]


def next_flip(table: pd.DataFrame) -> tuple[str, str, float] | None:
    """From a :func:`children_table` made with ``flips``: (the selected move, the move that passes it
    first, after how many more visits to it: infinity for never); the first such row where several
    tie. None where the table has no :data:`VISITS_TO_FLIP`."""
    if VISITS_TO_FLIP not in table.columns or len(table) < 2:
        return None
    counts = table[VISITS_TO_FLIP]
    first = counts.astype(float).idxmin()  # the selected row's None is NaN: never the least
    return str(table.loc[table["selected"], "move"].iloc[0]), str(table.at[first, "move"]), float(counts[first])
