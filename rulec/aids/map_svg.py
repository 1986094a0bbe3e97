"""The map as SVG, drawn from the model's MapDef to fit the chosen paper, or tiled across pages.

The map is scaled to the paper (A4 or Letter) when its hexes stay big enough to
hold a counter and a legible hex number; a bigger map is drawn at that smallest
size and cut into page-sized sections that overlap by OVERLAP, each with its
section number, crop marks and the overlap marked for gluing.

Python works out where everything goes (in points, 1/72 in); the template
`map.svg.j2` only writes the elements. Each hex is one polygon carrying
`data-hex`; each road or river hexside is one element carrying `data-hexside`
and the class `road` or `river`; a road hexside that is also a river hexside
gets a bridge mark too.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace

from rulec.aids import geometry
from rulec.aids.environment import environment, humanize, number
from rulec.aids.palette import TerrainStyle, hue_colour, terrain_style
from rulec.runtime.model import Game, MapDef

POINTS_PER_UNIT = {"in": 72.0, "mm": 72 / 25.4, "cm": 72 / 2.54, "pt": 1.0}
DEFAULT_SHEET = (8.5 * 72, 11 * 72)
MARGIN = 0.3 * 72
TITLE_HEIGHT = 0.45 * 72
LEGEND_HEIGHT = 1.35 * 72
SQRT3 = math.sqrt(3)
MIN_UNIT = 27.0  # points from a hex's centre to a corner: a 5/8 in counter fits, hex numbers print at 5.4 pt
TILE_MARGIN = 0.35 * 72  # unprinted border of a map section's page
TILE_HEADER = 14.0  # the section's label above it
OVERLAP = 0.5 * 72  # how much neighbouring sections share, for gluing
SCALE_BAR_HEXES = 5
_SCALE = re.compile(r"1\s*hex\s*=\s*([\d.]+)\s*(km|kilometres|kilometers|miles|mi|metres|meters|m|yards|yds)\b",
                    re.IGNORECASE)
_SHEET = re.compile(r"^\s*([\d.]+)\s*(in|mm|cm|pt)\s*[x×]\s*([\d.]+)\s*(in|mm|cm|pt)\s*$", re.IGNORECASE)


def parse_sheet(text: str) -> tuple[float, float] | None:
    """'8.5in x 11in' -> (612.0, 792.0) points; None if the text is not a size."""
    match = _SHEET.match(text or "")
    if not match:
        return None
    width, width_unit, height, height_unit = match.groups()
    return float(width) * POINTS_PER_UNIT[width_unit.lower()], float(height) * POINTS_PER_UNIT[height_unit.lower()]


@dataclass(frozen=True)
class HexShape:
    hex: str
    points: str
    terrain: tuple[str, ...]
    fill: str
    number_at: tuple[float, float]


@dataclass(frozen=True)
class Line:
    key: str  # data-hexside, or "hex:direction" for an edge exit
    x1: float
    y1: float
    x2: float
    y2: float
    feature: str = ""  # for hexside features other than roads and rivers


@dataclass(frozen=True)
class Label:
    lines: tuple[str, ...]
    x: float
    y: float
    rotate: float = 0.0


@dataclass(frozen=True)
class Symbol:
    kind: str  # a palette symbol: city, town, fort, label
    terrain: str
    text: str
    x: float
    y: float


@dataclass(frozen=True)
class ZoneOutline:
    id: str
    name: str
    path: str
    colour: str
    dash: str


@dataclass(frozen=True)
class LegendEntry:
    id: str
    name: str
    style: TerrainStyle


@dataclass(frozen=True)
class ScaleBar:
    x: float
    y: float
    pitch: float  # points from one hex centre to the next
    hexes: int
    distance: str  # what the bar's length is on the ground, e.g. "20 km", or ""


@dataclass(frozen=True)
class MapDrawing:
    title: str
    width: float
    height: float
    width_attr: str
    height_attr: str
    unit: float  # points per hex unit: a hex's centre-to-corner distance
    hexes: tuple[HexShape, ...]
    roads: tuple[Line, ...]
    road_exits: tuple[Line, ...]
    rivers: tuple[Line, ...]
    bridges: tuple[Line, ...]
    other_sides: tuple[Line, ...]  # hexsides with a feature that is neither road nor river
    other_features: tuple[tuple[str, str], ...]  # (id, name) of those features, for the key
    symbols: tuple[Symbol, ...]
    places: tuple[Label, ...]
    zones: tuple[ZoneOutline, ...]
    edge_path: str
    edge_labels: tuple[Label, ...]
    terrain_legend: tuple[LegendEntry, ...]
    legend_top: float
    # One outline per base terrain, filled with its black-and-white marks: a few pattern fills
    # print far faster than one per hex.
    terrain_marks: tuple[tuple[str, str], ...]
    scale_bar: ScaleBar
    notice: str = ""  # the game's reconstruction notice, under the title


@dataclass(frozen=True)
class Tile:
    """One printed page of the map: the window of the drawing it shows, and how it joins its neighbours."""

    number: int
    row: int
    column: int
    x: float  # the window, in the drawing's points
    y: float
    width: float
    height: float
    page_width: float
    page_height: float
    label: str  # printed above the section; the instructions to assemble are in the aids' notes
    overlaps: tuple[tuple[float, float, float, float], ...]  # dashed lines where a neighbour's window begins

    @property
    def view(self) -> str:
        return " ".join(number(v) for v in (self.x - TILE_MARGIN, self.y - TILE_MARGIN - TILE_HEADER,
                                             self.page_width, self.page_height))


@dataclass(frozen=True)
class MapPrint:
    drawing: MapDrawing
    tiles: tuple[Tile, ...]  # one when the map fits its page (then the drawing is the page)


def _wrap(name: str, width: int = 13) -> tuple[str, ...]:
    """A place name on one line, or two balanced lines when it is long."""
    words = name.split()
    if len(name) <= width or len(words) == 1:
        return (name,)
    best = min(range(1, len(words)), key=lambda i: abs(len(" ".join(words[:i])) - len(" ".join(words[i:]))))
    return " ".join(words[:best]), " ".join(words[best:])


def _path(segments: list[tuple[tuple[float, float], tuple[float, float]]]) -> str:
    return " ".join(f"M{number(a[0])} {number(a[1])}L{number(b[0])} {number(b[1])}" for a, b in segments)


_DASHES = ("6 3", "2 2", "8 2 2 2", "4 4", "1 3", "10 3 2 3 2 3")


@dataclass(frozen=True)
class _Placement:
    """Where hex-grid points fall on the sheet: a scale (points per hex unit) and an offset."""

    map_def: MapDef
    unit: float
    left: float
    top: float

    def at(self, point: geometry.Point) -> tuple[float, float]:
        return round(self.left + point[0] * self.unit, 2), round(self.top + point[1] * self.unit, 2)

    def centre(self, hex_id: str) -> tuple[float, float]:
        return self.at(geometry.centre(self.map_def.grid, *self.map_def.coordinates[hex_id]))


def _placement(map_def: MapDef, width: float, height: float) -> _Placement:
    """The largest scale that fits the hexes between the title, the key and the edge labels."""
    box = geometry.bounds(map_def)
    room_w = width - 2 * MARGIN - 24
    room_h = height - 2 * MARGIN - TITLE_HEIGHT - LEGEND_HEIGHT - 24
    unit = min(room_w / box.width, room_h / box.height)
    left = (width - box.width * unit) / 2 - box.left * unit
    top = MARGIN + TITLE_HEIGHT + 12 + (room_h - box.height * unit) / 2 - box.top * unit
    return _Placement(map_def, unit, left, top)


def _hex_layer(game: Game, place: _Placement):
    """Hex polygons, feature symbols, place names, and one marks outline per base terrain."""
    map_def, unit = place.map_def, place.unit
    hexes, symbols, places = [], [], []
    outlines: dict[str, list[str]] = {}
    for hex_id in map_def.hexes:
        corners = [place.at(p) for p in geometry.corners(map_def.grid, *map_def.coordinates[hex_id])]
        x, y = place.centre(hex_id)
        terrain = map_def.terrain[hex_id]
        hexes.append(HexShape(hex_id, " ".join(f"{px:g},{py:g}" for px, py in corners), terrain,
                              terrain_style(terrain[0]).fill, (x, round(y - 0.62 * unit, 2))))
        outlines.setdefault(terrain[0], []).append("M" + "L".join(f"{px:g} {py:g}" for px, py in corners) + "Z")
        for feature in terrain[1:]:
            name = game.terrain[feature].name if feature in game.terrain else feature
            symbols.append(Symbol(terrain_style(feature).symbol or "label", feature, name[:4], x, y))
        if hex_id in map_def.places:
            places.append(Label(_wrap(map_def.places[hex_id]), x, round(y + 0.42 * unit, 2)))
    marks = tuple((t, "".join(outlines[t])) for t in sorted(outlines) if terrain_style(t).pattern != "none")
    return tuple(hexes), tuple(symbols), tuple(places), marks


def _hexside_layer(game: Game, place: _Placement):
    """Roads (centre to centre across the hexside), rivers (along it) and bridges (both)."""
    map_def = place.map_def
    kinds = {t.id: t.kind for t in game.hexside_types.values()}
    roads, rivers, bridges, others = [], [], [], []
    for key in sorted(map_def.hexside_features):
        features = map_def.hexside_features[key]
        a, b = key.split("/")
        (ax, ay), (bx, by) = place.centre(a), place.centre(b)
        has_road = any(kinds.get(f) == "road" for f in features)
        has_river = any(kinds.get(f) == "river" for f in features)
        if has_road:
            roads.append(Line(key, ax, ay, bx, by))
        first, second = (place.at(p) for p in geometry.side_between(map_def, a, b))
        if has_river:
            rivers.append(Line(key, *first, *second))
        for feature in features:
            if kinds.get(feature) not in ("road", "river"):
                others.append(Line(key, *first, *second, feature=feature))
        if has_road and has_river:
            # A short deck along the road where it crosses the river.
            mx, my = (ax + bx) / 2, (ay + by) / 2
            length = math.hypot(bx - ax, by - ay)
            ux, uy = (bx - ax) / length * 0.22 * place.unit, (by - ay) / length * 0.22 * place.unit
            bridges.append(Line(key, round(mx - ux, 2), round(my - uy, 2), round(mx + ux, 2), round(my + uy, 2)))
    road_exits = []
    for hex_id in sorted(map_def.edge_exits):
        column, row = map_def.coordinates[hex_id]
        for direction, features in sorted(map_def.edge_exits[hex_id].items()):
            if any(kinds.get(f) == "road" for f in features):
                x, y = place.centre(hex_id)
                ex, ey = place.at(geometry.midpoint(*geometry.side_towards(map_def.grid, column, row, direction)))
                # Run the road a little past the edge so it visibly leaves the map.
                road_exits.append(Line(f"{hex_id}:{direction}", x, y, round(ex + (ex - x) * 0.35, 2),
                                       round(ey + (ey - y) * 0.35, 2)))
    return tuple(roads), tuple(rivers), tuple(bridges), tuple(others), tuple(road_exits)


def _zones(place: _Placement) -> tuple[ZoneOutline, ...]:
    zones = []
    for index, (zone, members) in enumerate(sorted(place.map_def.zones.items())):
        segments = [(place.at(a), place.at(b)) for a, b in geometry.outline(place.map_def, members)]
        zones.append(ZoneOutline(zone, humanize(zone), _path(segments),
                                 hue_colour("zone:" + zone, 0.8, 0.38), _DASHES[index % len(_DASHES)]))
    return tuple(zones)


def _edge_labels(place: _Placement) -> tuple[Label, ...]:
    """Each named edge's name outside the hexes, on the side its off-map directions face."""
    map_def, grid = place.map_def, place.map_def.grid
    box = geometry.bounds(map_def)
    left, top = place.at((box.left, box.top))
    right, bottom = place.at((box.right, box.bottom))
    labels = []
    for edge, members in sorted(map_def.edges.items()):
        points = [place.centre(h) for h in members]
        mean_x, mean_y = sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)
        column, row = map_def.coordinates[members[0]]
        cx, cy = geometry.centre(grid, column, row)
        out_x = out_y = 0.0
        for direction in map_def.edge_directions.get(edge, ()):
            nx, ny = geometry.centre(grid, *geometry.neighbours(grid, column, row)[direction])
            out_x, out_y = out_x + nx - cx, out_y + ny - cy
        text = (humanize(edge) + " edge",)
        if abs(out_x) >= abs(out_y):
            x = left - 10 if out_x < 0 else right + 10
            labels.append(Label(text, round(x, 2), round(mean_y, 2), -90 if out_x < 0 else 90))
        else:
            labels.append(Label(text, round(mean_x, 2), round(top - 8 if out_y < 0 else bottom + 14, 2)))
    return tuple(labels)


