"""Session-state keys: each module declares the keys it owns; new-input detection.

A module owns (writes) the keys it declares as module constants, ``NAME = state.key("name")``, or a
family made from one pattern, ``NAME = state.key_family("name_{}")`` (``NAME.format(...)`` makes a
member). Widgets own their keys through ``key=``. Other modules read a key through its owner's
functions or, for the contract keys in docs/DESIGN.md, by name. tests/test_structure.py reads the
declarations from the sources and checks that each key has one owner and only its owner writes it.
:func:`first_run_for_input` is the one way a page notices a new input.
"""

from __future__ import annotations

import streamlit as st


def key(name: str) -> str:
    """Declare a session-state key the declaring module owns; returns the key."""
    return name


def key_family(pattern: str) -> str:
    """Declare the keys ``pattern.format(...)`` makes, owned by the declaring module; returns the pattern."""
    return pattern


SEEN_INPUTS = key("_seen_inputs")


def first_run_for_input(scope: str, input_key: str) -> bool:
    """True on the first run of ``scope`` (a page) with this input, False on every later run.

    Pages reset what depends on the input (a range, a walk, a step) when this says so.
    """
    seen = st.session_state.setdefault(SEEN_INPUTS, {})
    if seen.get(scope) == input_key:
        return False
    seen[scope] = input_key
    return True
