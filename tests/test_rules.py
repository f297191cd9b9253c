"""Selection rules beyond the puzzle's UCB1: hand-computed terms, thresholds, presets, move values."""

import inspect
import json
import math
import random
import re

import pytest

from mcts_core import (
    Scoring,
    PROBABILITY,
    ROOT,
    RULE_PRESETS,
    RULES,
    ParseError,
    Siblings,
    annotated_values,
    build_tree,
    parse_move_values,
    parse_playouts,
    progressive_bias,
    puct,
    ramped_c,
    score_children,
    select_child,
    select_path,
    selected_nodes,
    ucb1,
    ucb1_tuned,
    under_threshold,
)
from mcts_core.inputs.formats.text import playouts_of
from mcts_core.inputs.loading import read_input
from mcts_core.selection import RULE_REGISTRY, settings_problem
from mcts_core.simultaneous import JointScoring
from cases import random_puzzle
from reference import reference_solve


def make_tree(*rows):
    """A tree from ``("word", score)`` rows."""
    return build_tree(playouts_of([w for w, _ in rows], [float(s) for _, s in rows], range(1, len(rows) + 1), None))


def by_move(scored):
    """Move -> ChildScore."""
    return {child.move: child for child in scored}


def random_trees(count, seed=2026):
    """(tree, C, puzzle text) for seeded random puzzles from tests/cases.py."""
    rng = random.Random(seed)
    for _ in range(count):
        text = random_puzzle(rng)
        playouts = parse_playouts(text)
        yield build_tree(playouts), playouts.c, text


# --- UCB1 is unchanged -------------------------------------------------------------------------


def test_ucb1_by_name_equals_the_default_and_the_reference_on_random_puzzles():
    for tree, c, text in random_trees(500):
        default = select_path(tree, Scoring(c=c))
        assert select_path(tree, Scoring.of("ucb1", c=c)) == default == reference_solve(text)
        assert selected_nodes(tree, Scoring.of("ucb1", c=c)) == selected_nodes(tree, Scoring(c=c))
        for node in selected_nodes(tree, Scoring(c=c)):
            for child in score_children(tree, node, Scoring.of("ucb1", c=c)):
                assert child.terms == ucb1(tree.visits[node], child.visits, child.total, c=c)


def test_ucb1_children_have_deterministic_probabilities():
    tree = make_tree(("a", 1), ("b", 2), ("c", 3))
    scored = score_children(tree, ROOT, Scoring(c=1.0))
    assert [child.probability for child in scored] == [1.0, 0.0, 0.0]
    assert not any(child.random for child in scored)
    assert not under_threshold(tree, ROOT, Scoring(c=1.0))


# --- UCB1-Tuned --------------------------------------------------------------------------------


def test_ucb1_tuned_terms_are_hand_computed_values():
    # Child: 2 visits, scores 1 and 3 -> total 4, total_sq 1 + 9 = 10; parent N = 3.
    # mean = 2; variance = 10/2 - 2**2 = 1; V = 1 + sqrt(2 ln 3 / 2) = 1 + sqrt(ln 3) ~ 2.048.
    terms = ucb1_tuned(3, 2, 4.0, c=1.0, total_sq=10.0)
    assert list(terms) == ["mean", "variance", "exploration", "value"]
    assert terms["mean"] == 2.0 and terms["variance"] == 1.0
    # min(1/4, 2.048) = 1/4: exploration = sqrt(ln 3 / 2 * 1/4) = sqrt(1.098612 / 8) ~ 0.370576
    assert terms["exploration"] == math.sqrt(math.log(3) / 2 * 0.25)
    assert terms["exploration"] == pytest.approx(0.3705760, abs=1e-7)
    assert terms["value"] == 2.0 + terms["exploration"]
    # A cap above V: exploration = sqrt(ln 3 / 2 * (1 + sqrt(ln 3))) ~ 1.06061
    wide = ucb1_tuned(3, 2, 4.0, c=1.0, total_sq=10.0, cap=100.0)
    log3 = math.log(3)
    assert wide["exploration"] == pytest.approx(math.sqrt(log3 / 2 * (1 + math.sqrt(log3))))
    assert wide["exploration"] == pytest.approx(1.0606, abs=1e-4)


