"""Tree building with the puzzle's one-node-per-playout rule."""

import json
import random
from pathlib import Path

import pytest

from mcts_core import NO_PLAYOUT, ROOT, build_tree, parse_playouts
from conftest import STATEMENT_EXAMPLE
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
    assert tree.created_by == [NO_PLAYOUT, 0, 1, 2]
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
