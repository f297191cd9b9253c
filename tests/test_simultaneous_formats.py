"""Simultaneous moves in the JSON Lines log and the JSON tree dump: what they mean, and every refusal.

A path element may be a joint move, one move per player (``["R", "P"]``); a node's facts may say
``"simultaneous": true`` and list each player's own moves; a dump's decoupled node carries each
player's own-move statistics. Sequential logs and dumps read exactly as before.
"""

import io
import json
import random

import pytest

from mcts_core import ParseError
from mcts_core.inputs.formats import log as log_module
from mcts_core.inputs.formats.log_columns import read_log_columns
from mcts_core.inputs.formats.log import read_log
from mcts_core.inputs.formats.tree_json import read_tree_dump
from mcts_core.inputs.formats.tree_json_writer import write_tree_json
from mcts_core.inputs.loading import read_input

HEADER = {"mcts_log": 1, "players": 2, "ties": "first", "c": 1.4}


def log(*records, header=None):
    lines = [json.dumps(header or HEADER), *(r if isinstance(r, str) else json.dumps(r) for r in records)]
    return "\n".join(lines) + "\n"


def error_of(text):
    with pytest.raises(ParseError) as caught:
        read_input(text)
    return caught.value.line, caught.value.message


RPS = log(
    {"node": [], "simultaneous": True, "moves": [["R", "P", "S"], ["R", "P", "S"]]},
    {"path": [["R", "P"]], "returns": [-1, 1]},
    {"path": [["S", "P"]], "returns": [1, -1]},
    {"path": [["R", "P"]], "returns": [-1, 1]},
    {"path": [["R", "S"]], "returns": [1, -1]},
    {"path": [], "returns": [0, 0]},
)


# --- meaning ----------------------------------------------------------------------------------


def test_a_joint_move_is_one_move_of_the_joint_tree_named_by_its_players_moves():
    read = read_input(RPS)
    assert read.tree.moves == ("R|P", "S|P", "R|S")
    assert [read.tree.visits[kid] for kid in read.tree.children[0]] == [2, 1, 1]
    assert read.simultaneous is not None and read.playouts.moves == read.tree.moves


def test_each_player_sees_its_own_moves_with_its_own_returns():
    decoupled = read_input(RPS).simultaneous.decoupled
    zero = {m.move: (m.visits, m.total) for m in decoupled.own_moves(0, 0)}
    one = {m.move: (m.visits, m.total) for m in decoupled.own_moves(0, 1)}
    assert zero == {"R": (3, -1.0), "P": (0, 0.0), "S": (1, 1.0)}
    assert one == {"R": (0, 0.0), "P": (3, 1.0), "S": (1, -1.0)}


def test_declared_own_moves_come_first_in_the_engines_order_then_by_first_play():
    text = log(
        {"node": [], "simultaneous": True, "moves": [["S", "R"], ["P"]]},
        {"path": [["P", "R"]], "returns": [1, -1]},
        {"path": [["R", "P"]], "returns": [1, -1]},
    )
    decoupled = read_input(text).simultaneous.decoupled
    assert [m.move for m in decoupled.own_moves(0, 0)] == ["S", "R", "P"]
    assert [m.move for m in decoupled.own_moves(0, 1)] == ["P", "R"]


def test_a_chance_node_below_a_simultaneous_one_keeps_its_sequential_outcomes():
    text = log(
        {"path": [["a", "x"]], "returns": [1, -1]},
        {"node": [["a", "x"]], "player": 0, "children": ["heads", "tails"], "chance": True},
        {"path": [["a", "x"], "heads"], "returns": [1, -1]},
        {"path": [["a", "x"], "heads", ["b", "y"]], "returns": [-1, 1]},
    )
    read = read_input(text)
    decoupled = read.simultaneous.decoupled
    heads = decoupled.find([["a", "x"], "heads"])
    assert read.tree.is_chance(decoupled.find([["a", "x"]]))
    assert decoupled.is_simultaneous(heads) and [m.move for m in decoupled.own_moves(heads, 1)] == ["y"]


def test_the_header_may_name_the_search_and_a_rule_for_simultaneous_nodes_only():
    header = dict(HEADER, c=0.2, rule="regret_matching", algorithm="duct", game="matrix_rps()")
    read = read_input(RPS.replace(json.dumps(HEADER), json.dumps(header)))
    assert read.rule is None and read.simultaneous.rule == "regret_matching"  # the sidebar keeps its rules
    assert (read.simultaneous.algorithm, read.simultaneous.game, read.c) == ("duct", "matrix_rps()", 0.2)


def test_sequential_logs_read_as_before_with_nothing_simultaneous():
    text = log({"path": ["a", "b"], "score": 1}, {"node": ["a"], "player": 1})
    read = read_input(text)
    assert read.simultaneous is None and read_log(text) == (read.playouts, None)


def big_joint_log(rng, count):
    records = []
    for _ in range(count):
        path = [[rng.choice("RPS"), rng.choice(["R", "P", "S", "long move"])] for _ in range(rng.randint(0, 6))]
        records.append({"path": path, "returns": [round(rng.uniform(-1, 1), 3), round(rng.uniform(-1, 1), 3)]})
    return log(*records, header={"mcts_log": 1, "players": 2})


