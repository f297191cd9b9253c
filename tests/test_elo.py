"""Elo, error bar, LOS, SPRT and mean intervals against hand computations from the published formulas.

(The LLR against fishtest's own code: tests/test_sprt_fishtest.py.)

The expected numbers are worked out here with plain arithmetic (never by calling the module), and a
few are cross-checked with what cutechess-cli and fastchess print for the same counts.
"""

import math
import re

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from mcts_core.strength.elo import (
    CONTINUE,
    H0_ACCEPTED,
    H1_ACCEPTED,
    EloEstimate,
    Outcomes,
    Pentanomial,
    SprtSettings,
    elo_estimate,
    elo_estimate_pairs,
    elo_from_score,
    mean_interval,
    pentanomial_from_pairs,
    score_from_elo,
    sprt_bounds,
    sprt_status,
)

Z = 1.959963984540054  # Phi^-1(0.975)
SPRT_0_5 = SprtSettings(elo0=0.0, elo1=5.0, alpha=0.05, beta=0.05)
S0 = 0.5  # 1 / (1 + 10^0)
S1 = 1 / (1 + 10 ** (-5 / 400))  # 0.50719...


def hand_elo(mu):
    return -400 * math.log10(1 / mu - 1)


def hand_los(wins, losses):
    return 0.5 * (1 + math.erf((wins - losses) / math.sqrt(2 * (wins + losses))))


def close(estimate: EloEstimate, elo, error, los, score, draw_ratio):
    assert estimate.elo == pytest.approx(elo, abs=1e-9)
    assert estimate.error == pytest.approx(error, abs=1e-9)
    assert estimate.los == pytest.approx(los, abs=1e-12)
    assert estimate.score == pytest.approx(score, abs=1e-12)
    if math.isnan(draw_ratio):
        assert math.isnan(estimate.draw_ratio)
    else:
        assert estimate.draw_ratio == pytest.approx(draw_ratio, abs=1e-12)


# --- Elo of a score -------------------------------------------------------------------------------


def test_elo_of_a_score_is_minus_400_log10_of_its_odds_against():
    assert elo_from_score(0.75) == pytest.approx(-400 * math.log10(1 / 0.75 - 1))  # 190.85
    assert elo_from_score(0.75) == pytest.approx(190.848501887865)
    assert elo_from_score(0.5) == 0.0 and math.copysign(1, elo_from_score(0.5)) == 1.0  # not -0.0
    assert elo_from_score(1.0) == math.inf and elo_from_score(0.0) == -math.inf


def test_a_score_outside_zero_to_one_is_refused():
    for bad in (-0.1, 1.1, math.nan):
        with pytest.raises(ValueError, match="between 0 and 1"):
            elo_from_score(bad)


# --- W/D/L: cutechess-cli's rules -------------------------------------------------------------------


def test_sixty_twenty_twenty_by_hand():
    # N = 100, mu = (60 + 20/2) / 100 = 0.7
    # var = (60 * 0.3^2 + 20 * 0.2^2 + 20 * 0.7^2) / 100 = (5.4 + 0.8 + 9.8) / 100 = 0.16
    # stdev = sqrt(0.16 / 100) = 0.04
    mu, stdev = 0.7, 0.04
    error = (hand_elo(mu + Z * stdev) - hand_elo(mu - Z * stdev)) / 2  # (218.3 - 86.2) / 2 = 66.0
    close(elo_estimate(Outcomes(wins=60, draws=20, losses=20)), 400 * math.log10(7 / 3), error, hand_los(60, 20), mu, 0.2)
    assert 65.9 < error < 66.1 and 147.1 < 400 * math.log10(7 / 3) < 147.3


def test_ten_eighty_ten_is_even_with_a_symmetric_error_bar():
    # mu = (10 + 40) / 100 = 0.5; var = (10 * 0.25 + 80 * 0 + 10 * 0.25) / 100 = 0.05
    stdev = math.sqrt(0.05 / 100)
    error = (hand_elo(0.5 + Z * stdev) - hand_elo(0.5 - Z * stdev)) / 2
    close(elo_estimate(Outcomes(10, 80, 10)), 0.0, error, 0.5, 0.5, 0.8)
    assert error == pytest.approx(hand_elo(0.5 + Z * stdev))  # the two halves are equal
    assert 30.5 < error < 30.6


