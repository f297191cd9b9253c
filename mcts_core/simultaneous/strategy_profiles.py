"""A decoupled root as a matrix game: which game it is, its strategy profiles, and their rows for tables.

A two-player root whose joint children are all leaves is a one-shot game. Its profiles are the
players' visit shares and, for regret matching and EXP3, their average σ (what those rules
recommend); :func:`~mcts_core.simultaneous.matrix.exploitability` measures each against the game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..model.tree import ROOT
from .decoupled_tree import DecoupledTree
from .joint_selection import strategy
from .matrix import Exploitability, MatrixGame, exploitability
from .rules import JointScoring

# OpenSpiel's two-player matrix games, tried in this order when an input does not name its game.
MATRIX_GAMES = ("matrix_rps", "matrix_brps", "matrix_rpsw", "matrix_mp", "matrix_shapleys_game", "matrix_pd",
                "matrix_sh", "matrix_bos", "matrix_cd", "matrix_coordination")

Profile = tuple[Mapping[str, float], Mapping[str, float]]  # each player's probability per own move


def is_one_shot(dtree: DecoupledTree) -> bool:
    """Two players choose once at a simultaneous root and the game ends: every joint child is a leaf."""
    tree = dtree.tree
    return (
        dtree.players == 2
        and dtree.is_simultaneous(ROOT)
        and not any(len(tree.children[kid]) for kid in tree.children[ROOT])
    )


def candidate_games(stated: str | None) -> list[str]:
    """The games a root may be: the one the input names first, then :data:`MATRIX_GAMES`."""
    return list(dict.fromkeys([*([stated] if stated else []), *MATRIX_GAMES]))


def fits(dtree: DecoupledTree, game: MatrixGame) -> bool:
    """Every root move of each player is one of that player's actions in ``game``."""
    return all(
        {move.move for move in dtree.own_moves(ROOT, player)} <= set(game.actions[player]) for player in range(2)
    )


def root_profiles(dtree: DecoupledTree, scoring: JointScoring) -> tuple[dict[str, Profile], str | None]:
    """The root's strategy profiles by name, and why the average σ is missing (None when it is not).

    Always the visit shares; for a regret-based rule also the average σ, unless the log cannot be
    replayed into it (a tree dump).
    """
    profiles: dict[str, Profile] = {"visit shares": tuple(dtree.visit_shares(ROOT, p) for p in range(2))}
    if not scoring.regret_based:
        return profiles, None
    try:
        profiles["average σ"] = tuple(strategy(dtree, ROOT, p, scoring) for p in range(2))
    except ValueError as error:
        return profiles, str(error)
    return profiles, None


def measure(game: MatrixGame, profiles: Mapping[str, Profile]) -> dict[str, Exploitability]:
    """Each profile's exploitability in ``game``."""
    return {label: exploitability(game, profile) for label, profile in profiles.items()}


def profile_rows(game: MatrixGame, profiles: Mapping[str, Profile]) -> list[dict]:
    """One row per profile, player and action of the game: ``strategy``, ``player``, ``move``,
    ``probability`` (0 for an action the search never played)."""
    return [
        {"strategy": label, "player": player, "move": move, "probability": profile[player].get(move, 0.0)}
        for label, profile in profiles.items()
        for player in range(2)
        for move in game.actions[player]
    ]


def sweep_rows(label: str, points: Iterable) -> tuple[list[dict], list[dict]]:
    """A strategy sweep's points (:class:`~mcts_core.search.strategy_sweep.SweepPoint`) as rows:
    (exploitability per player, or NashConv for a general-sum game; each root move's probability)."""
    exploitabilities, probabilities = [], []
    for point in points:
        for player in range(2):
            value = point.per_player[player] if point.per_player is not None else point.nash_conv
            exploitabilities.append({"rule": label, "C": point.c, "who": f"player {player}", "exploitability": value})
            probabilities.extend(
                {"rule": label, "C": point.c, "player": f"player {player}", "move": move, "probability": p}
                for move, p in point.strategy[player].items()
            )
    return exploitabilities, probabilities
