"""C sweep: exact intervals of C with one selected path, breakpoints, envelopes, and the CLI.

Checked against select_path itself (at both float ends of every interval, inside them, and on a
dense grid) and against an independent reference written here: a float scan of C with recursive
bisection, using the naive solver in tests/reference.py.
"""

import bisect
from array import array
import dataclasses
import io
import json
import math
import random
import subprocess
import sys

import pytest

from mcts_core import RULES, Scoring, ROOT, build_tree, parse_playouts, select_path, ucb1
from mcts_core.cli.main import _format_intervals, main
from mcts_core.inputs.formats.text import playouts_of
from mcts_core.analysis.envelope import rounding_band
from rounding_twins import twins_may_tie
from mcts_core.analysis.rule_lines import child_lines
from mcts_core.analysis.sweep import (
    Breakpoint,
    Interval,
    breakpoints,
    breakpoints_of,
    intervals_below,
    neighbouring_intervals,
    node_envelope,
    path_intervals,
)
from apptest_support import REPO
from mcts_core.inputs.examples import STATEMENT_EXAMPLE
from cases import random_puzzle
from reference import reference_path, reference_tree

BELOW = -math.inf
RANGES = [(0.0, 1.0), (0.0, 10.0), (0.0, 100.0), (0.0, 1000.0), (0.3, 2.7), (5.0, 60.0)]


def make_tree(*rows):
    """A tree from ``("word", score)`` rows."""
    return build_tree(playouts_of([w for w, _ in rows], [float(s) for _, s in rows], range(1, len(rows) + 1), None))


def tree_of(text):
    return build_tree(parse_playouts(text))


def path_at(intervals, c):
    """The path the intervals give for ``c`` (half-open intervals, breakpoints to the right)."""
    return intervals[bisect.bisect_right([part.c_from for part in intervals], c) - 1].path


def has_rounding_twins(tree, c_max):
    return any(twins_may_tie(child_lines(tree, node), c_max) for node in range(len(tree)))


def bands(tree, intervals):
    """``(low, high)`` around each breakpoint where rounding may make select_path alternate."""
    for point in breakpoints_of(tree, intervals):
        lines = {line.move: line for line in child_lines(tree, tree.find(point.node_path))}
        width = rounding_band(lines[point.before_move], lines[point.after_move], point.c)
        yield point.c - width, point.c + width


def in_a_band(c, spans):
    return any(low <= c <= high for low, high in spans)


def assert_well_formed(intervals, lo, hi):
    assert intervals[0].c_from == lo and intervals[-1].c_to == hi
    for before, after in zip(intervals, intervals[1:]):
        assert before.c_to == after.c_from and before.path != after.path
    assert all(part.c_from < part.c_to for part in intervals)


def assert_float_exact_ends(tree, intervals):
    """select_path is the interval's path at c_from and at the last float below c_to."""
    for part in intervals:
        assert select_path(tree, Scoring(c=part.c_from)) == part.path, part
        assert select_path(tree, Scoring(c=math.nextafter(part.c_to, BELOW))) == part.path, part


# --- hand-made trees -------------------------------------------------------------------------------


def test_two_children_cross_where_the_lines_meet():
    # Root N = 4. a: 3 visits, mean 10, slope sqrt(ln 4 / 3) = 0.679778; b: 1 visit, mean 0,
    # slope sqrt(ln 4) = 1.177410. 10 + 0.679778 C = 0 + 1.177410 C at C = 10 / 0.497632 = 20.0952.
    tree = make_tree(("a", 10), ("b", 0), ("a", 10), ("a", 10))
    by_hand = 10 / (math.sqrt(math.log(4)) - math.sqrt(math.log(4) / 3))
    assert by_hand == pytest.approx(20.0952, abs=1e-4)
    (point,) = breakpoints(tree, 0, 1000)
    assert point.c == pytest.approx(by_hand, rel=1e-14)
    assert (point.node_path, point.before_move, point.after_move) == ("", "a", "b")
    assert path_intervals(tree, 0, 1000) == [Interval(0.0, point.c, "a"), Interval(point.c, 1000.0, "b")]
    # The breakpoint itself already has the new path; the float just below it the old one.
    assert select_path(tree, Scoring(c=point.c)) == "b"
    assert select_path(tree, Scoring(c=math.nextafter(point.c, BELOW))) == "a"