def ground_distance(scale: str, hexes: int) -> str:
    """'1 hex = 4 km across' and 5 hexes -> '20 km'; '' when the scale text gives no distance per hex."""
    match = _SCALE.search(scale or "")
    if not match:
        return ""
    try:
        per_hex = float(match.group(1))
    except ValueError:
        return ""
    return f"{number(per_hex * hexes)} {match.group(2)}"


def _scale_bar(game: Game, place: _Placement, width: float) -> ScaleBar:
    pitch = SQRT3 * place.unit  # centre to centre of neighbouring hexes, on either grid
    hexes = SCALE_BAR_HEXES
    while hexes > 1 and hexes * pitch > width / 4:
        hexes -= 1
    # Top right, beside the title: the key along the bottom has no room to spare.
    x = width - MARGIN - 12 - hexes * pitch
    return ScaleBar(round(x, 2), round(MARGIN + 22, 2), round(pitch, 2), hexes, ground_distance(game.info.scale, hexes))



def sheet_for(map_def: MapDef, unit: float) -> tuple[float, float]:
    """The sheet that holds the map drawn at `unit` points per hex unit (the inverse of _placement)."""
    box = geometry.bounds(map_def)
    return (box.width * unit + 2 * MARGIN + 24 + 0.01,
            box.height * unit + 2 * MARGIN + TITLE_HEIGHT + LEGEND_HEIGHT + 24 + 0.01)


