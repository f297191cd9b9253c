"""The memory bound on reading and building an input, and the refusal of what would exceed it.

The bound (README, "The input format"): reading an input and building its tree takes at most
:data:`MEMORY_PER_BYTE` times the input's size (its UTF-8 bytes) plus :data:`MEMORY_BASE` of memory
at the peak, the process's own start included, in the command line and in the app alike.

Before an input is read, :func:`check_reading` estimates the reading's peak from facts that cost
one C pass each over the text (its size, how many bytes a character takes in memory, its lines,
its braces and colons); after it is read and before its tree is built, :func:`check_building`
estimates the build from the exact counts the reading found. Either refuses what would exceed the
bound with a sentence naming what makes the input big. What only the reading or the build can
count becomes a budget they stop at, with the same kind of sentence: the memory a log's node facts
keep (:func:`fact_budget`, counted with :func:`fact_bytes`) and the nodes they declare (the node
budget :func:`check_building` returns, :func:`too_many_nodes`).

Every estimate is a sum of measured costs, each rounded up from the largest measured
(bench/bench_memory.py prints each estimate beside the measured peak; bench/RESULTS.md).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from ..common.input_rules import MAX_PLAYOUTS, ParseError
from ..model.build import LEVELS_THRESHOLD
from ..model.playouts import Fact, Playouts

MEMORY_PER_BYTE = 8
MEMORY_BASE = 300 * 10**6

# Measured costs in bytes (bench/bench_memory.py).
PROCESS = 90 * 10**6  # Python with numpy and pyarrow loaded before any input, and the modules a log brings in
FAST_READER = 100 * 10**6  # pyarrow's readers at work: their pieces, blocks, buffers and threads
PER_LINE = 40  # a playout's columns while reading: its start, returns (two players) and line
PER_PLAYOUT_LEVELS = 110  # building by levels: the tree's columns and the build's arrays, per playout
PER_NODE_SEQUENTIAL = 240  # building playout by playout (logs with node facts), per node
PER_FACT = 600  # a node fact read: its objects, numbers and the reader's notes on it
PER_FACT_MOVE = 8  # a move a fact names (on its path, among its children, a player's own move)
PER_PRIOR = 80  # a prior a fact gives: a dict entry and a float
PER_SIMULTANEOUS_FACT = 200  # what a fact about a simultaneous node adds
PER_OWN_MOVE = 300  # a simultaneous node's own move, in the decoupled tree's build (its sorts and slots)
PER_OBJECT = 400  # a tree dump's JSON object: json's dict, then the node's columns
PER_DUMP_COLON = 16  # a tree dump's value: the number or string json makes
PER_ENGINE_BYTE = 7  # an engine's analyses kept as Python objects, per byte of its text (KataGo's JSON: 6.5)

READ, BUILD = "read", "build"


@dataclass(frozen=True)
class Reading:
    """What :func:`check_reading` learnt of an input.

    Attributes:
        size: the input's UTF-8 bytes.
        text_bytes: the decoded text's memory.
        width: the bytes a character of the decoded text takes (1, 2 or 4).
        need: the reading's estimated peak.
    """

    size: int
    text_bytes: int
    width: int = 1
    need: int = 0

    @property
    def limit(self) -> int:
        """The bound: the most reading and building this input may take."""
        return MEMORY_PER_BYTE * self.size + MEMORY_BASE

    def held(self) -> list[tuple[int, str]]:
        """What stays from start to end, as (bytes, what): the process, the input's bytes, its text."""
        plural = "s" if self.width > 1 else ""
        return [(PROCESS, ""), (self.size, ""),
                (self.text_bytes, f"its text takes {self.width} byte{plural} a character in memory")]


@dataclass(frozen=True)
class Need:
    """An estimated peak: ``bytes`` to ``step`` (``"read"`` or ``"build"``), ``biggest`` its largest
    part that the input's content makes big."""

    bytes: int
    step: str
    biggest: str


