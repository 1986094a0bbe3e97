"""Distance between hexes, counted across the grid (the way ranges are counted on a hex map), or across
the hex rows that run along a map edge."""

from __future__ import annotations

from collections.abc import Collection

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


def _lines(grid: HexGrid, column: int, row: int) -> tuple[int, int]:
    """A hex centre's place across the grid's two straight families of lines, in half hexes.

    Flat-top: (columns, half rows): a straight step north changes the second by 2, either
    diagonal by 1 on every column. Pointy-top: (rows, half columns), the same turned."""
    x, _, z = cube(grid, column, row)
    return (x, 2 * z + x) if grid.orientation == "flat_top" else (z, 2 * x + z)


def rows_to_edge(grid: HexGrid, coordinates: dict[str, tuple[int, int]], edge: Collection[str]) -> dict[str, int]:
    """Each hex's distance from a straight map edge counted across the hex rows that run along it.

    The edge runs along the family of lines its hexes spread least across (a north edge of a
    flat-top map: the rows). Across those lines a straight step toward the edge counts 2 and
    each of the two diagonals 1 on every column, so "nearer the edge" treats both diagonals
    alike, which the grid distance does not (it depends on the column's parity)."""
    places = {h: _lines(grid, *coordinates[h]) for h in coordinates}
    edge_places = [places[h] for h in edge if h in places]
    if not edge_places:
        return {}
    axis = min((0, 1), key=lambda a: max(p[a] for p in edge_places) - min(p[a] for p in edge_places))
    lines = sorted({p[axis] for p in edge_places})
    return {h: min(abs(p[axis] - line) for line in lines) for h, p in places.items()}
