"""Our MCTS on OpenSpiel games: what it finds, and that its log reproduces it exactly.

The log is read back by the same reader as any uploaded log: every node has the search's visits
and totals bit for bit, and before every simulation the tree built from the records so far selects
(with ``select_child``) exactly the child the simulation stepped into.
"""

import io
import json
import math
import random
import struct
import subprocess
import sys
import threading

import pytest

import required

required.module("pyspiel")

from apptest_support import REPO  # noqa: E402
from mcts_core.model.build import build_tree  # noqa: E402
from mcts_core.inputs.formats.log import read_log  # noqa: E402
from mcts_core.inputs.loading import read_input  # noqa: E402
from mcts_core.search import parse_moves, play_moves, search  # noqa: E402
from mcts_core.search.choosers import chooser_for  # noqa: E402
from mcts_core.selection.rules.puct import puct_values  # noqa: E402
from mcts_core.selection.rules.ucb1 import ucb1_values  # noqa: E402
from mcts_core.search.live_tree import LiveTree  # noqa: E402
from mcts_core.selection import RULES, Scoring, score_children, select_child, under_threshold  # noqa: E402
from mcts_core.model.tree import ROOT  # noqa: E402

# x holds (0,0) and (0,1), o holds (1,0) and (1,1), x to move: x(0,2) wins at once; any other
# move lets o win with o(1,2).
WIN_IN_ONE = ("x(0,0)", "o(1,0)", "x(0,1)", "o(1,1)")
SCORINGS = {
    "ucb1": Scoring("ucb1", 1.4),
    "ucb1_tuned": Scoring("ucb1_tuned", 1.0, {"cap": 1.0}),
    "puct": Scoring("puct", 2.0),
    "puct_minmax_priors": Scoring("puct", 1.5, {"normalise": "minmax", "priors": {"x(1,1)": 0.5, "o(0,0)": 0.2}}),
    "progressive_bias": Scoring("progressive_bias", 0.7, {"w": 2.0, "heuristic": {"x(1,1)": 1.0}}),
    "sample_threshold": Scoring("sample_threshold", 1.0, {"t": 6, "t2": 20, "c0": 0.2}),
    "sample_threshold_heuristic": Scoring(
        "sample_threshold", 1.0, {"t": 6, "fallback": "heuristic", "heuristic": {"x(1,1)": 1.0, "o(1,1)": 1.0}}
    ),
}


def bits(x: float) -> bytes:
    return struct.pack("<d", x)


@pytest.mark.parametrize("rule", list(RULES))
@pytest.mark.parametrize("c", [0.1, 1.4, 10.0])
def test_a_win_in_one_is_found_at_any_sensible_c(rule, c):
    result = search("tic_tac_toe", moves=WIN_IN_ONE, scoring=Scoring.of(rule, c=c), simulations=300, seed=5)
    assert result.best_move == "x(0,2)"


def test_root_visits_spread_out_as_c_grows():
    for seed in range(3):
        narrow = search("tic_tac_toe", scoring=Scoring("ucb1", 0.1), simulations=400, seed=seed)
        wide = search("tic_tac_toe", scoring=Scoring("ucb1", 10.0), simulations=400, seed=seed)
        assert wide.visit_entropy > narrow.visit_entropy
        assert wide.visit_entropy <= math.log(9) + 1e-12  # nine moves at the root


def assert_same_statistics(log: str, live: LiveTree) -> None:
    """Every node of the tree read from the log has the live node's statistics, bit for bit."""
    tree = read_input(log).tree
    assert len(tree) == len(live)
    stack = [(ROOT, ROOT)]
    while stack:
        ours, read = stack.pop()
        assert live.visits[ours] == tree.visits[read]
        assert bits(live.total[ours]) == bits(tree.total[read])
        assert bits(live.total_sq[ours]) == bits(tree.total_sq[read])
        assert [live.move[k] for k in live.children[ours]] == [tree.move[k] for k in tree.children[read]]
        assert live.is_chance(ours) == tree.is_chance(read) and live.is_terminal(ours) == tree.is_terminal(read)
        stack.extend(zip(live.children[ours], tree.children[read]))


