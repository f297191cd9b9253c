"""SPSA as fishtest tunes: its schedules, its steps, resuming, and where it ends on a known curve."""

import math
import random

import pytest

from bench.harness.score_curves import pair_result
from mcts_core.strength.spsa import SpsaParameter, a_k, c_k, spsa

LN_C = SpsaParameter("ln C", 0.0, math.log(0.1), math.log(10.0), c_end=0.2, r_end=0.05)


def test_the_schedules_end_at_c_end_and_r_end_and_shrink_as_fishtests_do():
    n = 350
    assert c_k(LN_C, n, n) == pytest.approx(0.2) and a_k(LN_C, n, n) / c_k(LN_C, n, n) ** 2 == pytest.approx(0.05)
    assert c_k(LN_C, 1, n) == pytest.approx(0.2 * n ** 0.101)
    assert a_k(LN_C, 1, n) == pytest.approx(0.05 * 0.04 * (35 + n) ** 0.602 / 36 ** 0.602)
    assert all(c_k(LN_C, k, n) > c_k(LN_C, k + 1, n) and a_k(LN_C, k, n) > a_k(LN_C, k + 1, n) for k in range(1, n))


def test_each_step_plays_plus_against_minus_and_moves_towards_the_side_that_won():
    steps = spsa([LN_C, SpsaParameter("base", 5.0, 1.0, 9.0, 0.5, 0.1)], 4, lambda k, plus, minus: 2)
    for step in steps:
        for i, (value, plus, minus, after) in enumerate(zip(step.theta, step.plus, step.minus, step.after)):
            assert plus + minus == pytest.approx(2 * value) and (after - value) * (plus - minus) > 0
    assert [step.after for step in steps[:-1]] == [step.theta for step in steps[1:]]


def test_a_run_resumed_from_its_stored_values_goes_on_as_the_whole_run():
    def play(k, plus, minus):
        return random.Random(k).choice((-2, -1, 0, 1, 2))

    whole = spsa([LN_C], 50, play, seed=3)
    resumed = spsa([LN_C], 50, play, seed=3, start=whole[19].after, first=21)
    assert whole[20:] == resumed


def test_a_parameter_stays_in_its_range():
    steps = spsa([LN_C], 200, lambda k, plus, minus: 2 if plus[0] > minus[0] else -2)  # always up
    assert max(step.after[0] for step in steps) == math.log(10.0)


def test_on_the_skewed_curve_spsa_ends_near_the_true_best_c():
    # bench/RESULTS.md, issue 52: root mean square error 0.2 in ln C over 100 seeds with 350 pairs.
    ends = []
    for seed in range(20):
        rng = random.Random(seed)
        ends.append(spsa([LN_C], 350, lambda k, plus, minus: pair_result(rng, "skewed", plus[0], minus[0]),
                         seed=seed)[-1].after[0])
    errors = sorted(abs(end - math.log(1.36)) for end in ends)
    assert errors[len(errors) // 2] < 0.2  # the median run within 22% of the best C
