"""Hexes of the map by area: terrain, Paris and the other cities, towns, forts, army zones, entry areas.

Every function returns hex labels ("CCRR") sorted, computed from map_data's geography on grid's
hexes, so the output is the same on every run.
"""

from __future__ import annotations

import math
from functools import cache

from shapely.geometry import Point, Polygon
from shapely.affinity import scale

import grid
import map_data

Hex = tuple[int, int]


def all_hexes() -> list[Hex]:
    return [(c, r) for c in grid.COLUMNS for r in grid.ROWS]


@cache
def hex_polygon(column: int, row: int) -> Polygon:
    """The hex's outline in km (x east, y south of the map's north-west corner)."""
    x, y = grid.centre_km(column, row)
    radius = grid.HEX_KM / math.sqrt(3)
    return Polygon([(x + radius * math.cos(math.radians(a)), y + radius * math.sin(math.radians(a)))
                    for a in range(0, 360, 60)])


def _km_polygon(points: list[tuple[float, float]]) -> Polygon:
    return Polygon([grid.km_of(lat, lon) for lat, lon in points])


def wood_shape(spec: tuple) -> Polygon:
    """A wood of map_data.WOODS as a shape in km."""
    if spec[0] == "circle":
        _, lat, lon, radius = spec
        return Point(grid.km_of(lat, lon)).buffer(radius, quad_segs=32)
    if spec[0] == "box":                   # the ellipse that fills the stated extent
        _, south, north, west, east = spec
        (x0, y0), (x1, y1) = grid.km_of(north, west), grid.km_of(south, east)
        circle = Point((x0 + x1) / 2, (y0 + y1) / 2).buffer(1.0, quad_segs=32)
        return scale(circle, (x1 - x0) / 2, (y1 - y0) / 2)
    return _km_polygon(spec[1])


def covered(shapes: list[Polygon], share: float) -> set[Hex]:
    """Hexes at least `share` covered by one shape, and for each shape at least its most covered hex."""
    hexes: set[Hex] = set()
    for shape in shapes:
        near = [h for h in all_hexes() if hex_polygon(*h).intersects(shape)]
        cover = {h: hex_polygon(*h).intersection(shape).area / hex_polygon(*h).area for h in near}
        if not cover:
            continue
        best = max(cover, key=lambda h: (cover[h], (-h[0], -h[1])))
        hexes.add(best)
        hexes |= {h for h, part in cover.items() if part >= share}
    return hexes


WOODS_SHARE = 0.5        # a hex is woods when a wood covers half of it
SWAMP_SHARE = 0.2        # the marsh is a narrow strip: a fifth of a hex makes it swamp


def terrain() -> dict[Hex, str]:
    """The base terrain of every hex: clear, woods or swamp (swamp over woods)."""
    woods = covered([wood_shape(spec) for spec in map_data.WOODS.values()], WOODS_SHARE)
    swamp = covered([_km_polygon(points) for points in map_data.MARSHES.values()], SWAMP_SHARE)
    return {h: "swamp" if h in swamp else "woods" if h in woods else "clear" for h in all_hexes()}


def _parse(label: str) -> Hex:
    return int(label[:2]), int(label[2:])


def nearest_hexes(lat: float, lon: float, count: int) -> list[str]:
    """The hex holding a point and the count - 1 hexes whose centres are nearest it."""
    point = grid.km_of(lat, lon)
    ranked = sorted(all_hexes(), key=lambda h: (math.dist(grid.centre_km(*h), point), h))
    return sorted(grid.label(*h) for h in ranked[:count])


def paris() -> list[str]:
    return nearest_hexes(*map_data.PARIS_CENTRE, map_data.PARIS_HEXES)


def cities() -> dict[str, list[str]]:
    """Paris's 8 hexes, Reims's and Troyes's, by city name."""
    result = {"Paris": paris()}
    for name, lat, lon, size, _vp in map_data.CITIES:
        result[name] = nearest_hexes(lat, lon, size)
    return result


def towns() -> dict[str, tuple[str, int]]:
    """Each town on the map: its hex and VP (two towns in one hex: the more valuable one is named)."""
    city_hexes = {h for hexes in cities().values() for h in hexes}
    by_hex: dict[str, tuple[str, int]] = {}
    for name, lat, lon, vp in map_data.TOWNS:
        where = grid.hex_of(lat, lon)
        if where is None or where in city_hexes:
            continue
        if where not in by_hex or vp > by_hex[where][1]:
            by_hex[where] = (name, vp)
    return {name: (where, vp) for where, (name, vp) in sorted(by_hex.items())}