def assert_every_step_is_the_rules_choice(log: str, scoring: Scoring) -> int:
    """Rebuilds the tree before each simulation and checks each step of its path; returns the draws."""
    playouts = read_log(log)[0]
    draws = 0
    for k in range(len(playouts)):
        tree = build_tree(playouts, upto=k)
        node = ROOT
        for move_id in playouts.move_ids[playouts.starts[k] : playouts.starts[k + 1]]:
            assert node == ROOT or tree.visits[node] > 0  # the walk goes on only through visited nodes
            kid = tree.child(node, playouts.moves[move_id])
            assert kid is not None
            if tree.is_chance(node):
                pass  # sampled: the log does not carry the outcomes' probabilities
            elif under_threshold(tree, node, scoring):
                chances = {score.node: score.probability for score in score_children(tree, node, scoring)}
                assert chances[kid] > 0
                draws += 1
            else:
                assert select_child(tree, node, scoring) == kid, (k, tree.path(kid))
            node = kid
        assert tree.visits[node] == 0 or tree.is_terminal(node)  # one new node per simulation
    return draws


@pytest.mark.parametrize("name", list(SCORINGS))
def test_the_log_reproduces_the_search_node_by_node_and_step_by_step(name):
    scoring = SCORINGS[name]
    result = search("tic_tac_toe", scoring=scoring, simulations=150, seed=11)
    assert_same_statistics(result.log, result.tree)
    draws = assert_every_step_is_the_rules_choice(result.log, scoring)
    assert (draws > 0) == name.startswith("sample_threshold")


@pytest.mark.parametrize("rule", ["ucb1", "puct"])
def test_a_game_with_dice_logs_chance_nodes_and_reproduces(rule):
    result = search("pig(winscore=6)", scoring=Scoring.of(rule, c=1.4), simulations=150, seed=2)
    records = [json.loads(line) for line in result.log.splitlines()]
    chance = [r for r in records if r.get("chance")]
    assert chance and all(r["children"] == [f"Roll {i}" for i in range(1, 7)] for r in chance)
    assert_same_statistics(result.log, result.tree)
    assert_every_step_is_the_rules_choice(result.log, Scoring.of(rule, c=1.4))


def test_a_deeper_game_reproduces_too():
    result = search("connect_four", scoring=Scoring("ucb1", 0.5), simulations=120, seed=4)
    assert_same_statistics(result.log, result.tree)
    assert_every_step_is_the_rules_choice(result.log, Scoring("ucb1", 0.5))


def test_the_log_states_header_root_facts_and_terminal_nodes():
    result = search("tic_tac_toe", moves=WIN_IN_ONE, scoring=Scoring("puct", 3.0), simulations=50, seed=1)
    records = [json.loads(line) for line in result.log.splitlines()]
    assert records[0] == {"mcts_log": 1, "players": 2, "ties": "first", "c": 3.0, "rule": "puct"}
    assert records[1]["node"] == [] and records[1]["player"] == 0 and len(records[1]["children"]) == 5
    assert {"node": ["x(0,2)"], "children": [], "chance": False, "terminal": True} in records
    simulations = [r for r in records if "path" in r]
    assert len(simulations) == result.simulations == result.root_visits == 50
    read = read_input(result.log)
    assert (read.c, read.rule) == (3.0, "puct")


def test_same_seed_same_log_and_another_seed_another_log():
    def log(seed):
        return search("tic_tac_toe", scoring=Scoring("ucb1", 1.4), simulations=200, seed=seed).log

    assert log(7) == log(7)
    assert log(7) != log(8)


