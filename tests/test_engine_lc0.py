"""lc0: the reader of its verbose move stats and the rule ``lc0``, against lc0's own printed U and S.

The quotes are real lc0 output from its GitHub issues (tests/data/engines/README.md). lc0 prints P
to 0.01 %, so a printed U is matched by the U our rule gives for every P the print allows: the
printed U (to its 5 decimals) must lie within that interval, widened by float32's rounding.
"""

import math
import subprocess
import sys
from pathlib import Path

import pytest

from mcts_core.common.input_rules import ParseError
from mcts_core.inputs.formats.lc0_stats import read
from mcts_core.inputs.loading import ENGINE, read_input
from mcts_core.selection.rules.lc0_puct import RULE, fast_log, lc0
from mcts_core.selection.scoring import Scoring, score_children
from mcts_core.selection.terms import Siblings

DATA = Path(__file__).parent / "data" / "engines"
PRINTED = 0.5e-5  # half the last printed digit of U, S and Q
FLOAT32 = 2e-7  # lc0 computes in float32
MID = {"c": 2.147, "cpuct_base": 18368.0, "cpuct_factor": 2.815}  # lc0 v0.24 to v0.26 (params.cc, #1088)

# file, the root's N where the quote's node line was cut off (the last `info ... nodes`), settings the
# file does not state (its build's constants).
QUOTES = [
    ("lc0_issue1002_qu.txt", None, {}),
    ("lc0_pr1268_node.txt", None, MID),
    ("lc0_issue1237_log.txt", 30067, MID),
    ("lc0_issue1456_go400.txt", 416, {}),
]


def text(name):
    return (DATA / name).read_text()


def u_interval(analysis, move, root_visits, settings):
    """The lowest and highest U our rule gives for the P lc0's print allows."""
    constants = {key: value for key, value in settings.items() if key in ("cpuct_factor", "cpuct_base")}
    siblings = Siblings(tuple(m.move for m in analysis.moves), 0.0, 0.0)
    flights = settings.get("in_flight")
    values = []
    for prior in (move.prior - 0.00005, move.prior + 0.00005):
        terms = lc0(root_visits, move.visits, 0.0, c=settings["c"], move=move.move, siblings=siblings,
                    prior=prior, in_flight=flights, **constants)
        values.append(terms["exploration"])
    return min(values), max(values)


@pytest.mark.parametrize(("name", "root_visits", "given"), QUOTES)
def test_our_u_and_s_equal_lc0s_printed_ones_on_every_move(name, root_visits, given):
    (analysis,) = read(text(name))
    settings = {**analysis.settings, **given}
    if analysis.c is not None:
        settings.setdefault("c", analysis.c)
    root_visits = root_visits or analysis.root_visits
    for move in analysis.moves:
        low, high = u_interval(analysis, move, root_visits, settings)
        printed_u = move.columns["U"]
        assert low - PRINTED - FLOAT32 <= printed_u <= high + PRINTED + FLOAT32, (name, move.move, low, high)
        printed_s = move.columns.get("S", move.columns.get("Q+U"))
        if move.visits:  # an unvisited move's S starts from the first-play value (test below)
            q = move.columns["Q"]
            assert q + low - 2 * PRINTED - FLOAT32 <= printed_s <= q + high + 2 * PRINTED + FLOAT32, (name, move.move)


def test_an_unvisited_moves_s_is_its_first_play_value_plus_u():
    # lc0 v0.23 prints an unvisited move's Q as the first-play value its S adds U to.
    (analysis,) = read(text("lc0_issue1002_qu.txt"))
    for move in analysis.moves:
        if not move.visits:
            assert abs(move.columns["Q"] + move.columns["U"] - move.columns["Q+U"]) <= 2 * PRINTED


def test_the_rule_selects_what_lc0s_printed_s_ranks_first():
    # v0.23 with --cpuct=2.5: e2e4's Q+U (2.91596) is the largest.
    read_in = read_input(text("lc0_issue1002_qu.txt"))
    assert read_in.kind == ENGINE and read_in.rule == "lc0" and read_in.c == 2.5
    scoring = Scoring("lc0", read_in.c, read_in.settings)
    children = score_children(read_in.tree, 0, scoring)
    best = max(children, key=lambda child: child.terms["value"])
    assert read_in.tree.move[best.node] == "e2e4"


def test_fast_log_is_lc0s_not_ln():
    # lc0's FastLog is a quadratic in the mantissa: exact at powers of two, up to 7 % low near 1.
    assert fast_log(2.0) == pytest.approx(math.log(2.0), abs=1e-7)
    assert fast_log(1.02) == pytest.approx(0.02 * (1.3465552 - 0.34655523 * 0.02) * math.log(2), rel=1e-4)  # 1.02 in float32
    assert fast_log(1.02) < 0.95 * math.log(1.02)


