"""A node's children with their terms as a plain table (``ui/picture/term_table.js``, a components-v2
element, no iframe): best first, the child selection picks in the path's red, sorted by any column
with a header click, and a row click inspects that child.

The cells are written here, so the browser shows the digits Python formats; a sort compares the
numbers themselves.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from mcts_core.analysis import json_number
from ui.common.components import asset_component

_component = asset_component(
    "mcts_term_table", "picture/term_table", '<div class="tbl-box"><table class="tt-table tbl"></table></div>',
    shared_styles=("picture/table",),
)

MISSING = "–"  # a mean or value that does not exist (an unvisited child's mean)


@dataclass(frozen=True)
class Column:
    """A column of the table: the frame's column ``name``, its header, and how a cell reads:
    ``shape`` "text", "flag" (a ✓ when true), "int" (thousands separated) or a printf format ("%.4f")."""

    name: str
    label: str
    shape: str
    help: str = ""

    @property
    def kind(self) -> str:
        """How the browser aligns and sorts it: "text", "flag" or "number"."""
        return self.shape if self.shape in ("text", "flag") else "number"

    def text(self, value) -> str:
        """The cell as shown."""
        if self.shape == "text":
            return str(value)
        if self.shape == "flag":
            return "✓" if value else ""
        if value is None or value != value:
            return MISSING
        if math.isinf(value):
            return "∞" if value > 0 else "−∞"
        return f"{int(value):,}" if self.shape == "int" else self.shape % value

    def sort_value(self, value):
        """What a sort compares (JSON: a non-finite number as its name, a missing one as None)."""
        if self.shape == "text":
            return str(value)
        if self.shape == "flag":
            return int(bool(value))
        return None if value is None else json_number(float(value))


def table_data(table: pd.DataFrame, columns: Sequence[Column], row_keys: Sequence[str], label: str) -> dict:
    """What the browser gets: ``table``'s ``columns``, one row per row with its key, and which is
    selected (the frame's boolean column ``selected``)."""
    records = table.to_dict("records")
    return {
        "label": label,
        "columns": [{"name": c.name, "label": c.label, "help": c.help, "kind": c.kind} for c in columns],
        "rows": [
            {
                "key": key,
                "cells": [column.text(record[column.name]) for column in columns],
                "values": [column.sort_value(record[column.name]) for column in columns],
                "selected": bool(record["selected"]),
            }
            for key, record in zip(row_keys, records)
        ],
    }


def csv_text(table: pd.DataFrame, columns: Sequence[Column], extra: Sequence[str] = ()) -> str:
    """``table`` as CSV: its ``columns`` in their order under their headers (as the table names them),
    then the frame's ``extra`` columns under their own names; numbers in full."""
    shown = table[[column.name for column in columns] + list(extra)]
    return shown.set_axis([column.label for column in columns] + list(extra), axis=1).to_csv(index=False)


def show_term_table(
    table: pd.DataFrame,
    columns: Sequence[Column],
    *,
    row_keys: Sequence[str],
    label: str,
    key: str,
    on_inspect: Callable[[str], None],
) -> None:
    """The table of ``table``'s ``columns`` (rows keyed by ``row_keys``, a child's path as JSON); a row
    click calls ``on_inspect(its key)``."""
    _component(
        key=key,
        data=table_data(table, columns, row_keys, label),
        height="content",
        on_inspect_change=lambda: on_inspect(st.session_state[key]["inspect"]),
    )