def test_moves_by_id_and_by_name_give_the_same_search():
    by_name = search("tic_tac_toe", moves=["x(1,1)", "o(0,0)"], scoring=Scoring("ucb1", 1.0), simulations=60)
    by_id = search("tic_tac_toe", moves=[4, 0], scoring=Scoring("ucb1", 1.0), simulations=60)
    assert by_name.log == by_id.log


def test_the_log_streams_to_out_and_the_result_keeps_no_text():
    out = io.StringIO()
    result = search("tic_tac_toe", scoring=Scoring("ucb1", 1.0), simulations=30, seed=3, out=out)
    assert result.log is None
    assert out.getvalue() == search("tic_tac_toe", scoring=Scoring("ucb1", 1.0), simulations=30, seed=3).log


def test_result_reports_root_shares_best_move_and_depth():
    result = search("tic_tac_toe", scoring=Scoring("ucb1", 1.4), simulations=300, seed=1)
    assert sum(child.visits for child in result.children) == result.root_visits == 300
    assert math.isclose(sum(result.shares.values()), 1.0)
    best = max(result.children, key=lambda child: child.visits)
    assert (result.best_move, result.best_action) == (best.move, best.action)
    assert result.top_share == result.shares[result.best_move]
    assert 2 <= result.depth <= 9 and result.elapsed > 0 and not result.stopped


def test_stop_button_ends_the_search_after_the_current_simulation():
    polls = []

    def should_stop():
        polls.append(1)
        return len(polls) >= 10

    result = search("tic_tac_toe", scoring=Scoring("ucb1", 1.0), simulations=1000, should_stop=should_stop)
    assert result.stopped and result.simulations == 10
    assert sum(1 for line in result.log.splitlines() if line.startswith('{"path"')) == 10


def test_progress_ends_at_the_budget_and_a_time_budget_stops_the_search():
    calls = []
    search("tic_tac_toe", scoring=Scoring("ucb1", 1.0), simulations=500, progress=lambda d, t: calls.append((d, t)))
    assert calls[-1] == (500, 500) and all(d <= t for d, t in calls)
    ticks = iter(range(10**6))  # a clock that moves 10 ms each time the search reads it
    timed = search("connect_four", scoring=Scoring("ucb1", 1.0), seconds=0.3, clock=lambda: next(ticks) / 100)
    # Read at the start (0.00 s) and after each simulation: the 30th reads 0.30 s, the budget's end.
    assert timed.simulations == 30 and timed.elapsed == 0.31 and not timed.stopped


def random_live_tree(rng: random.Random, children: int, *, priors: bool) -> LiveTree:
    """A root with children of random statistics: unvisited ones, negative totals, exact ties."""
    tree = LiveTree(2, 0, priors=priors)
    names = [f"m{i}" for i in range(children)]
    declared = [rng.choice([0.0, 0.1, 0.25, 0.5]) if rng.random() < 0.7 else math.nan for _ in names]
    tree.expand(ROOT, 0, 0, list(range(children)), names, priors=declared if priors else None)
    for kid in tree.children[ROOT]:
        if rng.random() < 0.2:
            continue
        visits = rng.randint(1, 50)
        tree.visits[kid] = visits
        tree.total[kid] = rng.choice([-0.0, 0.0, float(visits), -float(visits), rng.uniform(-visits, visits)])
        tree.total_sq[kid] = abs(tree.total[kid]) * rng.uniform(1, 2)
    if children > 2 and rng.random() < 0.5:  # an exact tie with the first child
        last = tree.children[ROOT][-1]
        first = tree.children[ROOT][0]
        tree.visits[last], tree.total[last] = tree.visits[first], tree.total[first]
    tree.visits[ROOT] = sum(tree.visits[k] for k in tree.children[ROOT]) + rng.randint(0, 3)
    return tree


