"""Leela Zero: its search dump and lz-analyze stream read, its PUCT as a rule, checked against the real leelaz.

The real engine (Debian's leelaz 0.17 on the tiny random network of :mod:`bench.harness.leela_zero`)
searches one visit per ``genmove`` (the tree is kept between them: ``undo`` brings back the same
position), so its stderr holds a dump after every visit. The child that gains the next visit must be
the one our ``leela_zero`` rule selects on the dump before it. The dumps list visited moves only:
the root's other moves come from one ``lz-analyze ... minmoves`` update at the end (the priors do
not change). The dumps print V and the prior to 0.01 %, so children whose values lie within that
rounding of each other are a near tie that may go either way: those are the only misses allowed.
"""

from __future__ import annotations

import dataclasses
import io
import math
import subprocess
import sys
from pathlib import Path

import pytest

import required
from bench.harness.leela_zero import leelaz_command, tiny_network
from mcts_core import ROOT, Scoring, select_child
from mcts_core.cli.main import main
from mcts_core.common.input_rules import ParseError
from mcts_core.inputs.formats.engine_analysis import EngineAnalysis, EngineMove, engine_tree
from mcts_core.inputs.formats.leela_zero import looks_like_leela_zero, read_leela_zero
from mcts_core.inputs.loading import ENGINE, read_input
from mcts_core.selection import RULE_REGISTRY, score_children
from mcts_core.selection.rules.leela_zero_puct import leela_zero
from mcts_core.selection.rules.puct import Puct
from mcts_core.selection.terms import Siblings

DATA = Path(__file__).parent / "data" / "engines"
DUMP = (DATA / "leela_zero_dump.txt").read_text()
LZ_ANALYZE = (DATA / "leela_zero_lz_analyze.txt").read_text()
RULE = RULE_REGISTRY["leela_zero"]

ISSUE_DUMP = """NN eval=0.460736
 G16 ->      96 (V: 48.49%) (LCB: 47.45%) (N:  0.90%) PV: G16 R19 S18
 R19 ->       3 (V: 40.00%) (LCB:  0.00%) (N: 12.50%) PV: R19
100 visits, 250 nodes, 99 playouts, 812 n/s
"""
ISSUE_UPDATE = ("info move D4 visits 12 winrate 4812 prior 1734 lcb 4710 order 0 pv D4 Q16 "
                "info move Q16 visits 0 winrate 0 prior 905 lcb 0 order 1 pv Q16\n")


# ---- the readers ----

def test_the_issue_dump_reads_with_its_numbers_from_the_side_to_move():
    (analysis,) = read_leela_zero(ISSUE_DUMP)
    assert (analysis.engine, analysis.rule, analysis.c, analysis.root_visits) == ("Leela Zero", "leela_zero", 0.5, 100)
    assert analysis.title == "Leela Zero search, 100 visits; winrates for the side to move"
    assert analysis.settings == {"root_value": 0.460736}
    g16, r19 = analysis.moves
    assert (g16.move, g16.visits, g16.value, g16.prior, g16.pv) == ("G16", 96, 0.4849, 0.009, ("R19", "S18"))
    assert g16.columns == {"N": 96, "V": 48.49, "LCB": 47.45, "P": 0.9}
    assert analysis.columns == ("N", "V", "LCB", "P")
    assert r19.pv == ()
    assert analysis.root_value == pytest.approx((0.460736 + 96 * 0.4849 + 3 * 0.4) / 100)


def test_an_lz_analyze_update_reads_integers_over_ten_thousand_and_unvisited_moves():
    (analysis,) = read_leela_zero(ISSUE_UPDATE)
    d4, q16 = analysis.moves
    assert (d4.visits, d4.value, d4.prior, d4.pv) == (12, 0.4812, 0.1734, ("Q16",))
    assert d4.columns == {"N": 12, "V": 48.12, "LCB": 47.1, "P": 17.34, "order": 0}
    assert (q16.visits, q16.value, q16.prior) == (0, None, 0.0905)
    assert analysis.root_visits == 13  # the moves' visits and the root's own
    assert analysis.settings == {}  # no NN eval: the rule's neutral 0.5