def test_ucb1_tuned_gets_total_sq_from_the_tree():
    tree = make_tree(("a", 1), ("a", 3), ("b", 2))  # root N = 3; a: v 2, s 4, s2 10; b: v 1, s 2, s2 4
    scored = score_children(tree, ROOT, Scoring.of("ucb1_tuned", c=1.0, cap=100.0))
    a, b = by_move(scored)["a"], by_move(scored)["b"]
    assert a.terms == ucb1_tuned(3, 2, 4.0, c=1.0, total_sq=10.0, cap=100.0)
    # b: mean 2, variance 4/1 - 4 = 0; V = 0 + sqrt(2 ln 3) ~ 1.482; exploration = sqrt(ln 3 * 1.482)
    assert b.terms["variance"] == 0.0
    assert b.terms["exploration"] == pytest.approx(math.sqrt(math.log(3) * math.sqrt(2 * math.log(3))))
    assert a.rank == 2 and b.rank == 1  # equal means; b's single visit explores more


def test_ucb1_tuned_variance_never_goes_negative_from_rounding():
    # 0.1 three times: total_sq / n - mean**2 is a hair below 0 in floats.
    terms = ucb1_tuned(5, 3, 0.1 + 0.1 + 0.1, c=1.0, total_sq=0.01 + 0.01 + 0.01)
    assert terms["variance"] >= 0.0


# --- PUCT --------------------------------------------------------------------------------------


SIBLINGS = Siblings(moves=("a", "b"), min_mean=0.0, max_mean=4.0)


def test_puct_raw_and_minmax_values_by_hand():
    # N = 9, child n = 3, total 6 -> mean 2; uniform prior 1/2;
    # exploration = 2 * 1/2 * sqrt(9) / (1 + 3) = 0.75
    raw = puct(9, 3, 6.0, c=2.0, move="a", siblings=SIBLINGS)
    assert list(raw) == ["mean", "q", "prior", "exploration", "value"]
    assert raw == {"mean": 2.0, "q": 2.0, "prior": 0.5, "exploration": 0.75, "value": 2.75}
    # minmax: q = (2 - 0) / (4 - 0) = 0.5; value = 0.5 + 0.75
    minmax = puct(9, 3, 6.0, c=2.0, move="a", siblings=SIBLINGS, normalise="minmax")
    assert minmax["q"] == 0.5 and minmax["value"] == 1.25


def test_puct_given_priors_and_unlisted_moves():
    # P(a) = 0.8: exploration = 2 * 0.8 * 3 / 4 ~ 1.2
    a = puct(9, 3, 6.0, c=2.0, move="a", siblings=SIBLINGS, priors={"a": 0.8})
    assert a["prior"] == 0.8 and a["exploration"] == 2.0 * 0.8 * math.sqrt(9) / (1 + 3)
    b = puct(9, 3, 6.0, c=2.0, move="b", siblings=SIBLINGS, priors={"a": 0.8})
    assert b["prior"] == 0.0 and b["exploration"] == 0.0 and b["value"] == 2.0
    empty = puct(9, 3, 6.0, c=2.0, move="b", siblings=SIBLINGS, priors={})
    assert empty["prior"] == 0.5  # no priors at all: uniform


def test_puct_minmax_with_equal_sibling_means_is_one_half():
    same = Siblings(moves=("a",), min_mean=2.0, max_mean=2.0)
    assert puct(1, 1, 2.0, c=1.0, move="a", siblings=same, normalise="minmax")["q"] == 0.5


def test_puct_normalisation_choice_can_flip_the_selection():
    # a: 20 visits of 100, b: 1 visit of 90; N = 21, c = 1, uniform prior 1/2.
    # raw:    a = 100 + 0.5 * sqrt(21) / 21 ~ 100.11,  b = 90 + 0.5 * sqrt(21) / 2 ~ 91.15   -> a
    # minmax: a = 1 + 0.109 ~ 1.109,                    b = 0 + 1.146                        -> b
    tree = make_tree(*[("a", 100)] * 20, ("b", 90))
    assert select_path(tree, Scoring.of("puct", c=1.0)) == "a"
    assert select_path(tree, Scoring.of("puct", c=1.0, normalise="minmax")) == "b"
    b = by_move(score_children(tree, ROOT, Scoring.of("puct", c=1.0, normalise="minmax")))["b"]
    assert b.terms["q"] == 0.0 and b.terms["exploration"] == pytest.approx(0.5 * math.sqrt(21) / 2)


