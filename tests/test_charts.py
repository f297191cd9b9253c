"""What the chart builders of ui/charts draw from the core's results (data the pages no longer shape)."""

from mcts_core.classroom import CHOICE, Question, Tally
from mcts_core.strength.sprt import SprtPoint
from ui.charts.room_charts import choice_chart
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
