"""Visits until the choice flips (``mcts_core.analysis.visits_to_flip``): every count reproduced by
the rule's own selection with the selected child grown and everything else held, for every rule."""

import dataclasses
import json
import random
from array import array

import pytest

from cases import random_puzzle
from mcts_core import ROOT, RULES, Scoring, score_children, select_child
from mcts_core.analysis import HORIZON, held_statistics, visits_to_flip
from mcts_core.inputs.loading import read_input


def held_tree(tree, node, selected, more):
    """The whole tree with ``more`` visits added to ``node`` and to ``selected`` (its mean and mean square held)."""
    visits, total, total_sq = array("q", tree.visits), array("d", tree.total), array("d", tree.total_sq)
    visits[node] += more
    visits[selected], total[selected], total_sq[selected] = held_statistics(
        tree.visits[selected], tree.total[selected], tree.total_sq[selected], more)
    return dataclasses.replace(tree, visits=visits, total=total, total_sq=total_sq)


def passes(tree, node, selected, kid, scoring, more) -> bool:
    """The rule's own selection over all the children, read for the two alone: ``kid`` ahead of ``selected``."""
    rank = {score.node: score.rank for score in score_children(held_tree(tree, node, selected, more), node, scoring)}
    return rank[kid] < rank[selected]


def random_dump(rng: random.Random) -> str:
    """A small tree dump: two levels, priors, proven outcomes, unvisited children, either tie rule."""
    def node(move, depth):
        visits = rng.choice([0, 1, 2, 5, 30, 400])
        fields = {"move": move, "visits": visits, "total": round(rng.uniform(-1, 1) * visits, rng.choice([0, 2]))}
        if rng.random() < 0.3:
            fields["prior"] = rng.choice([0.0, 0.05, 0.3, 0.6])
        if rng.random() < 0.1:
            fields["outcome"] = rng.choice([-1, 0, 1])
        if depth < 2 and rng.random() < 0.6:
            fields["children"] = [node(m, depth + 1) for m in rng.sample("abcdef", rng.randint(1, 5))]
            fields["visits"] = max(visits, sum(kid["visits"] for kid in fields["children"]) + rng.randint(0, 3))
        return fields

    root = node(None, 0)
    root.setdefault("children", [node("a", 1), node("b", 1)])
    root["visits"] = max(root["visits"], sum(kid["visits"] for kid in root["children"]) + 1)
    return json.dumps({"mcts_tree": 1, "players": rng.choice([1, 2]), "ties": rng.choice(["smaller", "first"]),
                       "root": root})


def random_scoring(rng: random.Random, rule: str) -> Scoring:
    c = rng.choice([0.0, 0.1, 0.5, 1.4, 3.0, 25.0])
    settings = {
        "puct": {"normalise": rng.choice(["raw", "minmax"]), "priors": rng.choice([None, {"a": 0.5, "b": 0.2}])},
        "progressive_bias": {"w": rng.choice([0.0, 1.0, 5.0]), "heuristic": {"a": 1.0, "b": -2.0, "c": 0.5}},
        "sample_threshold": {"t": rng.choice([0, 5, 50]), "t2": rng.choice([0, 20, 200]), "c0": 0.2},
        "ucb1_tuned": {"cap": rng.choice([0.25, 100.0])},
    }.get(rule, {})
    return Scoring(rule, c, {name: value for name, value in settings.items() if value is not None})


CASES = [("puzzle", seed) for seed in range(12)] + [("dump", seed) for seed in range(24)]


@pytest.mark.parametrize("kind, seed", CASES)
def test_each_count_is_where_the_rules_own_selection_flips(kind, seed):
    rng = random.Random(seed)
    text = random_puzzle(rng) if kind == "puzzle" else random_dump(rng)
    tree = read_input(text).tree
    nodes = [node for node in range(len(tree)) if tree.children.count(node) > 1][:6]
    checked = 0
    for rule in RULES:
        scoring = random_scoring(rng, rule)
        for node in nodes:
            selected = select_child(tree, node, scoring)
            counts = visits_to_flip(tree, node, scoring)
            assert set(counts) == set(tree.children[node]) - {selected}
            for kid, count in counts.items():
                if count is None:
                    assert not passes(tree, node, selected, kid, scoring, HORIZON)
                else:
                    assert count >= 1 and passes(tree, node, selected, kid, scoring, count)
                    assert not passes(tree, node, selected, kid, scoring, count - 1)
                checked += 1
    assert checked


@pytest.mark.parametrize("seed", range(6))
def test_where_values_move_one_way_the_count_is_the_first_visit_that_flips(seed):
    # UCB1 and PUCT at their defaults: the selected child's value falls with its visits, the other's
    # rises with the parent's, so no smaller count passes.
    rng = random.Random(100 + seed)
    tree = read_input(random_puzzle(rng)).tree
    for scoring in (Scoring("ucb1", rng.choice([0.3, 1.4, 5.0])), Scoring("puct", rng.choice([0.3, 1.4, 5.0]))):
        for node in [node for node in range(len(tree)) if tree.children.count(node) > 1][:4]:
            selected = select_child(tree, node, scoring)
            for kid, count in visits_to_flip(tree, node, scoring).items():
                if count is not None and count <= 40:
                    assert not any(passes(tree, node, selected, kid, scoring, more) for more in range(1, count))


def test_puzzle_example_b_needs_c_to_pass_a():
    # a (mean 20, 1 visit) leads b (mean 17, 2 visits); at C = 0.1 b never catches up, at C = 10 after 2 visits.
    tree = read_input("3 0.1\nbaa 30\nab 20\nbbb 4\n").tree
    b = tree.child(ROOT, "b")
    assert visits_to_flip(tree, ROOT, Scoring("ucb1", 0.1)) == {b: None}
    count = visits_to_flip(tree, ROOT, Scoring("ucb1", 10.0))[b]
    assert [passes(tree, ROOT, tree.child(ROOT, "a"), b, Scoring("ucb1", 10.0), more) for more in range(count + 1)] \
        == [False] * count + [True]


def test_a_tie_goes_by_the_rules_tie_break():
    # Equal children: a is selected (the smaller move); one more visit to a lowers its value, so b passes at 1.
    tree = read_input("2 1\na 1\nb 1\n").tree
    assert visits_to_flip(tree, ROOT, Scoring("ucb1", 1.0)) == {tree.child(ROOT, "b"): 1}


def test_nothing_is_counted_at_a_leaf_or_a_chance_node():
    tree = read_input("1 1\na 1\n").tree
    assert visits_to_flip(tree, tree.child(ROOT, "a"), Scoring("ucb1", 1.0)) == {}
    chance = read_input(json.dumps({"mcts_tree": 1, "root": {"visits": 3, "chance": True, "children": [
        {"move": "x", "visits": 2, "total": 1}, {"move": "y", "visits": 1, "total": 1}]}})).tree
    assert visits_to_flip(chance, ROOT, Scoring("ucb1", 1.0)) == {}