def for_paper(game: Game, paper: tuple[float, float]) -> MapPrint:
    """The map on `paper` (width, height in points): on one page if its hexes stay big enough, else tiled."""
    map_def = game.map
    assert map_def is not None, "for_paper() needs a map game"
    width, height = paper
    if _placement(map_def, width, height).unit >= MIN_UNIT:
        drawing = draw(game, paper)
        return MapPrint(drawing, (Tile(1, 1, 1, 0, 0, width, height, width, height, "", ()),))
    big_width, big_height = sheet_for(map_def, MIN_UNIT)
    drawing = draw(game, (max(big_width, width), max(big_height, height)))
    return MapPrint(drawing, tiles(drawing.width, drawing.height, paper))


def tiles(width: float, height: float, paper: tuple[float, float]) -> tuple[Tile, ...]:
    """Cut a drawing of width x height points into page-sized windows that overlap by OVERLAP or more.

    As few windows as overlapping by OVERLAP needs, spread evenly over the drawing: the last row and
    column share the drawing with the others instead of holding a sliver of it on a blank page."""
    room_w = paper[0] - 2 * TILE_MARGIN
    room_h = paper[1] - 2 * TILE_MARGIN - TILE_HEADER
    columns = max(1, math.ceil((width - OVERLAP) / (room_w - OVERLAP)))
    rows = max(1, math.ceil((height - OVERLAP) / (room_h - OVERLAP)))
    step_x = (width - room_w) / (columns - 1) if columns > 1 else 0.0  # at most room_w - OVERLAP
    step_y = (height - room_h) / (rows - 1) if rows > 1 else 0.0
    found = []
    for row in range(rows):
        for column in range(columns):
            x, y = column * step_x, row * step_y
            overlaps: list[tuple[float, float, float, float]] = []
            if column + 1 < columns:  # where the right neighbour's window begins
                overlaps.append((x + step_x, y, x + step_x, y + room_h))
            if row + 1 < rows:
                overlaps.append((x, y + step_y, x + room_w, y + step_y))
            number_ = row * columns + column + 1
            label = f"Map section {number_} of {rows * columns} (row {row + 1}, column {column + 1}): glue over dashed lines"
            found.append(Tile(number_, row + 1, column + 1, round(x, 2), round(y, 2), round(room_w, 2),
                              round(room_h, 2), paper[0], paper[1], label,
                              tuple((round(a, 2), round(b, 2), round(c, 2), round(d, 2)) for a, b, c, d in overlaps)))
    return tuple(found)


