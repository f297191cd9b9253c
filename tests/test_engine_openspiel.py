"""Real OpenSpiel searches read back node by node: our statistics and choices against the engine's.

OpenSpiel's own MCTSBot runs (tic-tac-toe UCT and PUCT, catch with its chance start, a chess search,
the MCTS-Solver); its log and its tree dump are read by our readers, and every node is compared
with the engine's SearchNode: visits == explore_count and total == total_reward, bit for bit, and
the child our rule selects == the child the engine's own selection function picks next.
"""

import io
import json

import pytest

import required

pyspiel = required.module("pyspiel")

from open_spiel.python.algorithms import mcts  # noqa: E402

from mcts_core import ROOT, Scoring, select_child  # noqa: E402
from mcts_core.adapters.openspiel import log_search, tree_dump  # noqa: E402
from mcts_core.search.games import play_moves  # noqa: E402
from mcts_core.inputs.formats.tree_json_writer import write_tree_json  # noqa: E402
from mcts_core.inputs.loading import read_input  # noqa: E402

C = 1.4
MIDGAME = ("x(1,1)", "o(0,0)")  # terminal positions within reach of a few hundred simulations


def engine_choice(node, uct_c, puct):
    """The child OpenSpiel's MCTSBot steps into next at ``node`` (its own selection function)."""
    value = mcts.SearchNode.puct_value if puct else mcts.SearchNode.uct_value
    return max(node.children, key=lambda child: value(child, node.explore_count, uct_c))


def compare(tree, root, state, *, uct_c, puct):
    """Walk the engine's tree and ours together; returns (nodes compared, disagreements).

    A disagreement is (path, engine's pick, ours) at a decision node with children.
    """
    scoring = Scoring("puct" if puct else "ucb1", uct_c)
    checked, disagreements = 0, []
    stack = [(root, state.clone(), ROOT, ())]
    while stack:
        node, node_state, ours, path = stack.pop()
        assert tree.visits[ours] == node.explore_count, path
        assert tree.total[ours] == node.total_reward, path  # bit for bit
        checked += 1
        if not node.children:
            continue
        kids = {tree.move[kid]: kid for kid in tree.children[ours]}
        player = node_state.current_player()
        names = {}
        for child in node.children:
            name = node_state.action_to_string(player, child.action)
            names[child.action] = name
            assert name in kids, (path, name)
        # The engine's children order is its tie order: ours keeps it.
        assert [tree.move[kid] for kid in tree.children[ours]] == [names[c.action] for c in node.children], path
        if not node_state.is_chance_node():
            want = names[engine_choice(node, uct_c, puct).action]
            got = tree.move[select_child(tree, ours, scoring)]
            if got != want:
                disagreements.append((path, want, got))
        for child in node.children:
            if child.explore_count == 0 and not child.children:
                assert tree.visits[kids[names[child.action]]] == 0
                continue
            child_state = node_state.clone()
            child_state.apply_action(child.action)
            stack.append((child, child_state, kids[names[child.action]], (*path, names[child.action])))
    return checked, disagreements


SEARCHES = [
    pytest.param("tic_tac_toe", (), dict(simulations=300, uct_c=C, seed=1), id="tictactoe-uct"),
    pytest.param("tic_tac_toe", ("x(1,1)",), dict(simulations=300, uct_c=C, seed=2), id="tictactoe-after-a-move"),
    pytest.param("tic_tac_toe", (), dict(simulations=300, uct_c=2.0, seed=3, puct=True), id="tictactoe-puct"),
    pytest.param("catch", ("Initialized ball to 2",), dict(simulations=200, uct_c=C, seed=4), id="catch"),
    pytest.param("tic_tac_toe", MIDGAME, dict(simulations=300, uct_c=C, seed=5, solve=True), id="tictactoe-solver"),
    pytest.param("chess", (), dict(simulations=40, uct_c=C, seed=6), id="chess"),
    pytest.param("pig(winscore=10)", (), dict(simulations=200, uct_c=C, seed=7), id="pig-chance-nodes"),
]


@pytest.mark.parametrize("game, moves, options", SEARCHES)
def test_log_gives_the_engines_statistics_and_choice_at_every_node(game, moves, options):
    lines, root = log_search(game, moves=moves, **options)
    read = read_input("\n".join(lines) + "\n")
    assert read.kind == "log" and read.tree.players == pyspiel.load_game(game).num_players()
    state = play_moves(game, moves)
    checked, disagreements = compare(read.tree, root, state, uct_c=options["uct_c"], puct=options.get("puct", False))
    assert checked >= 20
    assert disagreements == []
    if options.get("solve"):
        assert any(read.tree.outcome_of(node) is not None for node in range(len(read.tree)))


