"""KataGo's analysis, read: the analysis engine's JSON responses and ``kata-analyze``'s GTP stream.

Formats (KataGo's docs/Analysis_Engine.md and docs/GTP_Extensions.md):

- The analysis engine writes one JSON object per line: a response has ``moveInfos`` (each searched
  move's ``move``, ``visits``, ``edgeVisits``, ``winrate``, ``scoreLead``, ``utility``, ``prior``,
  ``lcb``, ``order``, ``pv``, ``pvVisits``/``pvEdgeVisits``...), ``rootInfo`` (``visits``,
  ``utility``, ``winrate``, ``currentPlayer``...), ``turnNumber``, ``isDuringSearch``, and with
  ``includePolicy`` the network's ``policy`` (one prior per point, row by row from the top left, then
  pass; -1 where illegal). Lines with ``error``, ``warning`` or ``noResults``, and the echoes of
  actions, carry no analysis and are passed over; a query line (``moves``, no ``moveInfos``) gives
  the rule's settings its ``overrideSettings`` name (cpuct, FPU reductions) to the responses with
  its ``id`` that follow it. Every response is one analysis, in file order, so the reports made during
  a search come before their final one.
- ``kata-analyze`` writes one update per line: ``info move D4 visits 12 utility -0.04 winrate 0.48
  ... order 0 pv D4 Q16 ...`` for each move, then optionally ``rootInfo visits ...``, ``ownership
  ...``: key-value pairs in no fixed order, ``pv``/``pvVisits``/``pvEdgeVisits`` followed by several
  values, new keys allowed. A whole GTP transcript is accepted (``=`` and ``?`` lines, commands, blank
  lines, ``play`` lines); every update line is one analysis.

Perspective. KataGo reports values for the side its config's ``reportAnalysisWinratesAs`` names;
the files do not say which. The analysis engine is read as Black's (the value of its example config,
``cpp/configs/analysis_example.cfg``, and of the configs tools ship); ``kata-analyze`` as the side to
move's (``gtp.cpp``'s default). Each child's tree value is its ``utility`` for the player to move at
the root (who makes the move), converted here once; the columns keep KataGo's own numbers as the file
shows them (the title says for whom). Moves the policy names that were not searched are declared
children with no visits, after the searched ones, by policy (KataGo tries the highest one first).
A move marked ``isSymmetryOf`` (its numbers copied from a symmetric move: ``rootSymmetryPruning``)
was not searched and is never selected: it is left out. A child's visits are its ``edgeVisits``
(what selection counts) where the file gives them.
"""

from __future__ import annotations

import math
import re
from sys import intern
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from ...common.input_rules import ParseError
from ...common.json_input import key_text, load_json, shown
from ...selection.rules.katago_puct import RULE
from .engine_analysis import SIGNED, EngineAnalysis, EngineMove, EngineReader, SearchCounter
from .lines import numbered_lines

ENGINE = "KataGo"
COLUMNS = ("N", "P", "winrate", "scoreLead", "utility", "LCB", "order")
BLACK, WHITE, SIDE_TO_MOVE = "Black", "White", "the side to move"

# A query's overrideSettings that the ``katago`` rule has, by KataGo's names: the rule's settings.
QUERY_SETTINGS = {
    "cpuctExploration": "c",
    "cpuctExplorationLog": "cpuct_log",
    "cpuctExplorationBase": "cpuct_base",
    "rootFpuReductionMax": "fpu_reduction_max",
}

LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"  # GTP's columns: no I
HEAD = 1 << 16  # characters looked at to tell a format


def looks_like_json(text: str) -> bool:
    """Whether ``text`` is analysis-engine output: JSON lines, a response among the first ones."""
    return text.lstrip()[:1] == "{" and ('"moveInfos"' in text[:HEAD] or '"isDuringSearch"' in text[:HEAD])


def looks_like_stream(text: str) -> bool:
    """Whether ``text`` is a ``kata-analyze`` stream: an ``info move`` update with KataGo's keys
    (``utility`` or ``scoreLead``, which Leela Zero's ``lz-analyze`` lacks)."""
    head = text[:HEAD]
    start = head.find("info move ")
    if start < 0 or text.lstrip()[:1] == "{":
        return False
    update = head[start:head.find("\n", start) if "\n" in head[start:] else len(head)]
    return " utility " in update or " scoreLead " in update or " scoreMean " in update