def test_all_wins_give_infinite_elo_and_infinite_error():
    # mu = 1, var = 0: both ends of the interval sit at score 1, whose Elo is +inf
    close(elo_estimate(Outcomes(30, 0, 0)), math.inf, math.inf, hand_los(30, 0), 1.0, 0.0)
    assert 0.99999997 < hand_los(30, 0) < 1.0  # (1 + erf(30 / sqrt(60))) / 2 = (1 + erf(3.87)) / 2


def test_all_losses_give_minus_infinite_elo_and_infinite_error():
    close(elo_estimate(Outcomes(0, 0, 30)), -math.inf, math.inf, hand_los(0, 30), 0.0, 0.0)


def test_all_draws_give_zero_elo_and_zero_error():
    # mu = 0.5, var = 0, W + L = 0: LOS is defined as 0.5
    close(elo_estimate(Outcomes(0, 50, 0)), 0.0, 0.0, 0.5, 0.5, 1.0)


def test_an_interval_leaving_zero_to_one_gives_an_infinite_error():
    # (1, 0, 1): mu = 0.5, var = (0.25 + 0.25) / 2 = 0.25, stdev = sqrt(0.25 / 2) = 0.354;
    # 0.5 + 1.96 * 0.354 = 1.19 > 1: that end's Elo is +inf
    assert 0.5 + Z * math.sqrt(0.25 / 2) > 1
    close(elo_estimate(Outcomes(1, 0, 1)), 0.0, math.inf, 0.5, 0.5, 0.0)


def test_no_games_is_an_error_with_a_sentence():
    with pytest.raises(ValueError, match=r"^No games yet: .*\.$"):
        elo_estimate(Outcomes(0, 0, 0))


def test_counts_must_be_whole_and_not_negative():
    with pytest.raises(ValueError, match=re.escape("losses (-1) must not be negative.")):
        Outcomes(1, 2, -1)
    with pytest.raises(ValueError, match=re.escape("wins (1.5) must be a whole number.")):
        Outcomes(1.5, 0, 0)


def test_cutechess_prints_the_same_elo_error_los_and_draw_ratio():
    # cutechess-cli prints "Score of A vs B: W - L - D"; its erf^-1 approximation puts z at 1.9572,
    # 0.15 % below ours, which stays inside the printed 0.1.
    # JoAnnP38/Pedantic pull request #8: "332 - 316 - 352 ... Elo difference: 5.6 +/- 17.3, LOS: 73.5 %, DrawRatio: 35.2 %"
    pedantic = elo_estimate(Outcomes(wins=332, draws=352, losses=316))
    assert (round(pedantic.elo, 1), round(pedantic.error, 1)) == (5.6, 17.3)
    assert (round(100 * pedantic.los, 1), round(100 * pedantic.draw_ratio, 1)) == (73.5, 35.2)
    # SebLague/Chess-Challenge pull request #403: "954 - 584 - 462 ... 65.0 +/- 13.5, LOS: 100.0 %, DrawRatio: 23.1 %"
    challenge = elo_estimate(Outcomes(wins=954, draws=462, losses=584))
    assert (round(challenge.elo, 1), round(challenge.error, 1)) == (65.0, 13.5)
    assert (round(100 * challenge.los, 1), round(100 * challenge.draw_ratio, 1)) == (100.0, 23.1)


# --- Pentanomial: game pairs ------------------------------------------------------------------------


def test_pairs_are_tallied_by_their_sum_in_fishtest_order():
    pairs = [(1, 1), (1, 0.5), (0.5, 0.5), (1, 0), (0, 0.5), (1, 1)]  # sums 2, 1.5, 1, 1, 0.5, 2
    tally = pentanomial_from_pairs(pairs)
    assert tally == Pentanomial(ll=0, ld=1, dd_wl=2, wd=1, ww=2)
    assert tally.counts == (0, 1, 2, 1, 2) and tally.pairs == 6


