"""The view in the URL: reload keeps it, the back button steps back, a copied link opens it elsewhere.

The page is the URL's path; the query holds the rest: ``input`` (the input's id in the store, a
content hash), ``c``, ``rule`` and ``settings`` (JSON of the rule's settings besides C), ``node``
(the Explorer's inspected node, the Classroom's node: moves as JSON), the Explorer's drawing limits
``budget``, ``depth``, ``topk``, ``unvisited``, ``colour``, Compare's setting B ``c_b``, ``rule_b``,
``settings_b`` and Playback's ``k`` and ``rule_path``; a bundle adds ``page``. Links are built from
the app's root. Every page publishes its view at the end of its run (:func:`publish`); a changed
query is a new browser history entry. A session's first run and the run Streamlit starts for the back
and forward buttons (:func:`read_link`) open the query's view: each value is checked, and the modules
that own the settings take theirs (:func:`take`). A bad value is refused in a notice that stays until
dismissed (:func:`show_problems`), never a traceback.
"""

from __future__ import annotations

import json
import math
from typing import Any
from urllib.parse import urlencode

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from mcts_core import RULES, Scoring, is_valid_c, parse_number
from mcts_core.common import ParseError, load_json
from mcts_core.inputs import is_input_id
from mcts_core.drawing import COLOURINGS
from mcts_core.selection import settings_problem
from ui.common import state
from ui.common.markdown import escape
from ui.common.navigation import PAGES
from ui.picture.drawn_nodes import LIMIT_RANGES

# Session-state keys this module owns.
URL_WRITTEN = state.key("_url_written")
LINK_REQUEST = state.key("_link_request")
LINK_PROBLEMS = state.key("_link_problems")
LINK_ASKED = state.key("_link_asked")  # what the last link asked for, in words: the notice's first line
LINK_NOTICE_DISMISS = state.key("link_notice_dismiss")

LIMIT_KEYS = ("budget", "depth", "topk", "unvisited", "colour")  # the Explorer's drawing limits
PAGE_PATHS = tuple(page.url_path for page in PAGES)
MAX_VALUE_LENGTH = 20_000  # a query value longer than this is not one we wrote
SHOWN_VALUE_LENGTH = 40  # characters of a link's value the notice quotes
SHOWN_ID_LENGTH = 12  # characters of an input's id (a 64-digit hash) the notice quotes
LARGEST_K = 10**9  # Playback's k: more playouts than any input holds (the page clamps it to its input)


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


def _analysis(text: str) -> int:
    number = parse_number(text)
    if number is None or not math.isfinite(number) or number != int(number) or not 1 <= number <= LARGEST_K:
        raise _Refused("it must be a whole number from 1 (the analysis's place in its file)")
    return int(number)


def _k(text: str) -> int:
    number = parse_number(text)
    if number is None or not math.isfinite(number) or number != int(number) or not 1 <= number <= LARGEST_K:
        raise _Refused("it must be a whole number of playouts from 1")
    return int(number)


def _flag(text: str) -> bool:
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
    "analysis": _analysis,  # which analysis of an engine's file
    "c": _c,
    "rule": _one_of(RULES, "rule"),
    "node": _node,
    "budget": _limit("budget"),
    "depth": _limit("depth"),
    "topk": _limit("topk"),
    "unvisited": _flag,
    "colour": _colour,
    # Page state: Compare's setting B (its settings come last, with the sidebar's), Playback's k and
    # whether it draws the path the rule selects.
    "c_b": _c,
    "rule_b": _one_of(RULES, "rule"),
    "k": _k,
    "rule_path": _flag,
}
# Rule settings, checked against their rule: (the settings' name, the rule's name).
_SETTINGS = (("settings", "rule"), ("settings_b", "rule_b"))


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
    for name, rule in _SETTINGS:  # last: they are checked against their rule
        if name in params:
            try:
                values[name] = _settings(_short(params[name]), values.get(rule))
            except _Refused as why:
                problems.append(f"The link's {name} was ignored: {why}.")
    return values, problems


def asked_for(params: dict[str, str]) -> str:
    """What a link's query asks for, as plain text: each name the app reads with its value, shortened
    (an input's id to its first digits)."""
    names = [*_CHECKS, *(name for name, _rule in _SETTINGS)]
    parts = []
    for name in (name for name in names if name in params):
        value = params[name]
        limit = SHOWN_ID_LENGTH if name == "input" else SHOWN_VALUE_LENGTH
        parts.append(f"{name} = {value[:limit]}{'…' if len(value) > limit else ''}")
    return f"This link asked for {', '.join(parts)}." if parts else "This link asked for nothing the app reads."


def _json(text: str) -> Any:
    """The JSON ``text`` holds, None when it is not JSON (the shared reader: no depth or digits crash)."""
    try:
        return load_json(text)
    except ParseError:
        return None


