"""KataGo's analysis: the readers (analysis-engine JSON, kata-analyze streams) and the ``katago`` rule,
checked against KataGo 1.18.1's own responses (tests/data/engines/README.md says how they were made)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from mcts_core.cli.main import main
from mcts_core.common.input_rules import ParseError
from mcts_core.inputs.formats.engine_analysis import EngineAnalysis, engine_tree
from mcts_core.inputs.loading import ENGINE, input_kind, read_input
from mcts_core.selection.registry import RULES
from mcts_core.selection.rules.katago_puct import katago
from mcts_core.selection.scoring import Scoring, score_children, select_child
from mcts_core.selection.terms import Siblings

DATA = Path(__file__).parent / "data" / "engines"
BUDGETS = DATA / "katago_budgets.jsonl"
DURING = DATA / "katago_during_search.jsonl"
GTP = DATA / "katago_genmove_analyze.txt"
DOCS = DATA / "katago_docs_example.jsonl"
SYMMETRIC = DATA / "katago_symmetric_opening.jsonl"


def text_of(path: Path) -> str:
    return path.read_text()


@pytest.fixture(scope="module")
def budgets() -> tuple[EngineAnalysis, ...]:
    return read_input(text_of(BUDGETS)).analyses


def position(analyses, name: str) -> list[EngineAnalysis]:
    """The analyses of one position's budgets (query ids ``name-1``, ``name-2``...), in budget order."""
    return [analysis for analysis in analyses if f"query {name}-" in analysis.title]


def gained(before: EngineAnalysis, after: EngineAnalysis) -> list[str]:
    """The root's children that have more visits in ``after`` than in ``before``."""
    had = {move.move: move.visits for move in before.moves}
    return [move.move for move in after.moves if move.visits > had.get(move.move, 0)]


# --- The analysis engine's responses ---------------------------------------------------------------


def test_each_response_is_an_analysis_in_file_order_titled_with_its_query_move_visits_and_perspective(budgets):
    assert input_kind(text_of(BUDGETS)) == ENGINE
    assert len(budgets) == 160
    white = position(budgets, "white")
    assert [analysis.root_visits for analysis in white] == list(range(1, 81))
    assert white[41].title == "KataGo analysis, query white-42, move 3, 42 visits; winrates for Black"
    assert {analysis.rule for analysis in budgets} == {"katago"}


def test_values_are_converted_once_to_the_movers_utility_and_columns_keep_katagos_numbers(budgets):
    raw = [json.loads(line) for line in text_of(BUDGETS).splitlines()]
    for record, analysis in [(raw[59], budgets[59]), (raw[139], budgets[139])]:
        white_to_move = record["rootInfo"]["currentPlayer"] == "W"
        info = record["moveInfos"][0]
        move = analysis.moves[0]
        # The file reports Black's values: with White to move, the tree's value is minus Black's utility.
        assert move.value == (-info["utility"] if white_to_move else info["utility"])
        assert move.columns["winrate"] == 100 * info["winrate"] and move.columns["utility"] == info["utility"]
        assert move.columns["P"] == 100 * info["prior"] and move.columns["N"] == info["edgeVisits"]
        assert analysis.settings["root_value"] == (-1 if white_to_move else 1) * record["rootInfo"]["utility"]
    assert {analysis.moves[0].value > 0 for analysis in position(budgets, "white")[10:]} == {True}


def test_moves_the_policy_names_but_the_search_did_not_visit_are_declared_children_by_policy(budgets):
    record = json.loads(text_of(BUDGETS).splitlines()[9])
    analysis = budgets[9]
    legal = sum(1 for prior in record["policy"] if prior >= 0)
    assert len(analysis.moves) == legal
    unvisited = [move for move in analysis.moves if move.visits == 0]
    assert [move.prior for move in unvisited] == sorted((move.prior for move in unvisited), reverse=True)
    names = {move.move for move in analysis.moves}
    assert "pass" in names and "E5" not in names  # E5 holds a stone: -1 in the policy
    tree = read_input(text_of(BUDGETS)).tree
    assert tree.visits[0] == 80


