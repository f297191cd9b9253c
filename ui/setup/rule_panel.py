"""Controls for the selection rule, built from each rule's declared settings.

C is not here: the C control drives every rule's ``c``. Per-move values (priors, heuristics) come
from a text box, or, when it is empty, from ``#prior`` / ``#heuristic`` lines in the input.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import streamlit as st

from mcts_core import RULE_PRESETS, RULES, ParseError, parse_move_values
from mcts_core.selection import DEFAULT_RULE, Setting
from ui.common import state
from ui.common.markdown import escape

# Session-state keys this module owns.
RULE = state.key_family("{}rule")  # the prefix: "" for the sidebar, "cmp_" for Compare's setting B
RULE_PRESET = state.key_family("{}rule_preset")
RULE_SETTING = state.key_family("{}rule_{}_{}")

# Setting name -> the annotation keyword that can supply it from the input.
ANNOTATION_OF_SETTING = {"priors": "prior", "heuristic": "heuristic"}


def adopt_rule(rule: str, settings: Mapping[str, Any], *, reset_others: bool = False, prefix: str = "") -> None:
    """Show ``rule`` with these settings (an input or a link states them): the sidebar follows.

    ``reset_others``: the settings not given go back to their defaults (a link lists only the
    settings that differ from them). ``prefix``: the widgets' (see :func:`render`).
    """
    st.session_state[RULE.format(prefix)] = rule
    if reset_others:
        for setting in RULES[rule].settings[1:]:  # the first is c, which the C control owns
            if setting.name not in settings:
                st.session_state[RULE_SETTING.format(prefix, rule, setting.name)] = _widget_default(setting)
    for name, value in settings.items():
        setting = next(s for s in RULES[rule].settings if s.name == name)
        if setting.kind == "move_values":
            value = "\n".join(f"{move} {number!r}" for move, number in value.items())
        elif setting.kind in ("int", "float"):  # a number widget refuses a value of the other type
            value = int(value) if setting.kind == "int" else float(value)
        st.session_state[RULE_SETTING.format(prefix, rule, name)] = value


def sidebar_rule() -> str:
    """The rule the sidebar's menu holds (the default before it is drawn)."""
    return st.session_state.get(RULE.format(""), DEFAULT_RULE)


def _apply_rule_preset(prefix: str, set_c: Callable[[float], None]) -> None:
    name = st.session_state.get(RULE_PRESET.format(prefix))
    if not name:
        return
    preset = RULE_PRESETS[name]
    st.session_state[RULE.format(prefix)] = preset.rule
    set_c(preset.c)
    for setting, value in preset.settings.items():
        st.session_state[RULE_SETTING.format(prefix, preset.rule, setting)] = value


def _widget_default(setting: Setting) -> Any:
    """A setting's default as its widget holds it."""
    if setting.kind == "int":
        return int(setting.default)
    if setting.kind == "float":
        return float(setting.default)
    if setting.kind == "choice":
        return setting.default
    return ""  # move values: none typed


def _control(prefix: str, rule: str, setting: Setting) -> Any:
    """Draw one setting's widget and return its value."""
    key = RULE_SETTING.format(prefix, rule, setting.name)
    st.session_state.setdefault(key, _widget_default(setting))
    if setting.kind == "choice":
        return st.selectbox(setting.label, setting.choices, key=key, help=setting.help or None)
    if setting.kind == "int":
        return st.number_input(
            setting.label, min_value=int(setting.low or 0), step=1, key=key, help=setting.help or None
        )
    if setting.kind == "float":
        low = None if setting.low is None else float(setting.low)
        return st.number_input(setting.label, min_value=low, key=key, format="%.6g", help=setting.help or None)
    return st.text_area(setting.label, key=key, height=90, help=setting.help or None)


def render(
    annotations: Mapping[str, dict[str, float]], *, set_c: Callable[[float], None], prefix: str = ""
) -> tuple[str, dict[str, Any]]:
    """Draw the rule controls; returns the rule key and its settings except ``c``.

    Args:
        annotations: ``#prior`` / ``#heuristic`` values found in the input, by keyword.
        set_c: called with a preset's C (the caller owns its C control).
        prefix: prepended to every widget key, so a page can show a second, independent set
            (the sidebar's set has none: keys ``rule``, ``rule_preset``, ``rule_<rule>_<setting>``).
    """
    st.session_state.setdefault(RULE.format(prefix), DEFAULT_RULE)
    st.selectbox(
        "Rule preset from a contest bot",
        list(RULE_PRESETS),
        index=None,
        placeholder="Choose a preset…",
        key=RULE_PRESET.format(prefix),
        on_change=_apply_rule_preset,
        args=(prefix, set_c),
    )
    rule = st.selectbox("Rule", list(RULES), format_func=lambda key: RULES[key].name, key=RULE.format(prefix))
    settings: dict[str, Any] = {}
    for setting in RULES[rule].settings[1:]:  # the first is c
        value = _control(prefix, rule, setting)
        if setting.kind == "move_values":
            value = _move_values(setting, value, annotations)
        settings[setting.name] = value
    return rule, settings


def _move_values(setting: Setting, text: str, annotations: Mapping[str, dict[str, float]]) -> dict[str, float] | None:
    """The values typed in the box, else the input's annotations; a bad line is reported and ignored."""
    if not text.strip():
        found = annotations.get(ANNOTATION_OF_SETTING.get(setting.name, ""), {})
        if found:
            st.caption(escape(f"Using the {len(found)} #{ANNOTATION_OF_SETTING[setting.name]} lines of the input."))
        return found or None
    try:
        return parse_move_values(text)
    except ParseError as error:
        st.error(escape(f"{setting.label}, line {error.line}: {error.message} (ignored until fixed)"))
        return None
