"""``python -m mcts_core``: output, exit codes and the one-line error format."""

import io
import json
import os
import random
import subprocess
import sys

import pytest

from mcts_core import select_child
from mcts_core.cli.main import main
from apptest_support import REPO as ROOT
from mcts_core.inputs.examples import STATEMENT_EXAMPLE
from cases import random_puzzle
from reference import reference_solve


def run_cli(stdin: bytes, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mcts_core", *args], input=stdin, capture_output=True, cwd=ROOT, timeout=60
    )


def test_statement_example_prints_a():
    result = run_cli(STATEMENT_EXAMPLE.encode())
    assert (result.returncode, result.stdout, result.stderr) == (0, b"a\n", b"")


@pytest.mark.parametrize(
    "stdin, message",
    [
        (b"3 0.1\nbaa 30\nab x\nbbb 4\n", b"error: line 3: score must be a number, got 'x'\n"),
        (b"", b"error: line 1: no playouts found: expected lines like `baa 30` (moves, then score)\n"),
        (b"1 0.1\nb\xffaa 30\n", b"error: line 2: the input is not UTF-8 text (byte 0xff at column 2)\n"),
        (b"ab 1\n", b"error: line 1: no header `N C` and no C given: add a header line like `3 0.1`\n"),
    ],
)
def test_bad_input_exits_2_with_one_line_on_stderr(stdin, message):
    result = run_cli(stdin)
    assert (result.returncode, result.stdout, result.stderr) == (2, b"", message)