def test_the_pv_is_a_line_of_nodes_with_katagos_pv_edge_visits(budgets):
    record = json.loads(text_of(BUDGETS).splitlines()[79])
    info = record["moveInfos"][0]
    move = budgets[79].moves[0]
    assert list(move.pv) == info["pv"][1:]
    assert list(move.pv_visits) == info["pvEdgeVisits"][1:]


def test_katagos_next_visit_is_our_rules_choice_on_the_smaller_budget(budgets):
    """Budgets 1..80 of one deterministic search: the child that gains the visit from budget N to N+1
    is the one the ``katago`` rule selects on budget N's tree (KataGo's own settings, C = 1)."""
    agree, asked, misses = 0, 0, []
    for name in ("white", "black"):
        analyses = position(budgets, name)
        for before, after in zip(analyses, analyses[1:]):
            went = gained(before, after)
            assert len(went) == 1, f"{before.title}: one more visit went to {went}"
            tree = engine_tree(before)
            choice = tree.move[select_child(tree, 0, Scoring("katago", 1.0, dict(before.settings)))]
            asked += 1
            agree += choice == went[0]
            if choice != went[0]:
                misses.append((before.title, choice, went[0]))
    assert agree / asked >= 0.95, misses


def test_reports_during_the_search_come_before_their_final_response():
    analyses = read_input(text_of(DURING)).analyses
    assert len(analyses) >= 2
    assert all("(during the search)" in analysis.title for analysis in analyses[:-1])
    assert "during" not in analyses[-1].title and analyses[-1].root_visits == 300
    visits = [analysis.root_visits for analysis in analyses]
    assert visits == sorted(visits)
    assert len(analyses[-1].moves) == 19 * 19 - 5 + 1  # every legal move, pass included


def test_between_two_reports_the_rules_choice_on_the_first_is_among_the_children_katago_visited():
    analyses = read_input(text_of(DURING)).analyses
    for before, after in zip(analyses, analyses[1:]):
        tree = engine_tree(before)
        choice = tree.move[select_child(tree, 0, Scoring("katago", 1.0, dict(before.settings)))]
        assert choice in gained(before, after), before.title


def test_the_documented_example_response_reads():
    # docs/Analysis_Engine.md's example response (written from the docs, not run): four moves, 500 visits.
    analysis = read_input(text_of(DOCS)).engine
    assert analysis.title == "KataGo analysis, move 2, 500 visits; winrates for Black"
    assert [move.move for move in analysis.moves] == ["Q5", "D4", "Q16", "D16"]
    assert analysis.moves[0].value == 0.7509536097709347  # Black to move: Black's utility as it is


def test_moves_katago_copied_from_a_symmetric_one_are_left_out():
    record = json.loads(text_of(SYMMETRIC))
    copies = {info["move"] for info in record["moveInfos"] if "isSymmetryOf" in info}
    analysis = read_input(text_of(SYMMETRIC)).engine
    assert copies and not copies & {move.move for move in analysis.moves}
    assert sum(move.visits for move in analysis.moves) == analysis.root_visits - 1 == 19


def test_a_query_line_in_the_file_sets_the_rules_cpuct_and_reductions():
    query = {"id": "q", "moves": [], "rules": "chinese", "boardXSize": 9, "boardYSize": 9,
             "overrideSettings": {"cpuctExploration": 0.8, "cpuctExplorationLog": 0.3, "rootFpuReductionMax": 0.0}}
    response = json.loads(text_of(DOCS).splitlines()[0]) | {"id": "q"}
    read = read_input(json.dumps(query) + "\n" + json.dumps(response) + "\n")
    assert read.c == 0.8 and read.rule == "katago"
    assert read.settings["cpuct_log"] == 0.3 and read.settings["fpu_reduction_max"] == 0.0


# --- kata-analyze ------------------------------------------------------------------------------------


def test_a_gtp_transcript_of_kata_analyze_reads_every_update_for_the_side_to_move():
    text = text_of(GTP)
    assert input_kind(text) == ENGINE
    analyses = read_input(text).analyses
    updates = [line for line in text.splitlines() if line.lstrip("= ").startswith("info")]
    assert len(analyses) == len(updates) >= 2
    assert analyses[0].title.startswith("KataGo kata-analyze, update 1, ")
    assert analyses[-1].title.endswith("; winrates for the side to move")
    first = updates[-1].split(" info ")[0].split()
    last = analyses[-1].moves[0]
    assert last.move == first[first.index("move") + 1]
    assert last.value == float(first[first.index("utility") + 1])  # the mover's already: as it is


