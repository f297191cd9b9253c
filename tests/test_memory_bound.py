"""The memory bound: an input that would take more than 8 x its size + 300 MB to read and build is
refused with one sentence, before it is read (or built), in the core, the command line and the app.

The peaks themselves are bench figures (bench/bench_memory.py, bench/RESULTS.md); these tests check
the refusals, where they happen, and the estimate's arithmetic."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from apptest_support import plain
from mcts_core import ParseError
from mcts_core.inputs import loading, memory_bound, read_input
from mcts_core.inputs.formats.log import FactsTooLarge, read_log
from mcts_core.inputs.memory_bound import MEMORY_BASE, MEMORY_PER_BYTE, Reading, reading_need
from mcts_core.model.build import TooManyNodes, build_tree
from mcts_core.puzzle import solve

ROOT = Path(__file__).resolve().parent.parent
# A tree dump of a million bare nodes: 3 MB of text, and about 400 bytes each once json has read it.
BARE_NODES = 1_000_000
HUGE_DUMP = ('{"mcts_tree": 1, "root": {"move": null, "visits": 1, "children": ['
             + "{}," * (BARE_NODES - 1) + "{}]}}")


def wide_simultaneous_log(nodes: int) -> str:
    """A well-formed simultaneous-move log whose ``nodes`` nodes each list 8,464 own moves per player
    (two characters each): about 85 kB a node, and about 300 bytes an own move in the decoupled tree."""
    names = [a + b for a in OWN_MOVE_CHARACTERS for b in OWN_MOVE_CHARACTERS]
    lines = ['{"mcts_log": 1, "players": 2, "c": 1.4, "algorithm": "duct"}']
    for node in range(nodes):
        path = [[names[node], names[0]]] if node else []
        lines.append(json.dumps({"node": path, "player": 0, "simultaneous": True, "moves": [names, names]}))
        lines.append(json.dumps({"path": path, "returns": [1, -1]}))
    return "\n".join(lines) + "\n"


OWN_MOVE_CHARACTERS = [chr(code) for code in range(33, 127) if chr(code) not in '"\\']
# 60 such nodes: 6 MB whose tree would take about 400 MB (the code before the bound: 389 MB at the
# peak), more than 8 x 6 MB + 300 MB. 30 nodes are within it.
WIDE_LOG = wide_simultaneous_log(60)


def test_a_dump_of_a_million_bare_nodes_is_refused_before_it_is_read(monkeypatch):
    def read_tree_dump(text):
        raise AssertionError("the dump was read")

    monkeypatch.setattr(loading, "read_tree_dump", read_tree_dump)
    with pytest.raises(ParseError) as caught:
        read_input(HUGE_DUMP)
    assert caught.value.line == 1
    message = caught.value.message
    assert message.startswith("the input would need about ") and " of memory to read (the limit is 8 x its 3 MB + " \
        "300 MB = 324 MB): its 1,000,002 JSON objects take about 400 bytes each as Python objects" in message  # document, root, children
    assert "\n" not in message


@pytest.mark.parametrize("command", [[], ["tree"]])
@pytest.mark.parametrize("text, size", [(HUGE_DUMP, "3 MB"), (WIDE_LOG, "6 MB")], ids=["dump", "log"])
def test_the_command_line_refuses_it_with_exit_2_and_one_line(command, text, size):
    done = subprocess.run([sys.executable, "-m", "mcts_core", *command], input=text.encode(), capture_output=True,
                          cwd=ROOT, timeout=120)
    assert done.returncode == 2 and done.stdout == b""
    error = done.stderr.decode()
    assert error.startswith("error: line 1: the input would need about ") and f"(the limit is 8 x its {size}" in error
    assert error.count("\n") == 1


def test_the_app_shows_the_refusal_and_keeps_the_text(app):
    app.text_area(key="playouts").input(HUGE_DUMP).run()
    assert not app.exception
    shown = plain(app.error[0].value)
    assert shown.startswith("Line 1: the input would need about ") and "its 1,000,002 JSON objects" in shown
    assert app.text_area(key="playouts").value == HUGE_DUMP
    assert app.session_state["selected_path"] is None


def test_the_app_refuses_a_well_formed_log_whose_tree_would_exceed_the_bound(app):
    app.text_area(key="playouts").input(WIDE_LOG).run()
    assert not app.exception
    shown = plain(app.error[0].value)
    assert shown.startswith("Line 1: the input would need about ") and " of memory to build (the limit is 8 x its" in shown
    assert "its simultaneous nodes have 1,015,800 own moves, about 300 bytes each" in shown
    assert app.text_area(key="playouts").value == WIDE_LOG
    app.text_area(key="playouts").input(wide_simultaneous_log(30)).run()  # half of it fits
    assert not app.exception and not app.error


# --- what only the reading or the build can count: budgets they stop at --------------------------


def small_bound(monkeypatch, base: int) -> None:
    """A bound of 8 x the size + ``base`` with no process cost: small inputs then reach it."""
    monkeypatch.setattr(memory_bound, "MEMORY_BASE", base)
    monkeypatch.setattr(memory_bound, "PROCESS", 0)
    monkeypatch.setattr(memory_bound, "FAST_READER", 0)


def facts_log(facts: int, children: int) -> str:
    """A log whose facts each declare ``children`` children at their own node, and one simulation."""
    lines = ['{"mcts_log": 1, "players": 2}']
    for fact in range(facts):
        lines.append(json.dumps({"node": [f"n{fact}"], "children": [f"c{k}" for k in range(children)]}))
    lines.append('{"path": ["n0"], "score": 1}')
    return "\n".join(lines) + "\n"


def test_node_facts_that_would_keep_too_much_are_refused_at_the_line_that_crosses_the_budget(monkeypatch):
    text = facts_log(200, 10)
    small_bound(monkeypatch, 0)
    reading = reading_need(text, "log")[0]
    each = memory_bound.fact_bytes(read_log(text)[0].facts[0])
    # The bound leaves the facts room for 20 of them beside the reading: the 21st (line 22) crosses it.
    monkeypatch.setattr(memory_bound, "MEMORY_BASE", reading.need + 20 * each - MEMORY_PER_BYTE * reading.size)
    with pytest.raises(ParseError) as caught:
        read_input(text)
    assert caught.value.line == 22
    assert caught.value.message.startswith("the input would need more than ") and " of memory to read (the limit is " \
        "8 x its 19 kB + " in caught.value.message and "its node facts up to this line keep about" in caught.value.message


def test_the_reader_stops_once_the_facts_keep_more_than_it_may():
    text = facts_log(50, 3)
    with pytest.raises(FactsTooLarge) as caught:
        read_log(text, max_fact_bytes=5 * memory_bound.fact_bytes(read_log(text)[0].facts[0]))
    assert caught.value.line == 7  # the header, then the sixth fact
    assert len(read_log(text, max_fact_bytes=None)[0].facts) == 50


def test_a_log_whose_facts_declare_more_nodes_than_the_bound_allows_stops_building_there(monkeypatch):
    text = facts_log(100, 50)  # at most 5,102 nodes: the root, a node per simulation, each fact's node and children
    small_bound(monkeypatch, 10**12)  # room for every node: building_need counts them all
    reading = reading_need(text, "log")[0]
    per_node = memory_bound.PER_NODE_SEQUENTIAL
    besides_nodes = memory_bound.building_need(reading, read_log(text)[0])[0].bytes - 5_102 * per_node
    # The bound leaves the build room for 1,000 nodes.
    monkeypatch.setattr(memory_bound, "MEMORY_BASE", besides_nodes + 1_000 * per_node - MEMORY_PER_BYTE * reading.size)
    with pytest.raises(ParseError) as caught:
        read_input(text)
    assert caught.value.line == 1 and "its node facts declare more than 1,000 nodes" in caught.value.message


def test_the_builder_stops_at_its_node_budget_and_builds_the_same_tree_within_it():
    playouts = read_log(facts_log(3, 4))[0]
    whole = build_tree(playouts)
    assert len(whole) == 16
    with pytest.raises(TooManyNodes):
        build_tree(playouts, max_nodes=15)
    assert list(build_tree(playouts, max_nodes=16).parent) == list(whole.parent)


def test_the_puzzle_refuses_what_the_bound_refuses_before_it_is_read(monkeypatch):
    import mcts_core.puzzle as puzzle

    text = "".join(f"{'ab'[i % 2]}{i % 7} 1\n" for i in range(6_000))
    assert solve(text, c=1.0)  # within the real bound
    small_bound(monkeypatch, 0)
    monkeypatch.setattr(puzzle, "parse_playouts", lambda text: pytest.fail("the text was read"))
    with pytest.raises(ParseError, match=r"^line 1: the input would need about 360 kB of memory to read \(the limit is "
                       r"8 x its 30 kB \+ 0 kB = 240 kB\): its 6,001 lines take about 40 bytes each as columns$"):
        solve(text, c=1.0)


# --- the estimate's arithmetic -----------------------------------------------------------------


def test_the_limit_is_8_times_the_size_plus_300_mb():
    assert (MEMORY_PER_BYTE, MEMORY_BASE) == (8, 300 * 10**6)
    assert Reading(size=50 * 10**6, text_bytes=0, need=0).limit == 700 * 10**6


@pytest.mark.parametrize("character, width", [("a", 1), ("é", 1), ("€", 2), ("😀", 4)])
def test_a_text_counts_what_its_characters_take_in_memory(character, width):
    text = f"{character} 1\n" * 1000
    reading, _ = reading_need(text, "text")
    assert reading.size == len(text.encode())
    assert width * len(text) <= reading.text_bytes < width * len(text) + 100


def test_each_line_and_each_dump_object_adds_its_cost():
    texts = [reading_need("a 1\n" * count, "text")[1].bytes for count in (1000, 2000)]
    # A line's 4 bytes count 4 times (the caller's bytes, the text, the reader's copy, the moves), and
    # the line its columns.
    assert texts[1] - texts[0] == 1000 * (4 * 4 + memory_bound.PER_LINE)
    dumps = [reading_need('{"mcts_tree": 1, "root": {"children": [' + "{}," * count + "{}]}}", "tree")[1].bytes
             for count in (1000, 2000)]
    assert dumps[1] - dumps[0] == 1000 * (2 * 3 + memory_bound.PER_OBJECT)  # 3 bytes twice (bytes, text), an object
