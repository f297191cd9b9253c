"""The decoupled tree and the Smitsimax view of a simultaneous log, and selection per player.

Each player's own-move statistics are the projection of the log on that player's moves; each
player scores its own moves with a rule's own formula function, and the joint choice is the tuple.
"""

import json
import math
import random

import pytest

from mcts_core import ROOT, RULES, ucb1
from mcts_core.inputs.formats.log import read_log
from mcts_core.inputs.loading import read_input
from mcts_core.simultaneous import (
    SIMULTANEOUS_RULES,
    JointScoring,
    build_decoupled,
    replay,
    score_own_moves,
    select_joint,
    selected_path,
    smitsimax_trees,
    strategy,
)
from mcts_core.simultaneous.rules import RegretState, sampling, update

HEADER = {"mcts_log": 1, "players": 2, "ties": "first"}


def log(*records, header=None):
    return "\n".join(json.dumps(r) for r in [header or HEADER, *records]) + "\n"


def random_log(seed, simulations=300, players=2):
    """A log of random simulations over a small game: joint moves, with a chance step now and then."""
    rng = random.Random(seed)
    records = [{"node": [], "simultaneous": True, "moves": [["a", "b", "c"]] * players}]
    for _ in range(simulations):
        path = []
        for _ in range(rng.randint(0, 4)):
            path.append([rng.choice("abc") for _ in range(players)])
        records.append({"path": path, "returns": [rng.choice([-1.0, 0.0, 0.5, 1.0]) for _ in range(players)]})
    return log(*records, header=dict(HEADER, players=players))


def projection(text, players):
    """Per (joint path of the node, player, own move): [visits, total], by brute force over the records.

    A simulation chooses at a node when the node existed before it (puzzle rule: it walks while the
    next node exists): replayed with a set of existing paths.
    """
    existing, stats = {()}, {}
    for line in text.splitlines()[1:]:
        record = json.loads(line)
        if "path" not in record:
            continue
        prefix = ()
        for element in record["path"]:
            if prefix not in existing:
                break
            for player, move in enumerate(element):
                entry = stats.setdefault((prefix, player, move), [0, 0.0])
                entry[0] += 1
                entry[1] += record["returns"][player]
            prefix = (*prefix, tuple(element))
        existing.add(prefix)
    return stats


@pytest.mark.parametrize("seed, players", [(1, 2), (2, 2), (3, 3)])
def test_each_players_totals_are_the_projection_of_the_log_on_its_moves(seed, players):
    text = random_log(seed, players=players)
    decoupled = read_input(text).simultaneous.decoupled
    expected = projection(text, players)
    found = {}
    for node in decoupled.simultaneous_nodes():
        prefix = tuple(tuple(e) for e in decoupled.path_elements(node))
        for player in range(players):
            for move in decoupled.own_moves(node, player):
                if move.visits:
                    found[(prefix, player, move.move)] = [move.visits, move.total]
    assert found == expected


def test_own_move_visits_sum_to_the_simulations_that_chose_at_the_node():
    read = read_input(random_log(4, 500))
    decoupled, tree = read.simultaneous.decoupled, read.tree
    ended_here = [0] * len(tree)
    for node in tree.reached:
        ended_here[node] += 1
    for node in decoupled.simultaneous_nodes():
        for player in range(2):
            chose = sum(m.visits for m in decoupled.own_moves(node, player))
            assert chose == decoupled.choices(node) == tree.visits[node] - ended_here[node]
    assert sum(m.visits for m in decoupled.own_moves(ROOT, 0)) == tree.visits[ROOT] - ended_here[ROOT]


def test_the_tree_after_k_simulations_is_the_tree_of_the_first_k_records():
    text = random_log(5, 200)
    playouts, sim = read_log(text)
    for k in (0, 1, 17, 200):
        early = build_decoupled(playouts, sim, k)
        alone = read_input("\n".join(text.splitlines()[: k + 2]) + "\n").simultaneous.decoupled
        assert list(early.slot_visits) == list(alone.slot_visits) and list(early.slot_total) == list(alone.slot_total)


def test_a_player_picks_the_own_move_of_largest_ucb1_computed_by_the_formula():
    text = log(
        {"path": [["a", "x"]], "returns": [1, -1]}, {"path": [["b", "x"]], "returns": [0.5, -0.5]},
        {"path": [["a", "y"]], "returns": [0, 0]}, {"path": [["b", "y"]], "returns": [-1, 1]},
        {"path": [["a", "x"]], "returns": [0.2, -0.2]},
    )
    decoupled = read_input(text).simultaneous.decoupled
    scoring = JointScoring("ucb1", 0.7)
    for player in range(2):
        scored = score_own_moves(decoupled, ROOT, player, scoring)
        for score in scored:
            assert score.terms == ucb1(5, score.visits, score.total, c=0.7)
        assert scored == sorted(scored, key=lambda s: -s.value)
    a, b = score_own_moves(decoupled, ROOT, 0, scoring)[0].move, score_own_moves(decoupled, ROOT, 1, scoring)[0].move
    assert select_joint(decoupled, ROOT, scoring) == (a, b)


