"""The JSON Lines log, the JSON tree dump and the text directives: what they mean, and every refusal."""

import json
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcts_core import ROOT, ParseError, Scoring, select_path, selected_nodes, solve
from mcts_core.inputs.formats import log as log_module
from mcts_core.inputs.formats.log import read_log
from mcts_core.inputs.formats.log_columns import read_log_columns
from mcts_core.inputs.formats.text import parse_playouts
from mcts_core.inputs.loading import read_input

HEADER = '{"mcts_log": 1, "players": 2, "ties": "first", "c": 1.4}'


def log(*records, header=HEADER):
    return "\n".join([header, *(json.dumps(r) if not isinstance(r, str) else r for r in records)]) + "\n"


def error_of(text):
    with pytest.raises(ParseError) as caught:
        read_input(text)
    return caught.value.line, caught.value.message


# --- meaning ----------------------------------------------------------------------------------


def test_puzzle_text_and_its_json_log_give_the_same_tree_and_answer():
    text = "3 0.1\nbaa 30\nab 20\nbbb 4\n"
    as_log = log(
        {"path": ["b", "a", "a"], "score": 30}, {"path": ["a", "b"], "score": 20}, {"path": ["b", "b", "b"], "score": 4},
        header='{"mcts_log": 1, "c": 0.1}',
    )
    a, b = read_input(text).tree, read_input(as_log).tree
    assert [a.path(n) for n in range(len(a))] == [b.path(n) for n in range(len(b))]
    assert list(a.visits) == list(b.visits) and list(a.total) == list(b.total)
    assert select_path(b, Scoring(c=0.1)) == solve(text) == "a"


def test_two_players_keep_each_node_from_the_view_of_the_player_who_moved_into_it():
    # Player 0 moves at the root (a or b), player 1 below. A score is player 0's return.
    tree = read_input(log({"path": ["a"], "score": 1}, {"path": ["a", "x"], "score": 1}, {"path": ["b"], "score": -1})).tree
    a, b, ax = tree.find(["a"]), tree.find(["b"]), tree.find(["a", "x"])
    assert (tree.total[a], tree.total[b]) == (2.0, -1.0)  # player 0's view: player 0 moved into a and b
    assert tree.total[ax] == -1.0  # player 1 moved into a x: player 1's return is -1
    assert tree.total[ROOT] == 1.0 and tree.mover(ax) == 1 and tree.player[a] == 1


def test_selection_maximises_for_the_player_to_move():
    # At a (player 1 to move), x is good for player 0 (+5) and y bad for player 0 (-5): player 1 picks y.
    text = log(
        {"path": ["a"], "score": 0}, {"path": ["a", "x"], "score": 5}, {"path": ["a", "y"], "score": -5},
    )
    tree = read_input(text).tree
    assert select_path(tree, Scoring(c=0.0)) == "ay"


def test_returns_give_one_value_per_player_and_score_is_player_0s():
    tree = read_input(log({"path": ["a"], "returns": [0.25, 0.75]}, {"path": ["a", "b"], "returns": [1, 0]})).tree
    assert tree.total[tree.find(["a"])] == 1.25  # player 0's returns
    assert tree.total[tree.find(["a", "b"])] == 0.0  # player 1's


def test_an_empty_path_is_a_simulation_that_stopped_at_the_root():
    tree = read_input(log({"path": [], "score": 2}, {"path": ["a"], "score": 4})).tree
    assert tree.visits[ROOT] == 2 and tree.total[ROOT] == 6.0 and len(tree) == 2


def test_declared_children_exist_unvisited_in_order_and_ucb1_tries_the_first_one():
    text = log(
        {"node": [], "children": ["c", "a", "b"], "priors": {"c": 0.5, "a": 0.3, "b": 0.2}},
        {"path": ["a"], "score": 1},
    )
    tree = read_input(text).tree
    assert [tree.move[k] for k in tree.children[ROOT]] == ["c", "a", "b"]
    assert [tree.visits[k] for k in tree.children[ROOT]] == [0, 1, 0]
    assert select_path(tree, Scoring(c=1.0)) == "c"  # +infinity, first in the engine's order
    assert tree.prior_of(tree.find(["a"])) == 0.3
    puct = {child: terms for child, terms in zip("cab", [None] * 3)}
    del puct
    from mcts_core import score_children

    scored = {child.move: child for child in score_children(tree, ROOT, Scoring("puct", 1.0))}
    assert scored["c"].terms["q"] == 0.0 and scored["c"].terms["prior"] == 0.5  # unvisited: Q = 0
    assert scored["c"].value == 0.0 + 1.0 * 0.5 * math.sqrt(1) / (1 + 0)


