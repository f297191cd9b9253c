"""Children tables, the explanation of a choice, and the C slider's range."""

import pytest

from mcts_core import Scoring, ROOT, build_tree, parse_playouts, score_children
from mcts_core.analysis.c_range import nice_ceiling, suggest_c_range
from mcts_core.analysis.explain import explain_choice
from mcts_core.tables.children_table import children_table
from mcts_core.inputs.examples import STATEMENT_EXAMPLE


@pytest.fixture
def example_tree():
    return build_tree(parse_playouts(STATEMENT_EXAMPLE))


def test_children_table_has_every_term_best_first(example_tree):
    table = children_table(example_tree, ROOT, Scoring(c=0.1))
    assert list(table.columns) == ["move", "visits", "total", "mean", "exploration", "value", "rank", "selected"]
    assert table.move.tolist() == ["a", "b"]
    assert table.visits.tolist() == [1, 2] and table["mean"].tolist() == [20.0, 17.0]
    assert table["rank"].tolist() == [1, 2] and table.selected.tolist() == [True, False]
    assert table.value.tolist() == [r.value for r in score_children(example_tree, ROOT, Scoring(c=0.1))]


def test_a_leaf_gives_an_empty_table_with_the_same_columns(example_tree):
    table = children_table(example_tree, example_tree.find("a"), Scoring(c=0.1))
    assert table.empty and "value" in table.columns


def test_explanation_names_the_term_that_decided(example_tree):
    choice = explain_choice(score_children(example_tree, ROOT, Scoring(c=0.1)))
    assert (choice.winner.move, choice.runner_up.move, choice.deciding) == ("a", "b", "mean")
    assert choice.differences["mean"] == 3.0
    flips = build_tree(parse_playouts("a 10\nb 8\naa 10\nab 10\naba 10\nabb 10\n"))
    choice = explain_choice(score_children(flips, ROOT, Scoring(c=5.0)))
    assert (choice.winner.move, choice.deciding) == ("b", "exploration")
    assert choice.differences["mean"] == -2.0


def test_explanation_of_ties_and_single_children():
    tie = build_tree(parse_playouts("b 5\na 5\n"))
    assert explain_choice(score_children(tie, ROOT, Scoring(c=1.0))).deciding == "tie"
    single = build_tree(parse_playouts("a 5\n"))
    assert explain_choice(score_children(single, ROOT, Scoring(c=1.0))).deciding == "only child"
    assert explain_choice([]) is None


def test_c_range_spans_a_few_score_spreads_and_includes_the_current_c():
    assert suggest_c_range([30, 20, 4]) == (100.0, 0.1)  # spread 26 -> 78 -> 100
    assert suggest_c_range([5, 5])[0] == 20.0  # no spread: scale by the score itself
    assert suggest_c_range([1.0], 2500)[0] == 5000.0
    assert [nice_ceiling(x) for x in (0.003, 1, 1.01, 3, 7, 40)] == [0.005, 1, 2, 5, 10, 50]