def test_crossings_at_two_depths_are_found_and_attributed_to_their_node():
    # Root N = 6: a has 5 visits, total 10 + 2 + 6 + 6 + 6 = 30, mean 6, slope sqrt(ln 6 / 5) =
    # 0.598625; b has 1 visit, mean 0, slope sqrt(ln 6) = 1.338566: they cross at
    # C = 6 / (1.338566 - 0.598625) = 8.108752.
    # Node a, N = 5: aa has 1 visit, mean 2, slope sqrt(ln 5) = 1.268636; ab has 3 visits, mean 6,
    # slope sqrt(ln 5 / 3) = 0.732447: they cross at C = 4 / (1.268636 - 0.732447) = 7.460059.
    tree = make_tree(("a", 10), ("b", 0), ("aa", 2), ("ab", 6), ("ab", 6), ("ab", 6))
    root_c = 6 / (math.sqrt(math.log(6)) - math.sqrt(math.log(6) / 5))
    a_c = 4 / (math.sqrt(math.log(5)) - math.sqrt(math.log(5) / 3))
    assert (root_c, a_c) == (pytest.approx(8.108752, abs=1e-6), pytest.approx(7.460059, abs=1e-6))
    intervals = path_intervals(tree, 0, 20)
    assert [part.path for part in intervals] == ["ab", "aa", "b"]
    assert intervals[0].c_to == pytest.approx(a_c, rel=1e-14)
    assert intervals[1].c_to == pytest.approx(root_c, rel=1e-14)
    assert breakpoints(tree, 0, 20) == [
        Breakpoint(intervals[1].c_from, "a", "b", "a"),
        Breakpoint(intervals[2].c_from, "", "a", "b"),
    ]
    assert_float_exact_ends(tree, intervals)


def test_statement_example_has_no_crossing_for_any_c():
    # Root N = 3. a: 1 visit, mean 20, slope sqrt(ln 3) = 1.048147; b: 2 visits, total 34, mean 17,
    # slope sqrt(ln 3 / 2) = 0.741152. The lines meet at C = (20 - 17) / (0.741152 - 1.048147) =
    # -9.77 < 0: a has both the larger mean and the larger slope, so it wins for every C >= 0.
    tree = tree_of(STATEMENT_EXAMPLE)
    crossing = 3 / (math.sqrt(math.log(3) / 2) - math.sqrt(math.log(3)))
    assert crossing == pytest.approx(-9.77, abs=0.01)
    assert path_intervals(tree, 0, 1e6) == [Interval(0.0, 1e6, "a")]
    assert breakpoints(tree, 0, 1e6) == []
    envelope = node_envelope(tree, ROOT, 0, 1e6)
    lines = [(line.move, line.visits, line.intercept) for line in envelope.lines]
    assert lines == [("a", 1, 20.0), ("b", 2, 17.0)]
    assert [(s.c_from, s.c_to, s.move) for s in envelope.segments] == [(0.0, 1e6, "a")]


def test_range_without_a_change_is_one_interval():
    tree = make_tree(("a", 10), ("b", 0), ("a", 10), ("a", 10))  # crossing at 20.0952
    assert path_intervals(tree, 0, 20) == [Interval(0.0, 20.0, "a")]
    assert path_intervals(tree, 21, 1e9) == [Interval(21.0, 1e9, "b")]


def test_single_child_chain_is_one_interval():
    tree = make_tree(("a", 1), ("ab", -2), ("abc", 3))
    assert path_intervals(tree, 0, 1000) == [Interval(0.0, 1000.0, "abc")]
    assert node_envelope(tree, ROOT, 0, 1000).crossings == []