def draw(game: Game, sheet: tuple[float, float] | None = None) -> MapDrawing:
    """Everything the map template writes, placed on a sheet (default: the game's own map sheet)."""
    map_def = game.map
    assert map_def is not None, "draw() needs a map game"
    width, height = sheet or parse_sheet(map_def.sheet) or DEFAULT_SHEET
    place = _placement(map_def, width, height)
    hexes, symbols, places, marks = _hex_layer(game, place)
    roads, rivers, bridges, other_sides, road_exits = _hexside_layer(game, place)
    edge_segments = [(place.at(a), place.at(b)) for a, b in geometry.outline(map_def, map_def.hexes)]
    order = list(game.terrain)
    used = sorted({t for terrain in map_def.terrain.values() for t in terrain},
                  key=lambda t: order.index(t) if t in game.terrain else len(order))
    legend = tuple(LegendEntry(t, game.terrain[t].name if t in game.terrain else t, terrain_style(t)) for t in used)
    return MapDrawing(
        title=game.info.title, notice=game.info.reconstruction_notice, width=round(width, 2), height=round(height, 2),
        width_attr=f"{number(width / 72, 3)}in", height_attr=f"{number(height / 72, 3)}in",
        unit=round(place.unit, 3), hexes=hexes, roads=roads, road_exits=road_exits, rivers=rivers,
        bridges=bridges, other_sides=other_sides,
        other_features=tuple((f, game.hexside_types[f].name if f in game.hexside_types else humanize(f))
                             for f in sorted({line.feature for line in other_sides})),
        symbols=symbols, places=places, zones=_zones(place), edge_path=_path(edge_segments),
        edge_labels=_edge_labels(place), terrain_legend=legend,
        legend_top=round(height - MARGIN - LEGEND_HEIGHT, 2), terrain_marks=marks,
        scale_bar=_scale_bar(game, place, width),
    )


