"""lc0's verbose move stats (``--verbose-move-stats``), as UCI ``info string`` lines or in its log.

One line per root move, then (lc0 v0.26 and later) a ``node`` line with the root's own numbers::

    info string d2d4  (293 ) N:     120 (+ 1) (P: 13.20%) (WL: -0.01034) (D: 0.312) (M: 80.1)
        (Q: -0.01034) (U: 0.21378) (S: 0.20344) (V: -0.0191)
    info string node  (  20) N:     121 (+ 0) (P: 99.12%) (WL: ...) (D: ...) (M: ...) (Q: ...) (V: ...)

Older builds print ``(Q+U: ...)`` for ``(S: ...)`` and no WL, M or node line; ``(T)``, ``(W)`` and
``(L)`` mark proven moves (read past: the S lc0 prints does not use them). A block (one ``go``, or
one dump in the log) is a run of such lines: a ``node`` line or any other non-blank line ends it;
each block is one analysis, in file order. UCI ``info ... pv`` lines before a block give the PVs of
their first moves (``multipv`` lines one per move). Perspective: lc0 prints every move's WL, Q and V for the player who makes it (the player to
move at the root), and since v0.26 the ``node`` line's too (its sign flipped to match), so the
values are the tree's as printed. The root's visits are the ``node`` line's N, else the
children's visits plus one (lc0 counts the root's own evaluation in N; an ``info ... nodes`` count
can lag the dump). The file's lc0 version (its banner, ``|_| v0.27.0 built Feb 2 2021``) picks that
version's constants, and ``--cpuct=`` flags or ``setoption name CPuct value`` lines override them.
"""

from __future__ import annotations

import math
import re
from dataclasses import replace
from datetime import date, datetime

from ...common.input_rules import ParseError
from ...selection.rules.lc0_puct import RULE
from .engine_analysis import SIGNED, EngineAnalysis, EngineMove, EngineReader, SearchCounter
from .lines import numbered_lines

ENGINE = "lc0"
STATS = re.compile(
    r"(?:^|info string |\]\s)(?P<move>[a-h][1-8][a-h][1-8][qrbn]?|node|[A-Za-z0-9@-]+)\s+"
    r"\(\s*(?P<index>-?\d+)\s*\)\s+N:\s*(?P<n>-?\d+)\s+\(\+\s*(?P<flight>-?\d+)\)(?P<rest>.*)$"
)
FIELD = re.compile(r"\((?P<key>[A-Za-z+]+):\s*(?P<value>[^()]*?)\s*\)")
BANNER = re.compile(r"\|_\| v0\.(?P<minor>\d+)\.\d+\S*(?: built (?P<built>[A-Z][a-z]{2} +\d{1,2} \d{4}))?")
FLAG = re.compile(r"--(?P<name>cpuct|cpuct-base|cpuct-factor|fpu-value|fpu-strategy)=(?P<value>\S+)")
SETOPTION = re.compile(r"setoption name (?P<name>CPuct|CPuctBase|CPuctFactor|FpuValue|FpuStrategy) value (?P<value>\S+)")
# Another engine's analysis line: a JSON object (KataGo), a GTP analysis update, a Leela Zero dump line.
# A UCI command that starts another search (``go``; ``position`` and ``ucinewgame`` a new position), as
# typed or as a log echoes it (``<< go nodes 400``, ``...] << go``).
NEW_SEARCH = re.compile(r"^(?:.*\]\s*)?(?:<<\s*)?(?:go|position|ucinewgame)(?:\s|$)")
FOREIGN = re.compile(r"^\s*(?:\{|info move |=?\s*\S+ ->\s+\d+ \(V:)")

# The UCI option each constant is, and the rule setting it feeds ("c" is CPuct).
OPTIONS = {"cpuct": "c", "cpuct-base": "cpuct_base", "cpuct-factor": "cpuct_factor",
           "fpu-value": "fpu_value", "fpu-strategy": "fpu_strategy", "CPuct": "c", "CPuctBase": "cpuct_base",
           "CPuctFactor": "cpuct_factor", "FpuValue": "fpu_value", "FpuStrategy": "fpu_strategy"}
