"""The children table's cells and sort values as the browser gets them (ui/picture/term_table.py), and its CSV."""

import math

import pandas as pd

from ui.common.wording import FILE_STEM_LENGTH, node_file_stem
from ui.picture.term_table import MISSING, Column, csv_text, table_data


def test_cells_read_as_the_columns_format_them():
    assert Column("visits", "visits", "int").text(12345) == "12,345"
    assert Column("value", "UCB1", "%.4f").text(2.70291748) == "2.7029"
    assert Column("total", "total", "%.1f").text(76095.4) == "76095.4"
    assert Column("mean", "mean", "%.4f").text(math.nan) == MISSING  # an unvisited child has no mean
    assert Column("value", "UCB1", "%.4f").text(math.inf) == "∞"
    assert Column("value", "UCB1", "%.4f").text(-math.inf) == "−∞"
    assert Column("terminal", "end", "flag").text(True) == "✓" and Column("terminal", "end", "flag").text(False) == ""
    assert Column("move", "move", "text").text("<b>e4</b>") == "<b>e4</b>"  # text, escaped by the browser's textContent


def test_rows_carry_their_key_their_cells_what_sorts_them_and_which_is_selected():
    table = pd.DataFrame({
        "move": ["b", "a"], "visits": [0, 3], "mean": [math.nan, 10.0], "value": [math.inf, 10.5],
        "terminal": [False, True], "rank": [1, 2], "selected": [True, False],
    })
    columns = [Column("move", "move", "text"), Column("visits", "visits", "int"), Column("value", "UCB1", "%.4f"),
               Column("mean", "mean", "%.4f"), Column("terminal", "end", "flag", "The game ended here.")]
    data = table_data(table, columns, ['["b"]', '["a"]'], "Children of the root")
    assert data["label"] == "Children of the root"
    assert data["columns"][1] == {"name": "visits", "label": "visits", "help": "", "kind": "number"}
    assert [column["kind"] for column in data["columns"]] == ["text", "number", "number", "number", "flag"]
    assert data["rows"] == [
        {"key": '["b"]', "cells": ["b", "0", "∞", MISSING, ""], "values": ["b", 0.0, "Infinity", "NaN", 0], "selected": True},
        {"key": '["a"]', "cells": ["a", "3", "10.5000", "10.0000", "✓"], "values": ["a", 3.0, 10.5, 10.0, 1], "selected": False},
    ]


def test_the_csv_has_the_table_s_columns_under_its_headers_then_the_extra_ones():
    table = pd.DataFrame({"move": ["a", "b"], "visits": [3, 1], "mean": [10.0, 8.0], "value": [10.123456789, 9.5],
                          "rank": [1, 2], "selected": [True, False]})
    columns = [Column("move", "move", "text"), Column("visits", "visits", "int"), Column("value", "UCB1", "%.4f"),
               Column("mean", "mean (P0)", "%.4f")]
    assert csv_text(table, columns, extra=("rank", "selected")).splitlines() == [
        "move,visits,UCB1,mean (P0),rank,selected",
        "a,3,10.123456789,10.0,1,True",  # numbers in full, not as the cells round them
        "b,1,9.5,8.0,2,False",
    ]


def test_a_node_s_file_name_part_has_no_spaces_or_odd_characters():
    assert node_file_stem("") == "root"
    assert node_file_stem("o1 x2") == "o1_x2"
    assert node_file_stem("baa") == "baa"
    assert node_file_stem("x(1,1) o(0,0)") == "x_1_1_o_0_0"
    assert node_file_stem("e2e4 e7-e5 a/b") == "e2e4_e7-e5_a_b"
    assert node_file_stem("* +") == "_"  # nothing safe: still not the root's name
    assert len(node_file_stem("ab " * 1000)) == FILE_STEM_LENGTH