def test_the_arrow_reader_gives_the_line_readers_joint_log():
    text = big_joint_log(random.Random(3), 3000)
    assert len(text) > log_module.ARROW_THRESHOLD
    lines = text.splitlines()
    fast = read_log_columns(text, 2_000_000)
    reader = log_module._Reader(log_module.parse_header(lines[0], 1), 2_000_000)
    slow = reader.read(lines, 1)
    assert fast is not None and fast[0] == slow
    assert fast[1].joint == reader.simultaneous.joint


def test_the_arrow_reader_finds_joint_moves_that_first_appear_late_in_the_log():
    records = [{"path": [], "returns": [0.5, -0.5]}] * 400  # over 4 kB of records without a move
    text = log(*records, header={"mcts_log": 1, "players": 2}) + big_joint_log(random.Random(6), 2000).split("\n", 1)[1]
    lines = text.splitlines()
    fast = read_log_columns(text, 2_000_000)
    reader = log_module._Reader(log_module.parse_header(lines[0], 1), 2_000_000)
    assert fast is not None and fast[0] == reader.read(lines, 1)
    assert fast[1].joint == reader.simultaneous.joint and len(fast[1].joint.own_names) == 4  # R, P, S, long move


def test_the_arrow_reader_numbers_joint_moves_as_the_line_reader_however_many_there_are():
    rng = random.Random(4)
    names = [f"m{i}" for i in range(200)]  # 200 ** 3 possible joint moves: numbered without a direct table
    records = [{"path": [[rng.choice(names) for _ in range(3)] for _ in range(rng.randint(0, 3))],
                "returns": [1, 0, -1]} for _ in range(1500)]
    text = log(*records, header={"mcts_log": 1, "players": 3})
    lines = text.splitlines()
    fast = read_log_columns(text, 2_000_000)
    reader = log_module._Reader(log_module.parse_header(lines[0], 1), 2_000_000)
    assert fast is not None and fast[0] == reader.read(lines, 1) and fast[1].joint == reader.simultaneous.joint


@pytest.mark.parametrize("broken", ['{"path": [["R"]], "returns": [1, -1]}', '{"path": [["R", ""]], "returns": [1, -1]}',
                                    '{"path": ["R"], "returns": [1, -1]}'])
def test_the_arrow_reader_steps_aside_for_a_bad_joint_log_and_the_line_reader_names_the_line(broken):
    lines = big_joint_log(random.Random(5), 2000).splitlines()
    lines.insert(1000, broken)
    text = "\n".join(lines) + "\n"
    assert read_log_columns(text, 2_000_000) is None
    with pytest.raises(ParseError) as caught:
        read_log(text)
    assert caught.value.line == 1001


# --- refusals ---------------------------------------------------------------------------------


def test_a_joint_move_of_the_wrong_length_names_the_line_and_the_key():
    line, message = error_of(log({"path": [["R", "P", "S"]], "returns": [1, -1]}))
    assert line == 2 and message.startswith('key "path": move 1 is a joint move of 3 moves') and "2 players" in message


def test_a_joint_move_in_a_log_without_players_says_to_declare_them():
    line, message = error_of(log({"path": [["R", "P"]], "score": 1}, header={"mcts_log": 1}))
    assert line == 2 and '"players" in the header' in message


@pytest.mark.parametrize(
    "records, line, key",
    [
        ([{"path": [["R", "P"]], "returns": [1, -1]}, {"path": ["R"], "returns": [1, -1]}], 3, "path"),
        ([{"path": ["R", "x"], "returns": [1, -1]}, {"path": [["R", "P"]], "returns": [1, -1]}], 3, "path"),
        ([{"path": [["R", "P"], "x"], "returns": [1, -1]}, {"path": [["R", "P"], ["a", "b"]], "returns": [1, -1]}], 3, "path"),
        ([{"path": ["a"], "returns": [1, -1]}, {"node": [], "simultaneous": True}], 3, "simultaneous"),
        ([{"path": [["a", "b"]], "returns": [1, -1]}, {"node": [], "children": ["a"]}], 3, "children"),
        ([{"node": [], "children": [["a", "b"], "c"]}], 2, "children"),
        ([{"node": [], "simultaneous": False, "children": [["a", "b"]]}], 2, "children"),
    ],
)
def test_mixing_joint_and_sequential_moves_at_one_node_names_the_line_and_the_key(records, line, key):
    found_line, message = error_of(log(*records))
    assert found_line == line and message.startswith(f'key "{key}"'), message


def test_a_player_index_out_of_range_is_refused():
    assert error_of(log({"node": [], "simultaneous": True, "player": 2})) == (
        2, 'key "player": expected a player from 0 to 1, got 2')
    line, message = error_of(log({"node": [], "simultaneous": True, "moves": [["R"], ["P"], ["S"]]}))
    assert line == 2 and message.startswith('key "moves": expected 2 lists') and "player 2" in message


