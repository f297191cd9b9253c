"""The fitted best C: the quadratic logistic fit of score against log C, its peak, Fieller's interval and the
conservative best, on scores made from known curves."""

import math
import random

import pytest

from mcts_core.strength.best_c import FitError, ScorePoint, chi_square_tail, describe, fit_best_c

GRID = (0.1, 0.5, 1.0, 1.4, 2.0, 4.0, 10.0)


def logistic(x):
    return 1 / (1 + math.exp(-x))


def peaked(c, best=1.6, height=0.4, bend=0.6):
    """A score curve that is a logistic quadratic in log C, highest at ``best``."""
    return logistic(height - bend * math.log(c / best) ** 2)


def exact_points(curve, games=100, grid=GRID):
    return [ScorePoint(c, curve(c), games, curve(c) * (1 - curve(c))) for c in grid]


def binomial_points(rng, curve, games=100, grid=GRID):
    """Each C's games won with the curve's probability (no draws: the variance is p (1 - p))."""
    points = []
    for c in grid:
        score = sum(rng.random() < curve(c) for _ in range(games)) / games
        points.append(ScorePoint(c, score, games, score * (1 - score)))
    return points


def test_scores_on_a_logistic_quadratic_give_back_its_peak():
    fit = fit_best_c(exact_points(peaked))
    assert fit.interior and fit.best == pytest.approx(1.6, rel=1e-6)
    assert fit.low < 1.6 < fit.high
    assert fit.curve.score_at(1.6)[0] == pytest.approx(logistic(0.4), rel=1e-9)
    for c in GRID:
        assert fit.curve.score_at(c)[0] == pytest.approx(peaked(c), rel=1e-9)
    assert fit.conservative == pytest.approx(1.6, rel=0.1)  # the band is narrow and even around the peak


def test_the_fit_solves_its_likelihood_equations_weighted_by_the_games():
    # At the maximum-likelihood fit the residuals, weighted by the games, are orthogonal to 1, t and t^2.
    rng = random.Random(3)
    points = [ScorePoint(c, score, games, score * (1 - score)) for c, score, games in
              ((0.2, 0.31, 40), (0.7, 0.55, 400), (1.3, 0.62, 100), (3.0, 0.49, 60), (9.0, 0.22, 20))]
    rng.shuffle(points)  # any order
    fit = fit_best_c(points)
    for power in range(3):
        equation = sum(point.games * (point.score - fit.curve.score_at(point.c)[0]) * fit.curve.t_of(point.c) ** power
                       for point in points)
        assert abs(equation) < 1e-8


def test_the_true_best_c_is_inside_the_95_percent_interval_in_at_least_90_of_100_seeds():
    # The curve peaks at C = 1.6, between the grid's 1.4 and 2.0; each C plays 100 binomial games.
    covered = 0
    for seed in range(100):
        fit = fit_best_c(binomial_points(random.Random(seed), peaked))
        covered += fit.interior and fit.low <= 1.6 <= fit.high
    assert covered >= 90


def test_the_interval_narrows_with_more_games():
    widths = []
    for games in (50, 200, 800):
        fit = fit_best_c(exact_points(peaked, games))
        widths.append(math.log(fit.high / fit.low))
    # About 1 / sqrt(games), Fieller's a little more at few games (the interval is then asymmetric)
    assert widths[0] > widths[1] > widths[2] and widths[0] / widths[2] == pytest.approx(4, rel=0.1)


def test_a_curve_still_rising_at_the_grids_end_has_no_interior_optimum():
    fit = fit_best_c(exact_points(lambda c: logistic(0.3 * math.log(c))))
    assert not fit.interior and fit.best == 10.0 and math.isnan(fit.low) and math.isnan(fit.high)
    assert describe(fit).startswith("no interior optimum: the fitted score is highest at the grid's highest C, 10 "
                                    "(widen the grid above it)")
    valley = fit_best_c(exact_points(lambda c: logistic(0.2 * math.log(c) ** 2 - 0.1 * math.log(c))))  # convex
    assert not valley.interior and valley.best == 0.1  # the higher end


def test_a_peak_beyond_the_grid_is_not_reported_as_inside_it():
    fit = fit_best_c(exact_points(lambda c: peaked(c, best=30.0, bend=0.1)))
    assert not fit.interior and fit.best == 10.0


