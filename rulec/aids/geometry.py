"""Where hexes, hexsides and map edges fall on paper, for any hex grid.

Coordinates are in "hex units": the distance from a hex's centre to one of its
corners is 1. The map drawer scales them to the sheet. Hexsides are found as
the two corners two neighbouring hexes share, so the same code works for flat-
and pointy-topped grids and for every offset convention the model allows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rulec.check.hexgrid import is_shifted, neighbours
from rulec.runtime.model import Hex, HexGrid, MapDef

Point = tuple[float, float]
SQRT3 = math.sqrt(3)


def centre(grid: HexGrid, column: int, row: int) -> Point:
    """The centre of the hex at (column, row), which need not be on the map."""
    dc, dr = column - grid.columns[0], row - grid.rows[0]
    half = 0.5 if is_shifted(grid, column, row) else 0.0
    if grid.orientation == "flat_top":
        return 1.5 * dc, SQRT3 * (dr + half)
    return SQRT3 * (dc + half), 1.5 * dr


def corners(grid: HexGrid, column: int, row: int) -> list[Point]:
    """The six corners of a hex, clockwise from the east (flat) or north-east (pointy) one."""
    x, y = centre(grid, column, row)
    start = 0 if grid.orientation == "flat_top" else -30
    return [(x + math.cos(math.radians(start + 60 * i)), y + math.sin(math.radians(start + 60 * i)))
            for i in range(6)]


def _shared(first: list[Point], second: list[Point]) -> tuple[Point, Point]:
    """The two corners two adjacent hexes have in common."""
    common = [p for p in first if any(math.dist(p, q) < 1e-6 for q in second)]
    if len(common) != 2:
        raise ValueError("the hexes are not adjacent")
    return common[0], common[1]


def side_towards(grid: HexGrid, column: int, row: int, direction: str) -> tuple[Point, Point]:
    """The hexside of a hex facing `direction` (the neighbour may be off the map)."""
    other = neighbours(grid, column, row)[direction]
    return _shared(corners(grid, column, row), corners(grid, *other))


def side_between(map_def: MapDef, a: Hex, b: Hex) -> tuple[Point, Point]:
    """The hexside between two adjacent hexes of the map."""
    grid = map_def.grid
    return _shared(corners(grid, *map_def.coordinates[a]), corners(grid, *map_def.coordinates[b]))


def midpoint(a: Point, b: Point) -> Point:
    return (a[0] + b[0]) / 2, (a[1] + b[1]) / 2


@dataclass(frozen=True)
class Bounds:
    left: float
    top: float
    right: float
    bottom: float

    @property
    def width(self) -> float:
        return self.right - self.left

    @property
    def height(self) -> float:
        return self.bottom - self.top


def bounds(map_def: MapDef) -> Bounds:
    """The box around every hex of the map."""
    points = [p for (c, r) in map_def.coordinates.values() for p in corners(map_def.grid, c, r)]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return Bounds(min(xs), min(ys), max(xs), max(ys))


def outline(map_def: MapDef, hexes: tuple[Hex, ...]) -> list[tuple[Point, Point]]:
    """The hexsides around a set of hexes: each side of a member whose neighbour is not a member."""
    members = set(hexes)
    segments = []
    for hex_id in sorted(members):
        column, row = map_def.coordinates[hex_id]
        on_map = map_def.neighbours.get(hex_id, {})
        for direction in map_def.grid.directions:
            if on_map.get(direction) not in members:
                segments.append(side_towards(map_def.grid, column, row, direction))
    return segments
