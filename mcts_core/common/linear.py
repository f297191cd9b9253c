"""Gauss-Jordan elimination, shared by the exact (fractions) and the fitted (floats) solvers."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


def gauss_jordan(augmented: Sequence[Sequence[Any]], is_zero: Callable[[Any], bool]) -> list[list[Any]] | None:
    """[I | A⁻¹B] from the rows of [A | B] (A square), by Gauss-Jordan with partial pivoting (the
    largest pivot in its column); None when the chosen pivot ``is_zero`` (A is singular). Works on
    floats and on fractions alike; returns A⁻¹B's rows."""
    size = len(augmented)
    rows = [list(row) for row in augmented]
    for column in range(size):
        pivot = max(range(column, size), key=lambda row: abs(rows[row][column]))
        if is_zero(rows[pivot][column]):
            return None
        rows[column], rows[pivot] = rows[pivot], rows[column]
        head = rows[column][column]
        rows[column] = [value / head for value in rows[column]]
        for row in range(size):
            if row != column and rows[row][column] != 0:
                factor = rows[row][column]
                rows[row] = [value - factor * top for value, top in zip(rows[row], rows[column])]
    return [row[size:] for row in rows]