def test_older_versions_lines_read_without_lcb_and_order():
    (dump,) = read_leela_zero(ISSUE_DUMP.replace(" (LCB: 47.45%)", "").replace(" (LCB:  0.00%)", ""))
    assert dump.moves[0].columns == {"N": 96, "V": 48.49, "P": 0.9}
    (update,) = read_leela_zero("info move D4 visits 12 winrate 4812 prior 1734 pv D4 Q16\n")
    assert (update.moves[0].value, update.moves[0].columns) == (0.4812, {"N": 12, "V": 48.12, "P": 17.34})


def test_the_recorded_dump_is_two_searches_each_with_its_nn_eval():
    first, second = read_leela_zero(DUMP)
    assert [first.settings["root_value"], second.settings["root_value"]] == [0.523668, 0.730907]
    assert [first.root_visits, second.root_visits] == [112, 200]
    assert [move.move for move in first.moves] == ["D16", "K10", "R3"]
    assert sum(move.visits for move in first.moves) == first.root_visits - 1


def test_a_whole_gtp_transcript_is_every_update_and_the_last_is_shown():
    analyses = read_leela_zero(LZ_ANALYZE)
    assert len(analyses) == LZ_ANALYZE.count("\ninfo move")
    assert [a.root_visits for a in analyses] == sorted(a.root_visits for a in analyses)
    loaded = read_input(LZ_ANALYZE)
    assert loaded.kind == ENGINE and loaded.engine == analyses[-1] and loaded.analyses == analyses
    assert (loaded.rule, loaded.c) == ("leela_zero", 0.5)
    assert loaded.tree.visits[ROOT] == analyses[-1].root_visits


def test_leela_zero_files_are_told_apart_from_other_text():
    assert looks_like_leela_zero(DUMP) and looks_like_leela_zero(LZ_ANALYZE) and looks_like_leela_zero(ISSUE_UPDATE)
    assert not looks_like_leela_zero("3 0.1\nbaa 30\nab 20\n")
    assert not looks_like_leela_zero("info move Q16 visits 5 edgeVisits 5 utility 0.1 winrate 0.52 pv Q16\n")


def test_a_percentage_is_the_double_nearest_the_printed_decimal_over_100():
    (analysis,) = read_leela_zero(ISSUE_DUMP.replace("48.49", "1e1"))
    assert [move.value for move in analysis.moves] == [0.1, 0.4] and analysis.moves[0].prior == 0.009


@pytest.mark.parametrize("text, line, words", [
    (ISSUE_DUMP.replace("48.49", "nan"), 2, "V must be a number from 0 to 100, got 'nan'"),
    (ISSUE_DUMP.replace("48.49", "148.49"), 2, "V must be a number from 0 to 100"),
    (ISSUE_DUMP.replace("->       3", "->       ³"), 3, "visits must be a whole number >= 0, got '³'"),
    (ISSUE_DUMP.replace("->       3", "->      -3"), 3, "visits must be a whole number >= 0, got '-3'"),
    (ISSUE_DUMP.replace("(N: 12.50%) ", ""), 3, "move line must read"),
    (ISSUE_DUMP.replace(" R19 ->       3", " G16 ->       3"), 3, "G16 is listed twice"),
    (ISSUE_DUMP.replace("NN eval=0.460736", "NN eval=1.5"), 1, "NN eval must be a number from 0 to 1"),
    (ISSUE_DUMP.rsplit("100 visits", 1)[0], 1, "no `N visits` line"),
    (ISSUE_DUMP.replace("100 visits", "50 visits"), 4, "fewer than its moves' 99"),
    (ISSUE_DUMP + '{"id": "q", "moveInfos": []}\n', 5, "a JSON line"),
    (ISSUE_UPDATE + "info string d2d4 (293 ) N: 120 (+ 1) (P: 13.20%)\n", 2, "not lz-analyze's"),
    (ISSUE_UPDATE.replace("winrate 4812", "winrate 14812"), 1, "winrate must be from 0 to 10000"),
    (ISSUE_UPDATE.replace("visits 12", "visits -12"), 1, "visits must be a whole number >= 0, got -12"),
    (ISSUE_UPDATE.replace("prior 1734", "prior nan"), 1, "prior must be a whole number >= 0, got nan"),
    (ISSUE_UPDATE.replace("lcb 4710", "utility 4710"), 1, "'utility' is not an lz-analyze key"),
    (ISSUE_UPDATE[:33] + "\n", 1, "the line is cut"),
    (ISSUE_UPDATE.replace("move Q16", "move D4"), 1, "D4 is listed twice"),
])
def test_bad_input_is_one_sentence_naming_its_line(text, line, words):
    with pytest.raises(ParseError) as error:
        read_leela_zero(text)
    assert error.value.line == line and words in error.value.message


