"""The view in the URL: reload keeps it, the back button steps back, a copied link opens it elsewhere.

The page is the URL's path; the query holds the rest: ``input`` (the input's id in the store, a
content hash), ``c``, ``rule`` and ``settings`` (JSON of the rule's settings besides C), ``node``
(the inspected node's moves as JSON) and the Explorer's drawing limits ``budget``, ``depth``,
``topk``, ``unvisited``, ``colour``; a bundle adds ``page``. Every page publishes its view at the
end of its run (:func:`publish`); a changed query is a new browser history entry. A session's
first run (:func:`read_link`) and the back and forward buttons (:func:`listen`) open the query's
view: each value is checked, and the modules that own the settings take theirs (:func:`take`). A
bad value is refused with a message, never a traceback.
"""

from __future__ import annotations

import json
import math
from typing import Any
from pathlib import Path
from urllib.parse import parse_qs, urlencode

import streamlit as st

from mcts_core import RULES, Scoring, is_valid_c, parse_number
from mcts_core.inputs import is_input_id
from mcts_core.drawing import COLOURINGS
from mcts_core.selection import settings_problem
from ui import state
from ui.drawing import LIMIT_RANGES
from ui.navigation import PAGES

# Session-state keys this module owns.
URL_WRITTEN = state.key("_url_written")
HISTORY_MOVE = state.key("_history_move")  # the back/forward listener's event
LINK_REQUEST = state.key("_link_request")
LINK_PROBLEMS = state.key("_link_problems")

LIMIT_KEYS = ("budget", "depth", "topk", "unvisited", "colour")  # the Explorer's drawing limits
PAGE_PATHS = tuple(page.url_path for page in PAGES)
_history = st.components.v2.component(
    "mcts_history", js=(Path(__file__).resolve().parent / "assets" / "history.js").read_text(encoding="utf-8")
)
MAX_VALUE_LENGTH = 20_000  # a query value longer than this is not one we wrote


class _Refused(ValueError):
    """A link value that is left out; the message says why."""


def _one_of(choices, what: str):
    """A check that accepts a value among ``choices`` as it is."""

    def check(text: str) -> str:
        if text not in choices:
            raise _Refused(f"no {what} is called {text[:40]!r}")
        return text

    return check


def _input_id(text: str) -> str:
    if not is_input_id(text):
        raise _Refused("it is not an input id")
    return text


def _c(text: str) -> float:
    c = parse_number(text)
    if c is None or not is_valid_c(c):
        raise _Refused(f"C must be a finite number >= 0, got {text[:40]!r}")
    return c


def _node(text: str) -> tuple[str, ...]:
    moves = _json(text)
    if not (isinstance(moves, list) and all(isinstance(move, str) and move for move in moves)):
        raise _Refused("it must be a JSON list of moves")
    return tuple(moves)


def _limit(name: str):
    """A check of a drawing limit: a whole number in its range."""

    def check(text: str) -> int:
        number = parse_number(text)
        low, high = LIMIT_RANGES[name]
        if number is None or not math.isfinite(number) or number != int(number) or not low <= number <= high:
            raise _Refused(f"it must be a whole number from {low} to {high}")
        return int(number)

    return check


def _unvisited(text: str) -> bool:
    if text not in ("0", "1"):
        raise _Refused("it must be 0 or 1")
    return text == "1"


def _colour(text: str) -> str:
    if text not in COLOURINGS:
        raise _Refused(f"it must be one of {', '.join(COLOURINGS)}")
    return text


# Each link value's check: its value from the query's text, or _Refused saying why not.
_CHECKS = {
    "page": _one_of(PAGE_PATHS, "page"),  # only bundles say it: a link's page is its path
    "input": _input_id,
    "c": _c,
    "rule": _one_of(RULES, "rule"),
    "node": _node,
    "budget": _limit("budget"),
    "depth": _limit("depth"),
    "topk": _limit("topk"),
    "unvisited": _unvisited,
    "colour": _colour,
}


def _settings(text: str, rule: str | None) -> dict:
    settings = _json(text)
    problem = (
        "it must be a JSON object" if not isinstance(settings, dict)
        else "it needs the rule it belongs to" if rule is None
        else settings_problem(rule, settings)
    )
    if problem is not None:
        raise _Refused(problem)
    return settings