def test_a_flat_curve_leaves_the_interval_open():
    # Barely bent and few games: the bend is not significant, so the peak could lie anywhere beyond a side.
    fit = fit_best_c(exact_points(lambda c: peaked(c, bend=0.02), games=20))
    assert fit.interior and (fit.low == 0 or fit.high == math.inf)
    assert describe(fit).startswith("best C 1.6, its 95% interval wider than the grid (the curve's bend is not clear "
                                    "yet: play more games)")
    # Bent a little more: bounded, but one end beyond the grid, where the quadratic is no evidence.
    fit = fit_best_c(exact_points(lambda c: peaked(c, best=4.0, bend=0.3), games=40))
    assert fit.interior and 0 < fit.low < 10.0 < fit.high < math.inf
    assert describe(fit).startswith(f"best C 4 (95% interval from {fit.low:.3g} to beyond the grid's 10: play more")


def test_draws_and_paired_games_shrink_the_interval_through_the_dispersion():
    binomial = fit_best_c(exact_points(peaked))
    drawn = [ScorePoint(p.c, p.score, p.games, p.game_variance / 2) for p in exact_points(peaked)]
    with_draws = fit_best_c(drawn)
    assert with_draws.dispersion == pytest.approx(0.5)
    assert with_draws.best == pytest.approx(binomial.best)
    for drawn_row, binomial_row in zip(with_draws.curve.covariance, binomial.curve.covariance):
        assert drawn_row == pytest.approx([0.5 * value for value in binomial_row], rel=1e-9)
    assert math.log(with_draws.high / with_draws.low) == pytest.approx(math.log(binomial.high / binomial.low)
                                                                       / math.sqrt(2), rel=0.03)


def test_points_off_the_quadratic_widen_the_interval_and_say_so():
    # A sharp, lopsided peak: a quadratic in log C misses it and the lack-of-fit test says so.
    lopsided = [ScorePoint(c, logistic(1.0 - 2.0 * abs(math.log(c / 1.4)) ** 0.7), 2000, 0.2) for c in GRID]
    fit = fit_best_c(lopsided)
    assert fit.misfit < 0.05 and fit.dispersion > 1
    assert "the quadratic misses the points" in describe(fit)


def test_c_zero_is_left_out_and_three_c_values_above_zero_are_needed():
    with pytest.raises(FitError, match=r"fitting the best C needs at least 3 C values above 0 with games "
                                       r"\(log C has no 0\), got 2"):
        fit_best_c([ScorePoint(0.0, 0.4, 10, 0.2), ScorePoint(1.0, 0.5, 10, 0.25), ScorePoint(2.0, 0.45, 10, 0.2)])
    fit = fit_best_c([ScorePoint(0.0, 0.1, 10, 0.09), *exact_points(peaked, grid=(0.5, 1.6, 5.0))])
    assert fit.curve.grid == (0.5, 5.0) and fit.best == pytest.approx(1.6, rel=1e-6)
    assert math.isnan(fit.misfit)  # three points: the quadratic passes through them


def test_scores_of_only_wins_cannot_be_fitted_and_say_why():
    with pytest.raises(FitError, match="the scores leave the fit nothing to follow"):
        fit_best_c([ScorePoint(c, 1.0, 20, 0.0) for c in GRID])


def test_the_conservative_best_has_the_highest_lower_bound_on_the_curve():
    fit = fit_best_c(binomial_points(random.Random(7), peaked, games=60))
    lows = [low for _, _, low, _ in fit.curve.points()]
    assert fit.conservative_low == max(lows)
    assert fit.curve.score_at(fit.conservative)[1] == pytest.approx(fit.conservative_low)
    assert fit.curve.grid[0] <= fit.conservative <= fit.curve.grid[1]


@pytest.mark.parametrize("freedom, x, tail", [(1, 3.841458820694124, 0.05), (2, 5.991464547107979, 0.05),
                                              (4, 9.487729036781154, 0.05), (5, 1.0, 0.9625657732472964),
                                              (3, 0.0, 1.0)])
def test_chi_square_tail_matches_the_tables(freedom, x, tail):
    # Quantiles from the chi-square tables (scipy.stats.chi2.isf / sf): 3.841 for 1 degree at 5 %, ...
    assert chi_square_tail(x, freedom) == pytest.approx(tail, rel=1e-9)