def forts() -> dict[str, list[str]]:
    """Fort hexes of the Paris entrenched camp outside Paris's own hexes, with the forts in each.

    A fort whose hex already holds one moves to the free neighbouring hex nearest its real place
    (free: not Paris, not a fort); it shares the hex only when no neighbour is free. Sourced
    coordinates are placed first. Forts inside Paris's 8 hexes belong to the city (§2: Paris's
    8 hexes are the city and its inner forts).
    """
    paris_hexes = set(paris())
    placed: dict[str, list[str]] = {}
    ordered = sorted(map_data.OUTER_FORTS + map_data.INNER_FORTS, key=lambda f: not f[3])
    for name, lat, lon, _sourced in ordered:
        where = grid.hex_of(lat, lon)
        if where is None or where in paris_hexes:
            continue
        if where in placed:
            point = grid.km_of(lat, lon)
            column, row = _parse(where)
            free = [grid.label(*n) for n in _neighbours(column, row)
                    if grid.on_map(*n) and grid.label(*n) not in placed and grid.label(*n) not in paris_hexes]
            if free:
                where = min(free, key=lambda h: (math.dist(grid.centre_km(*_parse(h)), point), h))
        placed.setdefault(where, []).append(name)
    return dict(sorted(placed.items()))


def _neighbours(column: int, row: int) -> list[Hex]:
    if column % 2 == 0:     # even columns sit half a hex lower
        offsets = [(0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)]
    else:
        offsets = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1)]
    return [(column + dc, row + dr) for dc, dr in offsets]


def entrenched_camp() -> list[str]:
    """The Paris garrison's zone: Paris, the fort hexes, and every hex inside the outer ring of forts."""
    ring = [grid.km_of(lat, lon) for _, lat, lon, _ in map_data.OUTER_FORTS]
    centre = grid.km_of(*map_data.PARIS_CENTRE)
    ring.sort(key=lambda p: math.atan2(p[1] - centre[1], p[0] - centre[0]))
    inside = Polygon(ring)
    hexes = {grid.label(*h) for h in all_hexes() if inside.contains(Point(grid.centre_km(*h)))}
    return sorted(hexes | set(paris()) | set(forts()))


def german_side() -> Polygon:
    """The ground the Germans held on the evening of 5 Sep: north-east of the front line."""
    front = [grid.km_of(lat, lon) for lat, lon in map_data.FRONT_5_SEP]
    (_, y_north), (x_east, _) = grid.km_of(grid.NORTH + 1, 0), grid.km_of(0, grid.EAST + 1)
    east_end, west_end = front[-1], front[0]
    return Polygon(front + [(x_east, east_end[1]), (x_east, y_north), (west_end[0], y_north)])


def army_zones() -> dict[str, list[str]]:
    """Each army's set-up zone: on its side of the 5 Sep front, the hexes nearest one of its divisions
    (a hex holding a division goes to that division's army, the nearest one's if it holds several)."""
    german = german_side()
    zones: dict[str, list[str]] = {z: [] for z in list(map_data.GERMAN_ARMIES) + list(map_data.ALLIED_ARMIES)}
    placed = {side: {zone: [(grid.hex_of(*p), grid.km_of(*p)) for p in points] for zone, points in armies.items()}
              for side, armies in (("de", map_data.GERMAN_ARMIES), ("fr", map_data.ALLIED_ARMIES))}
    for h in all_hexes():
        label, centre = grid.label(*h), grid.centre_km(*h)
        armies = placed["de" if german.contains(Point(centre)) else "fr"]
        within = {zone: [km for where, km in points if where == label] for zone, points in armies.items()}
        candidates = {zone: kms for zone, kms in within.items() if kms} or {
            zone: [km for _, km in points] for zone, points in armies.items()}
        nearest = min(candidates, key=lambda zone: min(math.dist(centre, km) for km in candidates[zone]))
        zones[nearest].append(label)
    return zones


def entry_zones() -> dict[str, list[str]]:
    """The Pursuit's entry areas: the north edge shared between the armies by where they stood on
    30–31 Aug (each hex to the army whose longitude is nearest); the east edge, which 11.4.1.2.1A
    narrows in play to the hexes north of the German line (movement { entry_blocked }), and the
    hexes east of the column of Suippes that draw that line."""
    zones: dict[str, list[str]] = {}
    for references in (map_data.GERMAN_ENTRY_LONGITUDES, map_data.ALLIED_ENTRY_LONGITUDES):
        for zone in references:
            zones[zone] = []
        for column in grid.COLUMNS:
            lon = grid.lat_lon(grid.label(column, 1))[1]
            nearest = min(references, key=lambda zone: (abs(references[zone] - lon), zone))
            zones[nearest].append(grid.label(column, 1))
    zones["entry_de_east"] = [grid.label(grid.COLUMNS.stop - 1, row) for row in grid.ROWS]
    suippes = next(h for name, (h, _vp) in towns().items() if name == "Suippes")
    zones["east_of_suippes"] = [grid.label(column, row) for column in grid.COLUMNS if column > int(suippes[:2])
                                for row in grid.ROWS]
    return zones


def edges() -> dict[str, list[str]]:
    last_column, last_row = grid.COLUMNS.stop - 1, grid.ROWS.stop - 1
    return {
        "north": [grid.label(c, 1) for c in grid.COLUMNS],
        "south": [grid.label(c, last_row) for c in grid.COLUMNS],
        "east": [grid.label(last_column, r) for r in grid.ROWS],
        "west": [grid.label(1, r) for r in grid.ROWS],
    }
