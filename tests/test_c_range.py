"""The C slider's range: sized to the scores, fitted to breakpoints, finite for any finite input."""

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from mcts_core.analysis.c_range import LARGEST_C, SMALLEST_RANGE, fit_to_breakpoints, key_step, nice_ceiling, suggest_c_range

finite = st.floats(allow_nan=False, allow_infinity=False)
c_values = st.floats(min_value=0, allow_nan=False, allow_infinity=False)


def test_a_few_score_spreads_rounded_to_a_nice_number():
    assert suggest_c_range([8.0, 10.0]) == (10.0, 0.01)
    assert suggest_c_range([4.0, 30.0]) == (100.0, 0.1)
    assert suggest_c_range([5.0, 5.0]) == (20.0, 0.02)  # no spread: the scores' size
    assert nice_ceiling(2.70292 * 1.5) == 5.0


def test_the_range_narrows_to_the_last_breakpoint_but_keeps_c():
    assert fit_to_breakpoints(10.0, 2.70292, 0.5) == (5.0, 0.005)
    assert fit_to_breakpoints(10.0, 2.70292, 7.0)[0] == 10.0  # C = 7 must stay on the slider
    assert fit_to_breakpoints(10.0, None, 0.5) == (10.0, 0.01)


def test_scores_near_the_float_limit_give_a_finite_range():
    max_c, step = suggest_c_range([1e308, -1e308])
    assert max_c == LARGEST_C and math.isfinite(step)


@settings(max_examples=2000, deadline=None)
@given(st.lists(finite, min_size=1, max_size=4), c_values, st.none() | c_values)
def test_any_finite_scores_and_c_give_a_finite_range_that_holds_c(scores, c, breakpoint):
    max_c, step = suggest_c_range(scores, c)
    assert math.isfinite(max_c) and math.isfinite(step) and max_c >= c and 0 < step <= max_c
    fitted, fitted_step = fit_to_breakpoints(max_c, breakpoint, c)
    assert math.isfinite(fitted) and c <= fitted <= max(max_c, nice_ceiling(c) if c > 0 else 0.0)
    assert 0 < fitted_step <= fitted


def test_a_key_moves_c_by_a_round_hundredth_of_the_range():
    """From 0.5 past the flip at 2.70 on [0, 5]: 44 presses of 0.05 (440 of 0.005 before), 5 of 0.5."""
    assert [key_step(top) for top in (5.0, 10.0, 2.0, 1.0, 1e-6)] == [0.05, 0.1, 0.02, 0.01, 1e-8]
    assert key_step(7.0) == 0.05  # a range that holds a C beyond the 1-2-5 ends: the round value below


def one_two_five(x: float) -> bool:
    return any(float(f"{factor}e{exponent}") == x for factor in (1, 2, 5) for exponent in range(-330, 310))


@settings(max_examples=500, deadline=None)
@given(st.floats(min_value=SMALLEST_RANGE, max_value=LARGEST_C))
def test_any_range_gets_a_round_key_step_between_a_250th_and_a_100th_of_it(top):
    step = key_step(top)
    assert one_two_five(step)
    assert top / 250 <= step * (1 + 1e-12) and step <= top / 100 * (1 + 1e-12)
