"""Unit tests of mcts_core.model.playback: snapshots, step records, the race, the classroom formula."""

import dataclasses
import math
import random

import pytest

from mcts_core.inputs.examples import STATEMENT_EXAMPLE
from mcts_core import ROOT, build_tree, parse_playouts, ucb1
from mcts_core.analysis import ucb1_latex
from mcts_core.model import playback as playback_module
from mcts_core.model.playback import NodeStats, Playback, race
from mcts_core.inputs.examples import deep_tree


def assert_same_tree(actual, expected):
    for field in dataclasses.fields(expected):
        got, want = getattr(actual, field.name), getattr(expected, field.name)
        if isinstance(want, (str, int, tuple)) or want is None:
            assert got == want, field.name
        else:  # columns: the same values of the same types, down to the sign of zero
            assert [(type(x), x, math.copysign(1, x) if isinstance(x, float) else 0) for x in got] == [
                (type(x), x, math.copysign(1, x) if isinstance(x, float) else 0) for x in want
            ], field.name


@pytest.mark.parametrize("step_limit", [0, 1, 7, 64, 20_000])
@pytest.mark.parametrize("text", [STATEMENT_EXAMPLE, deep_tree(150)], ids=["statement", "deep"])
def test_every_frame_equals_a_rebuild_of_the_first_k_playouts(text, step_limit, monkeypatch):
    monkeypatch.setattr(playback_module, "STEP_LIMIT", step_limit)  # 0: every frame is built afresh
    playouts = parse_playouts(text)
    playback = Playback(playouts)
    for k in range(len(playouts) + 1):
        assert_same_tree(playback.frame(k).tree, build_tree(playouts, upto=k))


@pytest.mark.parametrize("step_limit", [3, 40])
def test_frames_in_any_order_equal_rebuilds_and_only_a_few_are_kept(step_limit, monkeypatch):
    monkeypatch.setattr(playback_module, "STEP_LIMIT", step_limit)
    playouts = parse_playouts(deep_tree(300))
    playback = Playback(playouts)
    order = random.Random(5).sample(range(len(playouts) + 1), 60) + [10, 9, 10, 9, 200, 11]
    for k in order:
        assert_same_tree(playback.frame(k).tree, build_tree(playouts, upto=k))
        assert len(playback._frames) <= playback_module.KEPT_FRAMES


def test_statement_example_creates_b_then_a_then_bb():
    playback = Playback(parse_playouts(STATEMENT_EXAMPLE))
    tree = playback.tree
    steps = [playback.frame(k).step for k in (1, 2, 3)]
    assert [tree.path(step.created) for step in steps] == ["b", "a", "bb"]
    assert [[tree.path(node) for node in step.path] for step in steps] == [["", "b"], ["", "a"], ["", "b", "bb"]]
    assert steps[2].before == (NodeStats(2, 50.0), NodeStats(1, 30.0), NodeStats(0, 0.0))
    assert steps[2].after == (NodeStats(3, 54.0), NodeStats(2, 34.0), NodeStats(1, 4.0))
    assert [step.after[-1].mean for step in steps] == [30.0, 20.0, 4.0]
    assert steps[2].before[-1].mean is None
    assert (steps[2].word, steps[2].score, steps[2].line) == ("bbb", 4.0, 4)


def test_a_playout_whose_word_exists_creates_nothing_and_updates_every_node():
    playback = Playback(parse_playouts("a 1\nab 2\nab 4\n"))
    step = playback.frame(3).step
    assert step.created is None
    assert [playback.tree.path(node) for node in step.path] == ["", "a", "ab"]
    assert step.before == (NodeStats(2, 3.0), NodeStats(2, 3.0), NodeStats(1, 2.0))
    assert step.after == (NodeStats(3, 7.0), NodeStats(3, 7.0), NodeStats(2, 6.0))


