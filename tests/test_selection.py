"""UCB1 selection: exact values, tie-breaking, negative scores, and agreement with the reference."""

import math
import random

import pytest

from mcts_core import Scoring, ROOT, build_tree, parse_playouts, score_children, select_path, solve, ucb1
from mcts_core.inputs.formats.text import playouts_of
from mcts_core.inputs.examples import STATEMENT_EXAMPLE
from cases import random_puzzle
from reference import reference_solve


def make_tree(*rows):
    """A tree from ``("word", score)`` rows."""
    return build_tree(playouts_of([w for w, _ in rows], [float(s) for _, s in rows], range(1, len(rows) + 1), None))


def test_statement_example_selects_a():
    assert solve(STATEMENT_EXAMPLE) == "a"


def test_ucb1_terms_are_hand_computed_values():
    terms = ucb1(3, 2, 34.0, c=0.1)
    assert terms["mean"] == 17.0
    assert terms["exploration"] == 0.1 * math.sqrt(math.log(3) / 2)
    assert terms["value"] == 34.0 / 2 + 0.1 * math.sqrt(math.log(3) / 2)
    assert terms["exploration"] == pytest.approx(0.0741152, abs=1e-7)


def test_root_children_scores_for_the_statement_example():
    tree = build_tree(parse_playouts(STATEMENT_EXAMPLE))
    a, b = score_children(tree, ROOT, Scoring(c=0.1))
    assert (a.move, a.rank, a.selected, b.move, b.rank) == ("a", 1, True, "b", 2)
    assert a.terms["mean"] == 20.0 and b.terms["mean"] == 17.0


def test_larger_c_flips_the_choice_to_the_less_visited_child():
    tree = make_tree(("a", 10), ("b", 9), ("a", 10), ("a", 10), ("a", 10))
    assert select_path(tree, Scoring(c=0.0)) == "a"
    assert select_path(tree, Scoring(c=5.0)) == "b"


def test_smaller_move_wins_exact_tie():
    tree = make_tree(("b", 5), ("a", 5), ("c", 5))
    assert select_path(tree, Scoring(c=1.0)) == "a"
    assert [child.move for child in score_children(tree, ROOT, Scoring(c=1.0))] == ["a", "b", "c"]


def test_tie_break_does_not_depend_on_input_order():
    rows = [("d", 3), ("b", 3), ("c", 3), ("b", 1), ("d", 1), ("c", 1)]
    for seed in range(20):
        random.Random(seed).shuffle(rows)
        assert select_path(make_tree(*rows), Scoring(c=0.7)) == "b"


def test_negative_scores_never_lose_to_an_imaginary_zero():
    tree = make_tree(("a", -50), ("b", -10), ("ba", -20))
    assert select_path(tree, Scoring(c=0.0)) == "ba"


def test_c_zero_is_greedy_on_the_mean():
    tree = make_tree(("a", 1), ("b", 2), ("c", 3), ("cc", 10), ("ca", 1))
    assert select_path(tree, Scoring(c=0)) == "cc"  # c: mean 14/3 beats b: 2, then cc: 10 beats ca: 1


def test_path_follows_existing_nodes_only():
    tree = make_tree(("abc", 1), ("abc", 1))  # creates a, then ab; abc never exists
    assert select_path(tree, Scoring(c=1.0)) == "ab"


def test_a_leaf_root_selects_nothing():
    assert select_path(make_tree(), Scoring(c=1.0)) == ""


def test_solve_agrees_with_reference_on_thousands_of_random_puzzles():
    rng = random.Random(2026)
    for _ in range(3000):
        text = random_puzzle(rng)
        assert solve(text) == reference_solve(text), text