def test_leaf_root_gives_one_interval_with_the_empty_path():
    tree = build_tree(playouts_of(["a"], [1.0], [1], None), upto=0)
    assert path_intervals(tree, 0.5, 2) == [Interval(0.5, 2.0, "")]
    assert breakpoints(tree, 0.5, 2) == []
    envelope = node_envelope(tree, ROOT, 0.5, 2)
    assert (envelope.lines, envelope.segments) == ((), ())


def test_exact_ties_at_a_crossing_go_to_the_smaller_move():
    # The tree of test_two_children_cross_where_the_lines_meet, and the same tree with the moves
    # swapped. Near C = 20.0952 the two float values are exactly equal at two consecutive floats;
    # a tie goes to the smaller move, so those two floats belong to a in both trees: before the
    # breakpoint when a is the flat line, from the breakpoint on when a is the steep one.
    flat_a = make_tree(("a", 10), ("b", 0), ("a", 10), ("a", 10))
    steep_a = make_tree(("b", 10), ("a", 0), ("b", 10), ("b", 10))
    (flat_point,) = breakpoints(flat_a, 0, 1000)
    (steep_point,) = breakpoints(steep_a, 0, 1000)
    ties = []
    c = math.nextafter(flat_point.c, BELOW)
    for _ in range(2):
        flat, steep = child_lines(flat_a, ROOT)
        assert flat.value(c) == steep.value(c)  # an exact tie, kept by the smaller move a
        ties.append(c)
        c = math.nextafter(c, BELOW)
    assert select_path(flat_a, Scoring(c=ties[0])) == "a" and select_path(flat_a, Scoring(c=flat_point.c)) == "b"
    assert steep_point.c == ties[1]  # the two tied floats now start a's interval
    assert select_path(steep_a, Scoring(c=math.nextafter(steep_point.c, BELOW))) == "b"
    # Every float around the crossing agrees with the intervals: no flicker in these trees.
    for tree in (flat_a, steep_a):
        intervals = path_intervals(tree, 0, 1000)
        c = math.nextafter(ties[1], BELOW)
        for _ in range(40):
            c = math.nextafter(c, BELOW)
        for _ in range(80):
            assert select_path(tree, Scoring(c=c)) == path_at(intervals, c)
            c = math.nextafter(c, math.inf)


def test_equal_means_tie_at_zero_then_the_steeper_child_wins():
    # a: 2 visits, mean 5; b: 1 visit, mean 5. At C = 0 the values are both exactly 5: the tie
    # goes to a. For C > 0 b's line is above, but only once C * slope survives being added to 5
    # (about an ulp of 5, 8.9e-16) do the floats differ: the breakpoint is that first float.
    tree = make_tree(("a", 5), ("a", 5), ("b", 5))
    first, second = path_intervals(tree, 0, 1)
    assert (first.c_from, first.path, second.c_to, second.path) == (0.0, "a", 1.0, "b")
    assert 0 < second.c_from < 1e-14
    assert select_path(tree, Scoring(c=second.c_from)) == "b"
    assert select_path(tree, Scoring(c=math.nextafter(second.c_from, BELOW))) == "a"
    # With the moves swapped the steeper child is also the smaller move: it wins from C = 0 on.
    assert path_intervals(make_tree(("b", 5), ("b", 5), ("a", 5)), 0, 1) == [Interval(0.0, 1.0, "a")]