@pytest.mark.parametrize("game, moves, options", SEARCHES)
def test_tree_dump_gives_the_same_statistics_and_choices(game, moves, options):
    _, root = log_search(game, moves=moves, **options)
    state = play_moves(game, moves)
    dump = tree_dump(root, state, c=options["uct_c"])
    read = read_input(json.dumps(dump, indent=1))
    assert read.kind == "tree" and read.playouts is None
    checked, disagreements = compare(read.tree, root, state, uct_c=options["uct_c"], puct=options.get("puct", False))
    assert checked >= 20 and disagreements == []


def test_without_proven_outcomes_we_disagree_only_where_the_engine_uses_them():
    # OpenSpiel's UCT values a child with an outcome (a terminal or solved node) at that outcome.
    # Strip the outcomes from the log and our UCB1 explores those children like any other: every
    # disagreement is then at a node that has a child with an outcome, and nowhere else.
    lines, root = log_search("tic_tac_toe", moves=MIDGAME, simulations=300, uct_c=C, seed=5, solve=True)
    stripped = []
    for line in lines:
        record = json.loads(line)
        record.pop("outcome", None)
        if set(record) != {"node"}:
            stripped.append(json.dumps(record))
    read = read_input("\n".join(stripped) + "\n")
    state = play_moves("tic_tac_toe", MIDGAME)
    _, disagreements = compare(read.tree, root, state, uct_c=C, puct=False)
    assert disagreements, "the solver proves nodes in this search: stripping outcomes must change choices"
    for path, _, _ in disagreements:
        node = engine_node(root, "tic_tac_toe", MIDGAME, path)
        assert any(child.outcome is not None for child in node.children), path


def engine_node(root, game, moves, path):
    """The engine's SearchNode at ``path`` (move names from the root, which is ``moves`` into ``game``)."""
    node, state = root, play_moves(game, moves)
    for name in path:
        player = state.current_player()
        node = next(child for child in node.children if state.action_to_string(player, child.action) == name)
        state.apply_action(node.action)
    return node


def by_path(tree):
    """Every node's statistics and facts, keyed by its path (node numbers differ between readers)."""
    return {
        tree.path_moves(node): (tree.visits[node], tree.total[node], tree.player[node], tree.flags[node] & 3, tree.outcome_of(node))
        for node in range(len(tree))
    }


def test_the_first_simulation_stops_at_the_root_and_the_root_keeps_every_visit():
    lines, root = log_search("tic_tac_toe", simulations=50, uct_c=C, seed=9)
    first_simulation = next(json.loads(line) for line in lines[1:] if "path" in json.loads(line))
    assert first_simulation["path"] == []
    tree = read_input("\n".join(lines)).tree
    assert tree.visits[ROOT] == root.explore_count == 50
    assert sum(tree.visits[kid] for kid in tree.children[ROOT]) == 49
    assert len(tree.children[ROOT]) == 9  # expanded all at once: most with 0 visits early on


def test_chess_moves_have_their_names_and_paths_are_written_with_spaces():
    lines, _ = log_search("chess", simulations=30, uct_c=C, seed=6)
    tree = read_input("\n".join(lines)).tree
    names = {tree.move[kid] for kid in tree.children[ROOT]}
    assert {"e4", "Nf3", "a3"} <= names and len(names) == 20
    assert not tree.compact
    deep = max(range(len(tree)), key=lambda node: tree.depth[node])
    assert tree.path(deep) == " ".join(tree.path_moves(deep)) and tree.find(tree.path(deep)) == deep
    assert tree.player[ROOT] == 1  # OpenSpiel's chess: white is player 1, stated by the log


def test_cli_tree_command_marks_the_engines_next_choice(tmp_path):
    import subprocess
    import sys

    lines, root = log_search("tic_tac_toe", simulations=200, uct_c=C, seed=11)
    result = subprocess.run(
        [sys.executable, "-m", "mcts_core", "tree"], input="\n".join(lines).encode(), capture_output=True, check=True
    )
    dump = json.loads(result.stdout)
    state = play_moves("tic_tac_toe")
    want = state.action_to_string(state.current_player(), engine_choice(root, C, False).action)
    assert dump["root"]["selected"] == want
    assert dump["c"] == C and dump["rule"] == "ucb1" and dump["ties"] == "first"
    # The dump reads back as the same tree.
    assert by_path(read_input(result.stdout.decode()).tree) == by_path(read_input("\n".join(lines)).tree)


def test_our_dump_of_an_engine_tree_round_trips():
    lines, _ = log_search("tic_tac_toe", moves=MIDGAME, simulations=150, uct_c=C, seed=12, solve=True)
    tree = read_input("\n".join(lines)).tree
    out = io.StringIO()
    write_tree_json(tree, out, c=C, rule="ucb1")
    again = read_input(out.getvalue()).tree
    assert by_path(again) == by_path(tree)
    assert any(tree.outcome_of(node) is not None for node in range(len(tree)))
