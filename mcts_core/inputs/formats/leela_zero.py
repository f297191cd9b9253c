"""Leela Zero's analysis: its stderr search dump and its ``lz-analyze`` GTP stream, in one reader.

The search dump (stderr, after each ``genmove``; Leela Zero 0.17's ``UCTSearch::dump_stats``)::

    NN eval=0.460736
      G16 ->      96 (V: 48.49%) (LCB: 47.45%) (N:  0.90%) PV: G16 R19 ...
    1600 visits, 2151 nodes, 1599 playouts, 812 n/s

``->`` gives the visits, ``V`` the winrate, ``LCB`` its lower bound (0 below 2 visits), ``N`` the
policy prior (Leela Zero's "N" is the network's prior, not visits), PV the line starting with the
move. Only visited moves are listed (at least two). ``NN eval`` is the root's network value, which
the first-play value needs; the ``N visits`` line ends the dump and gives the root's visits.

``lz-analyze`` (``OutputAnalysisData::get_info_string``): one line per update, every root move in
it: ``info move D4 visits 12 winrate 4812 prior 1734 lcb 4710 order 0 pv D4 Q16 info move ...``,
winrate, prior and lcb as integers x 10,000, truncated, lcb clamped at 0 (older versions have no
lcb or order); moves with 0 visits only with ``minmoves``. The root's visits are not given: they are
the moves' visits summed plus the root's own first visit.

A file may hold several dumps and updates, and a whole GTP transcript (``=`` responses, commands,
the rest of stderr, which are skipped): each dump and each update is one analysis, in file order.
Leela Zero reports every winrate from the side to move at the root, which is the tree's perspective
for the root's children: no value is converted.
"""

from __future__ import annotations

import math
import re
from dataclasses import replace
from decimal import Decimal

from ...common.input_rules import ParseError
from ...selection.rules import leela_zero_puct as rule
from .engine_analysis import WINRATE, EngineAnalysis, EngineMove, EngineReader, SearchCounter
from .lines import numbered_lines

ENGINE = "Leela Zero"
DUMP_COLUMNS = ("N", "V", "LCB", "P")
ANALYZE_COLUMNS = ("N", "V", "LCB", "P", "order")
SNIFFED_LINES = 200  # how far into a file looks_like searches for a Leela Zero line

DUMP_MOVE = re.compile(r"\s*(\S+) -> +(\S+) \(V: *([^%]*)%\)(?: \(LCB: *([^%]*)%\))? \(N: *([^%]*)%\) PV:(.*)")
DUMP_MOVE_START = re.compile(r"\s*\S+ -> ")
DUMP_END = re.compile(r"(\d+) visits, \d+ nodes")
NN_EVAL = "NN eval="
ANALYZE_START = re.compile(r"info move \S+ visits \d+ winrate \d+ ")
ANALYZE_KEYS = ("visits", "winrate", "prior", "lcb", "order")  # the integer keys, pv last
TEN_THOUSAND = 10_000
WHOLE = re.compile(r"[0-9]+")


def looks_like_leela_zero(text: str) -> bool:
    """Whether one of the first lines is a search dump's move line, an NN eval line or an lz-analyze update."""
    for number, line in numbered_lines(text):
        if number > SNIFFED_LINES:
            return False
        if DUMP_MOVE.fullmatch(line) or line.startswith(NN_EVAL) or ANALYZE_START.match(line):
            return True
    return False


