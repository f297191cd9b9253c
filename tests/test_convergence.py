"""The search over time (``mcts_core.analysis.convergence``): every sample equals the tree built from
the playouts read by then, for the root and deeper nodes, puzzle text and logs with declared nodes."""

import json
import random

import pytest

from cases import random_puzzle
from mcts_core import ROOT, Scoring, build_tree, select_child
from mcts_core.analysis import NO_CHILD, NoOrder, convergence, log_grid
from mcts_core.inputs.loading import read_input


def random_log(rng: random.Random) -> str:
    """A JSON Lines log: two players, declared children with priors (some never visited), named moves,
    simulations stopping at the root, -0.0 returns."""
    moves = ["e4", "d4", "c4", "Nf3"][: rng.randint(2, 4)]
    lines = [json.dumps({"mcts_log": 1, "players": 2, "ties": rng.choice(["first", "smaller"]), "c": 1.0})]
    facts = [{"node": [], "player": rng.choice([0, 1]), "children": rng.sample(moves, len(moves)),
              "priors": {move: round(rng.random(), 2) for move in moves}}]
    if rng.random() < 0.5:
        facts.append({"node": [moves[0]], "children": [moves[1], moves[0]]})
    simulations = []
    for _ in range(rng.randint(1, 80)):
        path = rng.choices(moves, k=rng.choice([0, 1, 2, 3]))
        score = rng.choice([1, -1, 0, -0.0, 0.5])
        simulations.append({"path": path, "score": score})
    for fact in facts:  # a fact may stand anywhere in the log
        simulations.insert(rng.randint(0, len(simulations)), fact)
    return "\n".join(lines + [json.dumps(record) for record in simulations]) + "\n"


def assert_series_is_the_rebuilt_tree(read, path, scoring, max_points):
    tree = read.tree
    node = tree.find(path)
    series = convergence(tree, read.playouts, node, scoring=scoring, max_points=max_points)
    assert len(series.visits) <= max_points and list(series.visits) == sorted(set(series.visits))
    if tree.visits[node]:
        assert series.visits[-1] == tree.visits[node]
    for sample, k in enumerate(series.visits.tolist()):
        built = build_tree(read.playouts, upto=int(series.playouts[sample]))
        at = built.find(path)
        assert built.visits[at] == k and at in built.path_nodes(built.reached[-1])  # its k-th visit is the last playout
        kids = list(built.children[at])
        got = {series.moves[i]: (int(series.child_visits[sample, i]), float(series.total[sample, i]).hex(),
                                 float(series.total_sq[sample, i]).hex())
               for i in range(len(series.kids)) if series.exists[sample, i]}
        want = {built.move[kid]: (built.visits[kid], built.total[kid].hex(), built.total_sq[kid].hex()) for kid in kids}
        assert got == want, (path, k)
        picked = select_child(built, at, scoring)
        assert (series.moves[series.selected[sample]] if series.selected[sample] != NO_CHILD else None) == \
            (built.move[picked] if picked is not None else None)
        top = built.ranked_children(at)[:1]
        assert (series.moves[series.most_visited[sample]] if series.most_visited[sample] != NO_CHILD else None) == \
            (built.move[top[0]] if top else None)


@pytest.mark.parametrize("seed", range(10))
def test_each_sample_of_a_puzzle_is_the_tree_of_the_playouts_so_far(seed):
    rng = random.Random(seed)
    read = read_input(random_puzzle(rng))
    for path in ["", read.tree.move[read.tree.children[ROOT][0]]]:
        assert_series_is_the_rebuilt_tree(read, path, Scoring("ucb1", rng.choice([0.0, 0.5, 2.0])), rng.choice([5, 40, 500]))


@pytest.mark.parametrize("seed", range(10))
def test_each_sample_of_a_log_with_declared_nodes_is_the_tree_so_far(seed):
    rng = random.Random(seed)
    read = read_input(random_log(rng))
    for path in ([], [read.tree.move[read.tree.children[ROOT][0]]]):
        assert_series_is_the_rebuilt_tree(read, path, Scoring("puct", 1.5), rng.choice([7, 500]))