@pytest.mark.parametrize(
    "scoring",
    [Scoring("ucb1", 0.0), Scoring("ucb1", 1.4), Scoring("ucb1", 1e300), Scoring("puct", 1.4),
     Scoring("puct", 0.0), Scoring("puct", 2.5, {"normalise": "minmax"}),
     Scoring("puct", 1.0, {"priors": {"m0": 0.7, "m3": 0.1}})],
    ids=str,
)
def test_fast_ucb1_and_puct_are_bit_identical_to_the_formulas(scoring):
    rng = random.Random(2024)
    choose = chooser_for(scoring)
    for _ in range(300):
        tree = random_live_tree(rng, rng.randint(1, 9), priors=scoring.rule == "puct" and rng.random() < 0.5)
        if scoring.rule == "ucb1":
            fast = ucb1_values(tree.visits[ROOT], tree.visits, tree.total, tree.children[ROOT], c=scoring.c)
        else:
            fast = puct_values(tree, ROOT, scoring.c, normalise=scoring.settings.get("normalise", "raw"),
                               priors=scoring.settings.get("priors"))
        generic = {score.node: score.value for score in score_children(tree, ROOT, scoring)}
        assert [bits(v) for v in fast] == [bits(generic[kid]) for kid in tree.children[ROOT]]
        assert choose(tree, ROOT, rng) == select_child(tree, ROOT, scoring)


@pytest.mark.parametrize(
    "game, moves, message",
    [
        ("tic_tac_tow", (), "unknown game 'tic_tac_tow'; did you mean tic_tac_toe"),
        ("goofspiel", (), "the decoupled search for simultaneous moves"),
        ("kuhn_poker", (), "imperfect information"),
        ("connect_four(rows=x)", (), "parameter 'rows' must be of type int, got 'x'"),
        ("connect_four(rows=5", (), "must end with ')'"),
        ("connect_four(rowz=4)", (), "connect_four has no parameter 'rowz'"),
        ("tic_tac_toe", ("x(1,1)", "x(0,0)"), "'x(0,0)' (move 2) is not legal after x(1,1); legal: o(0,0), o(0,1)"),
        ("tic_tac_toe", (4, 4), "4 (move 2) is not legal after x(1,1)"),
        ("tic_tac_toe", ("x(0,0)", "o(1,0)", "x(0,1)", "o(1,1)", "x(0,2)"), "the game is over"),
    ],
)
def test_bad_games_and_positions_are_refused_with_a_clear_message(game, moves, message):
    with pytest.raises(ValueError) as error:
        search(game, moves=moves, scoring=Scoring("ucb1", 1.0), simulations=10)
    assert message in str(error.value)


@pytest.mark.parametrize(
    "budget, message",
    [
        ({}, "give a budget"),
        ({"simulations": 0}, "simulations must be from 1 to 1,000,000, got 0"),
        ({"simulations": 2_000_000}, "got 2,000,000"),
        ({"simulations": 2.5}, "whole number"),
        ({"seconds": 0}, "seconds must be more than 0 and at most 600"),
        ({"seconds": 601}, "at most 600"),
        ({"simulations": 10, "seconds": -1.0}, "seconds must be more than 0"),
    ],
)
def test_missing_or_absurd_budgets_are_refused(budget, message):
    with pytest.raises(ValueError) as error:
        search("tic_tac_toe", scoring=Scoring("ucb1", 1.0), **budget)
    assert message in str(error.value)


def test_moves_typed_on_a_command_line():
    assert parse_moves("4 0") == [4, 0]
    assert parse_moves(" x(1,1)  o(0,0) ") == ["x(1,1)", "o(0,0)"]
    assert parse_moves('["roll", "Roll 3", 1]') == ["roll", "Roll 3", 1]
    assert parse_moves("") == []
    with pytest.raises(ValueError, match="JSON array"):
        parse_moves('["roll", null]')


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mcts_core", *args], capture_output=True, cwd=REPO, timeout=120,
                          text=True)