def test_select_path_alternates_only_within_the_rounding_band():
    # a: 4 visits, b: 2 visits, both mean 122.5 (root N = 6, slopes 0.669 and 0.946). The real lines
    # cross at C = 0, but the values differ by less than an ulp of 122.5 (1.4e-14) until
    # C * 0.277 is a few ulps: below about 4e-14, C * slope rounds to a whole number of ulps of
    # 122.5 for each child separately, and select_path goes a, b, a, b, a, b.
    tree = make_tree(*[("a", 122.5)] * 4, *[("b", 122.5)] * 2)
    first, second = path_intervals(tree, 0, 1)
    assert (first.path, second.path) == ("a", "b")
    a, b = child_lines(tree, ROOT)
    band = rounding_band(a, b, second.c_from)
    assert band == pytest.approx(4 * math.ulp(122.5) / (b.slope - a.slope))
    assert second.c_from < band < 1e-12
    seen = [select_path(tree, Scoring(c=band * k / 1000)) for k in range(1001)]
    changes = sum(x != y for x, y in zip(seen, seen[1:]))
    assert changes > 1 and seen[-1] == "b"  # it alternates, then settles within the band
    assert_float_exact_ends(tree, [first, second])
    assert all(select_path(tree, Scoring(c=c)) == "b" for c in (band, 2 * band, 1e-9, 0.5))


def test_sweep_does_not_depend_on_the_order_of_children():
    rows = [("a", -2), ("a", 2), ("dd", -8), ("ac", 4), ("d", 6)]
    rows += [("b", -8), ("ad", 2), ("db", -3), ("bb", -5), ("ad", 7)]
    tree = make_tree(*rows)
    expected = path_intervals(tree, 0, 100)
    assert [part.path for part in expected] == ["ad", "ac", "db", "bb"]
    for seed in range(10):
        rng = random.Random(seed)
        start, flat = array("i", [0]), array("i")
        for node in range(len(tree)):
            kids = list(tree.children[node])
            flat.extend(rng.sample(kids, len(kids)))
            start.append(len(flat))
        assert path_intervals(dataclasses.replace(tree, child_start=start, child_list=flat), 0, 100) == expected


def test_envelope_segments_and_crossings_at_a_node():
    tree = make_tree(("a", 10), ("b", 0), ("aa", 2), ("ab", 6), ("ab", 6), ("ab", 6))
    envelope = node_envelope(tree, tree.find("a"), 0, 20)
    assert envelope.node_path == "a"
    assert [(line.move, line.visits, line.intercept) for line in envelope.lines] == [("a", 1, 2.0), ("b", 3, 6.0)]
    (low, high) = envelope.segments
    assert (low.c_from, low.move, high.move, high.c_to) == (0.0, "b", "a", 20.0)
    assert envelope.crossings == [Breakpoint(high.c_from, "a", "b", "a")]
    # The node's own envelope over [0, 20) does not stop where the root stops choosing a (8.1).
    assert high.c_from == path_intervals(tree, 0, 20)[1].c_from


def test_line_value_is_bit_for_bit_the_ucb1_value():
    rng = random.Random(5)
    for _ in range(100):
        tree = tree_of(random_puzzle(rng))
        node = rng.choice([n for n in range(len(tree)) if tree.children[n]])
        for line in child_lines(tree, node):
            for c in (0.0, rng.uniform(0, 3), rng.uniform(0, 1000), 1e-300):
                value = ucb1(tree.visits[node], line.visits, tree.total[line.node], c=c)["value"]
                assert line.value(c) == value


def test_rounding_twins_are_reported_and_follow_the_larger_mean():
    # a and b both have 2 visits, so bit-identical slopes; a's total 0.3 + 0 = 0.3, b's total
    # 0.1 + 0.2 = 0.30000000000000004. In real arithmetic b is always above a by 1e-17; in floats
    # mean + C * slope often rounds to the same value for both and the tie goes to a, so
    # select_path flickers. The sweep keeps the larger mean and says so through twins_may_tie.
    tree = make_tree(("a", 0.3), ("b", 0.1), ("a", 0), ("b", 0.2))
    assert path_intervals(tree, 0, 10) == [Interval(0.0, 10.0, "b")]
    assert select_path(tree, Scoring(c=0.0)) == "b"
    assert {select_path(tree, Scoring(c=c / 100)) for c in range(1000)} == {"a", "b"}
    assert twins_may_tie(child_lines(tree, ROOT), 10)
    # Twins whose means differ by more than rounding cannot tie in the range.
    assert not twins_may_tie(child_lines(make_tree(("a", 0), ("b", 1), ("a", 0), ("b", 1)), ROOT), 1000)