def test_ties_first_goes_to_the_first_child_in_order_and_smaller_to_the_smaller_move():
    records = [{"node": [], "children": ["b", "a"]}, {"path": ["a"], "score": 1}, {"path": ["b"], "score": 1}]
    first = read_input(log(*records)).tree
    smaller = read_input(log(*records, header='{"mcts_log": 1, "players": 2, "ties": "smaller"}')).tree
    assert select_path(first, Scoring(c=1.0)) == "b" and select_path(smaller, Scoring(c=1.0)) == "a"


def test_chance_nodes_follow_the_most_visited_outcome():
    text = log(
        {"node": [], "player": 0, "chance": True, "children": ["1", "2", "3"]},
        {"path": ["1"], "score": 5}, {"path": ["2"], "score": 0}, {"path": ["2"], "score": 0},
        header='{"mcts_log": 1, "players": 1}',
    )
    tree = read_input(text).tree
    assert tree.is_chance(ROOT) and select_path(tree, Scoring(c=100.0)) == "2"


def test_a_proven_outcome_is_the_childs_value_and_terminal_nodes_are_marked():
    text = log(
        {"path": ["a"], "score": 0.1}, {"path": ["b"], "score": 0.9},
        {"node": ["a"], "terminal": True, "outcome": [1, -1]},
    )
    tree = read_input(text).tree
    a = tree.find(["a"])
    assert tree.is_terminal(a) and tree.outcome_of(a) == 1.0
    assert select_path(tree, Scoring(c=0.0)) == "a"  # worth its outcome 1, not its mean 0.1


def test_turns_alternate_from_the_roots_declared_player():
    text = log({"node": [], "player": 1}, {"path": ["a"], "score": 1}, {"path": ["a", "b"], "score": 1})
    tree = read_input(text).tree
    # Player 1 moves at the root, so the root and its children take player 1's view: -1 each time.
    assert tree.player[ROOT] == 1 and tree.total[ROOT] == -2.0
    a, b = tree.find(["a"]), tree.find(["a", "b"])
    assert tree.total[a] == -2.0
    # Nobody declared who moves at "a": the player after the root's, player 0, whose view "a b" takes.
    assert tree.player[a] == 0 and tree.total[b] == 1.0 and tree.player[b] == 1


@pytest.mark.parametrize("players", [2, 3])
def test_an_undeclared_node_moves_after_its_parent_in_logs_and_dumps(players):
    returns = list(range(1, players + 1))
    text = log({"node": ["x"], "player": 1}, *({"path": list(path), "returns": returns} for path in ["x", "xy", "xyz"]),
               header=json.dumps({"mcts_log": 1, "players": players}))
    tree = read_input(text).tree
    x, y, z = (tree.find(list(path)) for path in ["x", "xy", "xyz"])
    assert [tree.player[node] for node in (ROOT, x, y, z)] == [0, 1, 2 % players, 3 % players]
    assert tree.total[z] == returns[tree.player[y]]  # "z" holds the view of whoever moves at "y"
    dump = {"mcts_tree": 1, "players": players, "root": {"move": None, "visits": 3, "player": 1, "children": [
        {"move": "x", "visits": 2, "children": [{"move": "y", "visits": 1}]}]}}
    tree = read_input(json.dumps(dump)).tree
    assert [tree.player[node] for node in (ROOT, tree.find(["x"]), tree.find(["x", "y"]))] == [1, 2 % players, 3 % players]


def test_named_moves_make_a_spaced_path_and_find_accepts_it():
    tree = read_input(log({"path": ["e2e4"], "score": 1}, {"path": ["e2e4", "e7e5"], "score": 1})).tree
    node = tree.find("e2e4 e7e5")
    assert tree.path(node) == "e2e4 e7e5" and not tree.compact
    assert select_path(tree, Scoring(c=0.1)) == "e2e4 e7e5"