@pytest.mark.parametrize("ties, winner", [("first", "z"), ("smaller", "a")])
def test_exact_ties_go_to_the_first_own_move_or_the_smaller_one(ties, winner):
    text = log({"node": [], "simultaneous": True, "moves": [["z", "a"], ["x"]]},
               {"path": [["z", "x"]], "returns": [1, -1]}, {"path": [["a", "x"]], "returns": [1, -1]},
               header=dict(HEADER, ties=ties))
    assert select_joint(read_input(text).simultaneous.decoupled, ROOT, JointScoring("ucb1", 1.0))[0] == winner


@pytest.mark.parametrize("rule", list(RULES))
def test_every_registered_rule_selects_per_player(rule):
    decoupled = read_input(random_log(6, 400)).simultaneous.decoupled
    scoring = JointScoring.of(rule)
    joint = select_joint(decoupled, ROOT, scoring)
    assert joint == tuple(score_own_moves(decoupled, ROOT, p, scoring)[0].move for p in range(2))
    assert set(score_own_moves(decoupled, ROOT, 0, scoring)[0].terms) <= set(RULES[rule].terms)


def test_below_a_sample_threshold_each_player_draws():
    decoupled = read_input(random_log(7, 20)).simultaneous.decoupled
    scored = score_own_moves(decoupled, ROOT, 1, JointScoring("sample_threshold", 1.0, {"t": 1000}))
    assert all(s.random for s in scored) and sum(s.probability for s in scored) == pytest.approx(1.0)


def test_puct_takes_its_priors_per_own_move_from_the_rules_settings():
    decoupled = read_input(random_log(8, 50)).simultaneous.decoupled
    scored = score_own_moves(decoupled, ROOT, 0, JointScoring("puct", 2.0, {"priors": {"b": 0.7}}))
    assert {s.move: s.terms["prior"] for s in scored} == {"a": 0.0, "b": 0.7, "c": 0.0}


def test_regret_matching_replays_the_log_into_the_searchs_regrets():
    text = log({"node": [], "simultaneous": True, "moves": [["R", "P", "S"], ["R", "P", "S"]]},
               {"path": [["R", "P"]], "returns": [-1, 1]}, {"path": [["S", "P"]], "returns": [1, -1]},
               {"path": [["R", "P"]], "returns": [-1, 1]}, {"path": [["R", "S"]], "returns": [1, -1]})
    decoupled = read_input(text).simultaneous.decoupled
    state = replay(decoupled, ROOT, JointScoring("regret_matching", 0.1))[1]
    # By hand: P wins (+1), loses (-1), wins, then S loses with σ(S) = 0.1 / 3.
    assert state.values == pytest.approx([0.0, 3.0, -30.0]) and state.updates == 4
    assert sum(state.average()) == pytest.approx(1.0)
    scored = score_own_moves(decoupled, ROOT, 1, JointScoring("regret_matching", 0.1))
    assert scored[0].move == "P" and scored[0].terms["probability"] == pytest.approx(0.9 + 0.1 / 3)


@pytest.mark.parametrize("rule", list(SIMULTANEOUS_RULES))
def test_the_strategy_of_regret_rules_is_their_average_sampling_distribution(rule):
    decoupled = read_input(random_log(9, 300)).simultaneous.decoupled
    scoring = JointScoring(rule, 0.2)
    states = replay(decoupled, ROOT, scoring)
    assert strategy(decoupled, ROOT, 0, scoring) == dict(zip("abc", states[0].average()))
    assert strategy(decoupled, ROOT, 0, JointScoring("ucb1", 1.0)) == decoupled.visit_shares(ROOT, 0)


def test_exp3_maps_returns_to_zero_one_and_never_overflows():
    state = RegretState(3)
    settings = {"low": -50.0, "high": 50.0}
    for _ in range(2000):
        sigma = sampling("exp3", state, 0.1, settings)
        update("exp3", state, sigma, 0, 50.0, settings)
    sigma = sampling("exp3", state, 0.1, settings)
    assert all(math.isfinite(p) for p in sigma) and sigma[0] == pytest.approx(0.9 + 0.1 / 3)