def test_pair_estimate_by_hand():
    tally = pentanomial_from_pairs([(1, 1), (1, 0.5), (0.5, 0.5), (1, 0), (0, 0.5), (1, 1)])
    # per pair x = sum / 2: 1, 0.75, 0.5, 0.5, 0.25, 1; mu = 4 / 6
    mu = (1 + 0.75 + 0.5 + 0.5 + 0.25 + 1) / 6
    var = (2 * (1 - mu) ** 2 + (0.75 - mu) ** 2 + 2 * (0.5 - mu) ** 2 + (0.25 - mu) ** 2) / 6
    stdev = math.sqrt(var / 6)
    error = (hand_elo(mu + Z * stdev) - hand_elo(mu - Z * stdev)) / 2
    los = 0.5 * (1 + math.erf((mu - 0.5) / (stdev * math.sqrt(2))))
    close(elo_estimate_pairs(tally), hand_elo(mu), error, los, mu, math.nan)
    assert tally.score == pytest.approx(mu)


def test_fastchess_prints_the_same_pair_elo_and_error():
    # Disservin/fastchess issue #807: "Elo: -168.40 +/- 73.37 ... Ptnml(0-2): [30, 6, 18, 0, 6]"
    # by hand: mu = (0.25 * 6 + 0.5 * 18 + 1 * 6) / 60 = 16.5 / 60 = 0.275
    estimate = elo_estimate_pairs(Pentanomial(30, 6, 18, 0, 6))
    assert estimate.score == pytest.approx(16.5 / 60)
    assert (round(estimate.elo, 2), round(estimate.error, 2)) == (-168.40, 73.37)


def test_all_pairs_even_give_zero_elo_zero_error_and_even_los():
    close(elo_estimate_pairs(Pentanomial(0, 0, 5, 0, 0)), 0.0, 0.0, 0.5, 0.5, math.nan)


def test_all_pairs_won_give_infinite_elo_and_certain_superiority():
    close(elo_estimate_pairs(Pentanomial(0, 0, 0, 0, 4)), math.inf, math.inf, 1.0, 1.0, math.nan)


def test_no_pairs_and_bad_pairs_are_errors_with_a_sentence():
    with pytest.raises(ValueError, match=r"^No game pairs yet: .*\.$"):
        elo_estimate_pairs(Pentanomial(0, 0, 0, 0, 0))
    with pytest.raises(ValueError, match=re.escape("Pair 1 ((1, 0.25)) has a game score that is not 0, 0.5 or 1.")):
        pentanomial_from_pairs([(1, 1), (1, 0.25)])
    with pytest.raises(ValueError, match=re.escape("Pair 0 ((1,)) must be two game scores.")):
        pentanomial_from_pairs([(1,)])


# --- SPRT ---------------------------------------------------------------------------------------------


def test_sprt_bounds_at_five_percent_are_plus_minus_2_944():
    lower, upper = sprt_bounds(alpha=0.05, beta=0.05)
    assert lower == pytest.approx(math.log(0.05 / 0.95)) and upper == pytest.approx(math.log(0.95 / 0.05))
    assert (round(lower, 3), round(upper, 3)) == (-2.944, 2.944)
    assert SPRT_0_5.bounds == (lower, upper)


def test_sprt_bounds_at_one_percent_match_cutechess():
    # cutechess projects/lib/tests/sprt/tst_sprt.cpp: alpha = beta = 0.01 gives bounds -4.6 and 4.6 (within 0.01)
    lower, upper = sprt_bounds(alpha=0.01, beta=0.01)
    assert lower == pytest.approx(-4.6, abs=0.01) and upper == pytest.approx(4.6, abs=0.01)
    assert lower == pytest.approx(math.log(0.01 / 0.99))


