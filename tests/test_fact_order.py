"""A node's facts may stand anywhere in a log: before, among or after the simulations, the tree is the same."""

import json
from array import array

from hypothesis import given, settings
from hypothesis import strategies as st

from mcts_core import ROOT
from mcts_core.inputs.loading import read_input

HEADER = {"mcts_log": 1, "players": 2, "ties": "first"}
COLUMNS = ("parent", "depth", "visits", "total", "total_sq", "created_by", "child_start", "child_list",
           "reached", "player", "flags", "prior", "outcome")


def columns(tree) -> dict:
    """Every column of a tree, floats as their bytes (so -0.0, NaN and every last bit count), moves by
    name (their numbers follow first appearance in the text)."""
    out = {"move": [tree.move[node] for node in range(len(tree))], "players": tree.players, "ties": tree.ties,
           "compact": tree.compact}
    for name in COLUMNS:
        column = getattr(tree, name)
        out[name] = None if column is None else (
            column.tobytes() if isinstance(column, array) and column.typecode == "d" else list(column))
    return out


def tree_of(records) -> dict:
    text = "\n".join(json.dumps(record) for record in [HEADER, *records]) + "\n"
    return columns(read_input(text).tree)


_path = st.lists(st.sampled_from("abc"), max_size=3)
_simulation = st.builds(lambda path, score: {"path": path, "score": score}, _path,
                        st.sampled_from([-1, -0.5, 0, 0.25, 1, -0.0]))


@st.composite
def _fact(draw):
    fact = {"node": draw(_path)}
    if draw(st.booleans()):
        fact["player"] = draw(st.sampled_from([0, 1]))
    children = draw(st.none() | st.lists(st.sampled_from("abc"), unique=True, max_size=3))
    if children is not None:
        fact["children"] = children
    pool = children if children is not None else list("abc")
    if pool and draw(st.booleans()):
        fact["priors"] = {move: draw(st.sampled_from([0.1, 0.5, 0.0])) for move in draw(
            st.lists(st.sampled_from(pool), unique=True, min_size=1))}
    for key in ("chance", "terminal"):
        if draw(st.booleans()):
            fact[key] = draw(st.booleans())
    if draw(st.booleans()):
        fact["outcome"] = draw(st.sampled_from([1, -1, [0.5, -0.5], 0]))
    return fact


@settings(max_examples=300, deadline=None)
@given(st.lists(_simulation, max_size=12), st.lists(_fact(), min_size=1, max_size=5), st.randoms(use_true_random=False))
def test_facts_first_last_or_shuffled_among_simulations_build_the_same_tree(simulations, facts, rng):
    first = tree_of([*facts, *simulations])
    last = tree_of([*simulations, *facts])
    # Shuffled among the simulations, each kind keeping its own order.
    slots = sorted(rng.sample(range(len(simulations) + len(facts)), len(facts)))
    mixed, sims, kept = [], iter(simulations), iter(facts)
    for position in range(len(simulations) + len(facts)):
        mixed.append(next(kept) if position in slots else next(sims))
    assert last == first
    assert tree_of(mixed) == first


def test_a_bot_that_dumps_who_moves_at_the_end_is_read_from_that_players_view():
    simulations = [{"path": ["a"], "score": 1}, {"path": ["a", "b"], "score": 1}, {"path": ["c"], "score": -1}]
    facts = [{"node": [], "player": 1, "children": ["c", "a"]}, {"node": ["a"], "player": 1, "priors": {"b": 0.5}}]
    text = "\n".join(json.dumps(record) for record in [HEADER, *simulations, *facts])
    tree = read_input(text).tree
    a, b, c = tree.find(["a"]), tree.find(["a", "b"]), tree.find(["c"])
    assert tree.player[ROOT] == 1 and tree.total[ROOT] == -1.0  # player 1's view: -1 - 1 + 1
    assert list(tree.children[ROOT]) == [c, a]
    assert tree.total[a] == -2.0 and tree.total[b] == -1.0  # player 1 moves at "a" too
    assert tree.prior_of(b) == 0.5


def test_a_fact_about_a_deep_node_declares_its_ancestors():
    tree = read_input("\n".join(json.dumps(r) for r in [HEADER, {"node": ["a", "b", "c"], "terminal": True},
                                                         {"path": ["a", "b", "c", "d"], "score": 1}])).tree
    c = tree.find(["a", "b", "c"])
    assert tree.is_terminal(c) and [tree.visits[node] for node in tree.path_nodes(c)] == [1, 1, 1, 1]
    assert tree.find(["a", "b", "c", "d"]) and tree.visits[tree.find(["a", "b", "c", "d"])] == 1
