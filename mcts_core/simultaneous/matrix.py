"""Matrix games: a two-player one-shot game's payoffs (read from OpenSpiel by
:func:`mcts_core.search.games.matrix_game`), and the exploitability of a strategy profile, computed exactly.

A matrix game (``matrix_rps``, ``matrix_brps``, ...) is one simultaneous move of two players. Its
payoffs come from the game itself (every pair of actions played from the initial state). For a
profile (x, y), a mixed strategy per player:

* each player's **gain** is what it would win by switching to a best response against the other's
  strategy: ``max_r (A y)_r - x·A·y`` for the row player, likewise for the column player;
  ``nash_conv`` is their sum (0 exactly at an equilibrium);
* in a zero-sum game, the **exploitability of a player's strategy** is how much a best-responding
  opponent wins against it beyond the game's value v: ``v - min_c (x A)_c`` for x and
  ``max_r (A y)_r - v`` for y. The profile's exploitability (OpenSpiel's) is their mean, which is
  ``nash_conv / 2``. The value is found exactly, with fractions, from the square submatrices
  (Shapley and Snow, 1950). Uniform play in biased rock-paper-scissors is exploitable by 25/3.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from ..common.linear import gauss_jordan

MAX_KERNELS = 50_000  # square submatrices tried for the value before giving up


@dataclass(frozen=True)
class MatrixGame:
    """A two-player one-shot game.

    Attributes:
        name: the game string.
        actions: each player's action names (as the searches name them).
        payoffs: ``payoffs[player][row][column]``, player 0 choosing the row.
    """

    name: str
    actions: tuple[tuple[str, ...], tuple[str, ...]]
    payoffs: tuple[tuple[tuple[float, ...], ...], tuple[tuple[float, ...], ...]]

    @property
    def zero_sum(self) -> bool:
        a, b = self.payoffs
        return all(x + y == 0 for row_a, row_b in zip(a, b) for x, y in zip(row_a, row_b))


@dataclass(frozen=True)
class Exploitability:
    """How far a profile is from an equilibrium (see the module's docstring).

    Attributes:
        gains: each player's gain from switching to a best response.
        nash_conv: their sum.
        value: the zero-sum game's value for player 0; None for a general-sum game.
        per_player: zero-sum: each player's strategy's exploitability; None for a general-sum game.
    """

    gains: tuple[float, float]
    nash_conv: float
    value: float | None
    per_player: tuple[float, float] | None

    @property
    def exploitability(self) -> float:
        """The profile's exploitability, ``nash_conv / 2`` (OpenSpiel's for two players)."""
        return self.nash_conv / 2


def as_vector(strategy: Mapping[str, float] | Sequence[float], names: Sequence[str]) -> list[float]:
    """A strategy as probabilities in ``names`` order (a mapping by name: missing moves get 0)."""
    if isinstance(strategy, Mapping):
        unknown = set(strategy) - set(names)
        if unknown:
            raise ValueError(f"moves {sorted(unknown)} are not actions of this game ({', '.join(names)})")
        return [float(strategy.get(name, 0.0)) for name in names]
    if len(strategy) != len(names):
        raise ValueError(f"expected {len(names)} probabilities, got {len(strategy)}")
    return [float(p) for p in strategy]


def exploitability(game: MatrixGame, profile: Sequence[Mapping[str, float] | Sequence[float]]) -> Exploitability:
    """The exploitability of ``profile`` (one strategy per player, by name or in action order)."""
    x = as_vector(profile[0], game.actions[0])
    y = as_vector(profile[1], game.actions[1])
    a, b = game.payoffs
    rows, columns = range(len(x)), range(len(y))
    row_values = [math.fsum(a[r][c] * y[c] for c in columns) for r in rows]  # (A y)_r
    column_values = [math.fsum(x[r] * b[r][c] for r in rows) for c in columns]  # (x B)_c
    u0 = math.fsum(x[r] * row_values[r] for r in rows)
    u1 = math.fsum(y[c] * column_values[c] for c in columns)
    gains = (max(row_values) - u0, max(column_values) - u1)
    if not game.zero_sum:
        return Exploitability(gains, gains[0] + gains[1], None, None)
    value = game_value(a)
    against_x = min(math.fsum(x[r] * a[r][c] for r in rows) for c in columns)  # (x A)_c at the opponent's best
    per_player = (value - against_x, max(row_values) - value)
    return Exploitability(gains, gains[0] + gains[1], value, per_player)


def game_value(matrix: Sequence[Sequence[float]]) -> float:
    """The value of a zero-sum matrix game for the row player, exactly (as a float at the end).

    Tries square submatrices B (Shapley-Snow kernels) from the smallest: the solution of
    ``B y = v 1, Σ y = 1`` and ``x B = v 1, Σ x = 1`` with x, y >= 0 that no row or column of the
    whole matrix beats is an equilibrium, and v the value. A skew-symmetric game is worth 0.

    Raises:
        ValueError: a game too large for this search (more than 50,000 submatrices to try).
    """
    a = [[Fraction(v) for v in row] for row in matrix]
    m, n = len(a), len(a[0])
    if m == n and all(a[i][j] == -a[j][i] for i in range(m) for j in range(n)):
        return 0.0
    tried = 0
    for k in range(1, min(m, n) + 1):
        for rows in combinations(range(m), k):
            for columns in combinations(range(n), k):
                tried += 1
                if tried > MAX_KERNELS:
                    raise ValueError(f"a {m} x {n} game is too large for the exact value")
                found = _kernel(a, rows, columns)
                if found is not None:
                    return float(found)
    raise ValueError("no equilibrium found")  # pragma: no cover - every matrix game has a kernel


def _kernel(a: list[list[Fraction]], rows: tuple[int, ...], columns: tuple[int, ...]) -> Fraction | None:
    """The value if the submatrix on ``rows`` x ``columns`` gives an equilibrium of the whole game."""
    k = len(rows)
    # Column player's y on `columns`: B y - v = 0 for each row, Σ y = 1. Unknowns y..., v.
    system = [[a[r][c] for c in columns] + [Fraction(-1)] + [Fraction(0)] for r in rows]
    system.append([Fraction(1)] * k + [Fraction(0), Fraction(1)])
    solved = _solve(system)
    if solved is None:
        return None
    y, v = solved[:k], solved[k]
    if any(p < 0 for p in y):
        return None
    # Row player's x on `rows`: x B - v = 0 for each column, Σ x = 1.
    system = [[a[r][c] for r in rows] + [Fraction(-1)] + [Fraction(0)] for c in columns]
    system.append([Fraction(1)] * k + [Fraction(0), Fraction(1)])
    solved = _solve(system)
    if solved is None:
        return None
    x, w = solved[:k], solved[k]
    if w != v or any(p < 0 for p in x):
        return None
    full_y = dict(zip(columns, y))
    full_x = dict(zip(rows, x))
    if any(sum(a[r][c] * p for c, p in full_y.items()) > v for r in range(len(a))):
        return None
    if any(sum(a[r][c] * p for r, p in full_x.items()) < v for c in range(len(a[0]))):
        return None
    return v


def _solve(system: list[list[Fraction]]) -> list[Fraction] | None:
    """The solution of an augmented square system of fractions; None when it is singular."""
    solved = gauss_jordan(system, lambda value: value == 0)
    return None if solved is None else [row[-1] for row in solved]
