"""JSON read from a user: every way ``json.loads`` can fail becomes one ParseError naming the line.

Rules: syntax errors name their line and column; a document nested deeper than the recursion limit
allows is refused; an object that repeats a key is refused (``json.loads`` would keep the last one
silently); an integer literal longer than Python converts (4,300 digits) is read as the float it
spells, so readers that want a finite number refuse it as infinite instead of crashing.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .input_rules import ParseError, not_utf8

KEY_END = re.compile(r'"\s*:')  # every key of an object ends so (a string value may too)


class _RepeatedKey(ValueError):
    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen = set()
        for key, _ in pairs:
            if key in seen:
                raise _RepeatedKey(key)
            seen.add(key)
    return result


def long_integer(digits: str) -> int | float:
    """An integer literal: Python's int, or the float it spells past Python's int-string limit."""
    try:
        return int(digits)
    except ValueError:
        return float(digits)  # inf beyond float's range, as every such integer is


def load_json(text: str | bytes, *, line: int = 1, flat: bool = False, too_deep: str | None = None) -> Any:
    """The JSON value ``text`` holds.

    Args:
        text: the JSON.
        line: the input line ``text`` starts on (errors count from it).
        flat: ``text`` is mostly an object without nested objects (a log record): it is parsed
            once and re-parsed to look for repeated keys only when it may hold one; otherwise
            every object is checked as it is parsed.
        too_deep: the sentence for a document nested too deeply (a generic one when None).

    Raises:
        ParseError: bad JSON, too deep, or a repeated key, naming the line.
    """
    try:
        if not flat:
            return _loads(text, _unique_keys)
        value = _loads(text, None)
        if isinstance(value, dict) and _may_repeat(text, value):
            return _loads(text, _unique_keys)
        return value
    except json.JSONDecodeError as error:
        raise ParseError(line + error.lineno - 1, f"not valid JSON: {error.msg} (column {error.colno})") from None
    except UnicodeDecodeError as error:  # bytes given
        raise not_utf8(error, line) from None
    except _RepeatedKey as repeated:
        raise ParseError(line, f'key "{key_text(repeated.key)}" is given twice in one object; give each key once') from None
    except RecursionError:
        raise ParseError(line, too_deep or "not valid JSON: nested too deeply") from None


def _loads(text: str | bytes, hook) -> Any:
    try:
        return json.loads(text, object_pairs_hook=hook)
    except json.JSONDecodeError:
        raise
    except ValueError as error:
        if "integer string conversion" not in str(error):
            raise
        return json.loads(text, object_pairs_hook=hook, parse_int=long_integer)


def _may_repeat(text: str | bytes, value: dict) -> bool:
    """Whether the text has more key ends than ``value`` has keys (always so with nested objects)."""
    if isinstance(text, bytes):
        return len(re.findall(rb'"\s*:', text)) > len(value)
    return len(KEY_END.findall(text)) > len(value)


def key_text(key: str) -> str:
    """A key a user wrote, as a message quotes it between double quotes: escaped as JSON, cut."""
    text = json.dumps(key, ensure_ascii=False)[1:-1]
    return text if len(text) <= 40 else text[:37] + "..."


def shown(value: Any) -> str:
    """A value as JSON, cut to a readable length (for messages that quote what a user wrote)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