def _short(text: str) -> str:
    if len(text) > MAX_VALUE_LENGTH:
        raise _Refused("it is far too long")
    return text


def parse_link(params: dict[str, str]) -> tuple[dict[str, Any], list[str]]:
    """The view a link's query asks for, checked: (values by name, problems as sentences).

    Unknown names are ignored (other tools add their own); a bad value is left out and reported.
    """
    values: dict[str, Any] = {}
    problems: list[str] = []
    for name, check in _CHECKS.items():
        text = params.get(name)
        if text is None:
            continue
        try:
            values[name] = check(_short(text))
        except _Refused as why:
            problems.append(f"The link's {name} was ignored: {why}.")
    if "settings" in params:  # last: they are checked against the rule
        try:
            values["settings"] = _settings(_short(params["settings"]), values.get("rule"))
        except _Refused as why:
            problems.append(f"The link's settings was ignored: {why}.")
    return values, problems


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return None


def read_link() -> None:
    """At a session's first run (a reload, a copied link): open the view the URL's query names.

    Later runs do not read the query: a rerun can carry a query older than the one last written,
    and would undo the newest change. The back and forward buttons come through :func:`listen`.
    """
    if URL_WRITTEN in st.session_state:
        return
    st.session_state[URL_WRITTEN] = params = st.query_params.to_dict()
    if params:
        open_view(params)


def listen() -> None:
    """Mount the listener for the back and forward buttons (draws nothing)."""
    _history(key=HISTORY_MOVE, default={"moved": None}, on_moved_change=_moved, height=0)


def _moved() -> None:
    """The back or forward button went to another entry: open its view (an empty query asks nothing)."""
    moved = (st.session_state.get(HISTORY_MOVE) or {}).get("moved")
    query = moved.get("query") if isinstance(moved, dict) else None
    if isinstance(query, str):
        params = {name: values[-1] for name, values in parse_qs(query.lstrip("?")).items()}
        st.session_state[URL_WRITTEN] = params
        if params:
            open_view(params)


def open_view(params: dict[str, str]) -> None:
    """Ask for the view a link's query describes: the owners of the settings take them this run."""
    values, problems = parse_link(params)
    st.session_state[LINK_REQUEST] = values
    st.session_state[LINK_PROBLEMS] = problems


def take(name: str) -> Any:
    """The value the last link asked for ``name`` (then forgotten), None when it asked nothing."""
    request = st.session_state.get(LINK_REQUEST)
    return request.pop(name, None) if request else None


def problem(text: str) -> None:
    """Report a problem with the link that only a consumer can see (an input the store lacks)."""
    st.session_state.setdefault(LINK_PROBLEMS, []).append(text)


def show_problems() -> None:
    """Say, once, what the last link asked for that could not be done."""
    for text in st.session_state.pop(LINK_PROBLEMS, []):
        st.warning(text, icon="🔗")


def view_params(input_id: str | None, scoring: Scoring, **extra: Any) -> dict[str, str]:
    """The query of a view: the input, C, the rule and its settings, and page-specific values."""
    params: dict[str, str] = {}
    if input_id is not None:
        params["input"] = input_id
    params["c"] = repr(scoring.c)
    params["rule"] = scoring.rule
    settings = {
        name: dict(value) if hasattr(value, "items") else value
        for name, value in scoring.settings.items()
        if value is not None and value != scoring.spec.defaults.get(name)
    }
    if settings:
        params["settings"] = json.dumps(settings, separators=(",", ":"), sort_keys=True)
    for name, value in extra.items():
        if value is None:
            continue
        if name == "node":
            params[name] = json.dumps(list(value), separators=(",", ":"))
        elif isinstance(value, bool):
            params[name] = "1" if value else "0"
        else:
            params[name] = str(value)
    return params


def publish(params: dict[str, str]) -> None:
    """At the end of a run: put the view in the URL (a new history entry when it changed)."""
    if params != st.query_params.to_dict():
        st.query_params.from_dict(params)
    st.session_state[URL_WRITTEN] = params


def link(page: str, params: dict[str, str]) -> str:
    """The full URL of a page (its URL path) with a view's query, for "Copy link".

    Relative (``/sweep?c=1``) when the app's URL is unknown (no browser).
    """
    base = (st.context.url or "").rstrip("/")
    return f"{base}/{page}?{urlencode(params)}"
