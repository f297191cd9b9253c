"""The data a browser needs to follow a drag of C by itself: strict JSON, the exact intervals, each
drawn node's value and the inspected node's terms as intercept + slope in C, reproducing the rule."""

import json
import math
import random

import pytest

from mcts_core import Scoring, build_tree, parse_playouts
from mcts_core.analysis import drag_payload, path_intervals
from mcts_core.drawing import drawn_nodes, visible_nodes
from mcts_core.drawing.tagged_svg import node_infos, path_json
from mcts_core.inputs.examples import deep_tree
from mcts_core.inputs.formats.tree_json import read_tree_dump
from mcts_core.selection import score_children, select_path, selected_nodes

SCORINGS = [
    Scoring(),
    Scoring.of("ucb1_tuned"),
    Scoring.of("puct", normalise="minmax"),
    Scoring.of("progressive_bias", w=2.0, heuristic={"a": 1.0, "c": -0.5}),
    Scoring.of("sample_threshold", t=20, t2=200, c0=0.05, w=1.0, heuristic={"b": 1.0}),
]


@pytest.fixture(scope="module")
def tree():
    return build_tree(parse_playouts(deep_tree(1500, 7)))


def parsed(payload):
    """The payload as a browser gets it: strict JSON (no NaN or Infinity literals), read back."""
    return json.loads(json.dumps(payload, allow_nan=False))


def number(x):
    """What JavaScript's ``Number`` makes of a payload number."""
    return float(x)  # "Infinity", "-Infinity" and "NaN" read as Number reads them


def children_values(tree, parent, scoring, c):
    return {score.node: score.value for score in score_children(tree, parent, scoring.with_c(c))}


@pytest.mark.parametrize("scoring", SCORINGS, ids=lambda scoring: scoring.rule)
def test_drawn_values_reproduce_the_rule_at_every_c(tree, scoring):
    drawn = drawn_nodes(tree, visible_nodes(tree, budget=200))
    payload = parsed(drag_payload(tree, scoring, 0.0, 10.0, drawn))
    assert payload["exact"] == (scoring.rule in ("ucb1", "ucb1_tuned"))
    assert len(payload["values"]) == len(drawn) - 1  # the root is nobody's child
    by_key = {path_json(tree.path_moves(node)): node for node in drawn}
    rng = random.Random(3)
    for c in [0.0, 1.0, 10.0] + [rng.uniform(0, 10) for _ in range(5)]:
        for key, (intercept, slope) in payload["values"].items():
            node = by_key[key]
            rule_value = children_values(tree, tree.parent[node], scoring, c)[node]
            shown = number(intercept) + number(slope) * c
            if payload["exact"]:
                assert shown == rule_value
            else:
                assert shown == pytest.approx(rule_value, rel=1e-13, abs=1e-13)


def test_values_are_keyed_by_the_data_path_the_picture_writes(tree):
    drawn = drawn_nodes(tree, visible_nodes(tree, budget=100))
    payload = drag_payload(tree, Scoring(), 0.0, 10.0, drawn)
    picture = {path_json(info.path) for info in node_infos(tree, drawn).values() if info.path}
    assert set(payload["values"]) == picture


@pytest.mark.parametrize("scoring", SCORINGS, ids=lambda scoring: scoring.rule)
def test_intervals_are_the_exact_sweep_and_give_select_path(tree, scoring):
    payload = parsed(drag_payload(tree, scoring, 0.0, 10.0))
    swept = path_intervals(tree, 0.0, 10.0, scoring)
    assert payload["intervals"] == [[part.c_from, part.c_to, list(part.moves)] for part in swept]
    assert payload["range"] == [0.0, 10.0]
    for c_from, c_to, moves in payload["intervals"]:
        for c in (c_from, math.nextafter(c_to, -math.inf)):
            assert list(tree.path_moves(selected_nodes(tree, scoring.with_c(c))[-1])) == moves


@pytest.mark.parametrize("scoring", SCORINGS, ids=lambda scoring: scoring.rule)
def test_inspected_terms_follow_c_for_every_term(tree, scoring):
    inspected = selected_nodes(tree, scoring.with_c(1.0))[1]
    payload = parsed(drag_payload(tree, scoring, 0.0, 10.0, inspected=inspected))["inspected"]
    assert payload["path"] == list(tree.path_moves(inspected))
    for c in (0.0, 0.7, 3.0, 9.5):
        actual = {score.move: score.terms for score in score_children(tree, inspected, scoring.with_c(c))}
        assert sorted(child["move"] for child in payload["children"]) == sorted(actual)
        for child in payload["children"]:
            terms = actual[child["move"]]
            assert set(child["terms"]) == set(terms)
            for name, (intercept, slope) in child["terms"].items():
                shown = number(intercept) + number(slope) * c
                if math.isnan(terms[name]):
                    assert math.isnan(shown)
                else:
                    assert shown == pytest.approx(terms[name], rel=1e-13, abs=1e-13), (name, c)


def test_unvisited_children_and_draws_travel_as_strings_and_flags():
    # The root has 4 visits (below T = 10): its choice is a draw; b was declared and never visited.
    document = {"mcts_tree": 1, "root": {"visits": 4, "total": 4.0, "children": [
        {"move": "a", "visits": 4, "total": 4.0}, {"move": "b", "visits": 0}]}}
    tree, *_ = read_tree_dump(json.dumps(document))
    ucb = parsed(drag_payload(tree, Scoring(), 0.0, 5.0, drawn={0, 1, 2}, inspected=0))
    assert ucb["values"]['["b"]'] == ["Infinity", 0.0]  # UCB1 tries b at every C
    b_terms = next(child["terms"] for child in ucb["inspected"]["children"] if child["move"] == "b")
    assert b_terms == {"mean": ["NaN", 0.0], "exploration": ["Infinity", 0.0], "value": ["Infinity", 0.0]}
    assert ucb["intervals"] == [[0.0, 5.0, ["b"]]] and not ucb["inspected"]["random"]
    assert not ucb["inspected"]["chance"]
    chance, *_ = read_tree_dump(json.dumps({**document, "root": {**document["root"], "chance": True}}))
    sampled = parsed(drag_payload(chance, Scoring(), 0.0, 5.0, inspected=0))
    assert sampled["inspected"]["chance"] and sampled["intervals"] == [[0.0, 5.0, ["a"]]]  # the most visited
    drawn = parsed(drag_payload(tree, Scoring.of("sample_threshold", t=10), 0.0, 5.0, inspected=0))
    assert drawn["inspected"]["random"]
    assert drawn["intervals"] == [[0.0, 5.0, [select_path(tree, Scoring.of("sample_threshold", t=10))]]]