def test_a_large_input_built_level_by_level_gives_the_same_series():
    rng = random.Random(7)
    lines = [f"{6000} 1"] + ["".join(rng.choices("abc", k=rng.randint(1, 6))) + f" {rng.randint(-9, 9)}"
                             for _ in range(6000)]
    read = read_input("\n".join(lines) + "\n")
    assert_series_is_the_rebuilt_tree(read, "ab", Scoring("ucb1", 1.0), 6)


def test_the_grid_is_every_k_then_logarithmic_and_ends_at_the_last_visit():
    assert log_grid(4).tolist() == [1, 2, 3, 4]
    grid = log_grid(2_000_000, 500).tolist()
    assert grid[0] == 1 and grid[-1] == 2_000_000 and len(grid) <= 500 and grid == sorted(set(grid))
    assert log_grid(0).tolist() == [] and log_grid(10, 1).tolist() == [1, 10]


def test_where_the_most_visited_and_the_selected_child_change():
    # b's visits pass a's at the 3rd playout (a tie at the 2nd goes to a). UCB1 at C = 0 follows the
    # best mean, a tie to a: b's mean 4/3 leads after the 4th, ties a's 1 after the 5th, a's falls to -2.
    read = read_input("6 0\na 1\nb 0\nb 2\nb 2\nb 0\na -5\n")
    series = convergence(read.tree, read.playouts, scoring=Scoring("ucb1", 0.0))
    a, b = series.moves.index("a"), series.moves.index("b")
    assert series.most_visited.tolist() == [a, a, b, b, b, b]
    assert series.selected.tolist() == [a, a, a, b, a, b]
    assert series.changes(series.most_visited) == [2] and series.changes(series.selected) == [3, 4, 5]


def test_a_tree_dump_has_no_order():
    read = read_input(json.dumps({"mcts_tree": 1, "root": {"visits": 1, "children": [{"move": "a", "visits": 1}]}}))
    with pytest.raises(NoOrder, match="no order"):
        convergence(read.tree, read.playouts)


def test_grouped_rows_name_the_most_visited_children_and_sum_the_rest_where_they_have_visits():
    import math

    from mcts_core.analysis import OTHERS

    rng = random.Random(3)
    read = read_input(random_puzzle(rng))
    series = convergence(read.tree, read.playouts)
    for named in (1, 2, 50):
        grouped = series.grouped(named)
        final = {series.moves[i]: int(series.child_visits[-1, i]) for i in range(len(series.kids))}
        kept = sorted(final, key=lambda move: -final[move])[:named]  # stable: ties in the node's order
        assert list(grouped.groups) == kept + ([OTHERS] if len(final) > named else [])
        rows = list(zip(*(grouped.columns[name] for name in grouped.COLUMNS)))
        for visits, playouts, move, child_visits, share, value in rows:
            sample = list(series.visits).index(visits)
            members = [i for i in range(len(series.kids)) if (series.moves[i] == move if move != OTHERS
                                                              else series.moves[i] not in kept)]
            assert playouts == series.playouts[sample]
            assert child_visits == sum(int(series.child_visits[sample, i]) for i in members) > 0
            assert share == child_visits / visits and math.isfinite(value)
            assert value == sum(float(series.total[sample, i]) for i in members) / child_visits
        assert len(rows) == sum(1 for group in grouped.groups for sample in range(len(series.visits))
                                if any(series.child_visits[sample, i] for i in range(len(series.kids))
                                       if (series.moves[i] == group if group != OTHERS else series.moves[i] not in kept)))


def test_change_points_name_the_choice_before_and_after():
    read = read_input("a 1\nb 5\nb 5\na 1\na 1\na 1\n")
    series = convergence(read.tree, read.playouts)
    assert series.change_points(series.most_visited) == [(3, 3, "a", "b"), (4, 4, "b", "a")]  # a tie: the smaller move