def test_cli_search_writes_the_same_log_as_the_api():
    result = run_cli("search", "--game", "tic_tac_toe", "--moves", "4 0", "--simulations", "200", "--c", "1.4",
                     "--seed", "3")
    assert (result.returncode, result.stderr) == (0, "")
    api = search("tic_tac_toe", moves=[4, 0], scoring=Scoring("ucb1", 1.4), simulations=200, seed=3)
    assert result.stdout == api.log


def test_cli_search_takes_names_with_spaces_as_a_json_array():
    result = run_cli("search", "--game", "pig(winscore=6)", "--moves", '["roll", "Roll 3"]', "--simulations", "20",
                     "--rule", "puct")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.splitlines()[0])["rule"] == "puct"


@pytest.mark.parametrize(
    "args, message",
    [
        (["--game", "tic_tac_tow", "--simulations", "5"], "error: unknown game 'tic_tac_tow'"),
        (["--game", "oshi_zumo", "--simulations", "5"], "decoupled search for simultaneous moves"),
        (["--game", "tic_tac_toe", "--moves", "4 4", "--simulations", "5"], "error: 4 (move 2) is not legal"),
        (["--game", "tic_tac_toe", "--simulations", "0"], "error: simulations must be from 1"),
        (["--game", "tic_tac_toe", "--seconds", "9999"], "error: seconds must be more than 0 and at most 600"),
        (["--game", "tic_tac_toe", "--simulations", "5", "--rule", "nope"], "error: unknown rule 'nope'"),
    ],
)
def test_cli_search_errors_exit_2_with_one_line(args, message):
    result = run_cli("search", *args)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and message in result.stderr


# Game strings OpenSpiel refuses, crashes on (in a child process, so the command still answers), or
# whose first position cannot be searched: one sentence each, before anything is written.
ODD_GAMES = [
    ("go(board_size=500)", "error: OpenSpiel cannot set up go(board_size=500): The current Go implementation "
     "supports board size up to 19. Provided: 500"),
    ("breakthrough(rows=0)", "error: OpenSpiel cannot set up breakthrough(rows=0): its check `rows_ > 1` failed"),
    ("connect_four(rows=0)", "error: OpenSpiel crashed (SIGSEGV) setting up connect_four(rows=0)"),
    ("breakthrough(rows=100000,columns=100000)", "error: OpenSpiel ran out of memory setting up"),
    ("connect_four(columns=0)", "error: connect_four(columns=0) cannot be played: its first position has no legal moves"),
    ("connect_four(rows=99999999999999999999)", "error: connect_four's parameter 'rows' is 99999999999999999999; "
     "OpenSpiel takes whole numbers from -2,147,483,648 to 2,147,483,647"),
    ("connect_four(rows)", "error: connect_four's parameters are written key=value"),
    ("connect_four(rows=", "error: the game string 'connect_four(rows=' must end with ')'"),
    ("tic_tac_toe(players=3)", "error: tic_tac_toe has no parameter 'players'"),
    ("", "error: no game given"),
    ("breakthrough(rows=1000,columns=1000)", "error: this position has 2,998 moves; a search log lists at most 1,000"),
]


@pytest.mark.parametrize("game, message", ODD_GAMES, ids=[game or "empty" for game, _ in ODD_GAMES])
def test_cli_search_answers_every_game_string_with_one_sentence(game, message):
    result = run_cli("search", "--game", game, "--simulations", "5")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.count("\n") == 1 and result.stderr.startswith(message), result.stderr


def test_moves_openspiel_cannot_name_as_text_are_named_by_their_action_id():
    # breakthrough spells columns past the 31st with bytes that are not UTF-8: those moves get their ids.
    game = "breakthrough(rows=4,columns=40)"
    result = run_cli("search", "--game", game, "--simulations", "50")
    assert (result.returncode, result.stderr) == (0, "")
    log = read_input(result.stdout)
    root_moves = [log.tree.move[kid] for kid in log.tree.children[ROOT]]
    by_id = [move for move in root_moves if move.isdigit()]
    assert by_id and len(set(root_moves)) == len(root_moves) == 118
    # An id name is the action: --moves plays it, and the position after it is searched.
    after = run_cli("search", "--game", game, "--moves", by_id[0], "--simulations", "5")
    assert after.returncode == 0, after.stderr


