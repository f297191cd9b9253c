"""A row's Elo interval is its score interval (Wilson, 95 %) in Elo, checked against hand computations.

The expected numbers are worked out here with plain arithmetic from Elo = -400 log10(1/score - 1) and
the Wilson interval's closed forms, never by calling the module.
"""

import math

import pytest

from mcts_core.strength.arena_games import GameResult
from mcts_core.strength.elo import elo_interval
from mcts_core.strength.rows import columns, make_row

Z2 = 1.959963984540054**2  # Phi^-1(0.975) squared


def hand_elo(score):
    return -400 * math.log10(1 / score - 1)


def games(wins: int, draws: int, losses: int) -> list[GameResult]:
    """Games with these outcomes for the MCTS side (seats alternating, as the arena plays them)."""
    returns = [1.0] * wins + [0.0] * draws + [-1.0] * losses
    return [GameResult(1.0, 10, index, index % 2, (mine, -mine) if index % 2 == 0 else (-mine, mine), None)
            for index, mine in enumerate(returns)]


def test_two_wins_and_four_losses_give_one_asymmetric_interval_around_the_elo():
    row = make_row(1.0, 10, 2, games(2, 0, 4))
    # Wilson at p = 1/3, n = 6: (p + z²/12 ± z sqrt(p(1-p)/6 + z²/144)) / (1 + z²/6) = 0.09677, 0.70001
    assert (row.low, row.high) == pytest.approx((0.09677141, 0.70000668), abs=1e-8)
    # -400 log10(1/0.09677 - 1) = -400 log10(9.3335) = -388.02; -400 log10(1/0.70001 - 1) = +147.20
    assert (row.elo_low, row.elo_high) == pytest.approx((-388.02, 147.196), abs=0.01)
    assert (row.elo_low, row.elo_high) == pytest.approx((hand_elo(row.low), hand_elo(row.high)), abs=1e-9)
    assert row.elo == pytest.approx(hand_elo(1 / 3)) and row.elo_low < row.elo < row.elo_high  # -120.41 inside
    assert row.elo_high - row.elo < row.elo - row.elo_low  # asymmetric: longer towards score 0
    assert row.elo_error == math.inf  # cutechess's "±" is unbounded here, and stays in the CSV as it is


def test_all_wins_are_bounded_below_and_unbounded_above():
    row = make_row(1.0, 10, 2, games(6, 0, 0))
    # Wilson at p = 1: low = n / (n + z²), so Elo(low) = -400 log10(z² / n) = 400 log10(6 / 3.8415) = +77.46
    assert row.low == pytest.approx(6 / (6 + Z2)) and row.high == 1.0
    assert row.elo_low == pytest.approx(400 * math.log10(6 / Z2)) and row.elo_low == pytest.approx(77.462, abs=1e-3)
    assert row.elo_high == math.inf and row.elo == math.inf


def test_all_losses_are_unbounded_below_and_bounded_above():
    row = make_row(1.0, 10, 2, games(0, 0, 6))
    assert row.low == 0.0 and row.high == pytest.approx(Z2 / (6 + Z2))
    assert row.elo_low == -math.inf
    assert row.elo_high == pytest.approx(-400 * math.log10(6 / Z2)) and row.elo_high == pytest.approx(-77.462, abs=1e-3)


def test_all_draws_give_a_finite_interval_symmetric_about_zero():
    row = make_row(1.0, 10, 2, games(0, 6, 0))
    # Wilson at p = 1/2, n = 6: 1/2 ± z sqrt(1/24 + z²/144) / (1 + z²/6) = 0.18762, 0.81238
    half = math.sqrt(Z2) * math.sqrt(1 / 24 + Z2 / 144) / (1 + Z2 / 6)
    assert (row.low, row.high) == pytest.approx((0.5 - half, 0.5 + half))
    assert (row.elo_low, row.elo_high) == pytest.approx((-254.596, 254.596), abs=1e-3)
    assert row.elo == 0.0 and row.elo_error == 0.0  # cutechess: no spread, no error bar


@pytest.mark.parametrize("low, high, expected", [
    (0.5, 0.5, (0.0, 0.0)),
    (0.0, 0.5, (-math.inf, 0.0)),
    (0.5, 1.0, (0.0, math.inf)),
    (0.0, 1.0, (-math.inf, math.inf)),
    (0.25, 0.75, (-400 * math.log10(3), 400 * math.log10(3))),  # odds 3:1 either way, ±190.85
])
def test_a_score_interval_maps_end_by_end(low, high, expected):
    assert elo_interval(low, high) == pytest.approx(expected)


@pytest.mark.parametrize("low, high", [(0.6, 0.4), (-0.1, 0.5), (0.5, 1.1)])
def test_a_score_interval_that_is_not_one_is_refused(low, high):
    with pytest.raises(ValueError):
        elo_interval(low, high)


def test_the_csv_keeps_its_columns_and_adds_the_elo_interval_last():
    names = columns(2)
    assert names[:10] == ("c", "games", "wins", "draws", "losses", "score", "low", "high", "elo", "elo_error")
    assert names.index("elo_low") > names.index("pair_los") and names.index("elo_high") == names.index("elo_low") + 1