@pytest.mark.parametrize("command", [[], ["sweep", "--c-max", "3"], ["tree"], ["export", "--out", "bundle.zip"]])
def test_a_file_that_is_not_utf8_is_refused_in_words_by_every_command(command, tmp_path):
    latin1 = "2 0.5\nab 1\n\u00e9a 2\n".encode("latin-1")  # é as one byte, 0xe9: not UTF-8
    for data, message in ((b"\x80" + latin1, "line 1: the input is not UTF-8 text (byte 0x80 at column 1)"),
                          (latin1, "line 3: the input is not UTF-8 text (byte 0xe9 at column 1)")):
        result = subprocess.run([sys.executable, "-m", "mcts_core", *command], input=data, capture_output=True,
                                cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
        assert (result.returncode, result.stdout, result.stderr.decode()) == (2, b"", f"error: {message}\n")
    assert not (tmp_path / "bundle.zip").exists()


def test_c_option_overrides_header_and_serves_headerless_input():
    flips = b"a 10\nb 9\na 10\na 10\na 10\n"
    assert run_cli(flips, "--c", "5").stdout == b"b\n"
    assert run_cli(b"5 0\n" + flips, "--c", "5").stdout == b"b\n"
    bad = run_cli(flips, "--c", "-1")
    assert bad.returncode == 2 and bad.stderr.count(b"\n") == 1


def test_cli_agrees_with_reference_on_random_puzzles(monkeypatch, capsys):
    rng = random.Random(99)
    for _ in range(1000):
        text = random_puzzle(rng)
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
        assert main([]) == 0
        assert capsys.readouterr().out == reference_solve(text) + "\n"


# A simultaneous-move log: each player's own moves at the root, three joint simulations.
JOINT_LOG = "\n".join([
    '{"mcts_log": 1, "players": 2, "c": 1.0}',
    '{"node": [], "player": 0, "simultaneous": true, "moves": [["R", "P"], ["R", "P"]]}',
    '{"path": [["R", "P"]], "returns": [-1, 1]}',
    '{"path": [["P", "R"]], "returns": [1, -1]}',
    '{"path": [["P", "P"]], "returns": [0, 0]}',
]) + "\n"


def test_a_simultaneous_log_prints_each_players_choice_as_a_joint_move():
    from mcts_core import ROOT
    from mcts_core.inputs.loading import read_input
    from mcts_core.simultaneous import JointScoring, score_own_moves

    read = read_input(JOINT_LOG)
    expected = "|".join(score_own_moves(read.simultaneous.decoupled, ROOT, player, JointScoring("ucb1", 1.0))[0].move
                        for player in (0, 1))
    result = run_cli(JOINT_LOG.encode())
    assert (result.returncode, result.stdout.decode(), result.stderr) == (0, expected + "\n", b"")
    assert expected.split("|")[0] == "P"  # player 0: P (mean 0.5 over 2 visits) beats R (-1 over 1)


def test_the_tree_of_a_simultaneous_log_keeps_its_decoupled_statistics():
    import json

    result = run_cli(JOINT_LOG.encode(), "tree")
    assert result.returncode == 0
    root = json.loads(result.stdout.decode().replace("\n", ""))["root"]
    assert root["simultaneous"] is True and [len(own) for own in root["decoupled"]] == [2, 2]
    assert sum(entry["visits"] for entry in root["decoupled"][0]) == 3


@pytest.mark.parametrize("stdin, args, message", [
    (JOINT_LOG, ("sweep", "--c-max", "3"), "error: the sweep is exact for turn-taking trees"),
    (STATEMENT_EXAMPLE, ("--rule", "exp3"), "error: exp3 scores simultaneous moves only"),
    ("", ("search", "--game", "tic_tac_toe", "--rule", "regret_matching"), "unknown rule 'regret_matching'"),
])
def test_simultaneous_only_commands_and_rules_are_refused_in_one_line(stdin, args, message):
    result = run_cli(stdin.encode(), *args)
    assert result.returncode == 2 and message in result.stderr.decode() and result.stderr.count(b"\n") == 1


def run_in_process(monkeypatch, capsys, stdin: str, *args: str) -> tuple[int, str, str]:
    """``python -m mcts_core *args`` run in this process: (status, stdout, stderr)."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_convergence_prints_each_root_childs_visits_and_mean_after_each_playout(monkeypatch, capsys):
    # The statement's example: b made by the 1st playout, a by the 2nd; the 3rd goes through b.
    assert run_in_process(monkeypatch, capsys, STATEMENT_EXAMPLE, "convergence") == (0, (
        "visits,move,child_visits,value\n1,b,1,30.0\n2,b,1,30.0\n2,a,1,20.0\n3,b,2,17.0\n3,a,1,20.0\n"), "")
    assert run_in_process(monkeypatch, capsys, STATEMENT_EXAMPLE, "convergence", "--node", "b") == (
        0, "visits,move,child_visits,value\n2,b,1,4.0\n", "")


def test_convergence_of_a_log_counts_declared_children_and_quotes_move_names(monkeypatch, capsys):
    log = "\n".join([
        '{"mcts_log": 1, "players": 2, "ties": "first"}',
        '{"node": [], "children": ["e4", "a,b"]}',
        '{"path": ["e4"], "score": 1}',
        '{"path": ["e4"], "score": 0}',
    ]) + "\n"
    status, out, err = run_in_process(monkeypatch, capsys, log, "convergence")
    assert (status, err) == (0, "")
    assert out == 'visits,move,child_visits,value\n1,e4,1,1.0\n1,"a,b",0,nan\n2,e4,2,0.5\n2,"a,b",0,nan\n'


def test_convergence_of_a_simultaneous_log_follows_its_joint_moves(monkeypatch, capsys):
    status, out, _ = run_in_process(monkeypatch, capsys, JOINT_LOG, "convergence")
    assert status == 0 and out.splitlines()[-3:] == ["3,R|P,1,-1.0", "3,P|R,1,1.0", "3,P|P,1,0.0"]


ENGINES = ROOT / "tests" / "data" / "engines"


def test_convergence_of_an_engine_stream_prints_the_root_at_each_update_of_the_chosen_search(monkeypatch, capsys):
    stream = (ENGINES / "leela_zero_lz_analyze.txt").read_text()
    status, out, err = run_in_process(monkeypatch, capsys, stream, "convergence")
    rows = out.splitlines()
    # The first update as lz-analyze printed it: visits 103, 8, 6 (root = their sum + 1), winrates / 10,000.
    assert (status, err) == (0, "") and rows[:4] == [
        "visits,move,child_visits,value", "118,D16,103,0.5059", "118,K10,8,0.3854", "118,R3,6,0.4154"]
    assert rows[-3:] == ["974,D16,463,0.4754", "974,K10,29,0.323", "974,R3,481,0.5038"]
    # Every update of the one lz-analyze command is one search: --analysis 2 gives the same series.
    assert run_in_process(monkeypatch, capsys, stream, "convergence", "--analysis", "2") == (0, out, "")
    during = (ENGINES / "katago_during_search.jsonl").read_text()
    status, out, _ = run_in_process(monkeypatch, capsys, during, "convergence")
    visits = [int(row.split(",")[0]) for row in out.splitlines()[1:]]
    assert status == 0 and visits[0] == 14 and len(set(visits)) == 13  # 12 reports during the search, the final one


@pytest.mark.parametrize("name, args, message", [
    ("katago_budgets.jsonl", ("convergence", "--analysis", "3"),
     "error: this search is a single snapshot of the engine's analysis: it has no order of updates to follow\n"),
    ("leela_zero_lz_analyze.txt", ("convergence", "--node", "D16"),
     "error: --node: an engine reports its search at the root only: leave --node out\n"),
])
def test_convergence_of_an_engine_snapshot_or_below_its_root_is_refused_in_one_line(monkeypatch, capsys, name,
                                                                                    args, message):
    assert run_in_process(monkeypatch, capsys, (ENGINES / name).read_text(), *args) == (2, "", message)


@pytest.mark.parametrize("stdin, args, message", [
    (STATEMENT_EXAMPLE, ("convergence", "--node", "bx"), "error: --node: no move 'x' after 'b'\n"),
    ('{"mcts_tree": 1, "root": {"visits": 1, "children": [{"move": "a", "visits": 1}]}}', ("convergence",),
     "error: a tree dump is a finished tree: it has no order of simulations to replay\n"),
    ("3 0.1\nbaa 30\nab x\nbbb 4\n", ("convergence",), "error: line 3: score must be a number, got 'x'\n"),
    (STATEMENT_EXAMPLE, ("convergence", "--rule", "exp3"), "error: exp3 scores simultaneous moves only, and this input has none\n"),
])
def test_convergence_refuses_in_one_line(monkeypatch, capsys, stdin, args, message):
    assert run_in_process(monkeypatch, capsys, stdin, *args) == (2, "", message)


@pytest.mark.parametrize("c, counts", [("0.3", [1, 72690, 72690, 2801101]), ("0", [None, None, None, None])])
def test_tree_gives_every_child_but_the_selected_its_visits_to_flip(monkeypatch, capsys, c, counts):
    import json
    import re

    from mcts_core import Scoring
    from mcts_core.analysis import visits_to_flip
    from mcts_core.inputs.formats.tree_json_writer import write_tree_json
    from mcts_core.inputs.loading import read_input

    text = "9 1.5\nab 1\nb 0\naa 0\nc 1\nab 1\nca 0\nb 1\nba -1\ncc 1\n"
    status, out, _ = run_in_process(monkeypatch, capsys, text, "tree", "--c", c)
    assert status == 0
    tree, scoring = read_input(text).tree, Scoring("ucb1", float(c))
    dumped = {}

    def walk(node, path=""):
        for kid in node.get("children", []):
            dumped[path + kid["move"]] = kid
            walk(kid, path + kid["move"])

    walk(json.loads(out)["root"])
    assert sorted((fields["visits_to_flip"] for fields in dumped.values() if "visits_to_flip" in fields),
                  key=lambda count: count or 0) == counts
    for node in range(len(tree)):
        flips = visits_to_flip(tree, node, scoring)
        for kid in tree.children[node]:  # absent for the selected child
            assert dumped[tree.path(kid)].get("visits_to_flip", "absent") == flips.get(kid, "absent")
    # Everything else is the dump as it was, and it reads back.
    without = io.StringIO()
    write_tree_json(tree, without, c=float(c), rule="ucb1", selected=lambda node: select_child(tree, node, scoring))
    assert re.sub(r', "visits_to_flip": (\d+|null)', "", out) == without.getvalue()
    again = read_input(out).tree
    assert {again.path(n): again.total[n] for n in range(len(again))} == {tree.path(n): tree.total[n] for n in range(len(tree))}


def test_analysis_picks_one_of_an_engine_files_analyses_and_refuses_one_it_lacks():
    from mcts_core.inputs import read_input

    stream = (ROOT / "tests" / "data" / "engines" / "leela_zero_lz_analyze.txt").read_bytes()
    analyses = read_input(stream.decode()).analyses
    first = json.loads(run_cli(stream, "--analysis", "1", "tree").stdout)
    assert first["root"]["visits"] == analyses[0].root_visits != analyses[-1].root_visits
    assert (first["rule"], first["c"]) == ("leela_zero", 0.5)
    last = json.loads(run_cli(stream, "tree").stdout)
    assert last["root"]["visits"] == analyses[-1].root_visits
    refused = run_cli(stream, "--analysis", str(len(analyses) + 1), "tree")
    assert refused.returncode == 2 and refused.stdout == b""
    assert refused.stderr.decode().strip() == (f"error: line 1: --analysis {len(analyses) + 1}: the input has {len(analyses)} "
                                      f"of an engine's analyses; give 1 to {len(analyses)}")