# lc0's defaults by era (src/mcts/params.cc): (first build date, first minor version, constants).
# c(N) grows with N from v0.21 on; lc0 #1088 (2020-02-23) and #1475 (2021-02-06) retuned them.
ERAS = (
    (date(2021, 2, 6), 27, {"c": 1.745, "cpuct_base": 38739.0, "cpuct_factor": 3.894, "fpu_value": 0.330}),
    (date(2020, 2, 23), 24, {"c": 2.147, "cpuct_base": 18368.0, "cpuct_factor": 2.815, "fpu_value": 0.443}),
    (date(2019, 1, 1), 21, {"c": 3.0, "cpuct_base": 19652.0, "cpuct_factor": 2.0, "fpu_value": 1.2}),
)
COLUMNS = ("N", "+", "P", "WL", "D", "M", "Q", "U", "S", "Q+U", "V")
CHILD_KEYS = ("P", "Q", "U")  # besides S or Q+U, what every move line has


def looks_like(text: str) -> bool:
    """Whether ``text`` holds a verbose move stats line (in its first megabyte)."""
    return any(STATS.search(line) and "(P:" in line for line in text[: 1 << 20].splitlines())


def version_settings(minor: int, built: str | None) -> dict:
    """The constants of the lc0 build a banner names: by its build date where given (a -dev build
    has its month's constants), else by its version; none before v0.21."""
    when = datetime.strptime(" ".join(built.split()), "%b %d %Y").date() if built else None
    for first_day, first_minor, constants in ERAS:
        if (when >= first_day) if when else (minor >= first_minor):
            return dict(constants)
    return {}


def number(line: int, key: str, text: str, low: float, high: float) -> float | None:
    """The number a field holds (None for lc0's ``-.----``), refused outside [low, high] or not finite."""
    if set(text) <= set("-."):
        return None
    try:
        value = float(text.rstrip("%"))
    except ValueError:
        raise ParseError(line, f"lc0's {key} must be a number, got {text!r}") from None
    if not math.isfinite(value) or not low <= value <= high:
        raise ParseError(line, f"lc0's {key} must be a number from {low:g} to {high:g}, got {text!r}")
    return value


RANGES = {"P": (0.0, 100.0), "WL": (-1.0, 1.0), "D": (0.0, 1.0), "M": (0.0, 1e4), "Q": (-1.0, 1.0),
          "V": (-1.0, 1.0), "U": (0.0, math.inf), "S": (-math.inf, math.inf), "Q+U": (-math.inf, math.inf)}


def stats_line(line: int, match: re.Match) -> tuple[str, dict[str, float | None]]:
    """One verbose stats line: its move and its numbers by lc0's names (N and ``+`` too)."""
    rest = match["rest"]
    if rest.count("(") != rest.count(")") or not rest.rstrip().endswith(")"):
        raise ParseError(line, "this lc0 move stats line is cut (a field has no closing parenthesis)")
    visits, flight = int(match["n"]), int(match["flight"])
    if visits < 0 or flight < 0:
        raise ParseError(line, f"lc0's N and (+...) must be visits >= 0, got {visits} and {flight}")
    fields: dict[str, float | None] = {"N": float(visits), "+": float(flight)}
    for field in FIELD.finditer(rest):
        key = field["key"]
        low, high = RANGES.get(key, (-math.inf, math.inf))
        fields[key] = number(line, key, field["value"], low, high)
    if match["move"] != "node":
        missing = [key for key in CHILD_KEYS if key not in fields] + (
            [] if "S" in fields or "Q+U" in fields else ["S"])
        if missing:
            raise ParseError(line, f"this lc0 move stats line has no {', '.join(missing)}")
    return match["move"], fields


def pv_of(tokens: list[str]) -> tuple[str, ...]:
    """The moves after ``pv`` in a UCI info line's tokens (none when it has no pv)."""
    return tuple(tokens[tokens.index("pv") + 1:]) if "pv" in tokens else ()


