"""What the Simultaneous page shows of a decoupled tree, computed in the core: the matrix game a root
is, its strategy profiles and their rows, a strategy sweep's rows, the selected path's moves, where the
players draw, the Smitsimax path and the C an input starts at."""

import json
from types import SimpleNamespace

import pytest

from mcts_core import ROOT
from mcts_core.inputs.loading import read_input
from mcts_core.search import matrix_game
from mcts_core.simultaneous import (
    MATRIX_GAMES, JointScoring, candidate_games, fits, is_one_shot, measure, players_draw, profile_rows, root_profiles,
    selected_moves, smitsimax_path, starting_c, sweep_rows,
)

RPS = ["Rock", "Paper", "Scissors"]


def log(*records, players=2, **header):
    lines = [{"mcts_log": 1, "players": players, "ties": "first", **header}, *records]
    return "\n".join(json.dumps(line) for line in lines) + "\n"


def rps_root(plays, moves=RPS):
    """A one-shot root: each play is (player 0's move, player 1's move, player 0's return)."""
    text = log({"node": [], "simultaneous": True, "moves": [moves, moves]},
               *({"path": [[a, b]], "score": score} for a, b, score in plays), game="matrix_rps")
    return read_input(text).simultaneous


PLAYS = [("Rock", "Paper", -1), ("Rock", "Rock", 0), ("Paper", "Rock", 1), ("Rock", "Scissors", 1)]
ALL_VISITED = PLAYS + [("Scissors", "Scissors", 0)]  # UCB1 takes an unvisited move first, whatever C is


def test_a_root_whose_joint_children_are_leaves_is_a_one_shot_game():
    assert is_one_shot(rps_root(PLAYS).decoupled)
    deeper = PLAYS + [("Rock", "Paper", -1)] + [("Rock", "Paper", 1)]  # the third visit to R|P goes below it
    text = log({"node": [], "simultaneous": True, "moves": [RPS, RPS]},
               *({"path": [[a, b]] + ([["Rock", "Rock"]] if i == len(deeper) - 1 else []), "score": s}
                 for i, (a, b, s) in enumerate(deeper)))
    assert not is_one_shot(read_input(text).simultaneous.decoupled)


def test_the_stated_game_is_tried_first_and_only_games_with_the_roots_moves_fit():
    assert candidate_games("matrix_pd")[0] == "matrix_pd" and len(candidate_games("matrix_pd")) == len(MATRIX_GAMES)
    assert candidate_games(None) == list(MATRIX_GAMES)
    dtree = rps_root(PLAYS).decoupled
    assert fits(dtree, matrix_game("matrix_rps"))
    assert not fits(dtree, matrix_game("matrix_pd"))


def test_the_visit_shares_are_each_players_share_of_its_own_visits():
    profiles, problem = root_profiles(rps_root(PLAYS).decoupled, JointScoring("ucb1", 1.0))
    assert problem is None and list(profiles) == ["visit shares"]
    player0, player1 = profiles["visit shares"]
    assert player0 == pytest.approx({"Rock": 3 / 4, "Paper": 1 / 4, "Scissors": 0.0})
    assert player1 == pytest.approx({"Paper": 1 / 4, "Rock": 2 / 4, "Scissors": 1 / 4})


def test_regret_rules_add_their_average_sigma_and_a_dump_says_why_it_cannot():
    sim = rps_root(PLAYS)
    profiles, problem = root_profiles(sim.decoupled, JointScoring("regret_matching", 0.1))
    assert problem is None and list(profiles) == ["visit shares", "average σ"]
    assert all(sum(strategy.values()) == pytest.approx(1.0) for strategy in profiles["average σ"])
    dump = {"mcts_tree": 1, "players": 2, "root": {
        "move": None, "visits": 2, "total": 0.0, "simultaneous": True,
        "decoupled": [[{"move": "Rock", "visits": 2, "total": 0.0}], [{"move": "Paper", "visits": 2, "total": 0.0}]],
        "children": [{"move": ["Rock", "Paper"], "visits": 2, "total": 0.0, "children": []}]}}
    profiles, problem = root_profiles(read_input(json.dumps(dump)).simultaneous.decoupled,
                                      JointScoring("regret_matching", 0.1))
    assert list(profiles) == ["visit shares"] and problem