def read_json(text: str) -> tuple[EngineAnalysis, ...]:
    """Every response of an analysis-engine output, in file order (module docstring).

    Raises:
        ParseError: a line that is not a JSON object, a field of the wrong kind or out of range,
            naming the line and key; or no response with an analysis at all.
    """
    responses: list[tuple[int, dict, dict[str, float]]] = []
    settings_by_id: dict[str, dict[str, float]] = {}
    errors: list[str] = []
    for number, line in numbered_lines(text):
        if not line.strip():
            continue
        record = load_json(line, line=number)
        if not isinstance(record, dict):
            raise ParseError(number, f"a KataGo analysis line is a JSON object, got {shown(record)}")
        if "moveInfos" in record:
            responses.append((number, record, settings_by_id.get(str(record.get("id")), {})))
        elif "error" in record:
            errors.append(str(record["error"]))
        elif "moves" in record and "id" in record:
            settings_by_id[str(record["id"])] = _query_settings(record, number)
        elif not ({"warning", "noResults", "action"} & record.keys()):
            raise ParseError(number, "not a line of KataGo's analysis engine: it has no moveInfos, "
                             "error, warning, noResults or action")
    if not responses:
        said = f": KataGo answered {shown(errors[0])}" if errors else ""
        raise ParseError(1, f"no KataGo analysis in the input (no line with moveInfos){said}")
    several_ids = len({str(record.get("id")) for _, record, _ in responses}) > 1
    searches = _search_numbers([record for _, record, _ in responses])
    return tuple(replace(_analysis(record, number, BLACK, title_id=several_ids, query_settings=settings), search=search)
                 for (number, record, settings), search in zip(responses, searches))


def _search_numbers(records: list[dict]) -> list[int]:
    """Each response's search: one per query id and turn, its reports during the search and its final
    response; the same id and turn after a final response is another search."""
    numbers: list[int] = []
    under_way: dict[tuple[str, str], int] = {}
    searches = 0
    for record in records:
        key = (str(record.get("id")), str(record.get("turnNumber")))
        if key not in under_way:
            under_way[key], searches = searches, searches + 1
        numbers.append(under_way[key])
        if record.get("isDuringSearch") is not True:
            del under_way[key]
    return numbers


def read_stream(text: str) -> tuple[EngineAnalysis, ...]:
    """Every update of a ``kata-analyze`` stream or GTP transcript, in file order (module docstring).

    Raises:
        ParseError: a line of another format in the stream, an update missing a move's visits,
            utility or winrate, a number that is not finite or out of range, naming the line and key.
    """
    analyses = []
    searches = SearchCounter()
    for number, line in numbered_lines(text):
        stripped = line.strip()
        if GTP_ANSWER.match(stripped):  # a command's answer: its updates are another search
            searches.boundary()
        stripped = GTP_ANSWER.sub("", stripped)  # a response's first line may carry the first update
        if stripped.startswith("info"):
            record = _stream_record(stripped, number)
            analyses.append(replace(_analysis(record, number, SIDE_TO_MOVE, update=len(analyses) + 1),
                                    search=searches.update()))
            continue
        if stripped:
            searches.boundary()
        if stripped[:1] == "{":
            raise ParseError(number, "a JSON line in a kata-analyze stream: one file holds one format")
        elif stripped and not stripped.startswith("?") and not GTP_LINE.match(stripped):
            raise ParseError(number, f"not a line of a kata-analyze stream or GTP transcript: {shown(stripped[:40])}")
    if not analyses:
        raise ParseError(1, "no kata-analyze update in the input (no line starting with info move)")
    return tuple(analyses)


JSON_READER = EngineReader("KataGo analysis JSON", looks_like_json, read_json)
STREAM_READER = EngineReader("KataGo kata-analyze", looks_like_stream, read_stream)