def analysis_of(first_line: int, rows: list[tuple[str, dict]], node: dict | None,
                pvs: dict[str, tuple[str, ...]], settings: dict) -> EngineAnalysis:
    """One block's analysis (module docstring)."""
    moves, printed = [], set()
    for move, fields in rows:
        printed.update(key for key, value in fields.items() if value is not None)
        visits = int(fields["N"])
        pv = pvs.get(move, ())[1:]
        moves.append(EngineMove(move, visits, fields["Q"] if visits else None,
                                None if fields["P"] is None else fields["P"] / 100.0,
                                {key: value for key, value in fields.items() if value is not None}, pv))
    children = sum(move.visits for move in moves)
    root_visits = int(node["N"]) if node else children + 1
    root_value = node.get("Q") if node else None
    file_settings = {key: value for key, value in settings.items() if key != "c"}
    flights = {move.move: move.columns["+"] for move in moves if move.columns.get("+")}
    if flights:
        file_settings["in_flight"] = flights
    if root_value is not None:
        file_settings["root_value"] = root_value
    if "+" in printed and not flights:
        printed.discard("+")
    title = f"lc0 verbose move stats, {root_visits:,} visits; Q for the side to move"
    return EngineAnalysis(ENGINE, title, RULE.key, file_settings, settings.get("c"), root_visits, root_value,
                          tuple(moves), tuple(key for key in COLUMNS if key in printed), SIGNED, first_line)


def read(text: str) -> tuple[EngineAnalysis, ...]:
    """Every block of verbose move stats in ``text``, in file order (module docstring)."""
    analyses: list[EngineAnalysis] = []
    rows: list[tuple[str, dict]] = []
    pvs: dict[str, tuple[str, ...]] = {}
    version: dict = {}  # the constants of the build the banner names
    options: dict = {}  # the constants the command line or setoption set: over the version's
    first = 0
    searches = SearchCounter()  # the blocks between two `go`s are one search

    def close(node: dict | None = None) -> None:
        nonlocal rows, pvs
        if rows:  # a block uses the PVs printed before it
            analyses.append(replace(analysis_of(first, rows, node, pvs, {**version, **options}),
                                    search=searches.update()))
            rows, pvs = [], {}

    for line, content in numbered_lines(text):
        match = STATS.search(content)
        if match is None or "(P:" not in content:
            if FOREIGN.match(content):
                raise ParseError(line, "this is not lc0's output: another engine's line in an lc0 log")
            if content.strip():
                close()
            if NEW_SEARCH.match(content.strip()):
                searches.boundary()
            tokens = content.split()
            if "info" in tokens and "string" not in tokens:
                pv = pv_of(tokens)
                if pv:
                    pvs[pv[0]] = pv
            for banner in BANNER.finditer(content):
                version = version_settings(int(banner["minor"]), banner["built"])
            for option in (*FLAG.finditer(content), *SETOPTION.finditer(content)):
                name, value = OPTIONS[option["name"]], option["value"]
                value = value if name == "fpu_strategy" else number(line, option["name"], value, -math.inf, math.inf)
                problem = RULE.c_problem(value) if name == "c" else RULE.settings_problem({name: value})
                if problem is not None:
                    raise ParseError(line, f"lc0's {option['name']}: {problem}")
                options[name] = value
            continue
        move, fields = stats_line(line, match)
        if move == "node":
            if not rows:
                raise ParseError(line, "lc0's node line comes after its moves' lines, and here there are none")
            close(fields)
            continue
        if not rows:
            first = line
        if any(move == seen for seen, _ in rows):
            raise ParseError(line, f"the move {move} is listed twice in one block of lc0's move stats")
        rows.append((move, fields))
    close()
    if not analyses:
        raise ParseError(1, "no lc0 verbose move stats line (`info string e2e4 (322 ) N: ...`) in this text")
    return tuple(analyses)


READER = EngineReader("lc0 verbose move stats", looks_like, read)