def hand_trinomial_llr(losses, draws, wins, elo0, elo1):
    """The GSPRT of W/D/L worked out from its definition, with a quadratic instead of a root finder.

    Empty bins count 1e-3 (fishtest's regularisation); q the frequencies of the scores 0, 1/2, 1.
    Under "the expected score is s" the likeliest distribution is p_i = q_i / (1 + x b_i) with
    b_i = a_i - s and sum q_i b_i / (1 + x b_i) = 0 (Van den Bergh, Proposition 1.1). With three
    outcomes, times (1 + x b_0)(1 + x b_1)(1 + x b_2) that is A x^2 + B x + C = 0, with A = b0 b1 b2,
    B = sum_i q_i b_i (sum of the other two b), C = sum_i q_i b_i; x is its root between -1/b_2 and
    -1/b_0. LLR = N sum_i q_i log(p1_i / p0_i).
    """
    counts = [count if count else 1e-3 for count in (losses, draws, wins)]
    n = sum(counts)
    q = [count / n for count in counts]

    def likeliest(elo):
        s = 1 / (1 + 10 ** (-elo / 400))
        b = [0 - s, 0.5 - s, 1 - s]
        a_ = b[0] * b[1] * b[2]
        b_ = sum(q[i] * b[i] * (sum(b) - b[i]) for i in range(3))
        c_ = sum(q[i] * b[i] for i in range(3))
        if a_ == 0:  # s = 1/2: a draw's b is 0 and the equation is linear
            roots = [-c_ / b_]
        else:
            roots = [(-b_ + sign * math.sqrt(b_ * b_ - 4 * a_ * c_)) / (2 * a_) for sign in (1, -1)]
        (x,) = [root for root in roots if -1 / b[2] < root < -1 / b[0]]
        return [q[i] / (1 + x * b[i]) for i in range(3)]

    p0, p1 = likeliest(elo0), likeliest(elo1)
    return n * sum(q[i] * math.log(p1[i] / p0[i]) for i in range(3))


@pytest.mark.parametrize("wins, draws, losses", [(60, 20, 20), (10, 80, 10), (3, 5, 2), (1, 0, 0), (23, 0, 0),
                                                 (0, 50, 0), (0, 0, 40), (4, 0, 4)])
def test_llr_of_games_is_the_gsprt_worked_out_by_hand(wins, draws, losses):
    for elo0, elo1 in ((0.0, 5.0), (0.0, 50.0), (-30.0, 10.0)):
        expected = hand_trinomial_llr(losses, draws, wins, elo0, elo1)
        assert SprtSettings(elo0=elo0, elo1=elo1).llr((losses, draws, wins)) == pytest.approx(
            expected, rel=1e-9, abs=1e-12)


def test_llr_of_sixty_twenty_twenty_is_the_exact_one_not_the_normal_approximation():
    exact = SPRT_0_5.llr((20, 20, 60))
    approximation = 100 * (S1 - S0) * (2 * 0.7 - S0 - S1) / (2 * 0.16)  # fishtest's LLR_alt2: 0.883
    assert exact == pytest.approx(0.7072, abs=1e-4) and approximation == pytest.approx(0.883, abs=1e-3)


def test_llr_is_zero_without_games_but_only_wins_or_only_draws_have_one():
    assert SPRT_0_5.llr((0, 0, 0)) == 0.0
    assert SPRT_0_5.llr(Pentanomial(0, 0, 0, 0, 0).counts) == 0.0
    fifty = SprtSettings(elo0=0.0, elo1=50.0)
    # All wins: an empty bin counts 1e-3 of a game, and the LLR grows by about 0.134 a win: the normal
    # approximation had no variance there and stayed at 0 for ever.
    assert fifty.llr((0, 0, 22)) == pytest.approx(2.939, abs=1e-3)
    assert fifty.llr((0, 0, 23)) == pytest.approx(3.073, abs=1e-3)
    assert fifty.llr(Pentanomial(0, 0, 0, 0, 23).counts) == pytest.approx(3.073, abs=1e-3)
    assert fifty.llr((23, 0, 0)) == pytest.approx(-SprtSettings(elo0=-50.0, elo1=0.0).llr((0, 0, 23)))  # mirrored: all losses against the mirrored hypotheses
    assert fifty.llr((0, 50, 0)) < 0 and fifty.llr(Pentanomial(0, 0, 7, 0, 0).counts) < 0  # even