def read_leela_zero(text: str) -> tuple[EngineAnalysis, ...]:
    """Every search dump and lz-analyze update in ``text``, in file order (module docstring).

    Raises:
        ParseError: a move line, NN eval or update that does not read (naming the line and key), a
            line of another engine (JSON, a UCI ``info`` line), a dump cut before its visits line, or
            a file with no analysis.
    """
    analyses: list[EngineAnalysis] = []
    root_eval: float | None = None  # the latest NN eval: the root's network value
    dump: list[EngineMove] = []
    dump_line = 0
    searches = SearchCounter()  # each dump is a search of its own; an lz-analyze's updates are one
    for number, raw in numbered_lines(text):
        line = raw.strip()
        if line and not line.startswith("info"):
            searches.boundary()
        if line.startswith(NN_EVAL):
            root_eval = _number(line[len(NN_EVAL):], number, "NN eval", 1.0)
            dump_line = number
        elif DUMP_MOVE_START.match(line):
            if not dump and dump_line == 0:
                dump_line = number
            dump.append(_dump_move(line, number, dump))
        elif (end := DUMP_END.match(line)) is not None:
            if dump:
                analyses.append(replace(_dump_analysis(dump, int(end.group(1)), root_eval, dump_line, number),
                                        search=searches.update()))
            dump, dump_line = [], 0
        elif line.startswith("info"):
            analyses.append(replace(_analyze_update(line, number, root_eval), search=searches.update()))
        elif line.startswith("{"):
            raise ParseError(number, "a JSON line (another engine's analysis?) in a Leela Zero file")
    if dump:
        raise ParseError(dump_line, "this search dump has no `N visits` line after its moves: the file is cut")
    if not analyses:
        raise ParseError(1, "no Leela Zero search dump or lz-analyze update in the file")
    return tuple(analyses)


def _number(text: str, line: int, key: str, high: float) -> float:
    """``text`` as a finite number from 0 to ``high``, else a ParseError naming ``key``."""
    try:
        value = float(text)
    except ValueError:
        raise ParseError(line, f"{key} must be a number, got {text.strip()!r}") from None
    if not math.isfinite(value) or not 0 <= value <= high:
        raise ParseError(line, f"{key} must be a number from 0 to {high:g}, got {text.strip()!r}")
    return value


def _share(percent: str) -> float:
    """A percentage (already read by :func:`_number`) as a share, the double nearest the printed
    decimal over 100 (``0.90`` -> 0.009, where 0.90 / 100 is 0.009000000000000001)."""
    return float(Decimal(percent.strip()).scaleb(-2))


def _whole(text: str) -> bool:
    """Whether ``text`` is a whole number >= 0 in ASCII digits."""
    return WHOLE.fullmatch(text) is not None


def _visits(text: str, line: int) -> int:
    """``text`` as a visit count, else a ParseError."""
    if not _whole(text):
        raise ParseError(line, f"visits must be a whole number >= 0, got {text!r}")
    return int(text)


def _pv(move: str, pv: list[str]) -> tuple[str, ...]:
    """The moves after ``move`` in a PV that Leela Zero prints starting with it."""
    return tuple(pv[1:] if pv[:1] == [move] else pv)


def _dump_move(line: str, number: int, earlier: list[EngineMove]) -> EngineMove:
    """One move line of a search dump."""
    match = DUMP_MOVE.fullmatch(line)
    if match is None:
        raise ParseError(number, "a search dump's move line must read `MOVE -> VISITS (V: x%) (LCB: x%) (N: x%) PV: ...`")
    move, visits_text, v_text, lcb_text, p_text, pv = match.groups()
    visits = _visits(visits_text, number)
    winrate = _number(v_text, number, "V", 100.0)
    prior = _number(p_text, number, "N (the prior)", 100.0)
    columns = {"N": visits, "V": winrate}
    if lcb_text is not None:
        columns["LCB"] = _number(lcb_text, number, "LCB", 100.0)
    columns["P"] = prior
    if any(other.move == move for other in earlier):
        raise ParseError(number, f"move {move} is listed twice in one search dump")
    value = _share(v_text) if visits else None
    return EngineMove(move, visits, value, _share(p_text), columns, _pv(move, pv.split()))


def _dump_analysis(moves: list[EngineMove], root_visits: int, root_eval: float | None, line: int,
                   end_line: int) -> EngineAnalysis:
    """One search dump's analysis."""
    children_visits = sum(move.visits for move in moves)
    if root_visits < children_visits:
        raise ParseError(end_line, f"the root's {root_visits} visits are fewer than its moves' {children_visits}")
    return _analysis("search", moves, root_visits, root_eval, DUMP_COLUMNS, line)