# ---- the rule ----

def test_the_rule_is_leela_zeros_formula_with_its_defaults():
    siblings = Siblings(("a", "b", "c"), 0.4, 0.6, visits=20, visited_prior=0.64)
    terms = leela_zero(21, 12, 12 * 0.55, c=0.5, move="a", siblings=siblings, prior=0.4)
    numerator = math.sqrt(20 * math.log(0.015 * 20 + 1.7))
    assert terms["numerator"] == numerator
    assert terms["value"] == 12 * 0.55 / 12 + 0.5 * 0.4 * numerator / 13
    unvisited = leela_zero(21, 0, 0.0, c=0.5, move="c", siblings=siblings, prior=0.1, root_value=0.46)
    assert unvisited["q"] == 0.46 - 0.25 * math.sqrt(0.64)  # first play: the parent's value, reduced
    uniform = leela_zero(21, 0, 0.0, c=0.5, move="c", siblings=siblings)
    assert uniform["prior"] == 1 / 3


def test_its_value_form_is_the_formula_bit_for_bit_at_every_c():
    siblings = Siblings(("a", "b"), 0.3, 0.7, visits=977, visited_prior=0.93)
    for visits, total, prior in [(481, 242.3278, 0.1261), (0, 0.0, 0.0473), (3, 1.1, 0.3333)]:
        at_one = leela_zero(978, visits, total, c=1.0, move="a", siblings=siblings, prior=prior)
        form = RULE.value_form(at_one, 978, visits, total, RULE.defaults)
        assert isinstance(form, Puct)
        for c in (0.0, 0.1, 0.5, 0.7071, 2.0, 9.75):
            assert form(c) == leela_zero(978, visits, total, c=c, move="a", siblings=siblings, prior=prior)["value"]


@pytest.mark.parametrize("settings, words", [
    ({"logconst": 0.5}, "logconst must be >= 1"),
    ({"fpu_reduction": -0.1}, "fpu_reduction must be >= 0"),
    ({"logpuct": math.nan}, "logpuct must be a finite number"),
    ({"root_value": "high"}, "root_value must be a finite number"),
    ({"cpuct": 1.0}, "has no setting 'cpuct'"),
])
def test_bad_settings_are_refused_in_a_sentence(settings, words):
    assert words in RULE.settings_problem(settings)


def test_the_rule_selects_on_any_tree_puzzle_text_too():
    tree = read_input("3 0.1\nbaa 30\nab 20\nbbb 4\n").tree
    scored = score_children(tree, ROOT, Scoring("leela_zero", 0.5))
    assert {score.move for score in scored} == {"a", "b"} and all(math.isfinite(s.terms["value"]) for s in scored)


@pytest.mark.parametrize("text", [DUMP, LZ_ANALYZE], ids=["dump", "lz-analyze"])
def test_the_cli_selects_dumps_and_sweeps_both_files_with_the_engines_rule(monkeypatch, capsys, text):
    analysis = read_leela_zero(text)[-1]
    tree = engine_tree(analysis)
    path = tree.move[select_child(tree, ROOT, Scoring("leela_zero", 0.5, analysis.settings))]
    for arguments in ([], ["--rule", "leela_zero", "--c", "0.5", "tree"], ["sweep", "--c-min", "0", "--c-max", "2"]):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
        assert main(arguments) == 0
        out = capsys.readouterr().out
        if not arguments:
            assert out.split()[0] == path
        elif "tree" in arguments:
            assert f'"selected": "{path}"' in out.split("\n")[1]
        else:
            assert out.startswith("0.0 ") and out.rstrip().split("\n")[-1].split()[1] == "2.0"


# ---- the real engine ----