def test_puct_rejects_an_unknown_normalisation():
    with pytest.raises(ValueError, match='normalise must be one of raw, minmax, got "zscore"'):
        Scoring.of("puct", c=1.0, normalise="zscore")


# --- progressive bias --------------------------------------------------------------------------


def test_progressive_bias_terms_by_hand():
    # N = 4, n = 1, total 5: mean 5, exploration = 2 * sqrt(ln 4) ~ 2.3548, bias = 3 * 2 / sqrt(1) = 6
    terms = progressive_bias(4, 1, 5.0, c=2.0, move="a", w=3.0, heuristic={"a": 2.0})
    assert list(terms) == ["mean", "bias", "exploration", "value"]
    assert terms["bias"] == 6.0
    assert terms["exploration"] == pytest.approx(2.3548, abs=1e-4)
    assert terms["value"] == ucb1(4, 1, 5.0, c=2.0)["value"] + 6.0
    # n = 4: the bias fades as 1/sqrt(n): 3 * 2 / 2 = 3
    assert progressive_bias(9, 4, 5.0, c=2.0, move="a", w=3.0, heuristic={"a": 2.0})["bias"] == 3.0


def test_progressive_bias_without_a_heuristic_is_ucb1_bit_for_bit():
    for tree, c, _ in random_trees(200, seed=11):
        assert select_path(tree, Scoring.of("progressive_bias", c=c, w=34.0)) == select_path(tree, Scoring(c=c))
        for child in score_children(tree, ROOT, Scoring.of("progressive_bias", c=c, heuristic={"z": 5.0})):
            assert child.value == ucb1(tree.visits[ROOT], child.visits, child.total, c=c)["value"]


def test_heuristic_steers_selection_and_negative_values_push_away():
    tree = make_tree(("a", 10), ("b", 10), ("a", 10), ("b", 10))  # a and b identical: a wins the tie
    assert select_path(tree, Scoring.of("progressive_bias", c=1.0)) == "a"
    assert select_path(tree, Scoring.of("progressive_bias", c=1.0, heuristic={"b": 0.5})) == "b"
    assert select_path(tree, Scoring.of("progressive_bias", c=1.0, heuristic={"a": -0.5})) == "b"


def test_contest_bias_preset_matches_the_write_up():
    # CodeCup 2022 bot: Value + 34 MoveScore / sqrt(n) + sqrt(7 ln N) / sqrt(n)
    preset = RULE_PRESETS["Contest bot: UCB + progressive bias (W = 34, C = √7)"]
    assert preset.rule == "progressive_bias" and preset.settings["w"] == 34.0
    terms = progressive_bias(50, 8, 40.0, move="a", heuristic={"a": 1.5}, **preset.keywords())
    assert terms["bias"] == 34 * 1.5 / math.sqrt(8)
    assert terms["exploration"] == pytest.approx(math.sqrt(7 * math.log(50)) / math.sqrt(8), rel=1e-12)


# --- sample thresholds and the ramp ------------------------------------------------------------


def test_ramp_endpoints_and_midpoint():
    ramp = dict(c=2.0, c0=0.5, t=10, t2=20)
    assert ramped_c(10, **ramp) == 0.5  # starts at C0 at T
    assert ramped_c(15, **ramp) == 1.25  # 0.5 + (2 - 0.5) * 5 / 10
    assert ramped_c(20, **ramp) == 2.0  # reaches C at T2 ...
    assert ramped_c(10**6, **ramp) == 2.0  # ... and stays there
    assert ramped_c(10, c=2.0, c0=0.5, t=10, t2=10) == 2.0  # T2 = T: no ramp
    assert ramped_c(12, c=2.0, c0=0.5, t=10, t2=5) == 2.0  # T2 < T: no ramp


def random_tree():
    """Root N = 6 with children a (v 3, s 15), b (v 2, s 3), c (v 1, s 9); a has children ab, aa."""
    return make_tree(("aa", 5), ("b", 1), ("ab", 7), ("c", 9), ("b", 2), ("aa", 3))