def read_link() -> None:
    """Open the view the URL's query names, at a session's first run (a reload, a copied link) and at
    the run Streamlit starts for the back or forward button (:func:`_history_move`).

    Other runs do not read the query: a rerun can carry a query older than the one last written,
    and would undo the newest change.
    """
    if URL_WRITTEN in st.session_state and not _history_move():
        return
    st.session_state[URL_WRITTEN] = params = st.query_params.to_dict()
    if params:
        open_view(params)


def _history_move() -> bool:
    """This run is the one Streamlit starts when the back or forward button changes the query.

    Its query is the entry the browser went to, and it is the only run for the move: a view opened
    any later would let this run show the view being left. Streamlit says so only on the run's
    context (1.67).
    """
    ctx = get_script_run_ctx()
    return ctx is not None and ctx.is_history_navigation


def open_view(params: dict[str, str]) -> None:
    """Ask for the view a link's query describes: the owners of the settings take them this run."""
    values, problems = parse_link(params)
    st.session_state[LINK_REQUEST] = values
    st.session_state[LINK_PROBLEMS] = problems
    st.session_state[LINK_ASKED] = asked_for(params)


def take(name: str) -> Any:
    """The value the last link asked for ``name`` (then forgotten), None when it asked nothing."""
    request = st.session_state.get(LINK_REQUEST)
    return request.pop(name, None) if request else None


def problem(text: str) -> None:
    """Report a problem with the link that only a consumer can see (an input the store lacks)."""
    st.session_state.setdefault(LINK_PROBLEMS, []).append(text)


def dismiss_problems() -> None:
    st.session_state.pop(LINK_PROBLEMS, None)


def show_problems() -> None:
    """A notice, kept on every page until dismissed: what the last link asked for, and each part of
    it that could not be done."""
    problems = st.session_state.get(LINK_PROBLEMS)
    if not problems:
        return
    asked = st.session_state.get(LINK_ASKED, "This link asked for nothing the app reads.")
    lines = "\n".join(f"- {escape(text)}" for text in problems)  # they quote the link's values: text, never markdown
    text_column, button_column = st.columns([7, 1], vertical_alignment="center")  # "Dismiss" whole at 1366 px
    text_column.warning(f"{escape(asked)} What was ignored:\n\n{lines}", icon="🔗")
    button_column.button("Dismiss", key=LINK_NOTICE_DISMISS, on_click=dismiss_problems,
                         help="Hide this notice about the link.")


def view_params(input_id: str | None, scoring: Scoring, *, b: Scoring | None = None, **extra: Any) -> dict[str, str]:
    """The query of a view: the input, C, the rule and its settings, Compare's setting ``b``, and
    page-specific values (the node, the drawing limits, Playback's k and rule path)."""
    params: dict[str, str] = {}
    if input_id is not None:
        params["input"] = input_id
    params.update(_scoring_params(scoring, ""))
    if b is not None:
        params.update(_scoring_params(b, "_b"))
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


def _scoring_params(scoring: Scoring, suffix: str) -> dict[str, str]:
    """C, the rule and the settings that differ from the rule's defaults, under names ending in ``suffix``."""
    params = {"c" + suffix: repr(scoring.c), "rule" + suffix: scoring.rule}
    settings = {
        name: dict(value) if hasattr(value, "items") else value
        for name, value in scoring.settings.items()
        if value is not None and value != scoring.spec.defaults.get(name)
    }
    if settings:
        params["settings" + suffix] = json.dumps(settings, separators=(",", ":"), sort_keys=True)
    return params


def publish(params: dict[str, str]) -> None:
    """At the end of a run: put the view in the URL (a new history entry when it changed).

    A back or forward move's run leaves the URL to the entry it went to: the browser applies a write
    to whichever entry it is at when the write arrives, which after a quick second Back is another.
    """
    if params != st.query_params.to_dict() and not _history_move():
        st.query_params.from_dict(params)
    st.session_state[URL_WRITTEN] = params


def link(page: str, params: dict[str, str]) -> str:
    """The full URL of ``page`` (the page running now, by its URL path) with a view's query, for "Copy link"."""
    return page_url(st.context.url, page, params)


def page_url(current_url: str | None, page: str, params: dict[str, str]) -> str:
    """The URL of ``page`` with ``params``, built from the app's root.

    ``current_url`` is the browser's URL of ``page`` (Streamlit's ``st.context.url``: the root plus
    the running page's path); the result is relative (``/sweep?c=1``) when it is unknown (no browser).
    """
    root = (current_url or "").rstrip("/")
    if page:
        root = root.removesuffix("/" + page)
    return f"{root}/{page}?{urlencode(params)}"