GTP_LINE = re.compile(r"(\d+\s+)?[a-z][a-z0-9_-]*(\s|$)|#")  # a command, ``play D4``, a comment
GTP_ANSWER = re.compile(r"\A=\d*\s*")  # what starts a GTP response: ``=``, with its id if any
STREAM_BOARDS = ("ownership", "ownershipStdev")  # parts that are one value per point
STREAM_TOP = ("info", "rootInfo", *STREAM_BOARDS)  # what starts a part of an update
STREAM_KEY = re.compile(r"[a-z][A-Za-z]*\Z")  # a key (a move is upper case, or "pass")


# --- One analysis, from a record in one shape: {"moveInfos": [...], "rootInfo": {...}, ...} ---------


def _analysis(record: dict, line: int, perspective: str, *, title_id: bool = False,
              query_settings: Mapping[str, float] | None = None, update: int | None = None) -> EngineAnalysis:
    """The :class:`EngineAnalysis` of one response or update.

    Args:
        record: its ``moveInfos``, ``rootInfo`` and the rest, as the JSON response has them.
        line: its line.
        perspective: whose values the file reports (:data:`BLACK`, :data:`WHITE`, :data:`SIDE_TO_MOVE`).
        title_id: name its query's id in the title (the file has several).
        query_settings: the rule's settings its query named.
        update: a stream update's number (counted from 1), None for a response.
    """
    infos = record["moveInfos"]
    if not isinstance(infos, list):
        raise ParseError(line, f'"moveInfos" must be a list of moves, got {shown(infos)}')
    root = record.get("rootInfo", {})
    if not isinstance(root, dict):
        raise ParseError(line, f'"rootInfo" must be an object, got {shown(root)}')
    mover = _mover(record, root, line)
    flip = perspective == BLACK and mover == WHITE  # the file's values are Black's, White moves
    moves = [_move(info, line, flip) for info in infos]
    copies = {move.move for info, move in zip(infos, moves) if "isSymmetryOf" in info}
    # A move marked isSymmetryOf was not searched (KataGo copied a symmetric move's numbers and never
    # selects it): it is left out, and so is its policy entry.
    moves = [move for move in moves if move.move not in copies]
    moves.extend(_policy_moves(record, line, {move.move for move in moves} | copies))
    child_visits = sum(move.visits for move in moves)
    if "visits" in root:
        root_visits = _count(root, "visits", line, "rootInfo")
    else:
        root_visits = child_visits + (1 if child_visits else 0)  # the root's own evaluation is a visit
    if "utility" in root:
        root_value = _number(root, "utility", line, "rootInfo")
        root_value = -root_value if flip else root_value
    else:
        root_value = _visits_mean(moves)
    settings: dict[str, Any] = {"root_value": 0.0 if root_value is None else root_value, **(query_settings or {})}
    c = settings.pop("c", RULE.defaults["c"])  # KataGo's cpuctExploration unless the query set it
    title = _title(record, root_visits, perspective, title_id, update)
    return EngineAnalysis(ENGINE, title, RULE.key, settings, c, root_visits, root_value, tuple(moves), COLUMNS,
                          SIGNED, line)


def _mover(record: dict, root: dict, line: int) -> str | None:
    """Who moves at the root: ``rootInfo.currentPlayer``, else by ``turnNumber`` from Black (None:
    not said; a kata-analyze stream's values are already the mover's)."""
    player = root.get("currentPlayer")
    if player is not None:
        if player not in ("B", "W"):
            raise ParseError(line, f'"rootInfo" "currentPlayer" must be "B" or "W", got {shown(player)}')
        return BLACK if player == "B" else WHITE
    turn = record.get("turnNumber")
    if isinstance(turn, int) and not isinstance(turn, bool):
        return BLACK if turn % 2 == 0 else WHITE
    return None