@pytest.mark.parametrize(
    "c_min, c_max, message",
    [
        (-1, 1, "cannot be negative"),
        (2, 1, "must be smaller than"),
        (1, 1, "must be smaller than"),
        (0, math.inf, "must be finite"),
        (math.nan, 1, "must be finite"),
        ("x", 1, "must be two numbers"),
    ],
)
def test_bad_range_raises_value_error(c_min, c_max, message):
    tree = make_tree(("a", 1), ("b", 2))
    for function in (path_intervals, breakpoints):
        with pytest.raises(ValueError, match=message):
            function(tree, c_min, c_max)
    with pytest.raises(ValueError, match=message):
        node_envelope(tree, ROOT, c_min, c_max)


def test_negative_zero_and_huge_ranges_are_handled():
    tree = make_tree(("a", 10), ("b", 0), ("a", 10), ("a", 10), ("c", 5), ("c", 5), ("ab", 3), ("aa", 4))
    assert path_intervals(tree, -0.0, 1)[0].c_from == 0.0
    for c_max in (1e-300, 5e-324, 1e20, 1e300):
        intervals = path_intervals(tree, 0, c_max)
        assert_well_formed(intervals, 0.0, c_max)
        assert_float_exact_ends(tree, intervals)


# --- random trees ---------------------------------------------------------------------------------


def crossing_rich_puzzle(rng):
    """Puzzle input whose nodes have many crossings: frequent moves score higher.

    At each node the more visited children (flatter lines) then have the larger means, so the
    less visited ones overtake them one after another as C grows.
    """
    alphabet = "abcdef"[: rng.randint(2, 6)]
    weights = [2.0**-k for k in range(len(alphabet))]
    rows = []
    for _ in range(rng.randint(20, 400)):
        word = "".join(rng.choices(alphabet, weights, k=rng.randint(1, 6)))
        score = sum(10 * (len(alphabet) - alphabet.index(move)) for move in word[:2]) + rng.randint(-5, 5)
        rows.append(f"{word} {score}")
    return f"{len(rows)} 1\n" + "\n".join(rows) + "\n"


def some_puzzle(rng, k):
    return random_puzzle(rng) if k % 2 else crossing_rich_puzzle(rng)


def test_random_trees_agree_with_select_path_everywhere_sampled():
    rng = random.Random(2024)
    checked = changes = sampled = 0
    for k in range(400):
        tree = tree_of(some_puzzle(rng, k))
        lo, hi = rng.choice(RANGES)
        if has_rounding_twins(tree, hi):
            continue  # select_path itself flickers there (see test_rounding_twins_...)
        intervals = path_intervals(tree, lo, hi)
        assert_well_formed(intervals, lo, hi)
        assert_float_exact_ends(tree, intervals)
        checked += 1
        changes += len(intervals) - 1
        spans = list(bands(tree, intervals))
        # Points strictly inside each interval, outside the rounding bands of its ends...
        for part in intervals:
            width = part.c_to - part.c_from
            for fraction in (1e-9, 1e-6, 0.5, 1 - 1e-6, 1 - 1e-9, rng.random()):
                c = part.c_from + fraction * width
                if part.c_from < c < part.c_to and not in_a_band(c, spans):
                    assert select_path(tree, Scoring(c=c)) == part.path
                    sampled += 1
        # ...and a dense grid, so a change the sweep missed would show up.
        for k in range(300):
            c = lo + (hi - lo) * (k + rng.random()) / 300
            if not in_a_band(c, spans):
                assert select_path(tree, Scoring(c=c)) == path_at(intervals, c)
                sampled += 1
    assert checked >= 390 and changes >= 300 and sampled >= 390 * 300