def test_frame_zero_is_the_bare_root_without_a_step():
    frame = Playback(parse_playouts(STATEMENT_EXAMPLE)).frame(0)
    assert frame.step is None and len(frame.tree) == 1 and list(frame.tree.visits) == [0]


def test_a_created_node_keeps_the_sign_of_a_negative_zero_score():
    playback = Playback(parse_playouts("a -0\nb 1\n"))
    total = playback.frame(2).tree.total[playback.tree.find("a")]
    assert math.copysign(1.0, total) == -1.0


def test_first_steps_match_the_frames():
    playback = Playback(parse_playouts(deep_tree(40)))
    assert playback.first_steps(12) == [playback.frame(k).step for k in range(1, 13)]


def test_k_outside_the_log_is_refused():
    playback = Playback(parse_playouts(STATEMENT_EXAMPLE))
    with pytest.raises(ValueError, match="between 0 and 3"):
        playback.frame(4)
    with pytest.raises(ValueError):
        playback.first_steps(-1)


def test_a_tree_of_other_playouts_is_refused():
    playouts = parse_playouts(STATEMENT_EXAMPLE)
    with pytest.raises(ValueError, match="all the playouts"):
        Playback(playouts, build_tree(playouts, upto=2))


def test_race_matches_the_rebuilt_root_children_at_every_k():
    playouts = parse_playouts(deep_tree(120))
    tree = build_tree(playouts)
    result = race(tree, playouts)
    assert sorted(set(result.k)) == list(range(1, 121))
    for k, move, share, mean in zip(result.k, result.move, result.share, result.mean):
        rebuilt = build_tree(playouts, upto=k)
        kid = rebuilt.find(move)
        assert share == rebuilt.visits[kid] / rebuilt.visits[ROOT]
        assert mean == rebuilt.mean(kid)  # exactly: same additions in the same order


def test_race_samples_at_most_max_points_and_ends_at_the_last_playout():
    playouts = parse_playouts(deep_tree(400))
    tree = build_tree(playouts)
    result = race(tree, playouts, max_points=50, max_children=2)
    assert len(set(result.k)) <= 50 and result.k[-1] == 400
    assert set(result.move) == set(result.moves) and len(result.moves) == 2
    assert list(result.columns()) == ["k", "move", "share", "mean"]


def test_race_follows_the_most_visited_root_children():
    playouts = parse_playouts("a 1\nb 1\nbb 1\nc 1\ncc 1\nccc 1\n")
    result = race(build_tree(playouts), playouts, max_children=2)
    assert result.moves == ("c", "b")
    assert (result.k[-2:], result.share[-2:]) == ((6, 6), (0.5, 2 / 6))


def test_ucb1_latex_substitutes_the_numbers_of_ucb1():
    terms = ucb1(3, 2, 34.0, c=0.1)
    latex = ucb1_latex(3, 2, 34.0, c=0.1)
    assert latex.startswith(r"\frac{34}{2} + 0.1\sqrt{\frac{\ln 3}{2}}")
    assert latex.endswith(f"= 17 + {terms['exploration']:.4g} = {terms['value']:.4g}")
    assert ucb1_latex(3, c=0.1) == r"\frac{M.s}{M.v} + 0.1\sqrt{\frac{\ln 3}{M.v}}"
    assert r"1.5 \times 10^{-7}" in ucb1_latex(2, 1, 1.5e-7, c=0)


def test_frames_of_a_large_log_share_the_structure_and_equal_rebuilds():
    rng = random.Random(21)
    text = "".join(f"{''.join(rng.choices('abcd', k=rng.randint(1, 12)))} {rng.randint(-9, 9)}\n" for _ in range(9000))
    playouts = parse_playouts(text)
    playback = Playback(playouts)
    for k in (8999, 6000, 6001, 9000):
        frame = playback.frame(k)
        assert_same_tree(frame.tree, build_tree(playouts, upto=k))
        assert isinstance(frame.tree.parent, memoryview)  # a view of the full tree, not a copy
