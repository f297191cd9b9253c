"""Comparing two selection settings: the split node, both choices, terms and ranks (hand-computed)."""

import random

import pytest

from mcts_core import ROOT, Scoring, build_tree, parse_playouts
from mcts_core.analysis.compare import compare_paths, comparison_rows
from mcts_core.inputs.examples import C_FLIPS_CHOICE
from mcts_core.inputs.examples import STATEMENT_EXAMPLE

# C_FLIPS_CHOICE builds (visits, total):
#   root (6, 58)
#   ├─ a (5, 50), mean 10 ── aa (1, 10); ab (3, 30) ── aba (1, 10); abb (1, 10)
#   └─ b (1, 8),  mean 8
# At the root ln 6 = 1.791759: a explores sqrt(ln 6 / 5) = 0.598625 per unit of C, b sqrt(ln 6) = 1.338566.
# At a ln 5 = 1.609438: aa explores sqrt(ln 5) = 1.268636, ab sqrt(ln 5 / 3) = 0.732447.
SQRT_LN6_OVER_5 = 0.598625
SQRT_LN6 = 1.338566


def flips_tree():
    return build_tree(parse_playouts(C_FLIPS_CHOICE))


def moves(tree, nodes):
    return "".join(tree.move[node] for node in nodes[1:])


def by_move(comparison):
    return {child.move: child for child in comparison.children}


def test_small_and_large_c_split_at_the_root():
    tree = flips_tree()
    comparison = compare_paths(tree, Scoring.of("ucb1", c=0.5), Scoring.of("ucb1", c=5.0))
    # C = 0.5: a 10 + 0.5 * 0.598625 = 10.299313 beats b 8 + 0.5 * 1.338566 = 8.669283; then at a,
    # aa 10 + 0.5 * 1.268636 = 10.634318 beats ab 10 + 0.5 * 0.732447 = 10.366224: "aa".
    # C = 5: a 10 + 5 * 0.598625 = 12.993125 loses to b 8 + 5 * 1.338566 = 14.692831: "b" (a leaf).
    assert moves(tree, comparison.path_a) == "aa"
    assert moves(tree, comparison.path_b) == "b"
    assert not comparison.identical
    assert comparison.split == ROOT and comparison.shared == (ROOT,)
    assert tree.move[comparison.choice_a] == "a" and tree.move[comparison.choice_b] == "b"
    assert comparison.common_terms == ("mean", "exploration", "value")
    assert comparison.only_a == comparison.only_b == ()

    a, b = by_move(comparison)["a"], by_move(comparison)["b"]
    assert [child.move for child in comparison.children] == ["a", "b"]  # best under A first
    assert (a.a.rank, a.b.rank, b.a.rank, b.b.rank) == (1, 2, 2, 1)
    assert a.rank_changed and b.rank_changed
    assert a.a.value == pytest.approx(10.299313, abs=1e-6)
    assert a.b.value == pytest.approx(12.993125, abs=1e-6)
    assert b.a.value == pytest.approx(8.669283, abs=1e-6)
    assert b.b.value == pytest.approx(14.692831, abs=1e-6)
    # Only the exploration term moves with C: B - A = (5 - 0.5) * sqrt(ln N / n).
    assert a.differences["mean"] == b.differences["mean"] == 0.0
    assert a.differences["exploration"] == pytest.approx(4.5 * SQRT_LN6_OVER_5, abs=1e-5)  # 2.693813
    assert b.differences["exploration"] == pytest.approx(4.5 * SQRT_LN6, abs=1e-5)  # 6.023548
    assert a.differences["value"] == a.b.value - a.a.value


def test_identical_paths_have_no_split_children():
    tree = flips_tree()
    # C = 1: a 10 + 0.598625 = 10.598625 beats b 8 + 1.338566 = 9.338566, then aa (11.27) beats ab (10.73).
    comparison = compare_paths(tree, Scoring.of("ucb1", c=0.5), Scoring.of("ucb1", c=1.0))
    assert comparison.identical
    assert moves(tree, comparison.path_a) == moves(tree, comparison.path_b) == "aa"
    assert comparison.split == tree.find("aa")  # the common leaf
    assert comparison.shared == comparison.path_a
    assert comparison.choice_a is None and comparison.choice_b is None
    assert comparison.children == () and comparison_rows(comparison) == []