def reference_intervals(rows, lo, hi, *, grid=1000, tolerance=1e-10):
    """An independent sweep: scan a grid of C with the naive solver, bisect each change.

    Returns ``[(c_from, path), ...]``; a change is located to ``tolerance * max(1, C)``. Shares no
    code with mcts_core.
    """
    root = reference_tree(rows)
    found = []

    def refine(left, left_path, right, right_path):
        if right - left <= tolerance * max(1.0, right):
            found.append((right, right_path))
            return
        middle = (left + right) / 2
        middle_path = reference_path(root, middle)
        if middle_path != left_path:
            refine(left, left_path, middle, middle_path)
        if middle_path != right_path:
            refine(middle, middle_path, right, right_path)

    points = [lo + (hi - lo) * k / grid for k in range(grid)] + [math.nextafter(hi, BELOW)]
    paths = [reference_path(root, c) for c in points]
    result = [(lo, paths[0])]
    for k in range(1, len(points)):
        if paths[k] != paths[k - 1]:
            found.clear()
            refine(points[k - 1], paths[k - 1], points[k], paths[k])
            result.extend(found)
    return result


def puzzle_rows(text):
    lines = text.strip().split("\n")
    return [(word, float(score)) for word, score in (line.split() for line in lines[1:])]


def test_cli_intervals_agree_with_an_independent_reference(monkeypatch, capsys):
    rng = random.Random(77)
    checked = changes = 0
    for k in range(200):
        text = some_puzzle(rng, k)
        lo, hi = rng.choice(RANGES)
        if has_rounding_twins(tree_of(text), hi):
            continue
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
        assert main(["sweep", "--c-min", repr(lo), "--c-max", repr(hi)]) == 0
        printed = [line.split(" ") for line in capsys.readouterr().out.splitlines()]
        got = [(float(c_from), path) for c_from, _, path in printed]
        assert [float(c_to) for _, c_to, _ in printed] == [c for c, _ in got[1:]] + [hi]
        expected = reference_intervals(puzzle_rows(text), lo, hi)
        assert [path for _, path in got] == [path for _, path in expected]
        for (c, _), (c_ref, _) in zip(got, expected):
            assert abs(c - c_ref) <= 1e-9 * max(1.0, c_ref)
        checked += 1
        changes += len(got) - 1
    assert checked >= 190 and changes >= 140


def test_deep_random_tree_sweeps_into_well_formed_intervals():
    rng = random.Random(11)
    rows = [
        ("".join(rng.choices("ab", k=rng.randint(1, 49))), round(rng.uniform(-100, 100), 2))
        for _ in range(500)
    ]
    tree = make_tree(*rows)
    assert tree.max_depth >= 8
    intervals = path_intervals(tree, 0, 1000)  # speed: bench/bench_sweep.py, not a timed test
    assert_well_formed(intervals, 0.0, 1000.0)


def test_breakpoints_of_names_the_node_where_paths_part():
    intervals = [Interval(a, b, path, tuple(path)) for a, b, path in [(0.0, 1.0, "abc"), (1.0, 2.0, "abd"), (2.0, 3.0, "b")]]
    compact_tree = make_tree(("a", 1.0))
    assert breakpoints_of(compact_tree, intervals) == [Breakpoint(1.0, "ab", "c", "d"), Breakpoint(2.0, "", "a", "b")]


# --- CLI ------------------------------------------------------------------------------------------


def run_cli(stdin: bytes, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mcts_core", *args], input=stdin, capture_output=True, cwd=REPO, timeout=60
    )


def test_cli_sweep_prints_intervals_with_repr_floats():
    flips = b"a 10\nb 0\na 10\na 10\n"  # header-less; crossing at 20.0952 (see the first test)
    result = run_cli(flips, "sweep", "--c-min", "1", "--c-max", "1e3")
    c = breakpoints(make_tree(("a", 10), ("b", 0), ("a", 10), ("a", 10)), 0, 1000)[0].c
    assert (result.returncode, result.stderr) == (0, b"")
    assert result.stdout.decode() == f"1.0 {c!r} a\n{c!r} 1000.0 b\n"
    assert result.stdout == b"1.0 20.09516955469387 a\n20.09516955469387 1000.0 b\n"


