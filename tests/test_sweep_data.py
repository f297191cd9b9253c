"""The sweep page's tables: lines, envelope, crossings, intervals and bands, checked by hand.

Statement example (``3 0.1 / baa 30 / ab 20 / bbb 4``): the root (3 visits) has a (1 visit, total
20) and b (2 visits, total 30 + 4); a has the larger mean and the steeper line, so it wins for every
C >= 0. C_FLIPS_CHOICE: the root (6 visits) has a (5 visits, mean 10) and b (1 visit, mean 8); the
lines cross at C = 2 / (sqrt(ln 6) - sqrt(ln 6 / 5)) = 2.702917488375908; below it a's child aa
(mean 10, the steeper of aa and ab which have equal means) is selected, from it on b.
"""

import math

import pytest

from mcts_core import ROOT, build_tree, node_envelope, parse_playouts
from mcts_core.inputs import read_input
from mcts_core.inputs.examples import C_FLIPS_CHOICE, STATEMENT_EXAMPLE
from mcts_core.analysis.sweep import Interval, interval_at, range_problem, path_intervals
from mcts_core.tables import (  # the package's API, as the sweep page imports it
    band_label, bands_frame, crossings_frame, envelope_frame, intervals_frame, lines_frame, on_path_frame, sweep_nodes,
    zoom_range,
)
from mcts_core.tables.sweep_tables import BAND_COLUMNS, CROSSING_COLUMNS, ENVELOPE_COLUMNS, INTERVAL_COLUMNS, LINE_COLUMNS

FLIP = 2.702917488375908
SLOPE_A = math.sqrt(math.log(3) / 1)  # 1.0481470739...
SLOPE_B = math.sqrt(math.log(3) / 2)  # 0.7411519036...


def tree_of(text):
    return build_tree(parse_playouts(text))


@pytest.fixture
def statement():
    return tree_of(STATEMENT_EXAMPLE)


@pytest.fixture
def flips():
    return tree_of(C_FLIPS_CHOICE)


def test_lines_are_sampled_at_both_ends_of_the_range(statement):
    frame = lines_frame(node_envelope(statement, ROOT, 0.0, 10.0), 0.0, 10.0)
    assert list(frame.columns) == LINE_COLUMNS
    assert frame.to_dict("records") == [
        {"move": "a", "visits": 1, "intercept": 20.0, "slope": SLOPE_A, "c": 0.0, "value": 20.0},
        {"move": "a", "visits": 1, "intercept": 20.0, "slope": SLOPE_A, "c": 10.0, "value": 20.0 + 10.0 * SLOPE_A},
        {"move": "b", "visits": 2, "intercept": 17.0, "slope": SLOPE_B, "c": 0.0, "value": 17.0},
        {"move": "b", "visits": 2, "intercept": 17.0, "slope": SLOPE_B, "c": 10.0, "value": 17.0 + 10.0 * SLOPE_B},
    ]
    assert SLOPE_A == pytest.approx(1.0481470739) and SLOPE_B == pytest.approx(0.7411519036)


def test_statement_example_has_one_envelope_segment_and_no_crossing(statement):
    envelope = node_envelope(statement, ROOT, 0.0, 10.0)
    assert envelope_frame(envelope).to_dict("records") == [
        {"segment": 0, "move": "a", "c": 0.0, "value": 20.0},
        {"segment": 0, "move": "a", "c": 10.0, "value": 20.0 + 10.0 * SLOPE_A},
    ]
    crossings = crossings_frame(envelope)
    assert crossings.empty and list(crossings.columns) == CROSSING_COLUMNS