def test_a_bias_term_makes_the_paths_split_below_the_root():
    tree = flips_tree()
    bias = Scoring.of("progressive_bias", c=0.5, w=1.0, heuristic={"b": 1.0})
    comparison = compare_paths(tree, Scoring.of("ucb1", c=0.5), bias)
    # Root: b gets 8.669283 + 1 * 1 / sqrt(1) = 9.669283 < a 10.299313 (H(a) = 0): both pick a.
    # At a: ab gets 10.366224 + 1 / sqrt(3) = 10.943574 > aa 10.634318: B picks ab, A picks aa.
    # At ab (ln 3 = 1.098612): aba 10 + 0.5 * 1.048147 = 10.524074, abb the same + 1 = 11.524074.
    assert moves(tree, comparison.path_a) == "aa"
    assert moves(tree, comparison.path_b) == "abb"
    assert comparison.split == tree.find("a") and comparison.shared == (ROOT, tree.find("a"))
    assert tree.path(comparison.choice_a) == "aa" and tree.path(comparison.choice_b) == "ab"
    assert comparison.common_terms == ("mean", "exploration", "value")
    assert comparison.only_a == () and comparison.only_b == ("bias",)

    aa, ab = by_move(comparison)["a"], by_move(comparison)["b"]
    assert (aa.a.rank, aa.b.rank, ab.a.rank, ab.b.rank) == (1, 2, 2, 1)
    assert ab.b.terms["bias"] == pytest.approx(0.577350, abs=1e-6)
    assert ab.differences == pytest.approx({"mean": 0.0, "exploration": 0.0, "value": 0.577350}, abs=1e-6)
    assert aa.differences == {"mean": 0.0, "exploration": 0.0, "value": 0.0}  # H(a) = 0: bit-identical


def test_statement_example_heuristic_flips_a_to_b():
    tree = build_tree(parse_playouts(STATEMENT_EXAMPLE))
    # root (3, 54); a (1, 20), mean 20; b (2, 34), mean 17, with one child bb (1, 4).
    # A, UCB1 at C = 0.1: a 20 + 0.1 * sqrt(ln 3) = 20.104815, b 17 + 0.1 * sqrt(ln 3 / 2) = 17.074115.
    # B adds W * H / sqrt(n) = 10 / sqrt(2) = 7.071068 to b: 24.145183 beats a; then bb, b's only child.
    comparison = compare_paths(
        tree, Scoring.of("ucb1", c=0.1), Scoring.of("progressive_bias", c=0.1, w=1.0, heuristic={"b": 10.0})
    )
    assert moves(tree, comparison.path_a) == "a" and moves(tree, comparison.path_b) == "bb"
    assert comparison.split == ROOT
    a, b = by_move(comparison)["a"], by_move(comparison)["b"]
    assert a.a.value == pytest.approx(20.104815, abs=1e-6)
    assert b.a.value == pytest.approx(17.074115, abs=1e-6)
    assert b.b.value == pytest.approx(24.145183, abs=1e-6)
    assert b.differences["value"] == pytest.approx(7.071068, abs=1e-6)
    assert (a.a.rank, a.b.rank, b.a.rank, b.b.rank) == (1, 2, 2, 1)