def test_cli_sweep_ignores_the_header_c_and_defaults_c_min_to_zero():
    result = run_cli(STATEMENT_EXAMPLE.encode(), "sweep", "--c-max", "100")
    assert (result.returncode, result.stdout, result.stderr) == (0, b"0.0 100.0 a\n", b"")


def test_empty_path_prints_as_an_empty_last_field():
    assert _format_intervals([Interval(0.0, 1.5, "")]) == "0.0 1.5 \n"
    assert _format_intervals([Interval(0.0, 0.1, "ab"), Interval(0.1, 2.0, "b")]) == "0.0 0.1 ab\n0.1 2.0 b\n"


@pytest.mark.parametrize(
    "args, message",
    [
        (["--c-min", "2", "--c-max", "1"], b"error: --c-min must be smaller than --c-max, got 2.0 and 1.0\n"),
        (["--c-min", "1", "--c-max", "1"], b"error: --c-min must be smaller than --c-max, got 1.0 and 1.0\n"),
        (
            ["--c-min", "-1", "--c-max", "1"],
            b"error: argument --c-min: C must be a finite number >= 0, got '-1'\n",
        ),
        (["--c-max", "inf"], b"error: argument --c-max: C must be a finite number >= 0, got 'inf'\n"),
        (["--c-max", "nan"], b"error: argument --c-max: C must be a finite number >= 0, got 'nan'\n"),
        (["--c-max", "x"], b"error: argument --c-max: C must be a finite number >= 0, got 'x'\n"),
        ([], b"error: the following arguments are required: --c-max\n"),
    ],
)
def test_cli_sweep_bad_arguments_exit_2_with_one_line(args, message):
    result = run_cli(b"a 1\nb 2\n", "sweep", *args)
    assert (result.returncode, result.stdout, result.stderr) == (2, b"", message)


@pytest.mark.parametrize(
    "stdin, message",
    [
        (b"3 0.1\nbaa 30\nab x\nbbb 4\n", b"error: line 3: score must be a number, got 'x'\n"),
        (b"", b"error: line 1: no playouts found: expected lines like `baa 30` (moves, then score)\n"),
        (b"2 0.1\na 1\n", b"error: line 1: the header says N = 2 playouts but 1 playout lines follow"),
    ],
)
def test_cli_sweep_bad_input_exits_2_with_the_line_number(stdin, message):
    result = run_cli(stdin, "sweep", "--c-max", "5")
    assert (result.returncode, result.stdout) == (2, b"")
    assert result.stderr.startswith(message) and result.stderr.count(b"\n") == 1


def test_cli_sweep_in_process_matches_the_api(monkeypatch, capsys):
    text = "a 10\nb 0\naa 2\nab 6\nab 6\nab 6\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    assert main(["sweep", "--c-min", "0", "--c-max", "20"]) == 0
    expected = "".join(f"{p.c_from!r} {p.c_to!r} {p.path}\n" for p in path_intervals(tree_of(text), 0, 20))
    assert capsys.readouterr().out == expected


FLIP_TEXT = b"6 0.5\na 10\nb 8\naa 10\nab 10\naba 10\nabb 10\n"


@pytest.mark.parametrize("args", [("--rule", "puct", "sweep"), ("sweep", "--rule", "puct")])
def test_cli_sweep_sweeps_the_rule_given_before_or_after_the_command(args):
    # It swept UCB1 whatever the rule: "0.0 2.702917488375908 aa" where PUCT flips at 2 sqrt(6).
    result = run_cli(FLIP_TEXT, *args, "--c-max", "10")
    assert (result.returncode, result.stderr) == (0, b"")
    assert result.stdout == b"0.0 4.898979485566359 aa\n4.898979485566359 10.0 b\n"
    assert select_path(tree_of(FLIP_TEXT.decode()), Scoring.of("puct", c=4.898979485566359)) == "b"
    assert select_path(tree_of(FLIP_TEXT.decode()), Scoring.of("puct", c=math.nextafter(4.898979485566359, BELOW))) == "aa"


