"""The mctx adapter against trees and numbers produced by real mctx (tests/fixtures/mctx/).

The fixture holds two real searches (``muzero_policy`` with discount -1, ``gumbel_muzero_policy``
with discount 0.9), each a batch of 2, plus mctx's own ``tree.qvalues``, prior softmax and
``tree.summary()``. Regenerate it with the command in make_mctx_dump.py's docstring; these tests
need only numpy, pytest and the standard library.
"""

import json
import math
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from mcts_core.adapters.mctx import tree_dump

FIXTURE = Path(__file__).parent / "fixtures" / "mctx" / "mctx_tree.json"
DUMP = json.loads(FIXTURE.read_text())
SEARCHES = DUMP["searches"]
CASES = [(name, b) for name in SEARCHES for b in range(2)]
IDS = [f"{name}-batch{b}" for name, b in CASES]


def mctx_tree(name, *, as_lists=False):
    """The fixture's search tree as mctx's float32/int32 arrays, or as the JSON's nested lists."""
    search = SEARCHES[name]
    if as_lists:
        return SimpleNamespace(**search["tree"])
    return SimpleNamespace(**{
        key: np.asarray(value, dtype=search["dtypes"][key]) if key in search["dtypes"] else value
        for key, value in search["tree"].items()
    })


def f32(values):
    """Floats from the JSON back to the float32 values mctx computed."""
    return np.asarray(values, dtype=np.float32)


def paired_nodes(name, b, dump):
    """Every dumped node with its mctx node index (None if unexpanded), parent index and action."""
    arrays = SEARCHES[name]["tree"]
    children_index = arrays["children_index"][b]
    invalid = arrays["root_invalid_actions"][b]
    num_actions = SEARCHES[name]["num_actions"]
    pairs = [(dump["root"], 0, None, None)]
    stack = [(dump["root"], 0)]
    while stack:
        node, index = stack.pop()
        actions = [a for a in range(num_actions) if index != 0 or not invalid[a]]
        assert [child["move"] for child in node["children"]] == [str(a) for a in actions]
        for child, action in zip(node["children"], actions):
            child_index = children_index[index][action]
            pairs.append((child, None if child_index == -1 else child_index, index, action))
            if child_index != -1:
                stack.append((child, child_index))
    return pairs


def children_with_mctx(name, b, key, *, as_lists=False):
    """Every dumped child (the root excluded) with mctx's own number for it: ``key``'s entry at its
    parent's index and its action."""
    dump = tree_dump(mctx_tree(name, as_lists=as_lists), b)
    numbers = SEARCHES[name]["mctx"][key][b]
    return [(child, numbers[parent][action]) for child, _, parent, action in paired_nodes(name, b, dump)[1:]]


@pytest.mark.parametrize(("name", "b"), CASES, ids=IDS)
def test_header_is_a_design_tree_dump(name, b):
    dump = tree_dump(mctx_tree(name), b)
    assert list(dump) == ["mcts_tree", "players", "ties", "root"]
    assert dump["mcts_tree"] == 1 and dump["ties"] == "first"
    assert dump["root"]["move"] is None and "prior" not in dump["root"]
    json.dumps(dump, allow_nan=False)  # plain JSON: no numpy scalars, no NaN


@pytest.mark.parametrize(("name", "b"), CASES, ids=IDS)
def test_root_children_visits_are_mctx_summary_visit_counts(name, b):
    dump = tree_dump(mctx_tree(name), b)
    counts = SEARCHES[name]["mctx"]["summary"]["visit_counts"][b]
    invalid = SEARCHES[name]["tree"]["root_invalid_actions"][b]
    by_move = {child["move"]: child["visits"] for child in dump["root"]["children"]}
    assert by_move == {str(a): int(n) for a, n in enumerate(counts) if not invalid[a]}
    assert all(counts[a] == 0 for a in range(len(counts)) if invalid[a])


@pytest.mark.parametrize(("name", "b"), CASES, ids=IDS)
def test_root_value_is_mctx_summary_value_bitwise(name, b):
    dump = tree_dump(mctx_tree(name), b)
    assert f32(dump["root"]["value"]) == f32(SEARCHES[name]["mctx"]["summary"]["value"][b])
    assert dump["root"]["visits"] == SEARCHES[name]["num_simulations"] + 1


@pytest.mark.parametrize(("name", "b"), CASES, ids=IDS)
def test_child_values_are_mctx_qvalues_bitwise_from_float32_arrays(name, b):
    # Same float32 operations in the same order as mctx (round r, round d*v, no FMA on XLA's CPU
    # backend here), so the adapter's Q is mctx's bit for bit.
    dump = tree_dump(mctx_tree(name), b)
    qvalues = SEARCHES[name]["mctx"]["qvalues"][b]
    checked = 0
    for child, _, parent, action in paired_nodes(name, b, dump)[1:]:
        assert qvalues[parent] is not None
        q = qvalues[parent][action]  # the JSON float is exactly mctx's float32
        assert (child["value"], math.copysign(1.0, child["value"])) == (q, math.copysign(1.0, q))
        checked += 1
    root_q = SEARCHES[name]["mctx"]["summary"]["qvalues"][b]
    for child in dump["root"]["children"]:
        assert np.float32(child["value"]) == f32(root_q[int(child["move"])])
    assert checked > 2 * SEARCHES[name]["num_simulations"]