def test_flip_envelope_changes_child_at_the_crossing(flips):
    envelope = node_envelope(flips, ROOT, 0.0, 10.0)
    value_at_flip = 8.0 + FLIP * math.sqrt(math.log(6))  # b's line, the child taking over
    assert envelope_frame(envelope).to_dict("records") == [
        {"segment": 0, "move": "a", "c": 0.0, "value": 10.0},
        {"segment": 0, "move": "a", "c": FLIP, "value": 10.0 + FLIP * math.sqrt(math.log(6) / 5)},
        {"segment": 1, "move": "b", "c": FLIP, "value": value_at_flip},
        {"segment": 1, "move": "b", "c": 10.0, "value": 8.0 + 10.0 * math.sqrt(math.log(6))},
    ]
    assert crossings_frame(envelope).to_dict("records") == [
        {"c": FLIP, "value": value_at_flip, "node": "", "before": "a", "after": "b"}
    ]
    assert value_at_flip == pytest.approx(11.618, abs=1e-3)  # where the two lines meet


def test_leaf_gives_empty_frames_with_their_columns(flips):
    leaf = flips.find("b")
    envelope = node_envelope(flips, leaf, 0.0, 1.0)
    assert list(lines_frame(envelope, 0.0, 1.0).columns) == LINE_COLUMNS
    assert lines_frame(envelope, 0.0, 1.0).empty
    assert list(envelope_frame(envelope).columns) == ENVELOPE_COLUMNS and envelope_frame(envelope).empty


def test_intervals_carry_leaf_statistics_and_the_breakpoint_that_starts_them(flips):
    frame = intervals_frame(flips, path_intervals(flips, 0.0, 10.0))
    assert list(frame.columns) == INTERVAL_COLUMNS
    assert frame.drop(columns=["node", "before", "after"]).to_dict("records") == [
        {"c_from": 0.0, "c_to": FLIP, "path": "aa", "length": 2, "leaf_visits": 1, "leaf_mean": 10.0},
        {"c_from": FLIP, "c_to": 10.0, "path": "b", "length": 1, "leaf_visits": 1, "leaf_mean": 8.0},
    ]
    assert frame.loc[0, ["node", "before", "after"]].isna().all()  # the first interval has no start
    assert frame.loc[1, ["node", "before", "after"]].tolist() == ["", "a", "b"]  # "" = the root


def test_statement_example_is_one_interval(statement):
    frame = intervals_frame(statement, path_intervals(statement, 0.0, 100.0))
    assert frame[["c_from", "c_to", "path", "length", "leaf_visits", "leaf_mean"]].to_dict("records") == [
        {"c_from": 0.0, "c_to": 100.0, "path": "a", "length": 1, "leaf_visits": 1, "leaf_mean": 20.0}
    ]


def test_breakpoint_below_the_root_names_the_inner_node():
    # Root: a (4 visits, mean 4.75) beats b (1 visit, mean -100) up to C of about 165. Under a
    # (ln 4): aa (2 visits, mean 5) leads until the steeper ab (1 visit, mean 4) catches up at
    # C = 1 / (sqrt(ln 4) - sqrt(ln 4 / 2)) = 2.8998...
    tree = tree_of("a 5\nb -100\naa 5\naa 5\nab 4\n")
    frame = intervals_frame(tree, path_intervals(tree, 0.0, 10.0))
    assert frame["path"].tolist() == ["aa", "ab"]
    assert frame.loc[1, ["node", "before", "after"]].tolist() == ["a", "a", "b"]
    expected = 1.0 / (math.sqrt(math.log(4)) - math.sqrt(math.log(4) / 2))
    assert frame.loc[1, "c_from"] == pytest.approx(expected, rel=1e-12)


def test_bands_add_middles_and_labels_that_fit(flips):
    bands = bands_frame(flips, path_intervals(flips, 0.0, 10.0), chars_across=100)
    assert list(bands.columns) == BAND_COLUMNS
    assert bands["middle"].tolist() == [FLIP / 2, (FLIP + 10.0) / 2]
    assert bands["label"].tolist() == ["aa", "b"]
    narrow = bands_frame(flips, path_intervals(flips, 0.0, 10.0), chars_across=10)  # 2.7 and 7.3 chars wide
    assert narrow["label"].tolist() == ["", "b"]