def test_between_two_updates_the_rules_choice_on_the_first_is_among_the_children_katago_visited():
    analyses = read_input(text_of(GTP)).analyses
    asked = 0
    for before, after in zip(analyses, analyses[1:]):
        went = gained(before, after)
        if went and before.root_visits > 1:  # one visit: the root's own evaluation, no child to compare
            tree = engine_tree(before)
            assert tree.move[select_child(tree, 0, Scoring("katago", 1.0, dict(before.settings)))] in went
            asked += 1
    assert asked >= 80


def test_the_same_position_gives_its_mover_the_same_utility_from_either_engine_output(budgets):
    # The analysis engine reports Black's values, kata-analyze White's (the side to move): read, both are
    # White's, and White's best move D6 is worth about the same after 80 and 200 visits.
    from_json = position(budgets, "white")[-1].moves[0]
    from_gtp = read_input(text_of(GTP)).analyses[-1].moves[0]
    assert from_json.move == from_gtp.move == "D6"
    assert from_json.value > 0 and from_gtp.value > 0 and abs(from_json.value - from_gtp.value) < 0.15


def test_kata_analyze_fields_come_in_any_order_and_new_keys_are_kept_apart():
    stream = ("info order 0 pv D4 Q16 prior 0.5 newKey 3 winrate 0.6 utility 0.2 visits 12 move D4 "
              "info move Q16 visits 3 utility -0.1 winrate 0.45 prior 0.3 order 1 pv Q16 "
              "rootInfo visits 16 utility 0.15 winrate 0.58 currentPlayer B ownership 0.5 -0.25 1e-3 "
              "ownershipStdev 0.1 0.2 0.3\n")
    analysis = read_input(stream).engine
    assert [(move.move, move.visits, move.value, move.pv) for move in analysis.moves] == [
        ("D4", 12, 0.2, ("Q16",)), ("Q16", 3, -0.1, ())]
    assert analysis.root_visits == 16 and analysis.settings["root_value"] == 0.15


# --- Bad input: one sentence naming the line ----------------------------------------------------------


