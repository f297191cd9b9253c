"""The arena's SPRT stops at the first pair whose LLR passes a bound, as fishtest decides; the tuner halves the C
grid by score."""

import json
from pathlib import Path

import pytest

import required

required.module("pyspiel")

from mcts_core.strength import ResultStore, SprtSettings, arena, llr_curve, plan, tune  # noqa: E402
from mcts_core.strength.elo import sprt_status, CONTINUE  # noqa: E402
from mcts_core.strength.rows import pair_bins  # noqa: E402
from mcts_core.strength.tuner import HalvingRound, halving_rounds  # noqa: E402

SPRT = SprtSettings(elo0=0.0, elo1=200.0, alpha=0.1, beta=0.1)
FISHTEST = json.loads((Path(__file__).parent / "fixtures" / "fishtest" / "fishtest_reference.json").read_text())


def test_sprt_stops_at_the_first_pair_whose_llr_passes_a_bound(tmp_path):
    store = ResultStore(tmp_path / "arena.sqlite3")
    settings = dict(c_values=[0.0, 3.0], games=300, simulations=15, opponent="mcts:1.4", seed=2)
    rows = arena("tic_tac_toe", sprt=SPRT, workers=1, store=store, **settings)
    key = plan("tic_tac_toe", opponent="mcts:1.4", seed=2).key()
    decided = 0
    for row in rows:
        curve = llr_curve(list(store.load(key, 15, row.c).values()), SPRT)
        crossing = next((point.games for point in curve
                         if sprt_status(point.llr, (point.lower, point.upper)) != CONTINUE), None)
        if row.sprt == "inconclusive":
            assert crossing is None or crossing > 300
            assert row.games == 300
        else:
            decided += 1
            assert row.games == crossing < 300  # not a pair later
            assert (curve[-1].llr, curve[-1].lower, curve[-1].upper) == pytest.approx((row.llr, row.llr_low, row.llr_high))
            assert (row.llr > row.llr_high) if row.sprt == "H1" else (row.llr < row.llr_low)
    assert decided  # a 200 Elo question settles well within 300 games for at least one of them


def test_the_arena_rows_of_issue_36_are_fishtests_verdicts(tmp_path):
    # arena --game tic_tac_toe --c 0.1,10 --opponent random --simulations 30 --sprt: in issue 36 the normal
    # approximation stopped both C values after 6 pairs with H1 (LLR 3.990 and 3.254, fishtest 0.801 and 0.668).
    # fishtest's update_SPRT, fed the same pairs one by one (the fixture, replayed with issue 51's seeding),
    # decides at the rows' last pair and not before.
    store = ResultStore(tmp_path / "arena.sqlite3")
    rows = arena("tic_tac_toe", c_values=[0.1, 10.0], opponent="random", simulations=30, games=100,
                 sprt=SprtSettings(elo0=0.0, elo1=50.0), workers=1, store=store)
    key = plan("tic_tac_toe", opponent="random").key()
    verdicts = {"accepted": "H1", "rejected": "H0"}
    for row in rows:
        (reference,) = [run for run in FISHTEST["sprt"] if run["name"] == f"tic_tac_toe random 30 sims C={row.c:g}"
                        and run["model"] == "logistic" and run["elo1"] == 50.0]
        played = "".join(map(str, pair_bins(list(store.load(key, 30, row.c).values()))))
        assert reference["bins"].startswith(played[: row.games // 2])  # the same games as when it was made
        llr, lower, upper, state = reference["steps"][-1]
        assert row.games == 2 * len(reference["steps"]) > 12
        assert (row.llr, row.llr_low, row.llr_high) == pytest.approx((llr, lower, upper), rel=1e-9)
        assert row.sprt == verdicts[state]


def test_sprt_stops_at_the_same_pair_whatever_plays_the_games():
    settings = dict(c_values=[0.0], games=200, simulations=15, opponent="mcts:1.4", seed=2, sprt=SPRT)
    assert arena("tic_tac_toe", workers=1, **settings) == arena("tic_tac_toe", workers=2, **settings)


def test_sprt_needs_two_players():
    with pytest.raises(ValueError, match="the SPRT compares two players; catch\\(\\) has 1"):
        arena("catch", c_values=[1.0], games=4, simulations=5, sprt=SPRT, workers=1)


def test_the_tuner_keeps_the_better_half_each_round_and_reports_the_games_spent():
    rounds = []
    result = tune("tic_tac_toe", c_values=[0.0, 0.3, 1.4, 5.0, 20.0], games=60, simulations=12, workers=1,
                  on_round=lambda number, total, ranked: rounds.append((number, total, ranked)))
    assert [(number, total) for number, total, _ in rounds] == [(1, 3), (2, 3), (3, 3)]
    for (_, _, ranked), (_, _, following) in zip(rounds, rounds[1:]):
        scores = [row.score for row in ranked]
        assert scores == sorted(scores, reverse=True)
        assert {row.c for row in following} == {row.c for row in ranked[: -(-len(ranked) // 2)]}
    assert result.finished and result.best == rounds[-1][2][0]
    assert result.games == sum(row.games for row in result.rows) == 60
    assert result.best.elo - result.best.elo_error <= result.best.elo <= result.best.elo + result.best.elo_error
    assert max(result.rounds.values()) == 3 and result.rounds[result.best.c] == 3


def test_the_tuner_refuses_too_few_games_in_one_sentence():
    with pytest.raises(ValueError, match="10 games are too few to tune 5 C values: .* give at least 30"):
        tune("tic_tac_toe", c_values=[0.0, 0.3, 1.4, 5.0, 20.0], games=10, simulations=5, workers=1)


def test_the_tuner_plays_exactly_the_games_asked_for():
    # 24 pairs over 3 rounds: 8 pairs for 6 C values (1 each, 2 carried), 9 for 3 (3 each), the last 9 for 2
    # (4 each and the pair left over to the best so far). Equal shares of 24 // 3 pairs would play 40 games.
    assert halving_rounds(6, 48, 2) == [HalvingRound(6, 2, 0, 2), HalvingRound(3, 6, 0, 2), HalvingRound(2, 8, 1, 2)]
    rounds = []
    result = tune("tic_tac_toe", c_values=[0.0, 0.3, 0.7, 1.4, 3.0, 10.0], games=48, simulations=5, workers=1,
                  on_round=lambda number, total, ranked: rounds.append(ranked))
    assert result.finished and result.games == sum(row.games for row in result.rows) == 48
    leader, runner_up = (row.c for row in rounds[1][:2])  # the two best after round 2 play round 3
    games = {row.c: row.games for row in result.rows}
    assert (games[leader], games[runner_up]) == (2 + 6 + 10, 2 + 6 + 8)
    assert sorted(games.values()) == [2, 2, 2, 8, 16, 18]


@pytest.mark.parametrize("players", [1, 2, 3])
def test_halving_rounds_spend_every_game_in_whole_groups_on_halving_grids(players):
    for c_values in range(1, 13):
        rounds = max(1, (c_values - 1).bit_length())  # ceil(log2 n)
        for games in range(rounds * c_values * players, 400, players):
            planned = halving_rounds(c_values, games, players)
            assert sum(one.total for one in planned) == games
            assert [one.c_values for one in planned] == [-(-c_values // 2**k) for k in range(rounds)]
            assert all(one.games >= players and one.games % players == 0 for one in planned)
            assert all(one.extra == 0 for one in planned[:-1]) and 0 <= planned[-1].extra < planned[-1].c_values