def test_under_threshold_random_fallback_is_uniform():
    tree = random_tree()
    scored = score_children(tree, ROOT, Scoring.of("sample_threshold", c=1.0, t=7))  # N = 6 < T = 7
    assert under_threshold(tree, ROOT, Scoring.of("sample_threshold", c=1.0, t=7))
    assert all(child.random for child in scored)
    assert [child.probability for child in scored] == [1 / 3] * 3
    assert math.fsum(child.probability for child in scored) == 1.0
    assert list(scored[0].terms) == ["mean", "heuristic", PROBABILITY, "value"]
    # All equally likely: the path follows the smaller move, a, then a again (a's N = 3 < 7).
    assert select_path(tree, Scoring.of("sample_threshold", c=1.0, t=7)) == "aa"


def test_under_threshold_heuristic_fallback_is_argmax_with_ties_shared():
    tree = random_tree()
    settings = dict(c=1.0, t=7, fallback="heuristic")
    settings["heuristic"] = {"c": 2.0, "b": 2.0}
    scored = by_move(score_children(tree, ROOT, Scoring.of("sample_threshold", **settings)))
    assert {move: child.probability for move, child in scored.items()} == {"a": 0.0, "b": 0.5, "c": 0.5}
    assert select_child(tree, ROOT, Scoring.of("sample_threshold", **settings)) == tree.find("b")
    # No heuristic: every H is 0, all tie, uniform.
    settings["heuristic"] = None
    uniform = score_children(tree, ROOT, Scoring.of("sample_threshold", **settings))
    assert [ch.probability for ch in uniform] == [1 / 3] * 3
    # Negative H: the unlisted moves (H = 0) are the best.
    settings["heuristic"] = {"a": -1.0, "b": -1.0}
    only = score_children(tree, ROOT, Scoring.of("sample_threshold", **settings))
    assert [(ch.move, ch.probability) for ch in only] == [("c", 1.0), ("a", 0.0), ("b", 0.0)]


def test_at_the_threshold_the_formula_takes_over_with_c0():
    tree = random_tree()
    # N = 6 = T: deterministic, C = C0 = 0 (pure exploitation): c (mean 9) beats a (mean 5) and b (1.5)
    settings = dict(c=5.0, c0=0.0, t=6, t2=100)
    assert not under_threshold(tree, ROOT, Scoring.of("sample_threshold", **settings))
    best = score_children(tree, ROOT, Scoring.of("sample_threshold", **settings))[0]
    assert list(best.terms) == ["mean", "bias", "effective_c", "exploration", "value"]
    assert (best.move, best.terms["effective_c"]) == ("c", 0.0)
    assert (best.probability, best.random) == (1.0, False)
    # Past the threshold the terms are progressive bias with the ramped C: at N = 6, T = 2, T2 = 10,
    # C = 0 + 5 * 4 / 8 = 2.5.
    a = by_move(score_children(tree, ROOT, Scoring.of("sample_threshold", c=5.0, t=2, t2=10)))["a"]
    assert a.terms["effective_c"] == 2.5
    assert a.terms["value"] == progressive_bias(6, 3, 15.0, c=2.5, move="a", w=0.0)["value"]


def test_path_continues_through_random_nodes_and_flags_them():
    tree = random_tree()
    settings = dict(c=0.0, t=4)  # root (N = 6) decides by the formula, a (N = 3) draws at random
    nodes = selected_nodes(tree, Scoring.of("sample_threshold", **settings))
    assert [tree.path(node) for node in nodes] == ["", "c"]  # greedy: c has the best mean
    assert not any(under_threshold(tree, node, Scoring.of("sample_threshold", **settings)) for node in nodes)
    a = tree.find("a")
    assert under_threshold(tree, a, Scoring.of("sample_threshold", **settings))
    # From a, both children are equally likely: the path follows the smaller move.
    below = selected_nodes(tree, Scoring.of("sample_threshold", **settings), start=a)
    assert [tree.path(node) for node in below] == ["a", "aa"]
    drawn = score_children(tree, a, Scoring.of("sample_threshold", **settings))
    assert [ch.probability for ch in drawn] == [0.5, 0.5]


def test_threshold_zero_without_bias_is_ucb1_bit_for_bit():
    for tree, c, text in random_trees(300, seed=5):
        path = select_path(tree, Scoring.of("sample_threshold", c=c, t=0, t2=0))
        assert path == select_path(tree, Scoring(c=c)) == reference_solve(text)
        for child in score_children(tree, ROOT, Scoring.of("sample_threshold", c=c, t=0, t2=0)):
            assert child.value == ucb1(tree.visits[ROOT], child.visits, child.total, c=c)["value"]