@pytest.mark.parametrize(("change", "line", "words"), [
    (lambda lines: lines[:2] + [lines[2][:len(lines[2]) // 2]] + lines[3:], 3, "not valid JSON"),
    (lambda lines: lines[:1] + [lines[1].replace('"utility":', '"utility":NaN,"was":', 1)] + lines[2:], 2,
     '"utility" must be a finite number'),
    (lambda lines: lines[:2] + [lines[2].replace('"winrate":', '"winrate":1.5,"was":', 1)] + lines[3:], 3,
     '"winrate" must be from 0 to 1'),
    (lambda lines: lines[:2] + [lines[2].replace('"edgeVisits":', '"edgeVisits":-2,"was":', 1)] + lines[3:], 3,
     '"edgeVisits" must be a whole number >= 0'),
    (lambda lines: lines[:2] + ['{"mcts_log": 1}'] + lines[3:], 3, "not a line of KataGo's analysis engine"),
])
def test_bad_analysis_lines_are_refused_naming_the_line(change, line, words):
    lines = text_of(BUDGETS).splitlines()[:5]
    with pytest.raises(ParseError) as refused:
        read_input("\n".join(change(lines)) + "\n")
    assert refused.value.line == line and words in str(refused.value)


def test_another_engines_line_in_a_kata_analyze_stream_is_refused_naming_the_line():
    lines = text_of(GTP).splitlines()
    at = next(number for number, line in enumerate(lines) if line.startswith("info"))
    lz_analyze = "info move D4 visits 12 winrate 4887 prior 1200 lcb 4812 order 0 pv D4 Q16"
    with pytest.raises(ParseError) as refused:
        read_input("\n".join([*lines[:at + 1], lz_analyze, *lines[at + 1:]]) + "\n")
    assert refused.value.line == at + 2 and '"utility"' in str(refused.value)
    with pytest.raises(ParseError) as refused:
        read_input("\n".join([*lines[:at + 1], "G16 ->   96 (V: 48.49%) (N:  0.90%) PV: G16 R19", *lines[at + 1:]]))
    assert refused.value.line == at + 2 and "not a line of a kata-analyze stream" in str(refused.value)


def test_katagos_error_responses_are_passed_over_and_an_only_error_file_says_what_katago_said():
    error = '{"error":"Could not parse board size","field":"boardXSize","id":"x"}'
    with pytest.raises(ParseError, match="KataGo answered"):
        read_input(error + '\n{"id":"x","isDuringSearch":false,"noResults":true,"turnNumber":2}\n')
    assert len(read_input(error + "\n" + text_of(DOCS)).analyses) == 1


# --- The rule ------------------------------------------------------------------------------------------


def test_the_formula_is_katagos_with_its_default_constants():
    siblings = Siblings(("a", "b", "c"), 0.0, 0.0, visits=30, visited_prior=0.64)
    terms = katago(31, 10, 4.0, c=1.0, siblings=siblings, prior=0.4)
    cpuct = 1.0 + 0.45 * math.log((30 + 500) / 500)
    assert terms["cpuct"] == cpuct
    assert terms["exploration"] == cpuct * math.sqrt(30.01) * 0.4 / 11
    assert terms["value"] == terms["exploration"] + 0.4
    unvisited = katago(31, 0, 0.0, c=1.0, siblings=siblings, prior=0.1, root_value=0.25)
    assert unvisited["q"] == 0.25 - 0.1 * math.sqrt(0.64)  # rootFpuReductionMax 0.1
    assert katago(31, 0, 0.0, c=1.0, siblings=siblings)["prior"] == 1 / 3  # no prior: uniform


def test_the_value_is_its_line_in_c_bit_for_bit(budgets):
    rule = RULES["katago"]
    analysis = position(budgets, "black")[40]
    tree = engine_tree(analysis)
    settings = {**rule.defaults, **analysis.settings}
    settings.pop("c")
    for child in score_children(tree, 0, Scoring("katago", 1.0, dict(analysis.settings))):
        form = rule.value_form(child.terms, tree.visits[0], child.visits, child.total, settings)
        for c in (0.0, 0.37, 1.0, 2.5, 9.0):
            at_c = score_children(tree, 0, Scoring("katago", c, dict(analysis.settings)))
            assert form(c) == next(other.terms["value"] for other in at_c if other.move == child.move)


@pytest.mark.parametrize(("settings", "words"), [
    ({"cpuct_base": 0.0}, "cpuct_base must be >= 10"),
    ({"cpuct_log": -1.0}, "cpuct_log must be >= 0"),
    ({"fpu_reduction_max": math.nan}, "fpu_reduction_max must be a finite number"),
    ({"cpuctUtilityStdevScale": 0.85}, "has no setting"),
])
def test_bad_settings_are_refused_in_a_sentence(settings, words):
    assert words in RULES["katago"].settings_problem(settings)


def test_the_rule_scores_any_tree_puzzle_text_included():
    tree = read_input("baa 30\nab 20\nbbb 4\nc -3\n").tree
    path = [tree.move[kid] for kid in [select_child(tree, 0, Scoring("katago", 1.0))]]
    assert path and all(math.isfinite(child.terms["value"])
                        for child in score_children(tree, 0, Scoring("katago", 1.0)))


# --- The command line -----------------------------------------------------------------------------------


def test_tree_and_sweep_work_on_a_katago_file(monkeypatch, capsys):
    import io
    import sys

    def run(*args: str) -> tuple[int, str]:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text_of(DURING).encode())))
        status = main(list(args))
        return status, capsys.readouterr().out

    status, out = run("tree")  # the file's rule and KataGo's cpuctExploration, 1.0
    dump = json.loads(out)
    assert status == 0 and dump["rule"] == "katago" and dump["c"] == 1.0 and dump["root"]["selected"]
    status, out = run("--rule", "katago", "--c", "0.5", "tree")
    assert status == 0 and json.loads(out)["c"] == 0.5
    status, out = run("--rule", "katago", "sweep", "--c-min", "0", "--c-max", "4")
    rows = [line.split() for line in out.splitlines()]
    assert status == 0 and rows[0][0] == "0.0" and rows[-1][1] == "4.0"