def within(drawing: MapDrawing, tile: Tile) -> MapDrawing:
    """The drawing less what lies wholly outside the tile's window (with a hex of slack): each section
    of a tiled map carries its own hexes, not the whole map clipped."""
    slack = 2 * drawing.unit
    left, top, right, bottom = tile.x - slack, tile.y - slack, tile.x + tile.width + slack, tile.y + tile.height + slack

    def inside(x: float, y: float) -> bool:
        return left <= x <= right and top <= y <= bottom

    def line_inside(line: Line) -> bool:
        return inside(line.x1, line.y1) or inside(line.x2, line.y2)

    hexes = tuple(h for h in drawing.hexes if inside(*h.number_at))
    marks = []
    for terrain, _ in drawing.terrain_marks:
        outlines = ["M" + "L".join(p.replace(",", " ") for p in h.points.split()) + "Z"
                    for h in hexes if h.terrain[0] == terrain]
        if outlines:
            marks.append((terrain, "".join(outlines)))
    return replace(
        drawing, hexes=hexes, terrain_marks=tuple(marks),
        roads=tuple(filter(line_inside, drawing.roads)), rivers=tuple(filter(line_inside, drawing.rivers)),
        bridges=tuple(filter(line_inside, drawing.bridges)), other_sides=tuple(filter(line_inside, drawing.other_sides)),
        road_exits=tuple(filter(line_inside, drawing.road_exits)),
        symbols=tuple(s for s in drawing.symbols if inside(s.x, s.y)),
        places=tuple(p for p in drawing.places if inside(p.x, p.y)),
    )


def render_map_svg(game: Game, standalone: bool = True, drawing: MapDrawing | None = None,
                   tile: Tile | None = None) -> str:
    """The map as an SVG document (standalone) or as an <svg> element to embed in HTML;
    with `tile`, only that section of it, on a page of its own (ids made unique per section)."""
    drawing = drawing or draw(game)
    if tile is not None and tile.label:
        drawing = within(drawing, tile)
    return environment().get_template("map.svg.j2").render(map=drawing, game=game,
                                                          standalone=standalone, tile=tile,
                                                          prefix=f"s{tile.number}-" if tile else "")