def test_rules_with_different_terms_compare_the_common_ones_and_list_the_rest():
    tree = flips_tree()
    # Below T = 10 (the root has 6 visits) the sample-threshold rule draws: a and b each 1/2, the
    # tie goes to a, then aa (also 1/2 each). UCB1 at C = 5 picks b.
    comparison = compare_paths(tree, Scoring.of("ucb1", c=5.0), Scoring.of("sample_threshold", c=1.0))
    assert moves(tree, comparison.path_a) == "b" and moves(tree, comparison.path_b) == "aa"
    assert comparison.common_terms == ("mean", "value")
    assert comparison.only_a == ("exploration",)
    assert comparison.only_b == ("heuristic", "probability")
    b = by_move(comparison)["b"]
    assert b.b.random and b.b.probability == 0.5
    assert b.differences["value"] == pytest.approx(0.5 - 14.692831, abs=1e-6)

    rows = {row["move"]: row for row in comparison_rows(comparison)}
    assert list(rows["b"]) == [
        "move", "visits", "rank A", "rank B", "rank changed",
        "mean", "value A", "value B", "Δ value",
        "exploration A", "heuristic B", "probability B",
    ]  # fmt: skip  (the mean is the same under both, so it gets one column)
    assert rows["b"]["rank A"] == 1 and rows["b"]["rank B"] == 2 and rows["b"]["rank changed"]
    assert rows["a"]["probability B"] == 0.5 and rows["a"]["exploration A"] == pytest.approx(5 * SQRT_LN6_OVER_5, abs=1e-5)


def test_rule_defaults_to_ucb1_and_swapping_settings_swaps_sides():
    tree = flips_tree()
    forward = compare_paths(tree, Scoring(c=0.5), Scoring.of("ucb1", c=5.0))
    backward = compare_paths(tree, Scoring(c=5.0), Scoring(c=0.5))
    assert forward.path_a == backward.path_b and forward.path_b == backward.path_a
    assert forward.split == backward.split == ROOT
    assert [child.move for child in backward.children] == ["b", "a"]  # best under A (now C = 5) first
    for f, g in zip(sorted(forward.children, key=lambda x: x.move), sorted(backward.children, key=lambda x: x.move)):
        assert f.differences["exploration"] == -g.differences["exploration"]


def test_children_order_does_not_matter():
    # Playouts shuffled, then stably sorted by length: every prefix is still created by its one-move
    # playout first, so each node keeps its statistics, but siblings are created in another order.
    lines = [line for line in C_FLIPS_CHOICE.splitlines()[3:] if line]
    original = flips_tree()
    baseline = compare_paths(original, Scoring(c=0.5), Scoring(c=5.0))
    for seed in range(5):
        shuffled = lines[:]
        random.Random(seed).shuffle(shuffled)
        tree = build_tree(parse_playouts("\n".join(sorted(shuffled, key=lambda line: len(line.split()[0]))) + "\n"))
        comparison = compare_paths(tree, Scoring(c=0.5), Scoring(c=5.0))
        assert moves(tree, comparison.path_a) == moves(original, baseline.path_a)
        assert moves(tree, comparison.path_b) == moves(original, baseline.path_b)
        assert [(c.move, c.a.rank, c.b.rank) for c in comparison.children] == [
            (c.move, c.a.rank, c.b.rank) for c in baseline.children
        ]


def test_rows_keep_a_and_b_columns_only_for_terms_that_differ():
    tree = flips_tree()
    rows = comparison_rows(compare_paths(tree, Scoring(c=0.5), Scoring(c=5.0)))
    assert list(rows[0]) == [
        "move", "visits", "rank A", "rank B", "rank changed",
        "mean", "exploration A", "exploration B", "Δ exploration", "value A", "value B", "Δ value",
    ]  # fmt: skip
    assert [row["mean"] for row in rows] == [10.0, 8.0]
    assert rows[1]["Δ exploration"] == rows[1]["exploration B"] - rows[1]["exploration A"]


def test_describe_names_the_rule_c_and_the_settings_off_their_defaults():
    assert Scoring(c=0.5).describe() == "UCB1, C = 0.5"
    assert Scoring.of("puct", c=1.25, normalise="minmax", priors=None).describe() == (
        "PUCT (AlphaZero), C = 1.25, normalise = minmax"
    )
    bias = Scoring.of("progressive_bias", c=2.0, w=34.0, heuristic={"a": 1.0, "b": 2.0})
    assert bias.describe("\n") == "UCB1 + progressive bias\nC = 2\nw = 34\nheuristic: 2 moves"
    threshold = Scoring.of("sample_threshold", c=1.0, t=10, t2=200, fallback="random")
    assert threshold.describe() == "Sample threshold + ramping C, C = 1, t2 = 200"
