"""What the chart builders of ui/charts draw from the core's results (data the pages no longer shape)."""

import json

import pytest

from mcts_core import Scoring, build_tree, parse_playouts
from mcts_core.classroom import CHOICE, Question, RoomRefused, RoomStore, Tally, flip_question, tally
from mcts_core.inputs.examples import C_FLIPS_CHOICE
from mcts_core.strength.sprt import SprtPoint
from ui.charts.room_charts import choice_chart, flip_chart
from ui.charts.strength_charts import llr_chart


def _rows(spec: dict, layer: dict) -> list[dict]:
    return spec["datasets"][layer["data"]["name"]]


def test_the_llr_chart_draws_one_line_per_c_named_as_typed_with_its_pairs_in_order():
    curves = [(0.5, [SprtPoint(2, 0.25, -2.9, 2.9), SprtPoint(4, 0.5, -2.8, 2.8)]), (1.4, [SprtPoint(2, -0.25, -2.9, 2.9)])]
    spec = llr_chart(curves, (-2.94, 2.94)).to_dict()
    bounds, lines = spec["layer"]
    assert [(row["C"], row["games"], row["llr"]) for row in _rows(spec, lines)] == [
        ("0.5", 2, 0.25), ("0.5", 4, 0.5), ("1.4", 2, -0.25)]
    assert [row["bound"] for row in _rows(spec, bounds)] == ["lower -2.940 (H0)", "upper 2.940 (H1)"]


def test_a_node_with_more_children_than_bars_shows_the_answered_ones_and_the_right_one_in_move_order():
    moves = "abcdef"
    question = Question(kind=CHOICE, node=(), rule="ucb1", settings={}, c=1.0, options=tuple(moves), answer="f")
    counted = Tally(answered=7, right=0, counts=tuple(zip(moves, [4, 0, 3, 0, 0, 0])))
    spec = choice_chart(question, counted, most_bars=3).to_dict()
    bars = _rows(spec, spec)  # the bars and their numbers share the chart's data
    assert [(row["move"], row["answers"], row["answer"]) for row in bars] == [
        ("a", 4, "other"), ("c", 3, "other"), ("f", 0, "right")]


def test_the_llr_legend_lists_c_in_numeric_order_with_neighbours_in_distinct_colours():
    # As text, "10" sorts before "2": a legend read 0.1, 0.5, 1, 1.4, 10, 2, 4 (issue 51).
    grid = [0.1, 0.5, 1.0, 1.4, 2.0, 4.0, 10.0]
    curves = [(c, [SprtPoint(2, 0.1 * k, -2.9, 2.9)]) for k, c in enumerate(reversed(grid))]
    colour = llr_chart(curves, (-2.94, 2.94)).to_dict()["layer"][1]["encoding"]["color"]
    assert colour["sort"] == colour["scale"]["domain"] == ["0.1", "0.5", "1", "1.4", "2", "4", "10"]
    colours = colour["scale"]["range"]
    assert all(colours[i] != colours[i + 1] for i in range(len(grid) - 1)) and len(set(colours[:len(grid)])) == len(grid)


def test_the_flip_reveal_stays_finite_json_and_keeps_the_class_apart_whatever_the_students_typed(tmp_path):
    # One student's 1e308 made the teacher's chart domain [0, Infinity]: not JSON, a red box (issue 50).
    question = flip_question(build_tree(parse_playouts(C_FLIPS_CHOICE)), 0, Scoring("ucb1", 0.5), 10.0)
    store = RoomStore(tmp_path / "rooms.sqlite3")
    code, secret = store.open_room("0" * 64, question)
    extreme = ["nan", "NaN", "inf", "-inf", "1e308", "1.7976931348623157e308", "-1", "-0.5", "abc", "1e309", "100.5"]
    class_ = ["1", "2,7", "2.8", "3", "99"]  # 99: a wild guess the question takes
    for index, text in enumerate(extreme + class_):
        token = f"{index:032x}"
        store.join(code, token, "here")
        if text in extreme:
            with pytest.raises(RoomRefused, match="was not taken"):
                store.answer(code, token, 1, text)
        else:
            store.answer(code, token, 1, text)
    store.reveal(code, secret, 1)
    kept = store.answers(code, secret, 1)
    for answers in (kept, kept + extreme):  # also a store written before answers were bounded
        spec = flip_chart(question, tally(question, answers)).to_dict()
        json.dumps(spec, allow_nan=False)  # strict JSON: the browser parses it
        dots = _rows(spec, spec["layer"][0])
        high = spec["layer"][0]["encoding"]["x"]["scale"]["domain"][1]
        assert high < 10  # the axis follows the class, not the wild guess
        assert [row["C"] for row in dots] == [1.0, 2.7, 2.8, 3.0, high]  # apart, the guess at the end
        assert spec["title"] == f"1 answer above C = {high:.3g}, drawn at the right end"


def test_the_flip_reveal_draws_the_band_that_counts_as_right_and_each_answer_s_verdict():
    question = flip_question(build_tree(parse_playouts(C_FLIPS_CHOICE)), 0, Scoring("ucb1", 0.5), 10.0)
    flip = question.breakpoint  # about 2.70292
    answers = [repr(value) for value in (1.0, 2.6, 2.7, 2.8, 2.9)]  # 5%: from about 2.568 to 2.838
    spec = flip_chart(question, tally(question, answers)).to_dict()
    json.dumps(spec, allow_nan=False)
    dots, band = spec["layer"][0], spec["layer"][1]
    assert [(row["C"], row["verdict"]) for row in _rows(spec, dots)] == [
        (1.0, "wrong"), (2.6, "right (within 5%)"), (2.7, "right (within 5%)"), (2.8, "right (within 5%)"), (2.9, "wrong")]
    assert dots["encoding"]["color"]["scale"]["range"][0] == band["mark"]["color"]  # right: the band's green
    (row,) = _rows(spec, band)
    assert (row["from"], row["to"]) == pytest.approx((0.95 * flip, 1.05 * flip))
