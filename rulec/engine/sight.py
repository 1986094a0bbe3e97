"""Ranged attacks: the hexes a unit with a range may attack, by distance and line of sight.

A unit whose type has `range = N` (N > 1) may attack an enemy hex up to N hexes
away, counted across the grid, when the line of sight is clear: no hex between
the two holds terrain that `blocks_los`. The line runs from centre to centre; where
it runs exactly along a hexside it passes both hexes beside it, and it is blocked
only if it is blocked on both sides (docs/rulings.md). Next to the target there is
nothing between, so an adjacent hex is always in sight.

What a hex sees at a range is worked out once per game and kept in `Tables.sight`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulec.runtime.hexes import cube
from rulec.runtime.model import Hex

if TYPE_CHECKING:
    from rulec.engine.tables import Tables

Cube = tuple[int, int, int]


def type_ranges(tables: "Tables") -> dict[str, int]:
    """The unit types with a range above 1 -> that range (empty in a game without ranged units)."""
    found = tables.sight.get("types")
    if found is None:
        found = tables.sight["types"] = {tid: kind.range for tid, kind in tables.game.unit_types.items() if kind.range > 1}
    return found


def in_sight(tables: "Tables", start: Hex, reach: int) -> frozenset[Hex]:
    """The hexes 1 to `reach` hexes from `start` with a clear line of sight from it."""
    key = (start, reach)
    found = tables.sight.get(key)
    if found is None:
        found = tables.sight[key] = frozenset(_in_sight(tables, start, reach))
    return found


def line_of_sight(tables: "Tables", a: Hex, b: Hex) -> bool:
    """Is the line from `a` to `b` clear (no blocking terrain in a hex between them)?"""
    cubes, _, blocking = _geometry(tables)
    return _clear(cubes[a], cubes[b], blocking)


def _geometry(tables: "Tables") -> tuple[dict[Hex, Cube], dict[Cube, Hex], frozenset[Cube]]:
    found = tables.sight.get("geometry")
    if found is None:
        game = tables.game
        gmap = game.map
        assert gmap is not None  # the engine plays map games
        cubes = {h: cube(gmap.grid, *gmap.coordinates[h]) for h in tables.hexes}
        blocking = frozenset(cubes[h] for h in tables.hexes
                             if any(game.terrain[t].blocks_los for t in gmap.terrain.get(h, ()) if t in game.terrain))
        found = tables.sight["geometry"] = (cubes, {c: h for h, c in cubes.items()}, blocking)
    return found


def _in_sight(tables: "Tables", start: Hex, reach: int) -> list[Hex]:
    cubes, hexes, blocking = _geometry(tables)
    x, y, z = cubes[start]
    seen = []
    for dx in range(-reach, reach + 1):
        for dy in range(max(-reach, -dx - reach), min(reach, -dx + reach) + 1):
            target = hexes.get((x + dx, y + dy, z - dx - dy))
            if target is not None and target != start and _clear(cubes[start], cubes[target], blocking):
                seen.append(target)
    return seen


def _clear(a: Cube, b: Cube, blocking: frozenset[Cube]) -> bool:
    if not blocking:
        return True
    n = max(abs(a[0] - b[0]), abs(a[1] - b[1]), abs(a[2] - b[2]))
    # Nudged a hair to each side: a line along a hexside is seen past either hex beside it.
    return any(all(_round(a, b, i / n, nudge) not in blocking for i in range(1, n)) for nudge in (1e-6, -1e-6))


def _round(a: Cube, b: Cube, t: float, nudge: float) -> Cube:
    """The hex a fraction `t` of the way from `a` to `b` (cube rounding)."""
    fx, fy, fz = (a[i] + nudge * (1, 2, -3)[i] + (b[i] - a[i]) * t for i in range(3))
    rx, ry, rz = round(fx), round(fy), round(fz)
    dx, dy, dz = abs(rx - fx), abs(ry - fy), abs(rz - fz)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    return rx, ry, rz