def test_text_directives_set_players_and_ties():
    text = "#players 2\n#ties first\nb -1\na 1\nax 5\nay -5\n"
    tree = parse_playouts(text)
    assert tree.players == 2 and tree.ties == "first"
    built = read_input(text).tree
    assert select_path(built, Scoring(c=0.0)) == "ay"  # player 1 at a minimises player 0's score
    assert select_path(read_input("b 1\na 1\n").tree, Scoring(c=0.0)) == "a"
    assert select_path(read_input("#ties first\nb 1\na 1\n").tree, Scoring(c=0.0)) == "b"


def test_tree_dump_with_means_priors_and_unvisited_children():
    dump = {
        "mcts_tree": 1, "players": 2, "ties": "first", "c": 2.0,
        "root": {"move": None, "visits": 10, "value": 0.5, "children": [
            {"move": "x", "visits": 6, "value": 0.25, "prior": 0.7},
            {"move": "y", "visits": 3, "total": 2.5, "prior": 0.2, "children": [{"move": "z", "visits": 0}]},
            {"move": "w", "visits": 0, "prior": 0.1},
        ]},
    }
    read = read_input(json.dumps(dump))
    tree = read.tree
    assert read.kind == "tree" and read.c == 2.0 and read.playouts is None and tree.playouts == 0
    assert tree.total[tree.find("x")] == 1.5 and tree.total[tree.find("y")] == 2.5
    assert tree.player[tree.find("y")] == 1 and select_path(tree, Scoring(c=1.0)) == "w"


# --- refusals: the line and the key ----------------------------------------------------------


@pytest.mark.parametrize(
    "records, line, fragment",
    [
        (["{not json"], 2, "not valid JSON"),
        (["[1, 2]"], 2, "expected a JSON object"),
        ([{"score": 1}], 2, 'needs "path" (a simulation) or "node"'),
        ([{"path": ["a"], "node": ["a"]}], 2, "not both"),
        ([{"path": ["a"]}], 2, 'needs "score"'),
        ([{"path": ["a"], "score": 1, "returns": [1, -1]}], 2, "not both"),
        ([{"path": ["a"], "returns": [1, 2, 3]}], 2, 'key "returns": expected 2 numbers'),
        ([{"path": ["a", 3], "score": 1}], 2, 'key "path": move 2 must be a non-empty string, got 3'),
        ([{"path": ["a", ""], "score": 1}], 2, "an empty string"),
        ([{"path": "ab", "score": 1}], 2, 'key "path": expected a list of moves'),
        (['{"path": ["a"], "score": NaN}'], 2, 'key "score": must be a finite number'),
        (['{"path": ["a"], "score": 1e999}'], 2, 'key "score": must be a finite number'),
        ([{"path": ["a"], "score": "1"}], 2, 'key "score": expected a number'),
        ([{"path": ["a"], "score": True}], 2, 'key "score": expected a number'),
        ([{"node": [], "priors": {"a": -0.5}}], 2, 'key "priors/a": a prior must be >= 0'),
        ([{"node": [], "priors": {"a": "high"}}], 2, 'key "priors/a": expected a number'),
        ([{"node": [], "children": ["a"], "priors": {"b": 0.5}}], 2, "not among the node's"),
        ([{"node": [], "children": ["a", "a"]}], 2, "listed twice"),
        ([{"node": [], "player": 2}], 2, 'key "player": expected a player from 0 to 1'),
        ([{"node": [], "chance": "yes"}], 2, 'key "chance": expected true or false'),
        ([{"path": ["a"], "score": 1, "extra": 1}], 2, 'unknown key "extra"'),
    ],
)
def test_bad_records_name_the_line_and_the_key(records, line, fragment):
    got_line, message = error_of(log(*records))
    assert got_line == line and fragment in message, message


@pytest.mark.parametrize(
    "header, fragment",
    [
        ('{"mcts_log": 2}', 'the first line must be the header'),
        ('{"mcts_log": 1, "players": 0}', 'key "players"'),
        ('{"mcts_log": 1, "ties": "last"}', 'key "ties"'),
        ('{"mcts_log": 1, "c": -1}', 'key "c": C must be a finite number >= 0'),
        ('{"mcts_log": 1, "rule": "uct"}', 'key "rule": expected one of ucb1'),
        ('{"mcts_log": 1, "player": 2}', 'unknown key "player" in the header'),
    ],
)
def test_bad_headers_are_refused_on_their_line(header, fragment):
    text = "\n" + header + '\n{"path": [], "score": 1}\n'
    line, message = error_of(text)
    assert line == 2 and fragment in message, message