def test_the_selected_path_follows_each_players_pick_while_the_joint_child_exists():
    decoupled = read_input(random_log(10, 400)).simultaneous.decoupled
    steps = selected_path(decoupled, JointScoring("ucb1", 1.0))
    for step in steps[:-1]:
        assert decoupled.joint_child(step.node, step.joint) == step.child
    assert steps[-1].child is None


def test_the_smitsimax_view_is_the_puzzle_rule_on_each_players_projection():
    text = log(
        {"node": [], "simultaneous": True, "moves": [["a", "b"], ["x", "y"]]},
        {"path": [["a", "x"]], "returns": [1, -1]},
        {"path": [["a", "y"], ["b", "x"]], "returns": [0.5, -0.5]},  # player 0 walks into a, creates a b
        {"path": [["b", "y"]], "returns": [-1, 1]},
    )
    zero, one = smitsimax_trees(*read_log(text))
    assert [zero.path(n) for n in range(len(zero))] == ["", "a", "b", "ab"]
    assert list(zero.visits) == [3, 2, 1, 1] and list(zero.total) == [0.5, 1.5, -1.0, 0.5]
    assert [one.path(n) for n in range(len(one))] == ["", "x", "y", "yx"]
    assert list(one.total) == [-0.5, -1.0, 0.5, -0.5]  # player 1's own returns
    assert read_input(text).simultaneous.smitsimax()[0].visits == zero.visits


def test_a_dump_cannot_replay_regret_matching_and_says_why():
    text = json.dumps({"mcts_tree": 1, "players": 2, "root": {
        "visits": 1, "simultaneous": True, "decoupled": [[{"move": "R", "visits": 1, "total": 1}],
                                                         [{"move": "P", "visits": 1, "total": -1}]],
        "children": [{"move": ["R", "P"], "visits": 1}]}})
    decoupled = read_input(text).simultaneous.decoupled
    with pytest.raises(ValueError, match="tree dump"):
        score_own_moves(decoupled, ROOT, 0, JointScoring("regret_matching", 0.1))
    assert select_joint(decoupled, ROOT, JointScoring("ucb1", 1.0)) == ("R", "P")


def test_the_replay_cache_stays_within_its_bounds_whatever_gammas_sessions_ask_for():
    from mcts_core.simultaneous import replay_cache

    decoupled = read_input(random_log(9, 300)).simultaneous.decoupled
    gammas = [k / 1000 for k in range(1, replay_cache.MAX_ENTRIES + 101)]  # a γ slider dragged past 356 values
    for gamma in gammas:
        replay(decoupled, ROOT, JointScoring("regret_matching", gamma))
    assert len(decoupled.cache) == replay_cache.MAX_ENTRIES
    assert 0 < decoupled.cache_bytes() <= replay_cache.MAX_BYTES
    # Each replay's states are counted: lists of floats per own move, for each player.
    one = replay_cache.size_of(replay(decoupled, ROOT, JointScoring("regret_matching", gammas[-1])))
    assert decoupled.cache_bytes() >= replay_cache.MAX_ENTRIES * one
    # The least recently used go first: the last γ values are still kept, the first are not.
    last, first = JointScoring("regret_matching", gammas[-1]), JointScoring("regret_matching", gammas[0])
    assert decoupled.cache.get(("replay", ROOT, last)) is not None
    assert decoupled.cache.get(("replay", ROOT, first)) is None


def test_the_replay_cache_stays_within_its_bytes_too():
    from mcts_core.simultaneous.replay_cache import ReplayCache, size_of

    value = [[0.5] * 1000]
    cache = ReplayCache(max_entries=100, max_bytes=3 * size_of(value) + 1000)
    for key in range(10):
        cache[key] = value
    assert len(cache) == 3 and cache.nbytes <= cache.max_bytes and cache.get(9) is value and cache.get(0) is None


def test_sessions_replaying_at_once_share_one_cache_and_get_the_same_states():
    from concurrent.futures import ThreadPoolExecutor

    decoupled = read_input(random_log(4, 400)).simultaneous.decoupled
    scorings = [JointScoring(rule, gamma) for rule in SIMULTANEOUS_RULES for gamma in (0.05, 0.1, 0.2, 0.3)]
    alone = {scoring: [(s.values, s.strategy_sum, s.updates) for s in
                       replay(read_input(random_log(4, 400)).simultaneous.decoupled, ROOT, scoring)] for scoring in scorings}
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda scoring: (scoring, replay(decoupled, ROOT, scoring)), scorings * 25))
    for scoring, states in results:
        assert [(s.values, s.strategy_sum, s.updates) for s in states] == alone[scoring]
    assert len(decoupled.cache) == len(scorings)