def test_probabilities_sum_to_one_at_every_node_under_any_threshold():
    for tree, c, _ in random_trees(100, seed=3):
        for fallback in ("random", "heuristic"):
            heuristic = {"a": 1.0, "b": 1.0, "c": -1.0}
            settings = dict(c=c, t=50, t2=80, fallback=fallback, heuristic=heuristic)
            for node in range(len(tree)):
                scored = score_children(tree, node, Scoring.of("sample_threshold", **settings))
                if scored:
                    assert math.isclose(math.fsum(ch.probability for ch in scored), 1.0)
                    assert scored[0].probability == max(ch.probability for ch in scored)


def test_sample_threshold_rejects_an_unknown_fallback():
    with pytest.raises(ValueError, match='fallback must be one of random, heuristic, got "greedy"'):
        Scoring.of("sample_threshold", c=1.0, fallback="greedy")


def test_contest_threshold_preset_draws_below_1000_visits_and_uses_34_and_sqrt_7_after():
    preset = RULE_PRESETS["Contest bot: random below 1000 visits, then UCB + progressive bias (W = 34)"]
    settings = preset.settings
    assert preset.rule == "sample_threshold"
    assert (settings["t"], settings["fallback"], settings["w"]) == (1000, "random", 34.0)
    assert preset.c ** 2 == pytest.approx(7.0) and settings["c0"] == preset.c
    small = random_tree()
    assert under_threshold(small, ROOT, preset)
    # 1000 playouts: root N = 1000 >= T, so the formula decides with C = sqrt(7) from the start.
    big = make_tree(*[("a", 1)] * 600, *[("b", 2)] * 400)
    with_heuristic = Scoring(preset.rule, preset.c, {**settings, "heuristic": {"b": 1.0}})
    b = by_move(score_children(big, ROOT, with_heuristic))["b"]
    assert b.terms["effective_c"] == math.sqrt(7)
    assert b.terms["bias"] == 34.0 / math.sqrt(400)
    # sqrt(7 ln 1000) / sqrt(400) = sqrt(7 * 6.9078) / 20 ~ 0.3477
    assert b.terms["exploration"] == pytest.approx(math.sqrt(7 * math.log(1000)) / 20, rel=1e-12)
    assert b.terms["exploration"] == pytest.approx(0.3477, abs=1e-4)


# --- the registry, settings and presets ---------------------------------------------------------


def test_every_setting_default_mirrors_the_function_default():
    for key, rule in RULES.items():
        parameters = inspect.signature(rule.function).parameters
        assert rule.settings[0].name == "c", key
        for setting in rule.settings:
            parameter = parameters[setting.name]
            assert parameter.kind is inspect.Parameter.KEYWORD_ONLY
            if parameter.default is not inspect.Parameter.empty:
                assert setting.default == parameter.default, (key, setting.name)
            if setting.kind == "choice":
                assert setting.default in setting.choices
        for name in rule.inputs:
            assert parameters[name].kind is inspect.Parameter.KEYWORD_ONLY
        # Every keyword is either a setting or an input, so a UI can build every control.
        keywords = {name for name, p in parameters.items() if p.kind is inspect.Parameter.KEYWORD_ONLY}
        assert keywords == {s.name for s in rule.settings} | set(rule.inputs), key


def test_every_rule_returns_its_declared_terms_in_order_with_value_last():
    tree = random_tree()
    for key, rule in RULES.items():
        for extra in ({}, {"t": 100}):
            if extra and "t" not in rule.defaults:
                continue
            for node in (ROOT, tree.find("a")):
                for child in score_children(tree, node, Scoring.of(key, **(rule.defaults | extra))):
                    names = list(child.terms)
                    assert names[-1] == "value"
                    assert names == [term for term in rule.terms if term in names], key