def test_more_records_than_the_limit_are_refused_with_the_line():
    text = log(*[{"path": ["a"], "score": 1}] * 4, header='{"mcts_log": 1}')
    with pytest.raises(ParseError, match="too many records: at most 3"):
        read_log(text, max_records=3)
    with pytest.raises(ParseError) as caught:
        read_log(text, max_records=3)
    assert caught.value.line == 5


@pytest.mark.parametrize(
    "dump, line, fragment",
    [
        ('{"mcts_tree": 1, "root": {"move": null, "visits": -1}}', 1, 'key "visits"'),
        ('{"mcts_tree": 1,\n "root": {"move": null, "visits": 2, "children": [\n  {"move": "a", "visits": 1},\n  {"move": "b", "visits": "x"}]}}', 4, 'key "visits"'),
        ('{"mcts_tree": 1,\n "root": {"move": null, "visits": 2, "children": [\n  {"move": 5, "visits": 1}]}}', 3, 'key "move"'),
        ('{"mcts_tree": 1,\n "root": {"move": null, "visits": 2, "children": [\n  {"move": "a", "visits": 1},\n  {"move": "a", "visits": 1}]}}', 4, "already a child"),
        ('{"mcts_tree": 1, "players": 2,\n "root": {"move": null, "visits": 1, "total": 1, "value": 1}}', 2, "not both"),
        ('{"mcts_tree": 1, "root": {"move": null, "visits": 1}', 1, "not valid JSON"),
        ('{"mcts_tree": 1, "ties": "x", "root": {"move": null, "visits": 1}}', 1, 'key "ties"'),
        ('{"mcts_tree": 1,\n "root": {"move": null, "visits": 1, "prior": -2}}', 2, 'key "prior"'),
    ],
)
def test_bad_tree_dumps_name_the_line_of_the_node_and_the_key(dump, line, fragment):
    got_line, message = error_of(dump)
    assert got_line == line and fragment in message, message


@pytest.mark.parametrize(
    "text, line, fragment",
    [
        ("#players 3\na 1\n", 1, "#players must be 1 or 2"),
        ("#ties last\na 1\n", 1, "#ties must be"),
        ("#players 2\n#players 2\na 1\n", 2, "given twice"),
    ],
)
def test_bad_directives_name_their_line(text, line, fragment):
    got_line, message = error_of(text)
    assert got_line == line and fragment in message


# --- the pyarrow reader for large logs agrees with the line reader ---------------------------------


def big_log(rng, count, players=1, returns=False):
    records = []
    for _ in range(count):
        path = [rng.choice(["e4", "d4", "Nf3", "c4", "a"]) for _ in range(rng.randint(0, 8))]
        if returns:
            records.append({"path": path, "returns": [round(rng.uniform(-1, 1), 3) for _ in range(players)]})
        else:
            records.append({"path": path, "score": round(rng.uniform(-100, 100), 2)})
    return log(*records, header=json.dumps({"mcts_log": 1, "players": players}))


@pytest.mark.parametrize("players", [1, 2])
def test_the_arrow_reader_numbers_one_character_moves_as_the_line_reader(players):
    # Every move one byte: read from the bytes, numbered by first appearance (JSON escapes included).
    rng = random.Random(11)
    moves = ["z", "a", '"', "\\", "{", "}", " ", "\t", "7"]
    records = [{"path": [rng.choice(moves) for _ in range(rng.randint(0, 9))], "score": rng.randint(-9, 9)}
               for _ in range(3000)]
    text = log(*records, header=json.dumps({"mcts_log": 1, "players": players}))
    assert len(text) > log_module.ARROW_THRESHOLD
    lines = text.splitlines()
    fast = read_log_columns(text, 2_000_000)
    slow = log_module._Reader(log_module.parse_header(lines[0], 1), 2_000_000).read(lines, 1)
    assert fast is not None and fast == (slow, None)
    assert set(fast[0].moves) == set(moves)


