"""The search over time (``mcts_core.analysis.convergence``): every sample equals the tree built from
the playouts read by then, for the root and deeper nodes, puzzle text and logs with declared nodes;
for an engine's search, every update's numbers as read."""

import json
import math
import random
from pathlib import Path

import pytest

from cases import random_puzzle
from mcts_core import ROOT, Scoring, build_tree, select_child
from mcts_core.analysis import NO_CHILD, NoOrder, convergence, log_grid, update_series
from mcts_core.inputs.formats.engine_analysis import engine_tree
from mcts_core.inputs.loading import engine_input, read_input


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


# --- An engine's search, followed through its updates -----------------------------------------------

ENGINES = Path(__file__).parent / "data" / "engines"


def random_lz_analyze(rng: random.Random, commands: int) -> str:
    """A GTP transcript of ``commands`` lz-analyze commands, each with a few updates whose visits grow;
    moves appear in later updates, winrates and the order change."""
    lines = []
    for _ in range(commands):
        lines += [f"lz-analyze {rng.randint(1, 50)}", "="]
        moves = rng.sample(["D4", "Q16", "C3", "K10", "R3"], 5)
        visits = {move: 0 for move in moves}
        for _ in range(rng.randint(1, 6)):
            for move in rng.sample(moves, rng.randint(1, 5)):
                visits[move] += rng.randint(1, 30)
            listed = sorted((move for move in moves if visits[move]), key=lambda move: -visits[move])
            lines.append(" ".join(
                f"info move {move} visits {visits[move]} winrate {rng.randint(0, 10000)} prior {rng.randint(0, 3000)} "
                f"lcb {rng.randint(0, 5000)} order {order} pv {move} {rng.choice(moves)}"
                for order, move in enumerate(listed)))
        lines.append("")
    return "\n".join(lines) + "\n"


def assert_series_is_each_update_as_read(read, scoring):
    trees, numbers, settings = read.search_updates()
    search = read.engine.search
    assert [analysis.search for analysis in (read.analyses[n - 1] for n in numbers)] == [search] * len(numbers)
    assert sum(analysis.search == search for analysis in read.analyses) == len(numbers)
    if len(numbers) < 2:
        with pytest.raises(NoOrder, match="single snapshot"):
            update_series(trees, numbers, settings)
        return
    series = update_series(trees, numbers, settings, scoring=scoring)
    assert series.playouts.tolist() == list(numbers) and series.kids == tuple(range(len(series.moves)))
    for sample, number in enumerate(numbers):
        analysis = read.analyses[number - 1]
        tree = engine_tree(analysis)
        assert series.visits[sample] == analysis.root_visits == tree.visits[ROOT]
        got = {series.moves[i]: (int(series.child_visits[sample, i]), float(series.value[sample, i]))
               for i in range(len(series.moves)) if series.exists[sample, i]}
        want = {move.move: (move.visits, tree.mean(kid)) for move, kid in zip(analysis.moves, tree.children[ROOT])}
        assert got.keys() == want.keys()
        for move, (visits, value) in want.items():  # the tree's value is the reader's, total / visits
            assert got[move][0] == visits and (got[move][1] == value or math.isnan(value) and math.isnan(got[move][1]))
        for move in analysis.moves:
            if move.visits:
                assert got[move.move][1] == pytest.approx(move.value, rel=1e-12)
        top = max(analysis.moves, key=lambda move: move.visits)  # max: the first of the most visited
        assert series.moves[series.most_visited[sample]] == top.move
        own = Scoring(scoring.rule, scoring.c, {**scoring.settings, **{
            name: value for name, value in analysis.settings.items() if name in scoring.settings}})
        picked = select_child(tree, ROOT, own)
        assert series.moves[series.selected[sample]] == tree.move[picked]


@pytest.mark.parametrize("seed", range(8))
def test_each_update_of_an_lz_analyze_search_is_its_analysis_as_read(seed):
    rng = random.Random(seed)
    text = random_lz_analyze(rng, rng.randint(1, 3))
    first = read_input(text)
    for index in range(len(first.analyses)):
        read = engine_input(first.analyses, index)
        assert_series_is_each_update_as_read(read, Scoring(read.rule, rng.choice([0.1, 0.5, 3.0]), read.settings))


@pytest.mark.parametrize("name", ["leela_zero_lz_analyze.txt", "katago_during_search.jsonl",
                                  "katago_genmove_analyze.txt", "leela_zero_dump.txt", "katago_budgets.jsonl"])
def test_each_update_of_a_recorded_search_is_its_analysis_as_read(name):
    first = read_input((ENGINES / name).read_text())
    for index in sorted({0, len(first.analyses) // 2, len(first.analyses) - 1}):
        read = engine_input(first.analyses, index)
        for c in (0.05, read.c, 5.0):
            assert_series_is_each_update_as_read(read, Scoring(read.rule, c, read.settings))


def test_a_search_is_one_analyze_command_one_query_and_turn_or_the_blocks_of_one_go():
    lz = read_input(random_lz_analyze(random.Random(1), 3))
    assert [a.search for a in lz.analyses] == sorted(a.search for a in lz.analyses)
    assert len({a.search for a in lz.analyses}) == 3
    # KataGo's analysis engine answers queries in any order: its reports go by id and turn; a final
    # response ends its search, so the same id and turn asked again is another.
    response = '{{"id":"{0}","turnNumber":{1},"isDuringSearch":{2},"moveInfos":[{{"move":"D4","visits":{3},' \
               '"winrate":0.5,"utility":0.1,"prior":0.5,"order":0,"pv":["D4"]}}],"rootInfo":{{"visits":{4}}}}}'
    lines = [response.format("a", 0, "true", 3, 4), response.format("b", 0, "true", 5, 6),
             response.format("a", 0, "false", 9, 10), response.format("b", 0, "false", 9, 10),
             response.format("a", 0, "true", 1, 2), response.format("a", 1, "false", 2, 3)]
    katago = read_input("\n".join(lines) + "\n")
    assert [a.search for a in katago.analyses] == [0, 1, 0, 1, 2, 3]
    # lc0: the blocks between two `go`s are one search.
    block = "info string d2d4 (293 ) N: {0} (+ 0) (P: 13.20%) (Q: -0.01) (U: 0.21) (S: 0.20) (V: -0.02)\n"
    lc0 = read_input("go nodes 10\n" + block.format(3) + "info depth 1\n" + block.format(7)
                     + "position startpos\ngo nodes 10\n" + block.format(4))
    assert [a.search for a in lc0.analyses] == [0, 0, 1]
