"""The SPRT against fishtest: its exact LLRs and its update_SPRT verdicts, pair by pair.

fishtest's numbers come from its own code (tests/fixtures/fishtest/make_fishtest_reference.py ran
official-stockfish/fishtest's ``LLRcalc`` and ``stat_util.update_SPRT`` and wrote the JSON; fishtest
needs scipy, which the project does not). The definitions are also checked another way: the
likeliest distribution under a hypothesis by maximising its dual with a golden-section search.
"""

import json
import math
from pathlib import Path

import pytest

from mcts_core.strength.elo import CONTINUE, H0_ACCEPTED, H1_ACCEPTED, SprtSettings
from mcts_core.strength.llr import fit_with_mean, fit_with_t_value, llr_logistic, llr_normalized
from mcts_core.strength.sprt import SprtTest

REFERENCE = json.loads((Path(__file__).parent / "fixtures" / "fishtest" / "fishtest_reference.json").read_text())
FISHTEST_STATE = {CONTINUE: "", H1_ACCEPTED: "accepted", H0_ACCEPTED: "rejected"}
LLR = {"logistic": llr_logistic, "normalized": llr_normalized}


def same(ours, theirs):
    """Equal within 1e-9 relative (1e-12 absolute where both are 0 but for rounding: symmetric cases)."""
    return ours == pytest.approx(theirs, rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("case", REFERENCE["llr"], ids=lambda case: f"{case['model']}-{case['elo0']:g}-{case['elo1']:g}-"
                         + "-".join(map(str, case["counts"])))
def test_llr_equals_fishtests_on_its_own_small_and_degenerate_inputs(case):
    assert same(LLR[case["model"]](case["elo0"], case["elo1"], case["counts"]), case["llr"])


def golden_maximum(function, low, high):
    """max of a concave function on (low, high) by golden-section search (no derivative, no Newton)."""
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(200):
        left, right = high - ratio * (high - low), low + ratio * (high - low)
        if function(left) < function(right):
            low = left
        else:
            high = right
    return function((low + high) / 2)


@pytest.mark.parametrize("counts", [[0, 0, 1, 1, 4], [9, 1, 14, 0, 3], [3, 0, 0, 0, 9], [1, 2, 3, 4, 5],
                                    [10789, 19328, 33806, 19402, 10543]])
def test_logistic_llr_is_the_difference_of_the_two_best_fits_found_by_their_dual(counts):
    # The likeliest p with mean s has log-likelihood sum q log q - max_x sum q log(1 + x (a - s)) (the
    # dual; its maximiser is the secular root). So LLR = N (max_x phi_s0(x) - max_x phi_s1(x)).
    elo0, elo1 = 0.0, 50.0
    taken = [count if count else 1e-3 for count in counts]
    n = sum(taken)
    q = [count / n for count in taken]
    a = [i / 4 for i in range(5)]

    def best(elo):
        s = 1 / (1 + 10 ** (-elo / 400))
        return golden_maximum(lambda x: sum(qi * math.log(1 + x * (ai - s)) for qi, ai in zip(q, a)),
                              -1 / (1 - s) * (1 - 1e-15), 1 / s * (1 - 1e-15))

    assert llr_logistic(elo0, elo1, counts) == pytest.approx(n * (best(elo0) - best(elo1)), rel=1e-9)


@pytest.mark.parametrize("counts", [[0, 0, 1, 1, 4], [9, 1, 14, 0, 3], [5, 3, 2], [1, 0, 1]])
def test_the_fits_meet_their_hypothesis(counts):
    taken = [count if count else 1e-3 for count in counts]
    q = [count / sum(taken) for count in taken]
    a = [i / (len(counts) - 1) for i in range(len(counts))]
    for target in (0.3, 0.5, 0.6):
        fitted = fit_with_mean(a, q, target)
        assert sum(fitted) == pytest.approx(1, abs=1e-12)
        assert sum(p * ai for p, ai in zip(fitted, a)) == pytest.approx(target, abs=1e-12)
    for t in (-0.2, 0.0, 0.2):
        fitted = fit_with_t_value(a, q, t)
        mu = sum(p * ai for p, ai in zip(fitted, a))
        sigma = math.sqrt(sum(p * (ai - mu) ** 2 for p, ai in zip(fitted, a)))
        assert sum(fitted) == pytest.approx(1, abs=1e-9)
        assert (mu - 0.5) / sigma == pytest.approx(t, abs=1e-6)  # fishtest's 10 steps, its 1e-9 on p


@pytest.mark.parametrize("run", REFERENCE["sprt"], ids=lambda run: f"{run['name']}-{run['model']}-{run['elo0']:g}-"
                         f"{run['elo1']:g}")
def test_sprt_decides_as_fishtests_update_sprt_after_every_pair(run):
    test = SprtTest(SprtSettings(elo0=run["elo0"], elo1=run["elo1"], alpha=run["alpha"], beta=run["beta"],
                                 model=run["model"]))
    for pair, (llr, lower, upper, state) in zip(run["bins"], run["steps"]):
        verdict = test.add(int(pair))
        assert same(test.llr, llr) and same(test.bounds[0], lower) and same(test.bounds[1], upper)
        assert FISHTEST_STATE[verdict] == state
    assert test.verdict != CONTINUE  # every reference run decides within its pairs


def fed(bins, **settings):
    test = SprtTest(SprtSettings(**{"elo0": 0.0, "elo1": 50.0, **settings}))
    for pair in bins:
        test.add(pair)
    return test


def test_issue_36_tic_tac_toe_c_0_1_goes_on_after_six_pairs_where_the_approximation_stopped():
    # arena --game tic_tac_toe --c 0.1,10 --opponent random --simulations 30 --sprt: C = 0.1's first 6
    # pairs, pentanomial [0, 0, 1, 1, 4]. The normal approximation said LLR 3.990, H1; fishtest says 0.801.
    test = fed([2, 4, 3, 4, 4, 4])
    assert test.counts == [0, 0, 1, 1, 4]
    assert test.llr == pytest.approx(0.8014300351560545, rel=1e-9) and test.verdict == CONTINUE


def test_issue_36_connect_four_goes_on_at_minus_2_5_where_the_approximation_accepted_h0():
    # connect_four C 0.5 against MCTS at 1.4, 60 simulations: after 27 pairs [9, 1, 14, 0, 3] the
    # approximation said -3.044, H0; fishtest's LLR is -2.512 and the test goes on (to pair 33).
    bins = [int(pair) for pair in "20200044202240002022222122224220002002200010022222"]
    test = fed(bins[:27])
    assert test.counts == [9, 1, 14, 0, 3]
    assert test.llr == pytest.approx(-2.5123044186643417, rel=1e-9) and test.verdict == CONTINUE
    assert fed(bins[:33]).verdict == H0_ACCEPTED and fed(bins[:32]).verdict == CONTINUE


def first_verdict(pair, **settings):
    return next((pairs, fed([pair] * pairs, **settings).verdict) for pairs in range(1, 200)
                if fed([pair] * pairs, **settings).verdict != CONTINUE)


def test_only_wins_accept_h1_where_the_approximation_never_stopped():
    # Every pair WW: the LLR grows 0.1336 a pair and passes 2.944 less the overshoot after 22 pairs (its
    # variance was 0, so the approximation's LLR stayed 0). Every pair LL: H0 after 19, 0.154 a pair (H0's
    # score, 1/2, and H1's, 0.572, are not symmetric around an even score).
    assert first_verdict(4) == (22, H1_ACCEPTED)
    assert first_verdict(0) == (19, H0_ACCEPTED)
    assert first_verdict(4, model="normalized") == (16, H1_ACCEPTED)