def test_a_subcommand_keeps_the_rule_and_c_given_before_it():
    # It took them from the input: ucb1 at the header's C = 0.5.
    dump = json.loads(run_cli(FLIP_TEXT, "--rule", "puct", "--c", "6", "tree").stdout)
    assert (dump["rule"], dump["c"], dump["root"]["selected"]) == ("puct", 6.0, "b")


def cli_output(monkeypatch, capsys, text: str, *args: str) -> str:
    """What ``python -m mcts_core *args`` prints for ``text`` on stdin, run in this process."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    assert main(list(args)) == 0
    return capsys.readouterr().out


def two_player_log(seed: int) -> str:
    """A JSON Lines log of a two-player search with declared priors and a rule with settings in its header.

    Its moves are words, so that ``sweep`` and the selected path both print them joined by spaces."""
    rng = random.Random(seed)
    records = [{"mcts_log": 1, "players": 2, "c": 1.0, "rule": "puct", "settings": {"normalise": "minmax"}},
               {"node": [], "priors": {"m1": 0.6, "m2": 0.3, "m3": 0.1}}, {"node": ["m1"], "priors": {"m1": 0.2, "m2": 0.8}}]
    for _ in range(rng.randint(20, 60)):
        path = [rng.choice(["m1", "m2", "m3"]) for _ in range(rng.randint(1, 4))]
        records.append({"path": path, "score": rng.randint(-10, 10)})
    return "".join(json.dumps(record) + "\n" for record in records)


@pytest.mark.parametrize("seed", range(3))
def test_each_rule_sweep_interval_is_the_path_the_command_selects_in_it(monkeypatch, capsys, seed):
    # The check, through the command line: sweep with a rule, then select with it at each
    # interval's midpoint and ends (two players, declared priors, the header's rule and settings).
    log = two_player_log(seed)
    for rule in [None, *RULES]:  # None: the header's rule, PUCT with min-max Q
        chosen = () if rule is None else ("--rule", rule)
        lines = cli_output(monkeypatch, capsys, log, *chosen, "sweep", "--c-max", "20").splitlines()
        assert lines, rule
        for line in lines:
            c_from, c_to, path = line.split(" ", 2)
            for c in (float(c_from), (float(c_from) + float(c_to)) / 2, math.nextafter(float(c_to), BELOW)):
                assert cli_output(monkeypatch, capsys, log, *chosen, "--c", repr(c)) == path + "\n", (rule, c)


def test_a_sweep_cut_at_a_smaller_end_is_the_sweep_of_the_smaller_range():
    # The C control sweeps once over a few score spreads and cuts that sweep at the slider's end.
    rng = random.Random(11)
    for _ in range(40):
        tree = tree_of(random_puzzle(rng))
        for scoring in (Scoring(), Scoring.of("puct"), Scoring.of("sample_threshold", t=5, t2=40, c0=0.5)):
            wide = path_intervals(tree, 0.0, 100.0, scoring)
            ends = [part.c_from for part in wide[1:]] + [rng.uniform(0.0, 100.0), 1e-9]
            for end in ends:
                assert intervals_below(wide, end) == path_intervals(tree, 0.0, end, scoring), end
    assert intervals_below([Interval(0.0, 1.0, "a"), Interval(1.0, 2.0, "b")], 1.5) == [
        Interval(0.0, 1.0, "a"), Interval(1.0, 1.5, "b")]


def test_neighbouring_intervals_name_the_changes_around_c():
    intervals = [Interval(0.0, 1.0, "a"), Interval(1.0, 2.5, "b"), Interval(2.5, 4.0, "c")]
    assert neighbouring_intervals(intervals, 1.7) == (intervals[0], intervals[2])
    assert neighbouring_intervals(intervals, 1.0) == (intervals[0], intervals[2])  # breakpoint: right side
    assert neighbouring_intervals(intervals, 0.0) == (None, intervals[1])
    assert neighbouring_intervals(intervals, 4.0) == (intervals[1], None)  # the slider's maximum
    assert neighbouring_intervals(intervals, 9.0) == (None, None)