@pytest.mark.parametrize("players, returns", [(1, False), (2, False), (2, True), (3, True)])
def test_the_arrow_reader_gives_the_line_readers_playouts(players, returns):
    text = big_log(random.Random(players), 3000, players, returns)
    assert len(text) > log_module.ARROW_THRESHOLD
    lines = text.splitlines()
    header = log_module.parse_header(lines[0], 1)
    fast = read_log_columns(text, 2_000_000)
    slow = log_module._Reader(header, 2_000_000).read(lines, 1)
    assert fast is not None and fast == (slow, None)
    assert read_log(text)[0] == slow


@pytest.mark.parametrize(
    "broken",
    ['{"path": ["a"], "score": NaN}', '{"path": ["a"]}', '{"path": ["a", 1], "score": 1}', '{"path": ["a"], "score": "x"}',
     '{"node": [], "player": 0}', '', '{"path": [""], "score": 1}', '{"path": ["a"], "score": 1, "x": 2}'],
)
def test_the_arrow_reader_steps_aside_and_the_line_reader_decides(broken):
    lines = big_log(random.Random(7), 2000).splitlines()
    lines.insert(1000, broken)
    text = "\n".join(lines) + "\n"
    header = log_module.parse_header(lines[0], 1)
    assert read_log_columns(text, 2_000_000) is None
    try:
        slow = log_module._Reader(header, 2_000_000).read(lines, 1)
    except ParseError as error:
        with pytest.raises(ParseError) as caught:
            read_log(text)
        assert (caught.value.line, caught.value.message) == (error.line, error.message) and error.line == 1001
    else:
        assert read_log(text)[0] == slow


# --- fuzz: the JSON readers raise only ParseError ---------------------------------------------

_json_value = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.floats(allow_nan=True) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(
        ["path", "score", "returns", "node", "player", "children", "priors", "chance", "terminal", "outcome", "x"]
    ), inner, max_size=4),
    max_leaves=8,
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_json_value, max_size=6), st.sampled_from([1, 2, 3]), st.sampled_from(["first", "smaller"]))
def test_log_reader_raises_only_parse_error(records, players, ties):
    header = json.dumps({"mcts_log": 1, "players": players, "ties": ties})
    text = "\n".join([header, *(json.dumps(record) for record in records)])
    try:
        read = read_input(text)
    except ParseError:
        return
    selected_nodes(read.tree, Scoring(c=1.0))


_node = st.deferred(lambda: st.fixed_dictionaries(
    {"move": st.text(min_size=1, max_size=2), "visits": st.integers(0, 5)},
    optional={"total": st.floats(-3, 3) | st.text(max_size=1), "children": st.lists(_node, max_size=3),
              "prior": st.floats(-1, 1), "terminal": st.booleans(), "player": st.integers(-1, 2)},
))


@settings(max_examples=300, deadline=None)
@given(st.lists(_node, max_size=4), st.sampled_from([1, 2]))
def test_tree_reader_raises_only_parse_error(children, players):
    text = json.dumps({"mcts_tree": 1, "players": players, "root": {"move": None, "visits": 5, "children": children}})
    try:
        read = read_input(text)
    except ParseError:
        return
    selected_nodes(read.tree, Scoring("puct", 1.0))


def test_the_header_can_state_the_rules_settings_and_the_cli_uses_them():
    import subprocess
    import sys

    records = [{"path": ["a"], "score": 100}, {"path": ["a"], "score": 100}, {"path": ["b"], "score": 90}]
    header = '{"mcts_log": 1, "c": 1.0, "rule": "puct", "settings": {"normalise": "minmax"}}'
    read = read_input(log(*records, header=header))
    assert read.rule == "puct" and read.settings == {"normalise": "minmax"}
    # raw Q: a (100) wins; min-max Q: a = 1, b = 0 but b explores more: b.
    text = log(*records, header=header)
    result = subprocess.run([sys.executable, "-m", "mcts_core"], input=text.encode(), capture_output=True, check=True)
    assert result.stdout.decode().strip() == select_path(read.tree, Scoring.of("puct", c=1.0, normalise="minmax"))


@pytest.mark.parametrize(
    "settings, fragment",
    [('{"w": 3}', "has no setting 'w'"), ('{"normalise": "zscore"}', "normalise must be one of"), ('[1]', "expected an object")],
)
def test_bad_header_settings_are_refused(settings, fragment):
    header = '{"mcts_log": 1, "rule": "puct", "settings": ' + settings + "}"
    line, message = error_of(header + '\n{"path": [], "score": 1}\n')
    assert line == 1 and fragment in message, message
