"""Rivers along hexsides: each river's waypoints joined by a chain of hex edges.

The corners of the hexes form a graph whose edges are the hexsides. A river is drawn by snapping
each waypoint to the nearest corner and joining consecutive corners by the cheapest path along
hexsides, where a hexside costs more the farther it lies from the straight line between the two
waypoints (so the chain hugs the real course). Loops the snapping makes are cut, so a river is a
simple chain. A tributary ends on a corner of the river it flows into and touches no other river
before; no hexside belongs to two rivers, and none lies between two hexes of one city.
"""

from __future__ import annotations

import math

import networkx as nx
from shapely.geometry import LineString, Point

import grid

# Corners on an integer lattice: x in quarters of a hex's width (R/2), y in halves of its height.
# A flat-topped hex of circumradius R has corners at (±R, 0) and (±R/2, ±H/2).
HALF_R_KM = grid.HEX_KM / math.sqrt(3) / 2
HALF_H_KM = grid.HEX_KM / 2
_CORNERS = [(2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1)]   # around the hex, in order

Hex = tuple[int, int]
Corner = tuple[int, int]


def _centre_lattice(column: int, row: int) -> Corner:
    return 3 * (column - 1), 2 * (row - 1) + (1 if column % 2 == 0 else 0)


def corner_km(corner: Corner) -> tuple[float, float]:
    return corner[0] * HALF_R_KM, corner[1] * HALF_H_KM


def hexside_graph() -> nx.Graph:
    """Every hexside between two hexes of the map, as an edge between its two corners (attribute `hexes`)."""
    sides: dict[frozenset, list[Hex]] = {}
    for column in range(grid.COLUMNS.start - 1, grid.COLUMNS.stop + 1):
        for row in range(grid.ROWS.start - 1, grid.ROWS.stop + 1):
            cx, cy = _centre_lattice(column, row)
            corners = [(cx + dx, cy + dy) for dx, dy in _CORNERS]
            for i in range(6):
                sides.setdefault(frozenset((corners[i], corners[(i + 1) % 6])), []).append((column, row))
    graph = nx.Graph()
    for key in sorted(sides, key=sorted):
        hexes = sides[key]
        if len(hexes) == 2 and all(grid.on_map(*h) for h in hexes):
            a, b = sorted(key)
            graph.add_edge(a, b, hexes=tuple(sorted(hexes)))
    return graph


def hexside_label(hexes: tuple[Hex, Hex]) -> str:
    return "/".join(grid.label(*h) for h in hexes)


def _on_map_run(points: list[tuple[str, float, float]]) -> list[tuple[float, float]]:
    """The waypoints in km, the course cut where it leaves the map (its longest stretch on the map).

    The course is walked in steps of half a km; the stretch keeps its waypoints and gains its two ends
    (where it crosses the map's edge) as waypoints.
    """
    line = [grid.km_of(lat, lon) for _, lat, lon in points]
    walked: list[tuple[float, float]] = []
    waypoints: set[int] = set()                 # indices in `walked` of the data file's waypoints
    for (x0, y0), (x1, y1) in zip(line, line[1:]):
        waypoints.add(len(walked))
        steps = max(1, math.ceil(math.dist((x0, y0), (x1, y1)) / 0.5))
        walked += [(x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps) for i in range(steps)]
    waypoints.add(len(walked))
    walked.append(line[-1])
    stretches: list[list[int]] = []
    for i, point in enumerate(walked):
        if _km_on_map(point):
            if stretches and stretches[-1][-1] == i - 1:
                stretches[-1].append(i)
            else:
                stretches.append([i])
    kept = max(stretches, key=len)
    chosen = sorted({kept[0], kept[-1]} | (waypoints & set(kept)))
    return [walked[i] for i in chosen]


def _km_on_map(point: tuple[float, float]) -> bool:
    x, y = point
    lat = grid.NORTH - y / grid.KM_PER_LAT
    lon = grid.WEST + x / grid.KM_PER_LON
    return grid.hex_of(lat, lon) is not None


def _nearest_corner(candidates: list[Corner], point: tuple[float, float]) -> Corner:
    return min(candidates, key=lambda c: (math.dist(corner_km(c), point), c))


def _route(graph: nx.Graph, start: Corner, end: Corner, a: tuple[float, float], b: tuple[float, float]) -> list[Corner]:
    """The cheapest chain of hexsides from corner to corner: a hexside costs 1 plus the square of its
    distance (in half hex heights) from the course between the two waypoints a and b."""
    segment = LineString([a, b]) if a != b else Point(a)

    def cost(u: Corner, v: Corner, _data: dict) -> float:
        (ux, uy), (vx, vy) = corner_km(u), corner_km(v)
        off = segment.distance(Point((ux + vx) / 2, (uy + vy) / 2)) / HALF_H_KM
        return 1.0 + off * off

    return nx.dijkstra_path(graph, start, end, weight=cost)


def _without_loops(walk: list[Corner]) -> list[Corner]:
    chain: list[Corner] = []
    seen: dict[Corner, int] = {}
    for corner in walk:
        if corner in seen:                      # a loop back to a corner already passed: cut it
            for dropped in chain[seen[corner] + 1:]:
                del seen[dropped]
            del chain[seen[corner] + 1:]
            continue
        seen[corner] = len(chain)
        chain.append(corner)
    return chain


def draw_rivers(rivers: dict[str, dict], order: list[str], cities: list[list[str]] = ()) -> dict[str, list[tuple[Hex, Hex]]]:
    """Each river's hexsides, upstream to downstream, as pairs of (column, row).

    No river runs between two hexes of one city (`cities`: each city's hex labels): a city lies on one bank.
    """
    full = hexside_graph()
    for hexes in cities:
        inside = set(hexes)
        full.remove_edges_from([(u, v) for u, v, sides in full.edges(data="hexes")
                                if all(grid.label(*h) in inside for h in sides)])
    drawn: dict[str, list[Corner]] = {}
    result: dict[str, list[tuple[Hex, Hex]]] = {}
    for river_id in order:
        spec = rivers[river_id]
        parent = spec["joins"]
        taken = {c for chain in drawn.values() for c in chain}
        graph = full.copy()
        graph.remove_nodes_from(taken)          # no river touches another ...
        points = _on_map_run(spec["points"])
        start = _nearest_corner(list(graph.nodes), points[0])
        region = nx.node_connected_component(graph, start)     # the bank of the rivers drawn so far it starts on
        reachable = sorted(region)
        corners = [_nearest_corner(reachable, p) for p in points]
        if parent is not None:                  # ... except a tributary at its mouth, on its parent
            open_mouths = [c for c in drawn[parent] if any(n in region for n in full.neighbors(c))]
            mouth = _nearest_corner(open_mouths, points[-1])
            graph.add_node(mouth)
            for neighbour in full.neighbors(mouth):
                if neighbour in region:
                    graph.add_edge(mouth, neighbour, **full.edges[mouth, neighbour])
            corners[-1] = mouth
        walk = [corners[0]]
        for (start, end), (a, b) in zip(zip(corners, corners[1:]), zip(points, points[1:])):
            if start != end:
                walk += _route(graph, start, end, a, b)[1:]
        chain = _without_loops(walk)
        drawn[river_id] = chain
        result[river_id] = [full.edges[u, v]["hexes"] for u, v in zip(chain, chain[1:])]
    return result
