"""Map geometry for every grid the model allows: neighbours share a hexside, outlines close."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from rulec.aids import geometry
from rulec.check.hexgrid import all_hexes, neighbours, on_map
from rulec.runtime.model import HexGrid

GRIDS = [
    HexGrid("flat_top", "even_columns_down", "CCRR", (1, 6), (1, 5)),
    HexGrid("flat_top", "odd_columns_down", "CCRR", (1, 6), (1, 5)),
    HexGrid("pointy_top", "even_rows_right", "CCRR", (1, 6), (1, 5)),
    HexGrid("pointy_top", "odd_rows_right", "CCRR", (1, 6), (1, 5)),
]


@pytest.mark.parametrize("grid", GRIDS, ids=lambda g: g.offset)
def test_every_neighbour_is_one_hex_away_and_shares_a_side(grid):
    for column, row in all_hexes(grid):
        here = geometry.centre(grid, column, row)
        for direction, (other_column, other_row) in neighbours(grid, column, row).items():
            assert math.dist(here, geometry.centre(grid, other_column, other_row)) == pytest.approx(math.sqrt(3))
            first, second = geometry.side_towards(grid, column, row, direction)
            assert math.dist(first, second) == pytest.approx(1.0)  # a hexside is as long as the radius


@pytest.mark.parametrize("grid", GRIDS, ids=lambda g: g.offset)
def test_the_outline_of_the_whole_map_is_a_closed_loop(grid):
    # Every corner on the map's border is the end of exactly two border sides.
    sides = []
    for column, row in all_hexes(grid):
        for direction, (c, r) in neighbours(grid, column, row).items():
            if not on_map(grid, c, r):
                sides.append(geometry.side_towards(grid, column, row, direction))
    ends = Counter((round(x, 6), round(y, 6)) for side in sides for x, y in side)
    assert sides and set(ends.values()) == {2}