def test_band_label_shortens_or_drops_long_paths():
    assert band_label("abcdef", 0.5, chars_across=20) == "abcdef"  # room 10 - 2 = 8
    assert band_label("abcdefghijkl", 0.5, chars_across=20) == "abcdefg…"
    assert band_label("abcdef", 0.2, chars_across=20) == ""  # room 2: too little for a stub
    assert band_label("", 0.5, chars_across=20) == "(root)"


def interval(c_from, c_to, path):
    """An interval of a compact tree (one-character moves)."""
    return Interval(c_from, c_to, path, tuple(path))


def test_sweep_nodes_lists_choosing_nodes_root_first():
    intervals = [interval(0.0, 1.0, "aab"), interval(1.0, 2.0, "b"), interval(2.0, 3.0, "aba")]
    assert sweep_nodes(intervals) == [(), ("a",), ("a", "a"), ("a", "b")]
    assert sweep_nodes([interval(0.0, 1.0, "")]) == []


def test_on_path_merges_adjacent_stretches():
    intervals = [
        interval(0.0, 1.0, "aa"), interval(1.0, 2.0, "ab"), interval(2.0, 3.0, "b"), interval(3.0, 4.0, "ac"),
    ]
    assert on_path_frame(intervals, ("a",)).to_dict("records") == [
        {"c_from": 0.0, "c_to": 2.0}, {"c_from": 3.0, "c_to": 4.0},
    ]
    assert on_path_frame(intervals, ()).to_dict("records") == [{"c_from": 0.0, "c_to": 4.0}]
    assert on_path_frame(intervals, ("c",)).empty


def test_interval_at_puts_a_breakpoint_on_its_right(flips):
    intervals = path_intervals(flips, 0.0, 10.0)
    assert interval_at(intervals, 0.0) == 0
    assert interval_at(intervals, math.nextafter(FLIP, 0.0)) == 0
    assert interval_at(intervals, FLIP) == 1
    assert interval_at(intervals, 9.999) == 1
    assert interval_at(intervals, 10.0) is None  # the range is half-open
    assert interval_at([], 1.0) is None


@pytest.mark.parametrize(
    ("c_min", "c_max", "fragment"),
    [
        (-1.0, 2.0, "cannot be negative"),
        (2.0, 2.0, "must be smaller"),
        (3.0, 2.0, "must be smaller"),
        (0.0, math.inf, "finite"),
        (math.nan, 1.0, "finite"),
    ],
)
def test_range_problem_explains_bad_ranges(c_min, c_max, fragment):
    assert fragment in range_problem(c_min, c_max)


def test_range_problem_accepts_what_sweep_accepts():
    assert range_problem(0.0, 1e-9) is None
    assert range_problem(5.0, 1000.0) is None


def test_zoom_range_keeps_every_breakpoint_with_room_after_the_last(flips):
    assert zoom_range(path_intervals(flips, 0.0, 1000.0)) == (0.0, 5.0)  # 2.70 * 1.25 = 3.38, rounded up to 5
    assert zoom_range(path_intervals(flips, 0.0, 3.0)) == (0.0, 3.0)  # never beyond the swept range
    assert zoom_range(path_intervals(flips, 0.0, 2.0)) is None  # no breakpoint, nothing to zoom to


def test_an_envelope_that_picks_an_unvisited_child_draws_only_the_finite_lines():
    # Under UCB1 a declared child with 0 visits is worth +infinity: it has no line to draw.
    log = "\n".join([
        '{"mcts_log": 1}', '{"node": [], "children": ["a", "b"]}', '{"path": ["a"], "score": 1}',
    ]) + "\n"
    tree = read_input(log).tree
    envelope = node_envelope(tree, ROOT, 0.0, 2.0)
    assert [segment.move for segment in envelope.segments] == ["b"]
    assert envelope_frame(envelope).empty
    assert list(lines_frame(envelope, 0.0, 2.0)["move"]) == ["a", "a"]
