"""The outline (a node's children with visits, share, mean, value, proof) and the most visited line."""

import json
import math

from mcts_core import ROOT, Scoring
from mcts_core.analysis import outline_children, principal_variation
from mcts_core.inputs import deep_tree, read_input

UCB1 = Scoring("ucb1", c=1.4)


def log(*records):
    return "\n".join(json.dumps(record) for record in records) + "\n"


def moves(tree, nodes):
    return [tree.move[node] for node in nodes[1:]]


def test_principal_variation_follows_the_most_visited_child_to_the_end():
    tree = read_input("6 1\nab 1\nab 1\nab 1\naa 1\nb 9\nb 9\n").tree  # a: 4 visits, b: 2 (higher mean); ab: 2, aa: 1
    assert moves(tree, principal_variation(tree)) == ["a", "b"]


def test_principal_variation_breaks_visit_ties_by_the_trees_tie_order():
    smaller = read_input("2 1\nb 1\na 1\n").tree
    assert moves(smaller, principal_variation(smaller)) == ["a"]
    first = read_input(log({"mcts_log": 1, "ties": "first"}, {"node": [], "children": ["z", "y"]},
                           {"path": ["y"], "score": 1}, {"path": ["z"], "score": 0})).tree
    assert moves(first, principal_variation(first)) == ["z"]  # the engine's order, not the name


def test_principal_variation_stops_before_unvisited_declared_children():
    tree = read_input(log({"mcts_log": 1}, {"node": [], "children": ["a", "b"]}, {"node": ["a"], "children": ["x"]},
                          {"path": ["a"], "score": 1})).tree
    assert moves(tree, principal_variation(tree)) == ["a"]


def test_outline_rows_give_share_mean_for_the_mover_value_and_proof():
    text = log(
        {"mcts_log": 1, "players": 2},
        {"node": [], "player": 0, "children": ["a", "b", "c"]},
        {"node": ["c"], "terminal": True, "outcome": [-1, 1]},
        {"path": ["a"], "score": 1}, {"path": ["a"], "score": 0}, {"path": ["a"], "score": 1},
        {"path": ["b"], "score": -1},
    )
    tree = read_input(text).tree
    rows = outline_children(tree, ROOT, UCB1)
    assert [row.move for row in rows] == ["a", "b", "c"]  # most visited first
    a, b, c = rows
    assert (a.visits, a.share, a.mean, a.mover) == (3, 0.75, 2 / 3, 0)
    assert (b.visits, b.share, b.mean) == (1, 0.25, -1.0)
    assert c.visits == 0 and math.isnan(c.mean) and c.outcome == -1.0  # proven loss for player 0
    assert a.value == 2 / 3 + 1.4 * math.sqrt(math.log(4) / 3)  # the rule's value, as selection computes it
    assert sorted(row.rank for row in rows) == [1, 2, 3]


def test_the_outline_opens_along_the_line_of_a_200k_playout_tree():
    # Speed is measured in bench/bench_browser.py, not here.
    tree = read_input(deep_tree(200_000)).tree
    line = principal_variation(tree)
    assert len(line) > 5
    for parent, child in zip(line, line[1:]):
        rows = outline_children(tree, parent, UCB1)
        assert rows[0].node == child  # the line is the outline's first row at every level
        assert sum(row.visits for row in rows) <= tree.visits[parent]
