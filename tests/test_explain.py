"""Why a child won: the deciding term is one whose sum is the value, unvisited children and ties in
words that hold (no nan, the log's own tie order)."""

import math

import pytest

from mcts_core import ROOT, RULES, Scoring, build_tree, parse_playouts, score_children
from mcts_core.analysis import explain_choice
from mcts_core.selection import ChildScore
from mcts_core.selection.rules.ucb1 import ucb1
from ui.common.wording import why_sentence

SCORES = "a 100\na 100\nb 0\nb 0\nb 0\nb 0\nc 60\n"  # means 100, 0, 60: min-max Q spans 0..1


def unvisited(move: str, rank: int) -> ChildScore:
    return ChildScore(rank, move, 0, 0.0, ucb1(5, 0, 0.0, c=1.0), rank)


@pytest.mark.parametrize("rule", list(RULES))
def test_every_rules_addends_add_up_to_its_value(rule):
    tree = build_tree(parse_playouts(SCORES))
    scoring = Scoring.of(rule, c=0.7, **({"t": 0} if rule == "sample_threshold" else {}))
    for child in score_children(tree, ROOT, scoring):
        assert sum(child.terms[name] for name in RULES[rule].addends) == pytest.approx(child.value)


def test_under_puct_with_min_max_the_deciding_term_is_q_not_the_raw_mean():
    tree = build_tree(parse_playouts(SCORES))
    choice = explain_choice(score_children(tree, ROOT, Scoring.of("puct", c=1.0, normalise="minmax")), "puct")
    assert (choice.winner.move, choice.runner_up.move) == ("a", "c")
    assert choice.deciding == "q" and set(choice.differences) == {"q", "exploration"}  # mean +40 is not a term of the value
    assert "**exploitation \\(Q\\)** decided" in why_sentence(choice)


def test_a_prior_is_never_named_as_the_deciding_term():
    tree = build_tree(parse_playouts("a 0.51\nc 0.5\n"))  # the prior gap (0.9) dwarfs the others
    scoring = Scoring.of("puct", c=0.1, priors={"a": 0.95, "c": 0.05})
    choice = explain_choice(score_children(tree, ROOT, scoring), "puct")
    assert choice.winner.move == "a" and choice.winner.terms["prior"] - choice.runner_up.terms["prior"] > 0.8
    assert choice.deciding == "exploration" and "prior" not in choice.differences


def test_two_unvisited_children_tie_in_words_without_nan():
    choice = explain_choice([unvisited("x", 1), unvisited("y", 2)], "ucb1", "first")
    sentence = why_sentence(choice)
    assert choice.deciding == "tie" and choice.margin == 0.0
    assert "nan" not in sentence and "both unvisited" in sentence and "first child in the node's order wins" in sentence


def test_an_unvisited_child_beats_a_visited_one_because_it_is_unvisited():
    visited = ChildScore(2, "v", 3, 2.0, ucb1(5, 3, 2.0, c=1.0), 2)
    choice = explain_choice([unvisited("x", 1), visited], "ucb1")
    sentence = why_sentence(choice)
    assert choice.deciding == "unvisited" and math.isinf(choice.margin)
    assert "nan" not in sentence and "has no visits yet" in sentence


def test_a_tie_names_the_logs_own_tie_order():
    tie = build_tree(parse_playouts("b 5\na 5\n"))
    choice = explain_choice(score_children(tie, ROOT, Scoring(c=1.0)), "ucb1", tie.ties)
    assert "the smaller move wins" in why_sentence(choice)
    first = explain_choice(score_children(tie, ROOT, Scoring(c=1.0)), "ucb1", "first")
    assert "first child in the node's order wins" in why_sentence(first) and "smaller" not in why_sentence(first)
