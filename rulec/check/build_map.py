"""Build the map section: the grid, the map picture, hexside sets, edges, zones and hex references.

A mixin of rulec.check.build.Builder: the methods report through the
builder's `error`/`reference` and read the document through `get`.
"""

from __future__ import annotations

from typing import Any

from rulec.check import hexgrid
from rulec.check.fields import counted, plain
from rulec.diagnostics import Diagnostic, Span, did_you_mean
from rulec.language.document import Path
from rulec.runtime import model as m

EDGE_DIRECTIONS = {
    "flat_top": {"north": ("n", "ne", "nw"), "south": ("s", "se", "sw"), "east": ("ne", "se"), "west": ("nw", "sw")},
    "pointy_top": {"north": ("ne", "nw"), "south": ("se", "sw"), "east": ("e", "ne", "se"), "west": ("w", "nw", "sw")},
}


MAX_MAP_SIDE = 200  # columns or rows; a bigger map is a typo, not a game


class MapSections:
    """The map section and everything that names hexes."""

    grid: m.HexGrid | None
    hexes: set[str]

    def map(self) -> m.MapDef | None:
        body = self.data["map"]
        columns = self.int_range(body.get("columns"), ("map", "columns"))
        rows = self.int_range(body.get("rows"), ("map", "rows"))
        if not columns or not rows:
            return None
        numbering = body.get("numbering", "CCRR")
        for (low, high), what, letter, key in ((columns, "columns", "C", "columns"), (rows, "rows", "R", "rows")):
            largest = 10 ** numbering.count(letter) - 1
            if 0 <= high < low <= largest:
                self.error("map-size", f"map {what} {low}..{high} run backwards", ("map", key), hint=f"write {high}..{low}")
                return None
            if low < 0 or low > high or high > largest or high - low >= MAX_MAP_SIDE:
                self.error("map-size", f"map {what} {low}..{high} do not fit: expected a range from low to high of at most "
                           f"{MAX_MAP_SIDE} {what}, numbered with {numbering.count(letter)} digits ({numbering})", ("map", key))
                return None
        grid = m.HexGrid(orientation=body.get("orientation", "flat_top"), offset=body.get("offset", "even_columns_down"),
                         numbering=body.get("numbering", "CCRR"), columns=columns, rows=rows)
        self.grid = grid
        positions = hexgrid.all_hexes(grid)
        hexes = [hexgrid.hex_number(grid, c, r) for c, r in positions]
        self.hexes = set(hexes)
        coordinates = {hexgrid.hex_number(grid, c, r): (c, r) for c, r in positions}
        neighbours: dict[str, dict[str, str]] = {}
        off_map: dict[str, tuple[str, ...]] = {}
        for (c, r), number in zip(positions, hexes):
            around = hexgrid.neighbours(grid, c, r)
            neighbours[number] = {d: hexgrid.hex_number(grid, *p) for d, p in around.items() if hexgrid.on_map(grid, *p)}
            off_map[number] = tuple(d for d, p in around.items() if not hexgrid.on_map(grid, *p))

        terrain = self.terrain_picture(body, hexes)
        for feature, listed in body.get("features", {}).items():
            for i, number in enumerate(self.hex_list(listed, ("map", "features", feature))):
                if number in terrain:
                    terrain[number] = terrain[number] + (feature,)
        places = {}
        for key, name in body.get("places", {}).items():
            number = self.hex_ref(key, ("map", "places", key), key=True)
            if number:
                places[number] = name

        sets, features, exits = self.hexside_sets(body, neighbours, off_map)
        edges = {}
        for edge, listed in body.get("edges", {}).items():
            edges[edge] = tuple(self.hex_list(listed, ("map", "edges", edge)))
        directions = EDGE_DIRECTIONS[grid.orientation]
        edge_directions = {}
        for edge, members in edges.items():
            if edge in directions:
                edge_directions[edge] = directions[edge]
            else:
                edge_directions[edge] = tuple(sorted({d for h in members for d in off_map.get(h, ())}))
            for number in members:
                if not off_map.get(number):
                    self.error("edge-not-on-edge", f"hex {number} of edge '{edge}' is not on the map edge", ("map", "edges", edge))
        zones = {zone: tuple(self.hex_list(listed, ("map", "zones", zone))) for zone, listed in body.get("zones", {}).items()}
        return m.MapDef(grid=grid, hexes=tuple(hexes), coordinates=coordinates, neighbours=neighbours, terrain=terrain,
                        places=places, hexside_sets=tuple(sets), hexside_features=features, edge_exits=exits,
                        edges=edges, edge_directions=edge_directions, zones=zones, sheet=body.get("sheet", ""))

    def terrain_picture(self, body: dict, hexes: list[str]) -> dict[str, tuple[str, ...]]:
        """Read the map picture: a header of column numbers, then a row number and one legend letter per column."""
        default = body.get("default_terrain")
        terrain = {h: (default,) for h in hexes} if default else {}
        picture = body.get("terrain")
        if picture is None:
            if not default:
                self.error("no-terrain", "the map needs 'terrain' (a picture) or 'default_terrain'", ("map",))
            return terrain
        legend = body.get("legend", {})
        path = ("map", "terrain")
        start = self.doc.span(path)
        lines = picture.split("\n")
        header: list[int] | None = None
        for offset, line in enumerate(lines):
            cells = line.split()
            if not cells:
                continue
            line_number = (start.line + offset) if start else 0

            def here(cell_index: int | None = None) -> Span | None:
                if not start:
                    return None
                column = 1
                if cell_index is not None:
                    column = _cell_column(line, cell_index) + (start.column + 2 if offset == 0 else 0)
                return Span(start.file, line_number, column)

            if header is None:
                if not all(c.isdigit() for c in cells):
                    self.diagnostics.append(Diagnostic("map-picture", "the map picture must start with a line of column numbers", here()))
                    return terrain
                header = [int(c) for c in cells]
                continue
            row_text, *letters = cells
            if not row_text.isdigit():
                self.diagnostics.append(Diagnostic("map-picture", f"expected a row number, found '{row_text}'", here(0)))
                continue
            if len(letters) != len(header):
                # Point at the first letter too many, or at the row number when letters are missing.
                too_many = len(letters) > len(header)
                self.diagnostics.append(Diagnostic(
                    "map-picture", f"row {row_text} has {len(letters)} letters, the header has {len(header)} columns",
                    here(len(header) + 1 if too_many else 0),
                    hint="remove the letters past the last column" if too_many else "give the row one letter per column"))
                continue
            for index, (column, letter) in enumerate(zip(header, letters), start=1):
                number = hexgrid.hex_number(self.grid, column, int(row_text))
                if number not in self.hexes:
                    self.diagnostics.append(Diagnostic("hex-off-map", f"hex {number} is not on the map", here(index),
                                                       hint=self._map_extent()))
                    continue
                if letter not in legend:
                    self.diagnostics.append(Diagnostic("map-picture", f"'{letter}' is not in the map legend", here(index),
                                                       hint=did_you_mean(letter, legend) or f"the legend has: {', '.join(legend)}"))
                    continue
                terrain[number] = (legend[letter],)
        missing = [h for h in hexes if h not in terrain]
        picture_problems = any(d.code in ("map-picture", "hex-off-map") for d in self.diagnostics)
        if missing and not picture_problems:
            rows_left_out = _rows_left_out(self.grid, missing) if self.grid else []
            what = ((f"rows {', '.join(rows_left_out)} are" if len(rows_left_out) > 1 else f"row {rows_left_out[0]} is")
                    + " missing from the picture"
                    if rows_left_out and len(rows_left_out) * (self.grid.columns[1] - self.grid.columns[0] + 1) == len(missing)
                    else f"{counted(len(missing), 'hex', 'hexes')} without terrain (first: {missing[0]})")
            self.error("map-picture", what, path,
                       hint="every hex needs a letter in the picture, or give the map a 'default_terrain'")
        return terrain

    def hexside_sets(self, body: dict, neighbours: dict, off_map: dict):
        sets, features, exits = [], {}, {}
        listed: dict[tuple[str, str], Path] = {}  # (hexside, feature) -> where it was first listed
        for set_id, spec in body.get("hexsides", {}).items():
            path = ("map", "hexsides", set_id)
            feature = spec.get("feature", set_id)
            sides = []
            for i, side in enumerate(spec.get("sides", [])):
                key = self.hexside(side, path + ("sides", i), neighbours)
                if key and (key, feature) in listed:
                    first = self.doc.span(listed[(key, feature)])
                    where = f" (first listed at line {first.line}, column {first.column})" if first else ""
                    self.error("duplicate-hexside", f"hexside {key} is listed twice as '{feature}'{where}", path + ("sides", i),
                               hint="list each hexside once per feature")
                elif key:
                    listed[(key, feature)] = path + ("sides", i)
                    sides.append(key)
                    features[key] = features.get(key, ()) + ((feature,) if feature not in features.get(key, ()) else ())
            set_exits = {}
            for hex_key, directions in spec.get("exits", {}).items():
                number = self.hex_ref(hex_key, path + ("exits", hex_key), key=True)
                directions = directions if isinstance(directions, list) else [directions]
                for direction in directions:
                    if number and direction not in off_map.get(number, ()):
                        self.error("exit-not-off-map", f"hex {number} has no off-map side '{direction}'", path + ("exits", hex_key),
                                   hint=f"its off-map sides are: {', '.join(off_map.get(number, ())) or 'none'}")
                        continue
                    if number:
                        set_exits.setdefault(number, ())
                        set_exits[number] += (direction,)
                        exits.setdefault(number, {})
                        exits[number][direction] = exits[number].get(direction, ()) + (feature,)
            sets.append(m.HexsideSet(id=set_id, feature=feature, name=spec.get("name", ""), sides=tuple(sides), exits=set_exits))
        return sets, features, exits

    def hexside(self, value: Any, path: Path, neighbours: dict) -> str | None:
        if not (isinstance(value, dict) and "$hexside" in value):
            self.error("wrong-type", f"expected a hexside such as 0701/0801, found {plain(value)}", path)
            return None
        a, b = (self.hex_ref(h, path) for h in value["$hexside"])
        if not a or not b:
            return None
        if a == b:
            self.error("hexside-not-adjacent", f"a hexside lies between two hexes, not {a} and itself", path,
                       hint=f"the neighbours of {a} are {', '.join(sorted(neighbours[a].values()))}")
            return None
        if b not in neighbours[a].values():
            self.error("hexside-not-adjacent", f"hexes {a} and {b} are not adjacent", path,
                       hint=f"the neighbours of {a} are {', '.join(sorted(neighbours[a].values()))}")
            return None
        return m.hexside_key(a, b)

    def hex_ref(self, value: Any, path: Path, key: bool = False) -> str | None:
        if self.grid is None:
            return str(value)
        position = hexgrid.parse_hex(self.grid, value)
        if position is None:
            self.error("not-a-hex", f"'{plain(value)}' is not a hex number ({self.grid.numbering})", path, key=key)
            return None
        number = hexgrid.hex_number(self.grid, *position)
        if number not in self.hexes:
            self.error("hex-off-map", f"hex {number} is not on the map", path, key=key, hint=self._map_extent())
            return None
        return number

    def _map_extent(self) -> str | None:
        """'the map's columns are 01 to 05, its rows 01 to 05', for a hex off the map."""
        if self.grid is None:
            return None
        (c1, c2), (r1, r2) = self.grid.columns, self.grid.rows
        first, last = hexgrid.hex_number(self.grid, c1, r1), hexgrid.hex_number(self.grid, c2, r2)
        return f"the map runs from {first} to {last} (columns {c1} to {c2}, rows {r1} to {r2})"

    def hex_list(self, value: Any, path: Path) -> list[str]:
        """Hexes from a hex, a range (the rectangle between two corners), or a list of both."""
        items = value if isinstance(value, list) else [value]
        result: list[str] = []
        for i, item in enumerate(items):
            here = path + (i,) if isinstance(value, list) else path
            if isinstance(item, dict) and "$range" in item:
                low, high = item["$range"]
                if low is None or high is None or self.grid is None:
                    self.error("wrong-type", "a hex range needs both ends", here)
                    continue
                a, b = self.hex_ref(low, here), self.hex_ref(high, here)
                if not a or not b:
                    continue
                (c1, r1), (c2, r2) = hexgrid.parse_hex(self.grid, a), hexgrid.parse_hex(self.grid, b)
                for c in range(min(c1, c2), max(c1, c2) + 1):
                    for r in range(min(r1, r2), max(r1, r2) + 1):
                        result.append(hexgrid.hex_number(self.grid, c, r))
            else:
                number = self.hex_ref(item, here)
                if number:
                    result.append(number)
        return result

    def int_range(self, value: Any, path: Path) -> tuple[int, int] | None:
        if isinstance(value, dict) and "$range" in value:
            low, high = value["$range"]
            if isinstance(low, (int, str)) and isinstance(high, (int, str)) and str(low).isdigit() and str(high).isdigit():
                return int(low), int(high)
        self.error("wrong-type", f"expected a range such as 1..9, found {plain(value)}", path)
        return None

    def check_map_references(self, game_map: m.MapDef, terrain: dict, hexside_types: dict) -> None:
        for key, value in self.get(("map", "legend"), {}).items():
            self.reference(value, terrain, "terrain", ("map", "legend", key))
        if "default_terrain" in self.get(("map",), {}):
            self.reference(self.get(("map", "default_terrain")), terrain, "terrain", ("map", "default_terrain"))
        for feature in self.get(("map", "features"), {}):
            self.reference(feature, terrain, "terrain", ("map", "features", feature), key=True)
        for set_id, spec in self.get(("map", "hexsides"), {}).items():
            self.reference(spec.get("feature", set_id), hexside_types, "hexside feature", ("map", "hexsides", set_id))


def _cell_column(line: str, index: int) -> int:
    """1-based column of the index-th whitespace-separated cell of `line`."""
    seen = -1
    in_cell = False
    for i, ch in enumerate(line):
        if not ch.isspace() and not in_cell:
            seen += 1
            if seen == index:
                return i + 1
        in_cell = not ch.isspace()
    return 1


def _rows_left_out(grid: m.HexGrid, missing: list[str]) -> list[str]:
    """The rows (as the picture numbers them) of which every hex is in `missing`."""
    positions = {hexgrid.parse_hex(grid, number) for number in missing}
    width = grid.columns[1] - grid.columns[0] + 1
    rows = sorted({r for _, r in (p for p in positions if p)})
    digits = grid.numbering.count("R")
    return [str(r).zfill(digits) for r in rows if sum(1 for p in positions if p and p[1] == r) == width]
