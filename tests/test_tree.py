"""Tree building with the puzzle's one-node-per-playout rule."""

import json
import random
from pathlib import Path

import pytest

from mcts_core import NO_PLAYOUT, ROOT, build_tree, parse_playouts
from mcts_core.inputs.examples import STATEMENT_EXAMPLE
from cases import random_puzzle
from reference import reference_dict, reference_tree

FIXTURES = Path(__file__).parent / "fixtures"


def tree_dict(tree, node=ROOT, digits=6):
    """The subtree at ``node`` as rounded nested dicts."""
    kids = sorted(tree.children[node], key=lambda kid: tree.move[kid])
    return {
        "visits": tree.visits[node],
        "total": round(tree.total[node], digits),
        "children": {tree.move[kid]: tree_dict(tree, kid, digits) for kid in kids},
    }


def test_statement_example_matches_the_worked_explanation():
    tree = build_tree(parse_playouts(STATEMENT_EXAMPLE))
    assert tree.visits[ROOT] == 3
    b, a = tree.find("b"), tree.find("a")
    assert tree.visits[b] == 2 and tree.mean(b) == 17.0
    assert tree.visits[a] == 1 and tree.mean(a) == 20.0
    assert tree_dict(tree) == json.loads((FIXTURES / "statement_example.json").read_text())


def test_each_playout_creates_one_node_and_remembers_which():
    tree = build_tree(parse_playouts(STATEMENT_EXAMPLE))
    assert len(tree) == 4
    assert [tree.path(n) for n in range(len(tree))] == ["", "b", "a", "bb"]
    assert list(tree.created_by) == [NO_PLAYOUT, 0, 1, 2]
    assert [tree.path(n) for n in tree.reached] == ["b", "a", "bb"]


def test_playout_whose_word_exists_creates_nothing_but_updates_its_path():
    tree = build_tree(parse_playouts("a 1\nab 2\nab 4\nab 8\n"))
    assert len(tree) == 3
    ab = tree.find("ab")
    assert tree.visits[ab] == 3 and tree.total[ab] == 14.0
    assert tree.visits[tree.find("a")] == 4 and tree.total[ROOT] == 15.0
    assert tree.reached[3] == ab


def test_upto_gives_the_tree_after_the_first_k_playouts():
    parsed = parse_playouts(STATEMENT_EXAMPLE)
    assert len(build_tree(parsed, upto=0)) == 1
    after_two = build_tree(parsed, upto=2)
    assert sorted(tree_dict(after_two)["children"]) == ["a", "b"]
    assert after_two.playouts == 2
    with pytest.raises(ValueError):
        build_tree(parsed, upto=4)


def test_find_says_how_far_a_path_exists():
    tree = build_tree(parse_playouts(STATEMENT_EXAMPLE))
    assert tree.find("") == ROOT
    with pytest.raises(KeyError, match="no move 'a' after 'b'"):
        tree.find("ba")
    with pytest.raises(KeyError, match="no move 'z' at the root"):
        tree.find("z")


def test_negative_and_decimal_scores_sum_in_playout_order():
    tree = build_tree(parse_playouts("a -0.1\na -0.2\na 0.3\n"))
    a = tree.find("a")
    assert tree.total[a] == (-0.1 + -0.2) + 0.3  # created with -0.1, then sums in playout order
    assert tree.total[ROOT] == ((0.0 + -0.1) + -0.2) + 0.3
    assert tree.total_sq[ROOT] == pytest.approx(0.01 + 0.04 + 0.09)


def test_golden_random_tree_fixture():
    # The fixture was written by the independent reference solver (tests/reference.py).
    fixture = json.loads((FIXTURES / "random_tree_seed7.json").read_text())
    tree = build_tree(parse_playouts(fixture["input"]))
    assert tree_dict(tree) == fixture["tree"]


@pytest.mark.parametrize("seed", range(200))
def test_tree_matches_reference_exactly_on_random_inputs(seed):
    text = random_puzzle(random.Random(seed))
    parsed = parse_playouts(text)
    expected = reference_tree(zip(parsed.words, parsed.scores))
    assert tree_dict(build_tree(parsed), digits=17) == reference_dict(expected, digits=17)