def reading_need(text: str, kind: str) -> tuple[Reading, Need]:
    """What reading ``text`` (of ``kind``: ``"text"``, ``"log"``, ``"tree"`` or ``"engine"``) takes at its peak."""
    size = len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))
    text_bytes = sys.getsizeof(text)
    reading = Reading(size, text_bytes, (text_bytes - sys.getsizeof("")) // max(len(text), 1))
    parts = reading.held()  # the caller keeps the bytes it decoded the text from
    if kind == "tree":
        objects, colons = text.count("{"), text.count(":")
        parts.append((PER_OBJECT * objects + PER_DUMP_COLON * colons,
                      f"its {objects:,} JSON objects take about {PER_OBJECT} bytes each as Python objects"))
    elif kind == "engine":
        # Every analysis in the file is kept (the app picks one): their moves, columns and PVs.
        parts.append((PER_ENGINE_BYTE * size,
                      f"its analyses take about {PER_ENGINE_BYTE} bytes of memory per byte of text"))
    else:
        # Either reader: pyarrow's (the bytes encoded again, its blocks) or the line by line one (the
        # moves as ids, at most a character's width each); and every playout's columns.
        lines = min(text.count("\n") + 1, MAX_PLAYOUTS + 2)
        parts.append((size + FAST_READER + text_bytes + PER_LINE * lines,
                      f"its {lines:,} lines take about {PER_LINE} bytes each as columns"))
    need = _need(parts, READ)
    return Reading(reading.size, reading.text_bytes, reading.width, need.bytes), need


def building_need(reading: Reading, playouts: Playouts, own_moves: int = 0) -> tuple[Need, int | None]:
    """What building the tree of ``playouts`` takes at its peak, and for a log with node facts the
    most nodes the build may make (None: no budget needed).

    Args:
        reading: :func:`reading_need`'s answer for the input.
        playouts: the input's playouts.
        own_moves: how many own moves a simultaneous log's decoupled tree keeps statistics for.
    """
    count, facts = len(playouts), playouts.facts
    parts = reading.held() + [(_columns_bytes(playouts), "")]
    if facts:
        kept = sum(map(fact_bytes, facts))
        parts.append((kept, f"its {len(facts):,} node facts keep about {_amount(kept)}"))
    if own_moves:
        parts.append((PER_OWN_MOVE * own_moves,
                      f"its simultaneous nodes have {own_moves:,} own moves, about {PER_OWN_MOVE} bytes each"))
    if count >= LEVELS_THRESHOLD and not facts:
        parts.append((PER_PLAYOUT_LEVELS * count,
                      f"its {count:,} playouts take about {PER_PLAYOUT_LEVELS} bytes each to build"))
        return _need(parts, BUILD), None
    most = 1 + count + sum(len(fact.path) + len(fact.children or ()) + len(fact.priors) for fact in facts)
    budget = max((reading.limit - _need(parts, BUILD).bytes) // PER_NODE_SEQUENTIAL, 1)
    nodes = min(most, budget)
    parts.append((PER_NODE_SEQUENTIAL * nodes, f"its {nodes:,} nodes take about {PER_NODE_SEQUENTIAL} bytes each"))
    return _need(parts, BUILD), None if most <= budget else budget


def check_reading(text: str, kind: str) -> Reading:
    """Refuse ``text`` before it is read when reading it would exceed the bound.

    Args:
        text: the whole input.
        kind: ``"text"``, ``"log"``, ``"tree"`` or ``"engine"`` (:func:`mcts_core.inputs.loading.input_kind`).

    Raises:
        ParseError: on line 1, saying how much memory it would take, the limit and why.
    """
    reading, need = reading_need(text, kind)
    _check(reading, need)
    return reading


def check_building(reading: Reading, playouts: Playouts, own_moves: int = 0) -> int | None:
    """Refuse building the tree of ``playouts`` when it would exceed the bound; for a log with node
    facts whose nodes could exceed it, the most nodes the build may make (else None).

    Raises:
        ParseError: on line 1, saying how much memory it would take, the limit and why.
    """
    need, budget = building_need(reading, playouts, own_moves)
    _check(reading, need)
    return budget


def fact_bytes(fact: Fact) -> int:
    """The memory a log's node fact keeps until the tree is built (the reader's notes included)."""
    return PER_FACT + PER_FACT_MOVE * (len(fact.path) + len(fact.children or ())) + PER_PRIOR * len(fact.priors)


def simultaneous_fact_bytes(own_moves: int) -> int:
    """What a fact about a simultaneous node keeps besides :func:`fact_bytes`, with its players' own moves."""
    return PER_SIMULTANEOUS_FACT + PER_FACT_MOVE * own_moves


def fact_budget(reading: Reading) -> int:
    """How much memory a log's node facts may keep: what the bound leaves beside the reading."""
    return max(reading.limit - reading.need, 0)


def too_much_in_facts(reading: Reading, line: int, kept: int) -> ParseError:
    """The refusal when a log's node facts, up to ``line``, keep more than :func:`fact_budget`."""
    return ParseError(line, f"the input would need more than {_amount(reading.limit)} of memory to read "
                      f"({_limit_words(reading)}): its node facts up to this line keep about {_amount(kept)}")


def too_many_nodes(reading: Reading, budget: int) -> ParseError:
    """The refusal when a log's tree would need more nodes than its budget."""
    return ParseError(1, f"the input would need more than {_amount(reading.limit)} of memory to build "
                      f"({_limit_words(reading)}): its node facts declare more than {budget:,} nodes, "
                      f"about {PER_NODE_SEQUENTIAL} bytes each")


def _need(parts: list[tuple[int, str]], step: str) -> Need:
    """The sum of ``parts``, (bytes, what) pairs, naming the largest one the content makes big."""
    named = [part for part in parts if part[1]]
    return Need(sum(bytes_ for bytes_, _ in parts), step, max(named)[1] if named else "")


def _check(reading: Reading, need: Need) -> None:
    if need.bytes > reading.limit:
        raise ParseError(1, f"the input would need about {_amount(need.bytes)} of memory to {need.step} "
                         f"({_limit_words(reading)}): {need.biggest}")


def _limit_words(reading: Reading) -> str:
    return (f"the limit is {MEMORY_PER_BYTE} x its {_amount(reading.size)} + {_amount(MEMORY_BASE)} = "
            f"{_amount(reading.limit)}")


def _columns_bytes(playouts: Playouts) -> int:
    """The memory of the playouts' columns."""
    return sum(len(column) * getattr(column, "itemsize", 0)
               for column in (playouts.starts, playouts.move_ids, playouts.returns, playouts.lines))


def _amount(size: int) -> str:
    """Bytes as a person reads them: 50 MB, 2.3 GB (decimal units)."""
    if size >= 10**9:
        return f"{size / 1e9:.1f} GB"
    if size >= 10**6:
        return f"{size / 1e6:,.0f} MB"
    return f"{size / 1e3:,.0f} kB"