def test_every_formula_rule_declares_its_value_as_a_line_in_c_and_it_is_the_rule_s_value():
    # The sweep, the live C control and the picture's values are built from each rule's line in C:
    # a formula rule without one is refused when its class is made.
    from mcts_core.selection.rule import FORMULA, Rule
    from mcts_core.selection.rules import ALL

    with pytest.raises(TypeError, match="without value_form"):
        type("Lineless", (Rule,), {"key": "lineless"})
    tree = random_tree()
    formula_rules = [rule for rule in ALL if rule.kind == FORMULA]
    assert set(RULES) == {rule.key for rule in formula_rules}
    for rule in formula_rules:
        settings = {"t": 3} if "t" in rule.defaults else {}  # a sample threshold the nodes are past
        at_one = Scoring.of(rule.key, c=1.0, **settings)
        for node in (ROOT, tree.find("a")):
            for child in score_children(tree, node, at_one):
                kid = tree.find(tree.path(node) + child.move)
                form = rule.value_form(child.terms, tree.visits[node], tree.visits[kid], tree.total[kid],
                                       at_one.resolved_settings())
                intercept, slope = form.line()
                for c in (0.5, 3.0):
                    value = by_move(score_children(tree, node, at_one.with_c(c)))[child.move].value
                    assert form(c) == value, (rule.key, child.move, c)  # the rule's float, bit for bit
                    assert intercept + c * slope == pytest.approx(value, rel=1e-12), (rule.key, child.move, c)


def test_an_input_cannot_be_passed_as_a_setting():
    with pytest.raises(ValueError, match="PUCT .AlphaZero. has no setting 'move'; it has normalise, priors"):
        score_children(random_tree(), ROOT, Scoring.of("puct", c=1.0, move="a"))


def test_every_preset_names_a_rule_and_only_its_settings_and_runs():
    tree = random_tree()
    for name, preset in RULE_PRESETS.items():
        assert set(preset.settings) <= {s.name for s in RULES[preset.rule].settings}, name
        assert select_path(tree, preset)


def test_a_scoring_refuses_an_unknown_rule_setting_or_c():
    with pytest.raises(ValueError, match="unknown rule"):
        Scoring("ucb2")
    with pytest.raises(ValueError, match="UCB1 has no setting 'w'; it has only C"):
        Scoring.of("ucb1", c=1.0, w=3.0)
    for bad_c in (-1.0, math.inf, math.nan):
        with pytest.raises(ValueError, match="C must be a finite number >= 0"):
            Scoring(c=bad_c)


# A value of the wrong sort for each kind of setting.
BAD_VALUES = {"float": math.nan, "int": 2.5, "choice": "bogus", "move_values": {"a": "x"}}


def test_a_bad_setting_is_refused_when_the_scoring_is_made_with_the_sentence_every_reader_gives():
    # Scoring.of("puct", normalise="bogus") was accepted and refused only when a node was scored
    # (by the formula, or by the search's chooser), in other words than a header's or a link's.
    with pytest.raises(ValueError, match=re.escape('normalise must be one of raw, minmax, got "bogus"')):
        Scoring.of("puct", normalise="bogus")
    for key, rule in RULE_REGISTRY.items():
        make = JointScoring if rule.simultaneous_only else Scoring
        for setting in rule.settings[1:]:
            bad = {setting.name: BAD_VALUES[setting.kind]}
            sentence = settings_problem(key, bad)
            assert sentence is not None and setting.name in sentence, (key, setting.name)
            with pytest.raises(ValueError) as refused:
                make(key, rule.defaults["c"], bad)
            assert str(refused.value) == sentence
            header = json.dumps({"mcts_log": 1, "rule": key, "settings": bad}, allow_nan=True)
            with pytest.raises(ParseError) as read:
                read_input(header + "\n")
            assert str(read.value) == f'line 1: key "settings": {sentence}'
    # What a rule asks of its settings together, too: EXP3 maps returns from [low, high].
    with pytest.raises(ValueError, match=re.escape("low must be smaller than high, got 1.0 and 1.0")):
        JointScoring("exp3", 0.1, {"low": 1.0, "high": 1.0})


def test_per_move_values_left_empty_are_the_default():
    # The sidebar passes None for an empty priors or heuristic box.
    tree = random_tree()
    assert select_path(tree, Scoring.of("puct", priors=None)) == select_path(tree, Scoring.of("puct"))
    assert select_path(tree, Scoring.of("progressive_bias", heuristic=None)) == select_path(tree, Scoring.of("progressive_bias"))