@pytest.mark.parametrize(
    "record, key",
    [
        ({"node": [], "simultaneous": False, "moves": [["R"], ["P"]]}, "moves"),
        ({"node": [], "simultaneous": True, "chance": True}, "chance"),
        ({"node": [], "simultaneous": "yes"}, "simultaneous"),
        ({"node": [], "moves": [["R", "R"], ["P"]]}, "moves"),
        ({"node": [], "simultaneous": True, "priors": {"R": 0.5}}, "priors"),
    ],
)
def test_bad_simultaneous_facts_name_the_key(record, key):
    line, message = error_of(log(record))
    assert line == 2 and message.startswith(f'key "{key}"'), message


def test_a_rule_for_simultaneous_nodes_in_a_sequential_log_is_refused_at_the_header():
    line, message = error_of(log({"path": ["a"], "score": 1}, header=dict(HEADER, rule="exp3", c=0.1)))
    assert line == 1 and message.startswith('key "rule": exp3 selects at simultaneous nodes')


def test_gamma_above_one_is_refused_for_regret_matching():
    line, message = error_of(log({"path": [["R", "P"]], "returns": [1, -1]}, header=dict(HEADER, rule="regret_matching")))
    assert line == 1 and message.startswith('key "c"')


# --- the tree dump ----------------------------------------------------------------------------


def dump_of(text, **keywords):
    read = read_input(text)
    out = io.StringIO()
    write_tree_json(read.tree, out, decoupled=read.simultaneous.decoupled, **keywords)
    return out.getvalue()


def test_the_dump_writes_decoupled_nodes_and_joint_moves_as_arrays():
    document = json.loads(dump_of(RPS, c=1.4, rule="ucb1", selected=lambda node: None))
    root = document["root"]
    assert root["simultaneous"] is True
    assert root["decoupled"][0] == [{"move": "R", "visits": 3, "total": -1.0}, {"move": "P", "visits": 0, "total": 0.0},
                                    {"move": "S", "visits": 1, "total": 1.0}]
    assert [child["move"] for child in root["children"]] == [["R", "P"], ["S", "P"], ["R", "S"]]
    assert root["selected"] == ["P", "R"]  # each player's UCB1 pick: the untried P, and R


def test_a_dump_read_back_has_the_same_decoupled_statistics():
    first = read_input(RPS).simultaneous.decoupled
    again = read_input(dump_of(RPS)).simultaneous.decoupled
    for player in range(2):
        assert [(m.move, m.visits, m.total) for m in first.own_moves(0, player)] == \
            [(m.move, m.visits, m.total) for m in again.own_moves(0, player)]
    assert again.playouts is None and list(again.tree.visits) == list(first.tree.visits)
    assert read_tree_dump(dump_of(RPS))[0].moves == first.tree.moves


def tree(root, **header):
    return json.dumps({"mcts_tree": 1, "players": 2, **header, "root": root}, indent=1)


SIM_ROOT = {"visits": 3, "simultaneous": True, "decoupled": [[{"move": "R", "visits": 2, "total": 1}],
                                                              [{"move": "P", "visits": 2, "value": -0.5}]]}


@pytest.mark.parametrize(
    "root, key",
    [
        (dict(SIM_ROOT, children=[{"move": ["R", "P", "S"], "visits": 2}]), "move"),
        ({"visits": 3, "children": [{"move": ["R", "P"], "visits": 2}]}, "move"),
        (dict(SIM_ROOT, children=[{"move": ["R", "P"], "visits": 1}, {"move": "x", "visits": 1}]), "move"),
        (dict(SIM_ROOT, decoupled=[[], [], []]), "decoupled"),
        ({"visits": 3, "simultaneous": True, "children": [{"move": ["R", "P"], "visits": 2}]}, "decoupled"),
        ({"visits": 3, "decoupled": [[], []]}, "decoupled"),
        (dict(SIM_ROOT, decoupled=[[{"move": "R", "visits": -1}], []]), "decoupled"),
        (dict(SIM_ROOT, decoupled=[[{"move": "R", "visits": 1, "regret": 2}], []]), "decoupled"),
    ],
)
def test_bad_decoupled_nodes_name_the_key(root, key):
    with pytest.raises(ParseError) as caught:
        read_input(tree(root))
    assert caught.value.message.startswith(f'key "{key}"'), caught.value.message


def test_a_bad_child_in_a_dump_names_its_own_line():
    text = tree(dict(SIM_ROOT, children=[{"move": ["R", "P"], "visits": 2}, {"move": ["R"], "visits": 1}]))
    with pytest.raises(ParseError) as caught:
        read_input(text)
    assert text.splitlines()[caught.value.line - 1].strip().startswith("{") and caught.value.line > 2


def test_a_dump_value_stands_for_a_mean():
    decoupled = read_input(tree(dict(SIM_ROOT, children=[{"move": ["R", "P"], "visits": 2}]))).simultaneous.decoupled
    assert decoupled.own_moves(0, 1)[0].total == -1.0