def _analyze_update(line: str, number: int, root_eval: float | None) -> EngineAnalysis:
    """One lz-analyze update: every ``info move`` record of the line."""
    if not line.startswith("info move "):
        raise ParseError(number, "an `info` line that is not lz-analyze's `info move ...` (another engine's?)")
    moves: list[EngineMove] = []
    for record in line.split("info move ")[1:]:
        moves.append(_analyze_move(record.split(), number, moves))
    return _analysis("lz-analyze", moves, sum(move.visits for move in moves) + 1, root_eval, ANALYZE_COLUMNS, number)


def _analyze_move(tokens: list[str], number: int, earlier: list[EngineMove]) -> EngineMove:
    """One ``info move`` record's tokens (after ``info move``): the move, integer key-value pairs, ``pv`` moves."""
    if not tokens:
        raise ParseError(number, "an `info move` record without its move")
    move, values, at = tokens[0], {}, 1
    while at < len(tokens) and tokens[at] != "pv":
        key = tokens[at]
        if key not in ANALYZE_KEYS:
            raise ParseError(number, f"move {move}: {key!r} is not an lz-analyze key ({', '.join(ANALYZE_KEYS)}, pv)")
        if at + 1 == len(tokens) or not _whole(tokens[at + 1]):
            got = tokens[at + 1] if at + 1 < len(tokens) else "nothing: the line is cut"
            raise ParseError(number, f"move {move}: {key} must be a whole number >= 0, got {got}")
        values[key] = int(tokens[at + 1])
        at += 2
    if at == len(tokens):
        raise ParseError(number, f"move {move}: no `pv` (the line is cut?)")
    for key in ("visits", "winrate", "prior"):
        if key not in values:
            raise ParseError(number, f"move {move}: no {key}")
    for key in ("winrate", "prior", "lcb"):
        if values.get(key, 0) > TEN_THOUSAND:
            raise ParseError(number, f"move {move}: {key} must be from 0 to 10000 (x 10,000), got {values[key]}")
    if any(other.move == move for other in earlier):
        raise ParseError(number, f"move {move} is listed twice in one update")
    visits = values["visits"]
    columns = {"N": visits, "V": values["winrate"] / 100}
    if "lcb" in values:
        columns["LCB"] = values["lcb"] / 100
    columns["P"] = values["prior"] / 100
    if "order" in values:
        columns["order"] = values["order"]
    value = values["winrate"] / TEN_THOUSAND if visits else None
    return EngineMove(move, visits, value, values["prior"] / TEN_THOUSAND, columns, _pv(move, tokens[at + 1:]))


def _root_value(moves: list[EngineMove], root_visits: int, root_eval: float | None) -> float | None:
    """The root's mean: its network value (its own first visit) and its children's values weighted by
    their visits when the visits add up, else its children's weighted mean (None: none visited)."""
    visits = sum(move.visits for move in moves)
    weighted = sum(move.visits * move.value for move in moves if move.visits)
    if root_eval is not None and root_visits == visits + 1:
        return (root_eval + weighted) / root_visits
    return weighted / visits if visits else root_eval


def _analysis(kind: str, moves: list[EngineMove], root_visits: int, root_eval: float | None,
              columns: tuple[str, ...], line: int) -> EngineAnalysis:
    """An analysis of Leela Zero's: its title, its rule and the root's network value for the first-play value."""
    root_value = _root_value(moves, root_visits, root_eval)
    title = f"Leela Zero {kind}, {root_visits:,} visits; winrates for the side to move"
    settings = {} if root_eval is None else {"root_value": root_eval}
    # Release builds fix cfg_puct at its default (only a tuner build sets it): every file states it.
    return EngineAnalysis(ENGINE, title, rule.RULE.key, settings, rule.PUCT, root_visits, root_value, tuple(moves),
                          columns, WINRATE, line)


READER = EngineReader("Leela Zero search dump or lz-analyze stream", looks_like_leela_zero, read_leela_zero)