def test_equal_scorings_are_one_cache_key():
    first = Scoring.of("puct", c=1.25, priors={"a": 0.5, "b": 0.5})
    second = Scoring.of("puct", c=1.25, priors={"b": 0.5, "a": 0.5})
    assert first == second and hash(first) == hash(second)
    assert first != first.with_c(2.0)


def test_rule_order_is_independent_of_input_order():
    rows = [("d", 3), ("b", 3), ("c", 3), ("b", 1), ("d", 1), ("c", 1)]  # b, c, d tie under every rule
    for seed in range(10):
        random.Random(seed).shuffle(rows)
        tree = make_tree(*rows)
        paths = tuple(select_path(tree, Scoring.of(key, **rule.defaults)) for key, rule in RULES.items())
        assert paths == ("b",) * len(RULES)


# --- priors / heuristics as text ---------------------------------------------------------------


def test_parse_move_values_reads_lines_comments_and_crlf():
    text = "# priors\r\na 0.6\r\n\r\n  b -2e-1  \r\nc 3\r\n"
    assert parse_move_values(text) == {"a": 0.6, "b": -0.2, "c": 3.0}
    assert parse_move_values("") == {}


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("a nan\n", 1, "finite"),
        ("a 1\nb -inf\n", 2, "finite"),
        ("a 1\n# c\na 2\n", 3, "listed twice (first on line 1)"),
        ("a\n", 1, "expected 2 fields"),
        ("a 1 2\n", 1, "expected 2 fields"),
        ("a x\n", 1, "must be a number"),
        ("a 1_0\n", 1, "must be a number"),
    ],
)
def test_parse_move_values_errors_name_the_line(text, line, message):
    with pytest.raises(ParseError) as error:
        parse_move_values(text)
    assert error.value.line == line
    assert message in error.value.message


ANNOTATED = """\
3 0.1
#prior a 0.6
# prior b 1 (an ordinary comment: a space after #)
baa 30
#prior b 0.4
ab 20
  #heuristic a -2
bbb 4
"""


def test_annotations_ride_along_in_playout_input():
    assert annotated_values(ANNOTATED, "prior") == {"a": 0.6, "b": 0.4}
    assert annotated_values(ANNOTATED, "heuristic") == {"a": -2.0}
    assert annotated_values(ANNOTATED, "bias") == {}
    assert len(parse_playouts(ANNOTATED)) == 3  # the playout parser skips them as comments
    tree = build_tree(parse_playouts(ANNOTATED))
    priors = annotated_values(ANNOTATED, "prior")
    a, b = sorted(score_children(tree, ROOT, Scoring.of("puct", c=1.0, priors=priors)), key=lambda ch: ch.move)
    assert (a.terms["prior"], b.terms["prior"]) == (0.6, 0.4)


def test_annotation_errors_carry_the_input_line_number():
    with pytest.raises(ParseError) as error:
        annotated_values("2 1\na 1\n#prior a\nb 2\n", "prior")
    assert error.value.line == 3 and "expected 2 fields" in error.value.message
    with pytest.raises(ParseError) as error:
        annotated_values("#heuristic a 1\nab 3\n#heuristic a 2\n", "heuristic")
    assert error.value.line == 3


def test_no_code_outside_a_rules_module_branches_on_a_rule():
    # A rule is one object: code elsewhere asks it (its line in C, its fast loop, its check) instead of
    # testing which rule it is (`rule == "ucb1"` made the C sweep page, the C control and the command
    # line UCB1-only). Naming a key as data (a default, a preset, a link) is fine; comparing is not.
    import ast

    from apptest_support import REPO

    keys = set(RULE_REGISTRY)
    rules_folder = REPO / "mcts_core" / "selection" / "rules"
    sources = [*(REPO / "mcts_core").rglob("*.py"), *(REPO / "ui").glob("*.py"), *(REPO / "pages").glob("*.py"), REPO / "app.py"]
    branches = []
    for path in sources:
        if rules_folder in path.parents:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Compare):
                parts = [node.left, *node.comparators]
                named = [part.value for part in parts if isinstance(part, ast.Constant) and part.value in keys]
                named += [element.value for part in parts if isinstance(part, (ast.Tuple, ast.List, ast.Set))
                          for element in part.elts if isinstance(element, ast.Constant) and element.value in keys]
                if named:
                    branches.append(f"{path.relative_to(REPO)}:{node.lineno} compares with {named}")
    assert branches == []
