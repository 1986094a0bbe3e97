"""Distance between hexes, counted across the grid (the way ranges are counted on a hex map)."""

from __future__ import annotations

from rulec.runtime.model import HexGrid


def cube(grid: HexGrid, column: int, row: int) -> tuple[int, int, int]:
    """Cube coordinates (x, y, z with x + y + z = 0) of an offset (column, row) position."""
    if grid.orientation == "flat_top":
        x = column
        z = row - (column + (column & 1)) // 2 if grid.offset == "even_columns_down" else row - (column - (column & 1)) // 2
    else:
        z = row
        x = column - (row + (row & 1)) // 2 if grid.offset == "even_rows_right" else column - (row - (row & 1)) // 2
    return x, -x - z, z


def grid_distance(grid: HexGrid, a: tuple[int, int], b: tuple[int, int]) -> int:
    """How many hexes apart two positions are, along the grid (ignoring what is on or off the map)."""
    ax, ay, az = cube(grid, *a)
    bx, by, bz = cube(grid, *b)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))