# --- The level-by-level builder (numpy) against the sequential one: identical trees, bit for bit.

import math  # noqa: E402

from mcts_core.model import build as tree_module  # noqa: E402
from mcts_core.inputs.formats.text import playouts_of  # noqa: E402

_FIELDS = (
    "parent", "move", "depth", "visits", "total", "total_sq", "created_by", "children", "reached", "player", "flags",
)


def column(tree, name):
    """A field of the tree as a plain list (children: a list per node)."""
    if name in ("move", "children"):
        return [getattr(tree, name)[node] if name == "move" else list(tree.children[node]) for node in range(len(tree))]
    return list(getattr(tree, name))


def assert_identical_trees(got, want):
    for name in _FIELDS:
        got_list, want_list = column(got, name), column(want, name)
        assert got_list == want_list, name
        assert [type(x) for x in got_list] == [type(x) for x in want_list], name
    for name in ("total", "total_sq"):  # == does not see the sign of a zero
        signs = [math.copysign(1.0, x) for x in getattr(got, name)]
        assert signs == [math.copysign(1.0, x) for x in getattr(want, name)], name


@pytest.mark.parametrize("seed", range(120))
def test_level_builder_matches_sequential_builder_on_random_inputs(seed):
    parsed = parse_playouts(random_puzzle(random.Random(seed)))
    for upto in sorted({0, 1, len(parsed) // 3, len(parsed) - 1, len(parsed)}):
        want = tree_module._build_sequential(parsed, upto)
        assert_identical_trees(tree_module._build_levels(parsed, upto), want)


@pytest.mark.parametrize("seed", range(30))
def test_level_builder_matches_when_keys_are_grouped_by_sorting(seed, monkeypatch):
    monkeypatch.setattr(tree_module, "DENSE_KEYS", 0)
    parsed = parse_playouts(random_puzzle(random.Random(1000 + seed)))
    want = tree_module._build_sequential(parsed, len(parsed))
    assert_identical_trees(tree_module._build_levels(parsed, len(parsed)), want)


def test_level_builder_keeps_negative_zero_unicode_moves_and_empty_words():
    playouts = playouts_of(
        ("a", "a", "", "ab", "é€x", "é€", "a", "b", "b"),
        (-0.0, -0.0, -0.0, 1.0, -0.0, 2.5, -0.0, 0.0, -0.0),
        range(1, 10),
        None,
    )
    for upto in range(len(playouts) + 1):
        want = tree_module._build_sequential(playouts, upto)
        assert_identical_trees(tree_module._build_levels(playouts, upto), want)
    all_negative_zero = playouts_of(("a", "a", "ab"), (-0.0, -0.0, -0.0), (1, 2, 3), None)
    tree = tree_module._build_levels(all_negative_zero, 3)
    assert math.copysign(1.0, tree.total[tree.find("a")]) == -1.0  # created with -0.0, kept
    assert math.copysign(1.0, tree.total[ROOT]) == 1.0  # the root starts from 0.0


def test_level_builder_matches_on_a_larger_random_log():
    rng = random.Random(11)
    words = tuple("".join(rng.choices("abc", k=rng.randint(1, 12))) for _ in range(6000))
    scores = tuple(round(rng.uniform(-100, 100), rng.choice([0, 2])) for _ in words)
    playouts = playouts_of(words, scores, range(1, len(words) + 1), None)
    for upto in (0, 2500, 6000):
        want = tree_module._build_sequential(playouts, upto)
        assert_identical_trees(tree_module._build_levels(playouts, upto), want)


def test_build_tree_uses_the_level_builder_above_the_threshold(monkeypatch):
    parsed = parse_playouts(random_puzzle(random.Random(5)))
    want = tree_module._build_sequential(parsed, len(parsed))
    monkeypatch.setattr(tree_module, "LEVELS_THRESHOLD", 0)
    assert_identical_trees(build_tree(parsed), want)
    expected = reference_tree(zip(parsed.words, parsed.scores))
    assert tree_dict(build_tree(parsed), digits=17) == reference_dict(expected, digits=17)
