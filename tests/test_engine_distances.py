"""Distances between hexes, worked out on demand (engine/tables.Distances), agree with a search of the map."""

from __future__ import annotations

from collections import deque

import pytest

from rulec.check import hexgrid
from rulec.engine.tables import Distances, _axial_coordinates, tables_for
from rulec.runtime.model import HexGrid


def _grid_map(orientation: str, offset: str, columns=(1, 9), rows=(1, 7)):
    grid = HexGrid(orientation=orientation, offset=offset, numbering="CCRR", columns=columns, rows=rows)
    positions = hexgrid.all_hexes(grid)
    coordinates = {hexgrid.hex_number(grid, c, r): (c, r) for c, r in positions}
    neighbours = {hexgrid.hex_number(grid, c, r): tuple(hexgrid.hex_number(grid, *p) for p in
                                                        hexgrid.neighbours(grid, c, r).values() if hexgrid.on_map(grid, *p))
                  for c, r in positions}
    return grid, coordinates, neighbours


def _searched(start, neighbours):
    seen, queue = {start: 0}, deque([start])
    while queue:
        h = queue.popleft()
        for n in neighbours[h]:
            if n not in seen:
                seen[n] = seen[h] + 1
                queue.append(n)
    return seen


@pytest.mark.parametrize("orientation,offset", [("flat_top", "even_columns_down"), ("flat_top", "odd_columns_down"),
                                                ("pointy_top", "even_rows_right"), ("pointy_top", "odd_rows_right")])
@pytest.mark.parametrize("columns,rows", [((1, 9), (1, 7)), ((2, 8), (3, 10))])
def test_closed_form_on_a_whole_grid_is_the_distance_along_the_map(orientation, offset, columns, rows):
    grid, coordinates, neighbours = _grid_map(orientation, offset, columns, rows)
    axial = _axial_coordinates(grid, coordinates, neighbours)
    assert axial is not None  # a whole grid: the closed form applies
    distances = Distances(neighbours, axial)
    for a in neighbours:
        expected = _searched(a, neighbours)
        assert {b: distances[a][b] for b in neighbours} == expected


def test_a_map_with_a_hex_missing_falls_back_to_a_search_limited_to_what_is_asked():
    grid, coordinates, neighbours = _grid_map("flat_top", "even_columns_down")
    gone = "0504"
    neighbours = {h: tuple(n for n in ns if n != gone) for h, ns in neighbours.items() if h != gone}
    coordinates = {h: c for h, c in coordinates.items() if h != gone}
    assert _axial_coordinates(grid, coordinates, neighbours) is None
    distances = Distances(neighbours, None)
    row = distances["0404"]
    assert row.get("0405") == 1
    assert len(row.found) < len(neighbours)  # only as far as asked
    expected = _searched("0404", neighbours)
    assert {b: row[b] for b in neighbours} == expected
    assert row.get(gone) is None and gone not in distances
    assert dict(distances["0101"]) == _searched("0101", neighbours)  # iterating a row searches the whole map


def test_an_island_is_not_reached():
    neighbours = {"0101": ("0102",), "0102": ("0101",), "0909": ()}
    distances = Distances(neighbours, None)
    assert distances["0101"].get("0909") is None
    assert distances.between("0101", "0102") == 1


def test_the_rows_kept_are_bounded(metz, monkeypatch):
    from rulec.engine import tables as tables_module

    monkeypatch.setattr(tables_module, "DISTANCE_ROWS", 8)
    tables = tables_for(metz)
    distances = Distances(tables.neighbours, None)  # the search rows, which hold what they found
    for a in tables.hexes:
        assert distances[a]["0911"] == _searched(a, tables.neighbours)["0911"]
        assert len(distances.rows) <= 8
    assert tables.distance["0101"]["0911"] == _searched("0101", tables.neighbours)["0911"]