def _move(info: Any, line: int, flip: bool) -> EngineMove:
    """One searched move: its tree value is its utility for its mover (``flip``: the file's is the
    other player's)."""
    if not isinstance(info, dict):
        raise ParseError(line, f"each of moveInfos must be an object, got {shown(info)}")
    name = info.get("move")
    if not isinstance(name, str) or not name:
        raise ParseError(line, f'a move in moveInfos has no "move" name, got {shown(name)}')
    where = f"move {shown(name)}"
    visits = _count(info, "edgeVisits" if "edgeVisits" in info else "visits", line, where)
    utility = _number(info, "utility", line, where)
    winrate = _number(info, "winrate", line, where, low=0.0, high=1.0)
    prior = _optional(info, "prior", line, where, low=0.0, high=1.0)
    order = _optional(info, "order", line, where, low=0.0)
    columns = {"N": visits, "P": None if prior is None else 100.0 * prior, "winrate": 100.0 * winrate,
               "scoreLead": _optional(info, "scoreLead", line, where), "utility": utility,
               "LCB": _percent(_optional(info, "lcb", line, where)), "order": None if order is None else int(order)}
    pv = _names(info.get("pv", []), line, where, "pv")
    pv_visits = None
    key = "pvEdgeVisits" if "pvEdgeVisits" in info else "pvVisits"
    if key in info:
        pv_visits = tuple(_each_count(info[key], line, where, key))[1:]
    return EngineMove(intern(name), visits, -utility if flip else utility, prior,
                      {column: value for column, value in columns.items() if value is not None},
                      tuple(pv[1:] if pv[:1] == [name] else pv), pv_visits)


def _policy_moves(record: dict, line: int, searched: set[str]) -> list[EngineMove]:
    """The moves the network's ``policy`` gives a prior that were not searched, highest first."""
    policy = record.get("policy")
    if policy is None:
        return []
    if not isinstance(policy, list) or not policy:
        raise ParseError(line, f'"policy" must be a list of priors, got {shown(policy)}')
    size = math.isqrt(len(policy) - 1)
    if size * size + 1 != len(policy) or size > len(LETTERS):
        raise ParseError(line, f'"policy" has {len(policy)} priors: a square board of at most '
                         f"{len(LETTERS)}x{len(LETTERS)} has size x size + 1 (the last is pass)")
    unsearched = []
    for index, prior in enumerate(policy):
        if not _is_number(prior) or prior > 1.0:
            raise ParseError(line, f'"policy" holds priors from 0 to 1 (-1: illegal), got {shown(prior)}')
        if prior < 0:
            continue
        name = "pass" if index == size * size else f"{LETTERS[index % size]}{size - index // size}"
        if name not in searched:
            unsearched.append((-prior, index, name, prior))
    unsearched.sort()
    return [EngineMove(name, 0, None, prior, {"N": 0, "P": 100.0 * prior}) for _, _, name, prior in unsearched]


def _visits_mean(moves: list[EngineMove]) -> float | None:
    """The searched moves' values averaged by visits (the root's, when the file gives none)."""
    visits = sum(move.visits for move in moves if move.value is not None)
    if not visits:
        return None
    return sum(move.value * move.visits for move in moves if move.value is not None) / visits


def _title(record: dict, visits: int, perspective: str, title_id: bool, update: int | None) -> str:
    """The line the app shows first: what the analysis is, its move and visits, whose winrates."""
    if update is not None:
        what = f"KataGo kata-analyze, update {update:,}"
    else:
        what = "KataGo analysis"
        if title_id:
            what += f", query {key_text(str(record.get('id')))}"
        turn = record.get("turnNumber")
        if isinstance(turn, int) and not isinstance(turn, bool):
            what += f", move {turn}"
    during = " (during the search)" if record.get("isDuringSearch") is True else ""
    return f"{what}, {visits:,} visits{during}; winrates for {perspective}"


def _query_settings(record: dict, line: int) -> dict[str, float]:
    """The ``katago`` rule's settings a query's ``overrideSettings`` names."""
    override = record.get("overrideSettings", {})
    if not isinstance(override, dict):
        raise ParseError(line, f'"overrideSettings" must be an object, got {shown(override)}')
    found = {}
    for name, setting in QUERY_SETTINGS.items():
        if name in override:
            found[setting] = _number(override, name, line, "overrideSettings", low=0.0)
    return found


# --- kata-analyze updates as records ----------------------------------------------------------------