def test_uniform_play_of_rock_paper_scissors_cannot_be_exploited_and_pure_rock_loses_one():
    game = matrix_game("matrix_rps")
    uniform = {move: 1 / 3 for move in RPS}
    measured = measure(game, {"uniform": (uniform, uniform), "rock": ({"Rock": 1.0}, uniform)})
    assert measured["uniform"].per_player == pytest.approx((0.0, 0.0))
    assert measured["rock"].per_player[0] == pytest.approx(1.0)  # Paper beats it every time


def test_profile_rows_list_every_action_of_the_game_with_zero_for_unplayed_ones():
    game = matrix_game("matrix_rps")
    rows = profile_rows(game, {"visit shares": ({"Rock": 1.0}, {"Paper": 0.5, "Scissors": 0.5})})
    assert len(rows) == 6
    assert {(row["player"], row["move"]): row["probability"] for row in rows} == {
        (0, "Rock"): 1.0, (0, "Paper"): 0.0, (0, "Scissors"): 0.0,
        (1, "Rock"): 0.0, (1, "Paper"): 0.5, (1, "Scissors"): 0.5,
    }


def test_sweep_rows_give_each_players_exploitability_or_nashconv_for_a_general_sum_game():
    zero_sum = SimpleNamespace(c=0.5, per_player=(0.25, 0.5), nash_conv=0.75, strategy=({"R": 1.0}, {"P": 1.0}))
    general = SimpleNamespace(c=2.0, per_player=None, nash_conv=3.0, strategy=({"C": 0.5, "D": 0.5}, {"D": 1.0}))
    exploitabilities, probabilities = sweep_rows("UCB1", [zero_sum, general])
    assert [(row["C"], row["who"], row["exploitability"]) for row in exploitabilities] == [
        (0.5, "player 0", 0.25), (0.5, "player 1", 0.5), (2.0, "player 0", 3.0), (2.0, "player 1", 3.0)]
    assert [(row["C"], row["player"], row["move"], row["probability"]) for row in probabilities] == [
        (0.5, "player 0", "R", 1.0), (0.5, "player 1", "P", 1.0),
        (2.0, "player 0", "C", 0.5), (2.0, "player 0", "D", 0.5), (2.0, "player 1", "D", 1.0)]
    assert {row["rule"] for row in exploitabilities + probabilities} == {"UCB1"}


def test_the_selected_path_shows_joint_moves_as_lists_of_the_players_moves_even_before_a_simulation():
    # At C = 0 each player takes its best mean: Paper for player 0 (1), Paper for player 1 (+1, its view).
    dtree = rps_root(ALL_VISITED).decoupled
    assert selected_moves(dtree, JointScoring("ucb1", 0.0)) == [["Paper", "Paper"]]
    # Before any simulation the pick is still shown: each player's first declared move (ties: first).
    assert selected_moves(rps_root([]).decoupled, JointScoring("ucb1", 1.0)) == [["Rock", "Rock"]]


def test_players_draw_under_regret_rules_and_not_where_ucb1_has_a_clear_best():
    dtree = rps_root(ALL_VISITED).decoupled
    assert players_draw(dtree, ROOT, JointScoring("regret_matching", 0.1))
    assert not players_draw(dtree, ROOT, JointScoring("ucb1", 0.0))


def test_the_smitsimax_path_is_the_rules_or_the_most_visited_under_regret_rules():
    player0 = rps_root(ALL_VISITED).smitsimax()[0]
    most_visited = smitsimax_path(player0, JointScoring("regret_matching", 0.1))
    assert [player0.move[node] for node in most_visited[1:]] == ["Rock"]  # 3 of the 5 visits
    best_mean = smitsimax_path(player0, JointScoring("ucb1", 0.0))
    assert player0.move[best_mean[-1]] == "Paper"  # mean 1, the best at C = 0


@pytest.mark.parametrize(
    "rule, stated, expected",
    [
        ("ucb1", 2.5, (2.5, 0.1)),  # the stated C is UCB1's
        ("ucb1", None, (JointScoring.of("ucb1").c, 0.1)),
        ("regret_matching", 0.3, (JointScoring.of("ucb1").c, 0.3)),  # a regret rule's C is γ
        ("regret_matching", 3.0, (JointScoring.of("ucb1").c, 0.1)),  # γ above 1 is no γ
    ],
)
def test_an_input_starts_at_its_stated_c_where_it_belongs(rule, stated, expected):
    assert starting_c(rule, stated) == expected