def test_llr_matches_fastchess_exact_gsprt_at_fishtest_sizes():
    # fastchess app/tests/sprt_test.cpp, "logistic" model (the exact GSPRT, = fishtest's LLR_logistic),
    # stated to 0.01.
    trinomial = SprtSettings(elo0=0.5, elo1=2.5)
    assert trinomial.llr((21184, 40708, 21404)) == pytest.approx(-1.57, abs=0.01)
    assert SprtSettings(elo0=0, elo1=2).llr((57030, 106593, 57433)) == pytest.approx(
        -2.59, abs=0.01
    )
    # Stats(ll, ld, wl, dd, wd, ww): the WL and DD pairs share a bin
    assert trinomial.llr(Pentanomial(223, 9863, 20279 + 1000, 10037, 246).counts) == pytest.approx(-3.07, abs=0.01)
    assert SprtSettings(elo0=0, elo1=2).llr(Pentanomial(871, 26175, 55003 + 980, 26678, 821).counts) == pytest.approx(
        -4.98, abs=0.01
    )


def test_sprt_status_stops_only_beyond_a_bound_as_fishtest():
    bounds = (math.log(0.05 / 0.95), math.log(0.95 / 0.05))
    assert sprt_status(bounds[1], bounds) == CONTINUE  # fishtest: llr > upper accepts, llr == upper goes on
    assert sprt_status(math.nextafter(bounds[1], 10.0), bounds) == H1_ACCEPTED
    assert sprt_status(10.0, bounds) == H1_ACCEPTED
    assert sprt_status(bounds[0], bounds) == CONTINUE
    assert sprt_status(math.nextafter(bounds[0], -10.0), bounds) == H0_ACCEPTED
    assert sprt_status(-10.0, bounds) == H0_ACCEPTED
    assert sprt_status(0.0, bounds) == CONTINUE
    assert sprt_status(math.nan, bounds) == CONTINUE


def test_the_elo_model_is_logistic_or_normalized_within_200():
    assert SprtSettings(elo0=0.0, elo1=5.0).model == "logistic"
    with pytest.raises(ValueError, match=re.escape("""the Elo model ('bayeselo') must be "logistic" or "normalized".""")):
        SprtSettings(elo0=0.0, elo1=5.0, model="bayeselo")
    with pytest.raises(ValueError, match=re.escape("normalized elo0 and elo1 (0, 250) must be between -200 and 200")):
        SprtSettings(elo0=0.0, elo1=250.0, model="normalized")
    widest = SprtSettings(elo0=-200.0, elo1=200.0, model="normalized")  # the fit still has a solution there
    assert widest.llr((1, 2, 3, 4, 5)) > 0 > widest.llr((5, 4, 3, 2, 1))


def test_elo0_must_be_smaller_than_elo1():
    with pytest.raises(ValueError, match=re.escape("elo0 (5.0) must be smaller than elo1 (0.0).")):
        SprtSettings(elo0=5.0, elo1=0.0)
    with pytest.raises(ValueError, match=re.escape("elo0 (2.0) must be smaller than elo1 (2.0).")):
        SprtSettings(elo0=2.0, elo1=2.0)
    with pytest.raises(ValueError, match=re.escape("elo1 (nan) must be a finite number.")):
        SprtSettings(elo0=0.0, elo1=math.nan)


@pytest.mark.parametrize("bad", [0.0, 1.0, -0.05, 1.5, math.nan])
def test_alpha_and_beta_must_be_strictly_between_zero_and_one(bad):
    sentence = f"({bad}) must be between 0 and 1, both excluded."
    with pytest.raises(ValueError, match="^alpha " + re.escape(sentence) + "$"):
        SprtSettings(elo0=0.0, elo1=5.0, alpha=bad)
    with pytest.raises(ValueError, match="^beta " + re.escape(sentence) + "$"):
        SprtSettings(elo0=0.0, elo1=5.0, beta=bad)
    with pytest.raises(ValueError, match="^alpha " + re.escape(sentence) + "$"):
        sprt_bounds(alpha=bad, beta=0.05)


def test_alpha_plus_beta_of_one_or_more_would_cross_the_bounds():
    with pytest.raises(ValueError, match=re.escape("alpha + beta (1.0) must be smaller than 1.")):
        SprtSettings(elo0=0.0, elo1=5.0, alpha=0.5, beta=0.5)


