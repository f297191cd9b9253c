"""The drawn nodes' values at any C from lines made once: the floats and ranks score_children gives."""

import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcts_core import ROOT, Scoring, build_tree, parse_playouts, score_children
from mcts_core.analysis import DrawnValues
from mcts_core.drawing import path_json
from test_sweep_rules import SCORINGS, same_float, trees


def scored(tree, drawn, scoring):
    """Each drawn node but the root: (value, rank) as score_children ranks its parent's children."""
    values = {}
    for parent in {tree.parent[node] for node in drawn if node != ROOT}:
        for child in score_children(tree, parent, scoring):
            if child.node in drawn:
                values[child.node] = (child.value, child.rank)
    return values


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(tree=trees(), scoring=SCORINGS, data=st.data(), cs=st.lists(st.floats(0, 1e6), min_size=1, max_size=4))
def test_values_and_ranks_at_any_c_are_the_rules(tree, scoring, data, cs):
    # A drawn set holds its nodes' ancestors, as a picture's does.
    chosen = data.draw(st.sets(st.integers(0, len(tree) - 1)))
    drawn = {ROOT}
    for node in chosen:
        while node not in drawn:
            drawn.add(node)
            node = tree.parent[node]
    values = DrawnValues(tree, scoring, drawn)
    assert set(values.lines) == {path_json(tree.path_moves(node)) for node in drawn - {ROOT}}
    for c in (0.0, 5e-324, 1.0, *cs):
        expected = scored(tree, drawn, scoring.with_c(c))
        got = values.at(c)
        assert got.keys() == expected.keys()
        for node, (value, rank) in expected.items():
            assert same_float(got[node][0], value) and got[node][1] == rank, (node, c, got[node], value, rank)


def with_ancestors(tree, chosen):
    drawn = {ROOT}
    for node in chosen:
        while node not in drawn:
            drawn.add(node)
            node = tree.parent[node]
    return drawn


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(tree=trees(), scoring=SCORINGS, data=st.data(), c=st.floats(0, 1e6))
def test_a_new_budget_reusing_an_earlier_drawings_lines_gives_the_same_values(tree, scoring, data, c):
    # The page keeps each parent's lines per tree and rule: a drawing after another (a new node
    # budget) shows the values and ranks it would show alone.
    earlier = with_ancestors(tree, data.draw(st.sets(st.integers(0, len(tree) - 1))))
    drawn = with_ancestors(tree, data.draw(st.sets(st.integers(0, len(tree) - 1))))
    known = {}
    DrawnValues(tree, scoring, earlier, known)
    again, alone = DrawnValues(tree, scoring, drawn, known), DrawnValues(tree, scoring, drawn)
    assert again.lines == alone.lines and again.paths == alone.paths and again.plain == alone.plain
    got, expected = again.at(c), alone.at(c)
    assert got.keys() == expected.keys()
    for node, (value, rank) in expected.items():
        assert same_float(got[node][0], value) and got[node][1] == rank


def test_equal_values_rank_by_the_tie_rule():
    # b and c: the same mean and visits, so equal values at every C; the smaller move wins the tie.
    tree = build_tree(parse_playouts("b 1\nc 1\nb 0\nc 0\nd 0\n"))
    values = DrawnValues(tree, Scoring(), range(len(tree)))
    node = {tree.move[kid]: kid for kid in tree.children[ROOT]}
    at_two = values.at(2.0)
    assert at_two[node["b"]][1] < at_two[node["c"]][1]
    assert at_two[node["b"]][0] == at_two[node["c"]][0]
    assert values.lines['["b"]'] == values.lines['["c"]'] and values.plain
    assert at_two[node["d"]] == (2.0 * math.sqrt(math.log(5) / 1), 1)  # mean 0, one visit: ahead at C = 2
