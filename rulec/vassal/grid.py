"""VASSAL's hex grid and numbering for a game's map, so that VASSAL names every hex as the game does.

VASSAL's (non-sideways) hex grid has flat-topped hexes in columns; counting columns from 0 at the
grid's origin, the odd ones are half a hex lower. Its numbering adds `hOff` to the column index and
`vOff` to the row index and pads them with leading zeros. So the origin is put on the game's first
column when that column is not shifted down, or one column to the left of it when it is.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rulec.aids import geometry
from rulec.check.hexgrid import is_shifted
from rulec.diagnostics import Diagnostic, DiagnosticError
from rulec.runtime.model import MapDef


@dataclass(frozen=True)
class VassalGrid:
    dx: float  # pixels between two columns' centres
    dy: float  # pixels between two rows' centres (a hex's height)
    x0: int  # the centre of the hex at column index 0, row index 0
    y0: int
    h_off: int  # the game's number of column index 0
    v_off: int
    h_leading: int  # leading zeros: digits - 1
    v_leading: int


def vassal_grid(map_def: MapDef, unit: float, left: float, top: float) -> VassalGrid:
    """The grid for a map drawn at `unit` pixels per hex unit with hex-unit (0, 0) at (left, top)."""
    grid = map_def.grid
    if grid.orientation != "flat_top" or grid.offset not in ("even_columns_down", "odd_columns_down"):
        raise DiagnosticError([Diagnostic(
            "vassal-unsupported-grid", f"rulec vassal writes flat-topped grids in columns only; this map is "
            f"{grid.orientation} with {grid.offset}", hint="draw the map with orientation = flat_top")])
    first_column, first_row = grid.columns[0], grid.rows[0]
    # Index 0 must be a column that is not shifted down: the first, or a virtual one left of it.
    origin_column = first_column - 1 if is_shifted(grid, first_column, first_row) else first_column
    x, y = geometry.centre(grid, origin_column, first_row)
    column_digits = grid.numbering.count("C")
    row_digits = grid.numbering.count("R")
    return VassalGrid(dx=1.5 * unit, dy=math.sqrt(3) * unit, x0=round(left + x * unit), y0=round(top + y * unit),
                      h_off=origin_column, v_off=first_row, h_leading=column_digits - 1, v_leading=row_digits - 1)