def test_stop_and_the_time_budget_end_a_search_whose_random_games_never_end():
    # One random game of breakthrough on a 1000 x 300 board lasts hours: the search ends within its
    # second anyway, says that no simulation finished, and its log is still read.
    result = subprocess.run([sys.executable, "-m", "mcts_core", "search", "--game", "breakthrough(rows=1000,columns=300)",
                             "--seconds", "1"], capture_output=True, cwd=REPO, timeout=120, text=True)
    assert result.returncode == 0 and result.stderr.startswith("search: no simulation finished in time")
    assert read_input(result.stdout).tree.visits[ROOT] == 0
    # Stop (the Search page's button) is heard during the rollout too: asked a second time, it ends the search.
    asked, found = [], []
    run = threading.Thread(target=lambda: found.append(search(
        "breakthrough(rows=1000,columns=300)", scoring=Scoring("ucb1", 1.4), simulations=10,
        should_stop=lambda: asked.append(1) or len(asked) > 1)), daemon=True)
    run.start()
    run.join(timeout=120)
    assert found and found[0].stopped and found[0].simulations == 0


def test_a_puzzle_run_imports_neither_pyspiel_nor_numpy():
    code = (
        "import sys; from mcts_core.cli.main import main; main([]); "
        "print(sorted(m for m in ('pyspiel', 'numpy', 'mcts_core.search') if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], input="3 0.1\nbaa 30\nab 20\nbbb 4\n",
                            capture_output=True, cwd=REPO, timeout=60, text=True)
    assert result.stdout == "a\n[]\n", result.stderr


def test_cli_search_defaults_are_the_apps_and_help_states_them():
    from mcts_core import defaults

    result = run_cli("search", "--game", "tic_tac_toe")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert json.loads(lines[0])["c"] == defaults.SEARCH_C == 1.4  # the issue: one C for the CLI and the app
    assert sum(1 for line in lines if line.startswith('{"path"')) == defaults.SEARCH_SIMULATIONS
    assert result.stdout == search("tic_tac_toe", scoring=Scoring("ucb1", defaults.SEARCH_C),
                                   simulations=defaults.SEARCH_SIMULATIONS, seed=defaults.SEARCH_SEED).log
    shown = " ".join(run_cli("search", "--help").stdout.split())
    assert f"default {defaults.SEARCH_C:g}" in shown and f"default {defaults.SEARCH_SIMULATIONS:,}" in shown
    assert f"(default {defaults.SEARCH_SEED})" in shown


def test_puzzle_help_says_that_c_overrides_the_headers_c():
    shown = " ".join(run_cli("--help").stdout.split())
    assert "overrides the C of the input's header" in shown
    puzzle = "3 0.1\na 10\nb 0\na 10\n"  # at the header's C = 0.1 the mean wins: a

    def solved(*args: str) -> str:
        return subprocess.run([sys.executable, "-m", "mcts_core", *args], input=puzzle, capture_output=True,
                              cwd=REPO, timeout=60, text=True).stdout

    assert (solved(), solved("--c", "100")) == ("a\n", "b\n")


# --- MCTS-Solver (issue 22) ----------------------------------------------------------------------

# OpenSpiel's own test positions (open_spiel/python/algorithms/mcts_test.py): the value for the
# player to move at the root, and the moves that achieve it.
SOLVER_POSITIONS = [
    pytest.param("x(1,1) o(0,0) x(2,2)", 0.0, {"o(0,2)", "o(2,0)"}, id="draw"),
    pytest.param("x(1,1) o(0,0) x(2,2) o(0,1) x(0,2)", -1.0, None, id="loss"),
    pytest.param("x(0,1) o(2,2)", 1.0, {"x(0,2)"}, id="win"),
]