@pytest.mark.parametrize(("name", "b"), CASES, ids=IDS)
def test_child_values_from_json_lists_match_mctx_qvalues_within_float32_rounding(name, b):
    # Nested lists become float64 arrays, so Q is computed in float64: at most one float32
    # rounding (about 6e-8 relative) away from mctx's float32 result.
    for child, q in children_with_mctx(name, b, "qvalues", as_lists=True):
        assert child["value"] == pytest.approx(q, rel=1e-6, abs=1e-7)


@pytest.mark.parametrize(("name", "b"), CASES, ids=IDS)
def test_priors_are_mctx_softmax_of_the_parents_logits(name, b):
    # mctx's float32 softmax (XLA's exp, multiply by 1/sum) is 1-2 float32 ulps from the adapter's
    # float64 one, hence the relative tolerance; masked (invalid) logits give exactly 0 in both.
    for child, prior in children_with_mctx(name, b, "prior_probs"):
        assert child["prior"] == pytest.approx(prior, rel=1e-6, abs=1e-12)


@pytest.mark.parametrize(("name", "b"), CASES, ids=IDS)
def test_invalid_root_actions_are_left_out_and_unvisited_valid_ones_kept(name, b):
    dump = tree_dump(mctx_tree(name), b)
    invalid = SEARCHES[name]["tree"]["root_invalid_actions"][b]
    moves = [child["move"] for child in dump["root"]["children"]]
    assert moves == [str(a) for a, bad in enumerate(invalid) if not bad]
    priors = [child["prior"] for child in dump["root"]["children"]]
    # The policies give invalid root actions the smallest float32 logit: their mass is 0.
    assert sum(priors) == pytest.approx(1.0, abs=1e-6)


def test_fixture_covers_invalid_actions_and_unvisited_children():
    assert any(any(row) for search in SEARCHES.values() for row in search["tree"]["root_invalid_actions"])
    dump = tree_dump(mctx_tree("two_player_muzero"), 0)
    assert [child["visits"] for child in dump["root"]["children"]].count(0) >= 1


@pytest.mark.parametrize(("name", "b"), CASES, ids=IDS)
def test_nodes_with_visits_are_mctx_nodes_with_visits(name, b):
    dump = tree_dump(mctx_tree(name), b)
    node_visits = SEARCHES[name]["tree"]["node_visits"][b]
    pairs = paired_nodes(name, b, dump)
    visited = [(node, index) for node, index, _, _ in pairs if node["visits"] > 0]
    assert len(visited) == sum(1 for n in node_visits if n > 0)
    assert sorted(index for _, index in visited) == [i for i, n in enumerate(node_visits) if n > 0]
    for node, index in visited:
        assert node["visits"] == node_visits[index]


@pytest.mark.parametrize(("name", "b"), CASES, ids=IDS)
def test_unexpanded_children_have_no_visits_and_no_children(name, b):
    dump = tree_dump(mctx_tree(name), b)
    unexpanded = [node for node, index, _, _ in paired_nodes(name, b, dump) if index is None]
    assert unexpanded
    assert all(node["visits"] == 0 and node["children"] == [] and node["value"] == 0.0
               for node in unexpanded)


@pytest.mark.parametrize(("name", "b"), CASES, ids=IDS)
def test_children_visits_sum_to_parent_visits_minus_one(name, b):
    # mctx counts a node's own evaluation as its first visit (no max_depth cut-off in the fixture).
    dump = tree_dump(mctx_tree(name), b)
    for node, _, _, _ in paired_nodes(name, b, dump):
        if node["visits"] > 0:
            assert sum(child["visits"] for child in node["children"]) == node["visits"] - 1


@pytest.mark.parametrize(("name", "b"), CASES, ids=IDS)
def test_parent_mean_is_its_raw_value_plus_childrens_returns(name, b):
    # node_values[n] * visits == raw_values[n] + sum(child visits * child Q), with Q from the
    # parent's mover's view: checks the perspective of every dumped value against mctx's means.
    dump = tree_dump(mctx_tree(name), b)
    raw = SEARCHES[name]["tree"]["raw_values"][b]
    node_values = SEARCHES[name]["tree"]["node_values"][b]
    for node, index, _, _ in paired_nodes(name, b, dump):
        if index is None:
            continue
        total = raw[index] + sum(child["visits"] * child["value"] for child in node["children"])
        visits = SEARCHES[name]["tree"]["node_visits"][b][index]
        assert total / visits == pytest.approx(node_values[index], abs=1e-6)