def test_the_reader_reads_the_node_line_versions_and_flags():
    (node,) = read(text("lc0_pr1268_node.txt"))
    assert node.root_visits == 8 and node.root_value == -0.87474  # the node line: for the side to move
    assert node.settings["root_value"] == -0.87474 and node.settings["in_flight"] == {"b8a8": 12.0}
    (move,) = node.moves
    assert (move.move, move.visits, move.value, move.prior) == ("b8a8", 7, -0.85690, 1.0)
    assert move.pv == ("c6c1", "a8b8", "a6b6", "b8a8", "b6c7")  # the info line's pv after its first move
    assert node.columns == ("N", "+", "P", "WL", "D", "M", "Q", "U", "S", "V")
    assert node.title == "lc0 verbose move stats, 8 visits; Q for the side to move"
    (old,) = read(text("lc0_issue1002_qu.txt"))
    assert old.c == 2.5  # --cpuct=2.5 over the build's 3.0
    assert old.settings["cpuct_base"] == 19652.0 and old.settings["fpu_value"] == 1.2  # built Nov 17 2019
    assert old.root_visits == 400 and "Q+U" in old.columns and "S" not in old.columns
    (dev,) = read(text("lc0_issue1456_go100.txt"))
    assert dev.c == 2.147 and dev.settings["cpuct_factor"] == 2.815  # a v0.27 build of Oct 2020


def test_several_blocks_are_several_analyses_in_file_order():
    two = text("lc0_pr1268_node.txt") + "bestmove b8a8\n" + text("lc0_issue1002_qu.txt")
    first, second = read(two)
    assert (first.root_visits, second.root_visits) == (8, 400)
    assert first.line == 3 and second.line == 5 + 7


@pytest.mark.parametrize(("line", "words"), [
    ("info string d2d4  (293 ) N:     120 (+ 1) (P: 13.20%) (WL: -0.01034) (D: 0.312) (Q: -0.0", "cut"),
    ("info string d2d4  (293 ) N:     -12 (+ 1) (P: 13.20%) (Q: 0.1) (U: 0.2) (S: 0.3) (V: 0.1)", ">= 0"),
    ("info string d2d4  (293 ) N:     12 (+ 1) (P: 13.20%) (Q: nan) (U: 0.2) (S: 0.3) (V: 0.1)", "Q must"),
    ("info string d2d4  (293 ) N:     12 (+ 1) (P: 13.20%) (Q: 1.5) (U: 0.2) (S: 0.3) (V: 0.1)", "from -1 to 1"),
    ("info string d2d4  (293 ) N:     12 (+ 1) (P: 13.20%) (Q: 0.1) (V: 0.1)", "no U, S"),
    ('{"id": "a", "moveInfos": []}', "another engine"),
    ("setoption name FpuStrategy value nearest", "FpuStrategy"),
    ("setoption name CPuct value -1", "CPuct"),
])
def test_bad_lines_are_refused_naming_their_line(line, words):
    good = "info string e2e4  (322 ) N:       5 (+ 0) (P: 10.00%) (Q: 0.1) (U: 0.2) (S: 0.3) (V: 0.1)\n"
    with pytest.raises(ParseError) as raised:
        read(good + line + "\n" + good)
    assert raised.value.line == 2 and words in raised.value.message


def test_the_rule_works_on_any_tree_and_refuses_bad_settings():
    tree = read_input("3 0.1\nbaa 30\nab 20\nbbb 4\n").tree
    values = [child.terms["value"] for child in score_children(tree, 0, Scoring("lc0", 1.745, {}))]
    assert all(math.isfinite(value) for value in values)
    assert "fpu_strategy" in RULE.settings_problem({"fpu_strategy": "nearest"})
    assert "cpuct_base" in RULE.settings_problem({"cpuct_base": 0.0})
    assert "in_flight must give each move a number >= 0" in RULE.settings_problem({"in_flight": {"e2e4": -1.0}})


def test_the_command_line_selects_trees_and_sweeps_an_lc0_file():
    run = lambda *args: subprocess.run([sys.executable, "-m", "mcts_core", *args],
                                       input=text("lc0_issue1002_qu.txt"), capture_output=True, text=True)
    plain = run()  # the file's rule, lc0, at its cpuct
    assert plain.returncode == 0 and plain.stdout == "e2e4\n"
    tree = run("--rule", "lc0", "tree")
    assert tree.returncode == 0 and '"selected": "e2e4"' in tree.stdout  # the file's cpuct, 2.5
    sweep = run("--rule", "lc0", "sweep", "--c-min", "0", "--c-max", "5")
    assert sweep.returncode == 0
    assert [line.split()[2] for line in sweep.stdout.splitlines()] == ["d2d4", "c2c4", "e2e4"]
