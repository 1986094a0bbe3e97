"""VASSAL's hex grid and numbering for a game's map, so that VASSAL names every hex as the game does.

VASSAL's hex grid has flat-topped hexes in columns; counting columns from 0 at the grid's origin,
the odd ones are half a hex lower. A "sideways" grid is the same turned a quarter (pointy-topped
hexes in rows, odd rows half a hex to the right): VASSAL computes it with x and y swapped, origin
included, and its "columns" are then the map's rows. The numbering adds `hOff` to the column
index and `vOff` to the row index and pads them with leading zeros. So the origin is put on the
game's first column (row, sideways) when it is not shifted, or on the one before it when it is.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rulec.aids import geometry
from rulec.check.hexgrid import is_shifted
from rulec.diagnostics import Diagnostic, DiagnosticError
from rulec.runtime.model import MapDef

SHIFTED_COLUMNS = ("even_columns_down", "odd_columns_down")
SHIFTED_ROWS = ("even_rows_right", "odd_rows_right")


@dataclass(frozen=True)
class VassalGrid:
    """The attributes of VASSAL's HexGrid and HexGridNumbering (in VASSAL's own, maybe swapped, axes)."""

    dx: float  # pixels between two of VASSAL's columns
    dy: float  # a hex's height in VASSAL's axes
    x0: int  # the centre of the hex at VASSAL's column 0, row 0 (swapped when sideways)
    y0: int
    sideways: bool
    first: str  # "H": the hex id starts with VASSAL's column number; "V": with its row number
    h_off: int  # the game's number of VASSAL's column 0
    v_off: int
    h_leading: int  # leading zeros: digits - 1
    v_leading: int


def vassal_grid(map_def: MapDef, unit: float, left: float, top: float) -> VassalGrid:
    """The grid for a map drawn at `unit` pixels per hex unit with hex-unit (0, 0) at (left, top)."""
    grid = map_def.grid
    first_column, first_row = grid.columns[0], grid.rows[0]
    column_digits, row_digits = grid.numbering.count("C") - 1, grid.numbering.count("R") - 1
    if grid.orientation == "flat_top" and grid.offset in SHIFTED_COLUMNS:
        origin_column = first_column - 1 if is_shifted(grid, first_column, first_row) else first_column
        x, y = geometry.centre(grid, origin_column, first_row)
        return VassalGrid(dx=1.5 * unit, dy=math.sqrt(3) * unit, x0=round(left + x * unit), y0=round(top + y * unit),
                          sideways=False, first="H", h_off=origin_column, v_off=first_row,
                          h_leading=column_digits, v_leading=row_digits)
    if grid.orientation == "pointy_top" and grid.offset in SHIFTED_ROWS:
        origin_row = first_row - 1 if is_shifted(grid, first_column, first_row) else first_row
        x, y = geometry.centre(grid, first_column, origin_row)
        # VASSAL's columns are the map's rows, and its x the map's y.
        return VassalGrid(dx=1.5 * unit, dy=math.sqrt(3) * unit, x0=round(top + y * unit), y0=round(left + x * unit),
                          sideways=True, first="V", h_off=origin_row, v_off=first_column,
                          h_leading=row_digits, v_leading=column_digits)
    raise DiagnosticError([Diagnostic(
        "vassal-unsupported-grid", f"rulec vassal cannot lay a VASSAL grid over a {grid.orientation} map with {grid.offset}",
        hint="flat_top maps shift columns (even_columns_down, odd_columns_down); pointy_top maps shift rows")])