@pytest.mark.parametrize("b", [0, 1])
def test_discount_minus_one_means_two_players_taking_turns(b):
    dump = tree_dump(mctx_tree("two_player_muzero"), b)
    assert dump["players"] == 2
    stack = [(dump["root"], 0)]
    while stack:
        node, depth = stack.pop()
        assert node["player"] == depth % 2
        stack.extend((child, depth + 1) for child in node["children"])


@pytest.mark.parametrize("b", [0, 1])
def test_positive_discount_means_one_player_without_player_keys(b):
    dump = tree_dump(mctx_tree("one_player_gumbel"), b)
    assert dump["players"] == 1
    stack = [dump["root"]]
    while stack:
        node = stack.pop()
        assert "player" not in node
        stack.extend(node["children"])


def test_two_player_child_value_is_reward_minus_grandchild_view():
    tree = mctx_tree("two_player_muzero")
    dump = tree_dump(tree, 0)
    child = max(dump["root"]["children"], key=lambda kid: kid["visits"])
    index = tree.children_index[0, 0, int(child["move"])]
    reward = tree.children_rewards[0, 0, int(child["move"])]
    assert np.float32(child["value"]) == reward - tree.node_values[0, index]


def test_action_names_name_the_moves_and_c_goes_in_the_header():
    dump = tree_dump(mctx_tree("one_player_gumbel"), 1, action_names=["N", "E", "S", "W"], c=1.25)
    assert dump["c"] == 1.25 and list(dump) == ["mcts_tree", "players", "ties", "c", "root"]
    assert [child["move"] for child in dump["root"]["children"]] == ["N", "E", "S"]
    assert [child["move"] for child in dump["root"]["children"][0]["children"]] == ["N", "E", "S", "W"]


def test_action_names_may_be_a_mapping():
    dump = tree_dump(mctx_tree("two_player_muzero"), 1, action_names={0: "a", 1: "b", 2: "c", 3: "d"})
    assert [child["move"] for child in dump["root"]["children"]] == ["a", "b", "d"]


@pytest.mark.parametrize("names", [["a", "a", "b", "c"], ["a", "b", "c"], ["a", "", "b", "c"], [0, 1, 2, 3]])
def test_unusable_action_names_are_rejected(names):
    with pytest.raises(ValueError, match="action"):
        tree_dump(mctx_tree("two_player_muzero"), 0, action_names=names)


@pytest.mark.parametrize("batch_index", [-1, 2, 1.0, True])
def test_batch_index_outside_the_batch_is_rejected(batch_index):
    with pytest.raises(ValueError, match="batch_index"):
        tree_dump(mctx_tree("two_player_muzero"), batch_index)


@pytest.mark.parametrize("c", [-0.5, float("nan"), float("inf")])
def test_bad_c_is_rejected(c):
    with pytest.raises(ValueError, match="c must be"):
        tree_dump(mctx_tree("two_player_muzero"), 0, c=c)


def test_unbatched_tree_converts_like_its_batch_element():
    tree = mctx_tree("one_player_gumbel")
    single = SimpleNamespace(**{key: (value[1] if isinstance(value, np.ndarray) else value)
                                for key, value in vars(tree).items()})
    assert tree_dump(single) == tree_dump(tree, 1)


def test_missing_root_mask_keeps_every_root_action():
    tree = mctx_tree("two_player_muzero")
    del tree.root_invalid_actions
    assert [child["move"] for child in tree_dump(tree, 1)["root"]["children"]] == ["0", "1", "2", "3"]


def test_a_node_reached_twice_is_not_a_tree():
    tree = mctx_tree("two_player_muzero")
    children_index = tree.children_index.copy()
    children_index[0, 0, 0] = children_index[0, 0, 1]  # two root actions lead to one node
    tree.children_index = children_index
    with pytest.raises(ValueError, match="reached twice"):
        tree_dump(tree, 0)


def test_fixture_is_small_and_from_real_mctx():
    assert FIXTURE.stat().st_size < 200_000
    assert DUMP["versions"]["mctx"] and DUMP["versions"]["jax"]
    assert {search["policy"] for search in SEARCHES.values()} == {"muzero_policy", "gumbel_muzero_policy"}


def test_a_node_whose_logits_are_all_minus_infinity_is_rejected_not_dumped_as_nan():
    # Stochastic MuZero's returned tree keeps only decision actions: its chance nodes look like this.
    tree = mctx_tree("two_player_muzero")
    logits = tree.children_prior_logits.copy()
    logits[0, 1, :] = -np.inf
    tree.children_prior_logits = logits
    with pytest.raises(ValueError, match="not a finite number"):
        tree_dump(tree, 0)