POSITIONS = {  # GTP moves played first, and the side to move
    "empty board": ((), "b"),
    "after three moves": (("b D4", "w Q16", "b Q4"), "w"),
}
STEPS = 300  # consecutive one-visit budgets per position
ROUNDING = 0.00005  # the dump prints V and the prior to 0.01 %
TRUNCATION = 0.0001  # lz-analyze truncates a prior to 1 / 10,000


@pytest.fixture(scope="module")
def engine_runs(tmp_path_factory) -> dict[str, tuple[tuple[EngineAnalysis, ...], EngineAnalysis]]:
    """Each position's dumps after each visit and its root's every move (one lz-analyze update)."""
    leelaz = required.program("leelaz")
    weights = tmp_path_factory.mktemp("leelaz") / "tiny.txt"
    weights.write_text(tiny_network())
    runs = {}
    for name, (moves, color) in POSITIONS.items():
        commands = [f"play {move}" for move in moves] + [f"genmove {color}", "undo"] * STEPS
        commands += [f"lz-analyze {color} 1 minmoves 12", "quit"]
        run = subprocess.run(leelaz_command(leelaz, str(weights)), input="\n".join(commands) + "\n",
                             capture_output=True, text=True, check=True, timeout=120)
        (every_move,) = read_leela_zero(run.stdout)
        runs[name] = (read_leela_zero(run.stderr), every_move)
    return runs


def with_unlisted_moves(dump: EngineAnalysis, every_move: EngineAnalysis) -> EngineAnalysis:
    """The dump with the root's moves it does not list (unvisited), with their priors."""
    listed = {move.move for move in dump.moves}
    unlisted = tuple(EngineMove(move.move, 0, None, move.prior) for move in every_move.moves if move.move not in listed)
    return dataclasses.replace(dump, moves=dump.moves + unlisted)


def rounding(score, analysis: EngineAnalysis, listed: set[str]) -> float:
    """How far a child's value can be from the engine's with the printed numbers' rounding."""
    prior = ROUNDING if score.move in listed else TRUNCATION
    q = ROUNDING if score.visits else RULE.defaults["fpu_reduction"] * math.sqrt(len(listed) * ROUNDING)
    return q + analysis.c * prior * score.terms["numerator"] / (1 + score.visits)


def agreement(dumps: tuple[EngineAnalysis, ...], every_move: EngineAnalysis) -> tuple[int, list[str], list[str]]:
    """Visits where our choice is the engine's, near ties where it is not, and other misses (described)."""
    agreed, near_ties, misses = 0, [], []
    for before, after in zip(dumps, dumps[1:]):
        if after.root_visits != before.root_visits + 1:
            continue  # a visit that added nothing (the dump's own count repeats)
        visits = {move.move: move.visits for move in before.moves}
        (gained,) = [move.move for move in after.moves if move.visits > visits.get(move.move, 0)]
        complete = with_unlisted_moves(before, every_move)
        tree = engine_tree(complete)
        scoring = Scoring("leela_zero", complete.c, complete.settings)
        scores = {score.move: score for score in score_children(tree, ROOT, scoring)}
        ours = tree.move[select_child(tree, ROOT, scoring)]
        if ours == gained:
            agreed += 1
            continue
        gap = scores[ours].terms["value"] - scores[gained].terms["value"]
        listed = set(visits)
        bound = rounding(scores[ours], complete, listed) + rounding(scores[gained], complete, listed)
        words = f"at {before.root_visits} visits the engine visited {gained}, ours {ours}, {gap:.2g} apart"
        (near_ties if gap <= bound else misses).append(words)
    return agreed, near_ties, misses


@pytest.mark.parametrize("position", POSITIONS)
def test_the_real_leelaz_visits_next_the_child_our_rule_selects(engine_runs, position):
    dumps, every_move = engine_runs[position]
    agreed, near_ties, misses = agreement(dumps, every_move)
    compared = agreed + len(near_ties) + len(misses)
    assert compared >= STEPS - 10, f"only {compared} consecutive visits compared"
    assert len({move.move for dump in dumps for move in dump.moves if move.visits}) >= 3, "the search must branch"
    assert not misses, f"misses beyond the dump's rounding: {misses}"
    assert agreed >= 0.95 * compared, f"{agreed} of {compared} agree; near ties: {near_ties}"