def test_sprt_settings_are_keyword_only():
    with pytest.raises(TypeError):
        SprtSettings(0.0, 5.0)  # elo0 and elo1, alpha and beta are easy to swap by position


# --- Mean return with an interval ---------------------------------------------------------------------


def test_mean_interval_by_hand():
    # mean 2.5; s^2 = (1.5^2 + 0.5^2 + 0.5^2 + 1.5^2) / 3 = 5 / 3; half = 1.96 * sqrt(5/3) / sqrt(4)
    half = Z * math.sqrt(5 / 3) / 2
    assert mean_interval([1, 2, 3, 4]) == pytest.approx((2.5, 2.5 - half, 2.5 + half))
    assert 1.26 < half < 1.27


def test_one_value_has_an_unbounded_interval():
    assert mean_interval([0.25]) == (0.25, -math.inf, math.inf)


def test_equal_values_have_a_zero_width_interval():
    assert mean_interval([-1.0, -1.0, -1.0]) == (-1.0, -1.0, -1.0)


def test_zero_sum_players_get_mirrored_intervals():
    first = [1.0, -1.0, 1.0, 0.0, 1.0]
    mean, low, high = mean_interval(first)
    other_mean, other_low, other_high = mean_interval([-value for value in first])
    assert (other_mean, other_low, other_high) == pytest.approx((-mean, -high, -low))


def test_no_values_or_a_non_finite_value_is_an_error_with_a_sentence():
    with pytest.raises(ValueError, match=re.escape("No values: a mean needs at least one.")):
        mean_interval([])
    with pytest.raises(ValueError, match=re.escape("Value 1 (nan) must be a finite number.")):
        mean_interval([1.0, math.nan])


# --- Properties -----------------------------------------------------------------------------------------

counts = st.integers(min_value=0, max_value=10_000)


@settings(max_examples=300, deadline=None)
@given(counts, counts, counts)
def test_swapping_wins_and_losses_negates_elo_and_mirrors_los(wins, draws, losses):
    assume(wins + draws + losses > 0)
    ours, theirs = elo_estimate(Outcomes(wins, draws, losses)), elo_estimate(Outcomes(losses, draws, wins))
    assert theirs.elo == pytest.approx(-ours.elo, abs=1e-9)
    assert theirs.error == pytest.approx(ours.error, rel=1e-9, abs=1e-9)
    assert theirs.los == pytest.approx(1 - ours.los, abs=1e-12)
    assert theirs.score == pytest.approx(1 - ours.score, abs=1e-12)
    assert 0.0 <= ours.los <= 1.0 and ours.error >= 0.0


@settings(max_examples=200, deadline=None)
@given(counts, counts, counts, st.floats(-300, 300), st.floats(0.5, 50))
def test_llr_favours_the_hypothesis_on_the_side_of_the_score(wins, draws, losses, elo0, width):
    # With no empty bin (nothing regularised) the score mu is the data's: beyond s1 the data fit H1 better
    # than H0 (LLR > 0), below s0 worse (the least-information fit moves away from mu monotonically).
    assume(min(wins, draws, losses) > 0)
    games = Outcomes(wins, draws, losses)
    settings_ = SprtSettings(elo0=elo0, elo1=elo0 + width)
    s0, s1 = (1 / (1 + 10 ** (-elo / 400)) for elo in (elo0, elo0 + width))
    mu = (wins + draws / 2) / games.games
    assume(not s0 - 1e-9 < mu < s1 + 1e-9)
    assert (settings_.llr((losses, draws, wins)) > 0) == (mu > s1)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0, 0.5, 1]), st.sampled_from([0, 0.5, 1])), min_size=1, max_size=60))
def test_pairs_and_their_games_have_the_same_score(pairs):
    games = [score for pair in pairs for score in pair]
    outcomes = Outcomes(wins=games.count(1), draws=games.count(0.5), losses=games.count(0))
    assert elo_estimate_pairs(pentanomial_from_pairs(pairs)).score == pytest.approx(outcomes.score, abs=1e-12)


@given(st.floats(min_value=0.001, max_value=0.999))
def test_score_and_elo_are_inverse(score):
    assert score_from_elo(elo_from_score(score)) == pytest.approx(score, rel=1e-12)