def _stream_record(update: str, line: int) -> dict:
    """One ``kata-analyze`` update line as a record: ``moveInfos`` and ``rootInfo`` objects."""
    infos, root = [], {}
    for part, fields in _stream_parts(update.split(), line):
        if part == "info":
            infos.append(fields)
        elif part == "rootInfo":
            root = fields
    if not infos:
        raise ParseError(line, "a kata-analyze update with no info move record")
    record: dict[str, Any] = {"moveInfos": infos}
    if root:
        record["rootInfo"] = root
    return record


def _stream_parts(tokens: list[str], line: int) -> Iterator[tuple[str, dict]]:
    """Each part of an update (``info``, ``rootInfo``...) with its fields: a key's values are the
    tokens up to the next key (numbers as numbers, moves as names; one value alone)."""
    part, fields, key, values = None, {}, None, []

    def finished() -> None:
        if key is not None:
            fields[key] = values[0] if len(values) == 1 and key not in ("pv", "pvVisits", "pvEdgeVisits") else values

    for token in tokens:
        if token in STREAM_TOP:
            finished()
            if part is not None:
                yield part, fields
            # ownership's values follow it directly: they are its own field
            part, fields, key, values = token, {}, token if token in STREAM_BOARDS else None, []
        elif part is None:
            raise ParseError(line, f"a kata-analyze update starts with info, got {shown(token)}")
        elif STREAM_KEY.match(token) and token != "pass":
            finished()
            if token in fields:
                raise ParseError(line, f"{part} gives {token} twice")
            key, values = token, []
        elif key is None:
            raise ParseError(line, f"{part}: a value {shown(token)} with no key before it")
        else:
            values.append(token if key in ("move", "pv", "isSymmetryOf") else _stream_value(token, line, key))
    finished()
    if part is not None:
        yield part, fields


def _stream_value(token: str, line: int, key: str) -> float | int | str:
    """A value of an update: a number (an int when written as one), else the word itself (a new
    key's value); a number that is not finite is refused."""
    try:
        return int(token)
    except ValueError:
        pass
    try:
        value = float(token)
    except ValueError:
        return token
    if not math.isfinite(value):
        raise ParseError(line, f"{key} must be a finite number, got {shown(token)}")
    return value


# --- Fields -----------------------------------------------------------------------------------------


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _number(fields: Mapping, key: str, line: int, where: str, low: float | None = None,
            high: float | None = None) -> float:
    """A required finite number of ``fields``, within [low, high] where given."""
    if key not in fields:
        raise ParseError(line, f'{where} has no "{key}"')
    value = fields[key]
    if not _is_number(value):
        raise ParseError(line, f'{where}: "{key}" must be a finite number, got {shown(value)}')
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"from {low:g} to {high:g}" if high is not None else f">= {low:g}"
        raise ParseError(line, f'{where}: "{key}" must be {bounds}, got {shown(value)}')
    return float(value)


def _optional(fields: Mapping, key: str, line: int, where: str, low: float | None = None,
              high: float | None = None) -> float | None:
    """An optional finite number of ``fields`` (None when absent)."""
    return _number(fields, key, line, where, low, high) if key in fields else None


def _percent(value: float | None) -> float | None:
    return None if value is None else 100.0 * value


def _count(fields: Mapping, key: str, line: int, where: str) -> int:
    """A required visit count: a whole number >= 0."""
    if key not in fields:
        raise ParseError(line, f'{where} has no "{key}"')
    return _visit_count(fields[key], line, where, key)


def _visit_count(value: Any, line: int, where: str, key: str) -> int:
    if not _is_number(value) or value != int(value) or value < 0:
        raise ParseError(line, f'{where}: "{key}" must be a whole number >= 0, got {shown(value)}')
    return int(value)


def _each_count(values: Any, line: int, where: str, key: str) -> Iterator[int]:
    if not isinstance(values, list):
        values = [values]
    for value in values:
        yield _visit_count(value, line, where, key)


def _names(values: Any, line: int, where: str, key: str) -> list[str]:
    """A list of move names (a stream's single move comes alone)."""
    if isinstance(values, str):
        values = [values]
    if not isinstance(values, list) or not all(isinstance(value, str) and value for value in values):
        raise ParseError(line, f'{where}: "{key}" must be a list of moves, got {shown(values)}')
    return [intern(value) for value in values]  # one string per point: a long file repeats them