@pytest.mark.parametrize("moves, value, best", SOLVER_POSITIONS)
def test_the_solver_proves_openspiels_test_positions_and_the_log_keeps_the_proofs(moves, value, best):
    result = search("tic_tac_toe", moves=moves.split(), scoring=Scoring("ucb1", 1.4), simulations=10_000, seed=0,
                    solve=True)
    mover = result.tree.player[ROOT]
    assert result.outcome is not None and result.outcome[mover] == value
    assert result.simulations < 10_000  # a proven root ends the search
    chosen = next(child for child in result.children if child.move == result.best_move)
    assert chosen.outcome == value
    if best is not None:
        assert result.best_move in best
    assert all(child.outcome is not None and child.outcome <= value for child in result.children
               if child.outcome is not None)
    if value == -1.0:
        assert all(child.outcome == -1.0 for child in result.children)  # every move loses
    read = read_input(result.log).tree
    assert read.outcome_of(ROOT) == value
    assert {read.move[k]: read.outcome_of(k) for k in read.children[ROOT]} == {
        child.move: child.outcome for child in result.children}


@pytest.mark.parametrize("moves, value, best", SOLVER_POSITIONS)
def test_openspiels_solving_bot_proves_the_same_values(moves, value, best):
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("tic_tac_toe")
    state = play_moves(game, moves.split())
    rng = np.random.RandomState(42)
    bot = mcts.MCTSBot(game, 2.0, 10_000, mcts.RandomRolloutEvaluator(n_rollouts=20, random_state=rng),
                       solve=True, random_state=rng)
    root = bot.mcts_search(state)
    ours = search("tic_tac_toe", moves=moves.split(), scoring=Scoring("ucb1", 1.4), simulations=10_000, seed=3,
                  solve=True)
    assert root.outcome[root.player] == value == ours.outcome[ours.tree.player[ROOT]]


def test_without_the_solver_nothing_is_proven_and_the_search_uses_its_whole_budget():
    result = search("tic_tac_toe", moves="x(0,1) o(2,2)".split(), scoring=Scoring("ucb1", 1.4), simulations=2000,
                    seed=0)
    assert result.outcome is None and result.simulations == 2000
    assert all(child.outcome is None for child in result.children)
    assert '"outcome"' not in result.log


@pytest.mark.parametrize("name", ["ucb1", "puct", "progressive_bias", "sample_threshold"])
def test_with_the_solver_the_log_still_reproduces_every_step(name):
    scoring = SCORINGS[name]
    result = search("tic_tac_toe", moves=["x(1,1)", "o(0,0)"], scoring=scoring, simulations=400, seed=7, solve=True)
    assert '"outcome"' in result.log
    assert_same_statistics(result.log, result.tree)
    # A log's facts apply before every simulation wherever they stand (a bot may write them at the
    # end), so a replay knows every proof from the start: the log up to its first proof is what the
    # search knew then, and it follows the search step by step.
    lines = result.log.splitlines(keepends=True)
    first_proof = next(k for k, line in enumerate(lines) if '"outcome"' in line)
    assert sum('"path"' in line for line in lines[:first_proof]) >= 20
    assert_every_step_is_the_rules_choice("".join(lines[:first_proof]), scoring)


def test_the_best_move_avoids_a_proven_loss_and_takes_a_proven_win():
    from mcts_core.search.sequential_search import _result

    tree = LiveTree(2, 0)
    tree.expand(ROOT, 0, 0, [0, 1, 2], ["lose", "open", "win"])
    for kid, visits in zip(tree.children[ROOT], (50, 40, 3)):
        tree.visits[kid] = visits
    tree.proven[1] = [-1.0, 1.0]  # "lose": most visited, proven lost for player 0
    assert _result(tree, 93, 0.0, False).best_move == "open"
    tree.proven[3] = [1.0, -1.0]  # "win": hardly visited, proven won
    assert _result(tree, 93, 0.0, False).best_move == "win"


def test_the_children_table_shows_proven_outcomes():
    from mcts_core.tables import children_table

    result = search("tic_tac_toe", moves="x(0,1) o(2,2)".split(), scoring=Scoring("ucb1", 1.4), simulations=10_000,
                    seed=0, solve=True)
    read = read_input(result.log).tree
    table = children_table(read, ROOT, Scoring("ucb1", 1.4)).set_index("move")
    assert table.loc["x(0,2)", "outcome"] == 1.0 and table.loc["x(0,2)", "rank"] == 1


def test_cli_search_solve_writes_the_proofs():
    result = run_cli("search", "--game", "tic_tac_toe", "--moves", "x(0,1) o(2,2)", "--simulations", "5000",
                     "--solve")
    assert result.returncode == 0, result.stderr
    assert read_input(result.stdout).tree.outcome_of(ROOT) == 1.0
    shown = " ".join(run_cli("search", "--help").stdout.split())
    assert "--solve MCTS-Solver" in shown  # docs/DESIGN.md: `search --help` names its solver option with "solve"
    refused = run_cli("search", "--game", "matrix_rps", "--algorithm", "duct", "--solve")
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and "--solve" in refused.stderr


# --- searching from a chance position (issue 22) ----------------------------------------------------


def test_a_chance_position_is_sampled_and_the_best_move_is_a_players_move():
    result = search("backgammon", scoring=Scoring("ucb1", 1.4), simulations=30, seed=4)
    start = play_moves("backgammon")
    outcomes = [start.action_to_string(start.current_player(), a) for a, _ in start.chance_outcomes()]
    assert len(result.sampled) == 1 and result.sampled[0] in outcomes  # the opening roll, drawn and named
    assert result.best_move not in outcomes
    after = play_moves("backgammon", list(result.sampled))
    assert [child.move for child in result.children] == [after.action_to_string(after.current_player(), a)
                                                          for a in after.legal_actions()]
    read = read_input(result.log).tree
    assert not read.is_chance(ROOT) and read.visits[ROOT] == 30
    assert search("backgammon", scoring=Scoring("ucb1", 1.4), simulations=30, seed=4).log == result.log
    assert search("pig(winscore=6)", scoring=Scoring("ucb1", 1.4), simulations=30, seed=4).sampled == ()


def test_cli_search_from_a_chance_position_says_which_outcome_it_drew():
    result = run_cli("search", "--game", "catch", "--simulations", "50", "--seed", "2")
    assert result.returncode == 0
    api = search("catch", scoring=Scoring("ucb1", 1.4), simulations=50, seed=2)
    assert result.stdout == api.log
    assert result.stderr == (f"search: the position is a chance node; the search drew {api.sampled[0]} (seed 2) "
                             "and searched the position after it, the log's root\n")


# --- command-line messages (issue 22) --------------------------------------------------------------


def test_cli_search_refuses_a_simultaneous_game_naming_the_option_to_use():
    result = run_cli("search", "--game", "oshi_zumo", "--simulations", "5")
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "--algorithm duct" in result.stderr and "--algorithm smitsimax" in result.stderr


def test_cli_search_says_how_to_type_a_move_whose_name_has_a_space():
    result = run_cli("search", "--game", "pig(winscore=6)", "--moves", "roll Roll 3", "--simulations", "5")
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "'Roll' (move 2) is not legal" in result.stderr
    assert 'a name with a space needs the JSON array form: ["roll", "Roll 1"]' in result.stderr
    assert run_cli("search", "--game", "pig(winscore=6)", "--moves", '["roll", "Roll 3"]', "--simulations",
                   "5").returncode == 0
