"""Build: a schema-valid document -> the game model, checking cross-references.

Each section of the game file has one method here. Every problem becomes a
diagnostic pointing at the file; the builder goes on after a problem so that
one run reports as many as it can.
"""

from __future__ import annotations

from typing import Any, Iterable

from rulec.check import hexgrid
from rulec.check.schema import show
from rulec.compile.expressions import ExpressionCompiler, ExpressionError, to_function
from rulec.diagnostics import Diagnostic, Span, did_you_mean
from rulec.language.document import Document, Path
from rulec.runtime import model as m

EDGE_DIRECTIONS = {
    "flat_top": {"north": ("n", "ne", "nw"), "south": ("s", "se", "sw"), "east": ("ne", "se"), "west": ("nw", "sw")},
    "pointy_top": {"north": ("ne", "nw"), "south": ("se", "sw"), "east": ("e", "ne", "se"), "west": ("w", "nw", "sw")},
}


MAX_MAP_SIDE = 200  # columns or rows; a bigger map is a typo, not a game


class Builder:
    def __init__(self, document: Document):
        self.doc = document
        self.data = document.data
        self.diagnostics: list[Diagnostic] = []
        self.grid: m.HexGrid | None = None
        self.game: m.Game | None = None
        self.hexes: set[str] = set()

    # ------------------------------------------------------------- reporting
    def error(self, code: str, message: str, path: Path, hint: str | None = None, key: bool = False) -> None:
        span = self.doc.key_span(path) if key else self.doc.span(path)
        self.diagnostics.append(Diagnostic(code, message, span, "error", hint))

    def warning(self, code: str, message: str, path: Path, hint: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(code, message, self.doc.span(path), "warning", hint))

    # Codes "wrong-type" below guard shapes the schema already rules out: the builder must never crash, even
    # on a document that skipped the schema.

    def reference(self, value: Any, known: Iterable[str], what: str, path: Path, key: bool = False) -> str | None:
        """Check that `value` names one of `known`; report 'unknown <what>' otherwise."""
        known = list(known)
        if isinstance(value, str) and value in known:
            return value
        self.error(f"unknown-{what.replace(' ', '-')}", f"unknown {what} '{_show(value)}'", path, did_you_mean(str(value), known), key=key)
        return None

    # ----------------------------------------------------------------- game
    def build(self) -> m.Game | None:
        info = self.game_info()
        sides = self.sides()
        game_map = self.map() if "map" in self.data else None
        terrain = self.terrain_types()
        hexside_types = self.hexside_types()
        if game_map:
            self.check_map_references(game_map, terrain, hexside_types)
        unit_types = self.unit_types()
        units = self.units(sides, unit_types, game_map)
        results = self.results()
        tables = self.tables(results)
        sequence = self.sequence(sides)
        constants = self.constants(sides, game_map, terrain, units)
        compiler = ExpressionCompiler(frozenset(constants), self.names_by_kind(sides, game_map, unit_types, units))
        awards = self.awards(sides, game_map, sequence, compiler)
        options = self.options(sides, units)
        game = m.Game(
            info=info,
            sides=sides,
            map=game_map,
            terrain=terrain,
            hexside_types=hexside_types,
            unit_types=unit_types,
            units=units,
            movement=self.movement(sides),
            stacking=self.record(m.StackingRules, ("stacking",)),
            tables=tables,
            results=results,
            combat=self.combat(tables) if "combat" in self.data else None,
            sequence=sequence,
            awards=awards,
            victory=self.victory() if "victory" in self.data else None,
            options=options,
            battle=self.battle() if "battle" in self.data else None,
            source=self.doc.file,
            rule_refs={key: str(ref) for key, ref in self.get(("rule_refs",), {}).items()},
            supply=self.supply(sides, game_map) if "supply" in self.data else None,
        )
        self.game = game  # kept even when there are errors, so later checks can still look at what was built
        return None if any(d.is_error for d in self.diagnostics) else game

    def record(self, cls: type, path: Path, **extra: Any) -> Any:
        """Build a simple dataclass whose fields are written directly in the file."""
        body = self.get(path, {})
        fields = cls.__dataclass_fields__
        values = {}
        for key, value in body.items():
            if key not in fields:
                self.error("unknown-field", f"'{key}' is not a field of {path[-1]}", path + (key,), did_you_mean(key, fields), key=True)
                continue
            values[key] = value
        values.update(extra)
        try:
            return cls(**values)
        except TypeError as error:
            self.error("missing-field", f"{path[-1]}: {error}", path)
            return None

    def get(self, path: Path, default: Any = None) -> Any:
        value: Any = self.data
        for part in path:
            if isinstance(value, dict) and part in value:
                value = value[part]
            elif isinstance(value, list) and isinstance(part, int) and part < len(value):
                value = value[part]
            else:
                return default
        return value

    def game_info(self) -> m.GameInfo:
        games = self.get(("game",), {})
        if len(games) != 1:
            self.error("game-block", "a game file needs exactly one 'game NAME { ... }' block", ("game",))
            return m.GameInfo(id="game", title="")
        (game_id, body), = games.items()
        labels = tuple(body.get("turn_labels", ()))
        turns = body.get("turns", 0)
        if labels and turns and len(labels) != turns:
            self.error("turn-labels", f"{len(labels)} turn labels for {turns} turns", ("game", game_id, "turn_labels"))
        return m.GameInfo(
            id=game_id,
            title=body.get("title", game_id),
            edition=body.get("edition", ""),
            scale=body.get("scale", ""),
            die=body.get("die", 6),
            turns=turns,
            turn_labels=labels,
        )

    def sides(self) -> dict[str, m.Side]:
        return {sid: m.Side(id=sid, name=b.get("name", sid), adjective=b.get("adjective", ""), color=b.get("color", ""))
                for sid, b in self.get(("side",), {}).items()}

    # ------------------------------------------------------------------ map
    def map(self) -> m.MapDef | None:
        body = self.data["map"]
        columns = self.int_range(body.get("columns"), ("map", "columns"))
        rows = self.int_range(body.get("rows"), ("map", "rows"))
        if not columns or not rows:
            return None
        numbering = body.get("numbering", "CCRR")
        for (low, high), what, letter, key in ((columns, "columns", "C", "columns"), (rows, "rows", "R", "rows")):
            largest = 10 ** numbering.count(letter) - 1
            if low > high or high > largest or high - low >= MAX_MAP_SIDE:
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
        hex_vp = {}
        for key, vp in body.get("vp", {}).items():
            number = self.hex_ref(key, ("map", "vp", key), key=True)
            if number:
                hex_vp[number] = vp
        return m.MapDef(grid=grid, hexes=tuple(hexes), coordinates=coordinates, neighbours=neighbours, terrain=terrain,
                        places=places, hexside_sets=tuple(sets), hexside_features=features, edge_exits=exits,
                        edges=edges, edge_directions=edge_directions, zones=zones, sheet=body.get("sheet", ""),
                        hex_vp=hex_vp)

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
                self.diagnostics.append(Diagnostic("map-picture", f"row {row_text} has {len(letters)} hexes, the header has {len(header)} columns", here(0)))
                continue
            for index, (column, letter) in enumerate(zip(header, letters), start=1):
                number = hexgrid.hex_number(self.grid, column, int(row_text))
                if number not in self.hexes:
                    self.diagnostics.append(Diagnostic("hex-off-map", f"hex {number} is not on the map", here(index)))
                    continue
                if letter not in legend:
                    self.diagnostics.append(Diagnostic("map-picture", f"'{letter}' is not in the map legend", here(index),
                                                       hint=did_you_mean(letter, legend) or f"the legend has: {', '.join(legend)}"))
                    continue
                terrain[number] = (legend[letter],)
        missing = [h for h in hexes if h not in terrain]
        picture_problems = any(d.code in ("map-picture", "hex-off-map") for d in self.diagnostics)
        if missing and not picture_problems:
            self.error("map-picture", f"{_count(len(missing), 'hex', 'hexes')} without terrain (first: {missing[0]})", path,
                       hint="every hex needs a letter in the picture, or give the map a 'default_terrain'")
        return terrain

    def hexside_sets(self, body: dict, neighbours: dict, off_map: dict):
        sets, features, exits = [], {}, {}
        for set_id, spec in body.get("hexsides", {}).items():
            path = ("map", "hexsides", set_id)
            feature = spec.get("feature", set_id)
            sides = []
            for i, side in enumerate(spec.get("sides", [])):
                key = self.hexside(side, path + ("sides", i), neighbours)
                if key:
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
            self.error("wrong-type", f"expected a hexside such as 0701/0801, found {_show(value)}", path)
            return None
        a, b = (self.hex_ref(h, path) for h in value["$hexside"])
        if not a or not b:
            return None
        if b not in neighbours[a].values():
            self.error("hexside-not-adjacent", f"hexes {a} and {b} are not adjacent", path)
            return None
        return m.hexside_key(a, b)

    def hex_ref(self, value: Any, path: Path, key: bool = False) -> str | None:
        if self.grid is None:
            return str(value)
        position = hexgrid.parse_hex(self.grid, value)
        if position is None:
            self.error("not-a-hex", f"'{_show(value)}' is not a hex number ({self.grid.numbering})", path, key=key)
            return None
        number = hexgrid.hex_number(self.grid, *position)
        if number not in self.hexes:
            self.error("hex-off-map", f"hex {number} is not on the map", path, key=key)
            return None
        return number

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
        self.error("wrong-type", f"expected a range such as 1..9, found {_show(value)}", path)
        return None

    def check_map_references(self, game_map: m.MapDef, terrain: dict, hexside_types: dict) -> None:
        for key, value in self.get(("map", "legend"), {}).items():
            self.reference(value, terrain, "terrain", ("map", "legend", key))
        for feature in self.get(("map", "features"), {}):
            self.reference(feature, terrain, "terrain", ("map", "features", feature), key=True)
        for set_id, spec in self.get(("map", "hexsides"), {}).items():
            self.reference(spec.get("feature", set_id), hexside_types, "hexside feature", ("map", "hexsides", set_id))

    # ---------------------------------------------------------- TEC
    def terrain_types(self) -> dict[str, m.TerrainType]:
        result = {}
        for tid, body in self.get(("terrain",), {}).items():
            body = dict(body)
            if body.get("move") == "as_other":
                body["move"] = None
            body.setdefault("name", tid.replace("_", " ").title())
            result[tid] = self.record(m.TerrainType, ("terrain", tid), id=tid, **{k: v for k, v in body.items() if k in ("move", "name")})
        return result

    def hexside_types(self) -> dict[str, m.HexsideType]:
        result = {}
        for hid, body in self.get(("hexside",), {}).items():
            extra = {"id": hid}
            if "name" not in body:
                extra["name"] = hid.replace("_", " ").title()
            extra["kind"] = body.get("kind", "river" if hid == "river" else "other")
            result[hid] = self.record(m.HexsideType, ("hexside", hid), **extra)
        return result

    # ---------------------------------------------------------------- units
    def unit_types(self) -> dict[str, m.UnitType]:
        return {tid: self.record(m.UnitType, ("unit_type", tid), id=tid, **_tuples(body, "eliminated_only_by"))
                for tid, body in self.get(("unit_type",), {}).items()}

    def movement(self, sides: dict) -> m.MovementRules:
        for side in self.get(("movement", "blocked_entry_by_side"), {}):
            self.reference(side, sides, "side", ("movement", "blocked_entry_by_side", side), key=True)
        return self.record(m.MovementRules, ("movement",))

    def supply(self, sides: dict, game_map: m.MapDef | None) -> m.SupplyRules:
        """Supply rules; each side's sources are zones or map edges."""
        areas = (set(game_map.zones) | set(game_map.edges)) if game_map else set()
        sources = {}
        for side, listed in self.get(("supply", "sources"), {}).items():
            path = ("supply", "sources", side)
            self.reference(side, sides, "side", path, key=True)
            names = listed if isinstance(listed, list) else [listed]
            for index, name in enumerate(names):
                self.reference(name, sorted(areas), "zone", path + (index,) if isinstance(listed, list) else path)
            sources[side] = tuple(names)
        return self.record(m.SupplyRules, ("supply",), sources=sources)

    def units(self, sides: dict, unit_types: dict, game_map: m.MapDef | None) -> dict[str, m.Unit]:
        improved = self.get(("improved",), {})
        result = {}
        for uid, body in self.get(("unit",), {}).items():
            path = ("unit", uid)
            self.reference(body.get("side"), sides, "side", path + ("side",))
            self.reference(body.get("type"), unit_types, "unit type", path + ("type",))
            setup = self.hex_ref(body["setup"], path + ("setup",)) if "setup" in body else None
            arrives = self.arrival(body["arrives"], path + ("arrives",), game_map) if "arrives" in body else None
            if "setup" not in body and "arrives" not in body:
                self.error("no-setup", f"unit '{uid}' has neither a set-up hex nor an arrival", path, key=True,
                           hint="give it 'setup = HEX' or 'arrives = { turn = N, area = ZONE }'")
            elif "setup" in body and "arrives" in body:
                self.error("setup-and-arrival", f"unit '{uid}' has both a set-up hex and an arrival", path + ("arrives",), key=True)
            better = None
            if uid in improved:
                better = m.Improved(**improved[uid])
            result[uid] = self.record(m.Unit, path, id=uid, setup=setup, arrives=arrives, improved=better,
                                      flags=tuple(body.get("flags", ())), division=str(body.get("division", "")),
                                      designation=str(body.get("designation", uid)),
                                      **({"size": str(body["size"])} if "size" in body else {}))
        for uid in improved:
            if uid not in result:
                self.reference(uid, result, "unit", ("improved", uid), key=True)
        return result

    def arrival(self, body: dict, path: Path, game_map: m.MapDef | None) -> m.Arrival:
        turn = body.get("turn")
        turn = None if turn == "any" else turn
        area = body.get("area")
        hexes: tuple[str, ...] = ()
        if area is not None and game_map is not None:
            known = {**game_map.zones, **game_map.edges}
            if self.reference(area, known, "zone", path + ("area",)):
                hexes = known[area]
        if "hexes" in body:
            hexes = tuple(self.hex_list(body["hexes"], path + ("hexes",)))
        terrain = body.get("terrain", [])
        return m.Arrival(turn=turn, area=area, hexes=hexes, placement=body.get("placement", "edge"),
                         terrain=tuple(terrain if isinstance(terrain, list) else [terrain]),
                         phase=body.get("phase"), locked=body.get("placement") == "anywhere")

    # ---------------------------------------------------------------- combat
    def results(self) -> dict[str, m.ResultCode]:
        return {rid: self.record(m.ResultCode, ("result", rid), id=rid) for rid in self.get(("result",), {})}

    def tables(self, results: dict) -> dict[str, m.CombatTable]:
        tables = {}
        for tid, body in self.get(("crt",), {}).items():
            path = ("crt", tid)
            kind = body.get("kind", "differential")
            raw_columns = body.get("columns", [])
            labels = body.get("labels", [])
            columns = []
            well_formed = True  # gaps and overlaps are only worth reporting between well-formed columns
            for i, column in enumerate(raw_columns):
                ends = self.crt_column(column, path + ("columns", i), kind)
                well_formed = well_formed and ends is not None
                low, high = ends if ends is not None else (None, None)
                label = labels[i] if i < len(labels) else (_column_label(low, high, kind) if ends else show(column))
                columns.append(m.CrtColumn(label=label, low=low, high=high))
            if well_formed:
                self.check_columns(columns, kind, path + ("columns",))
            if len(labels) not in (0, len(raw_columns)):
                self.error("crt-labels", f"{_count(len(labels), 'label')} for {_count(len(raw_columns), 'column')}", path + ("labels",))
            rows = {}
            for roll, codes in body.get("rows", {}).items():
                rpath = path + ("rows", roll)
                if len(codes) != len(columns):
                    self.error("crt-row-length", f"die roll {roll} has {_count(len(codes), 'result')} for {_count(len(columns), 'column')}", rpath)
                for j, code in enumerate(codes):
                    self.reference(code, results, "result code", rpath + (j,))
                rows[int(roll)] = tuple(codes)
            tables[tid] = m.CombatTable(id=tid, kind=kind, columns=tuple(columns), rows=rows, beyond=body.get("beyond", "clamp"))
        return tables

    def crt_column(self, value: Any, path: Path, kind: str) -> tuple[Any, Any] | None:
        """(low, high) of one column (an end is a whole number or a ratio, None when open); None if malformed."""
        def one(end):
            if end is None:
                return None
            if isinstance(end, dict) and "$ratio" in end:
                return tuple(end["$ratio"]) if kind == "odds" else _BAD
            if isinstance(end, int) and not isinstance(end, bool):
                return end if kind == "differential" else _BAD
            return _BAD
        if isinstance(value, dict) and "$range" in value:
            low, high = (one(end) for end in value["$range"])
        else:
            low = high = one(value)
            if low is None:
                low = high = _BAD
        if low is _BAD or high is _BAD:
            expected = "a ratio such as 3:1 or a range of ratios such as 1:2..2:1" if kind == "odds" else "a whole number or a range such as 2..3"
            self.error("crt-column-kind", f"a column of a{'n' if kind == 'odds' else ''} {kind} table is {expected}, found {show(value)}", path)
            return None
        if low is not None and high is not None and _bound(low) > _bound(high):
            self.error("crt-column-order", f"column {show(value)} runs backwards", path, hint="write the lower end first")
            return None
        return low, high

    def check_columns(self, columns: list[m.CrtColumn], kind: str, path: Path) -> None:
        """Columns must follow each other with no gap and no overlap; only the ends may be open."""
        for i, (a, b) in enumerate(zip(columns, columns[1:])):
            if a.high is None or b.low is None:
                self.error("crt-column-open", "only the first column may be open below and only the last open above", path + (i + 1,))
                continue
            if kind == "differential":
                if b.low > a.high + 1:
                    self.error("crt-column-gap", f"columns '{a.label}' and '{b.label}' leave a gap: no column for "
                               f"{_difference_words(a.high + 1, b.low - 1)}", path + (i + 1,))
                elif b.low <= a.high:
                    self.error("crt-column-overlap", f"columns '{a.label}' and '{b.label}' overlap", path + (i + 1,))
            elif _bound(b.low) <= _bound(a.high):
                self.error("crt-column-overlap", f"columns '{a.label}' and '{b.label}' overlap", path + (i + 1,))

    def combat(self, tables: dict) -> m.CombatRules:
        rules = self.record(m.CombatRules, ("combat",), **_tuples(self.data["combat"], "retreat_priorities"))
        if rules:
            self.reference(rules.table, tables, "combat table", ("combat", "table"))
        return rules

    # ------------------------------------------------------- sequence, victory
    def sequence(self, sides: dict) -> tuple[m.Phase, ...]:
        phases = []
        for pid, body in self.get(("sequence", "phase"), {}).items():
            path = ("sequence", "phase", pid)
            if "side" in body:
                self.reference(body["side"], sides, "side", path + ("side",))
            phases.append(self.record(m.Phase, path, id=pid, **({} if "name" in body else {"name": pid})))
        return tuple(phases)

    def constants(self, sides, game_map, terrain, units) -> set[str]:
        names = set(sides) | set(terrain) | set(units)
        if game_map:
            names |= set(game_map.zones) | set(game_map.edges)
        for unit in units.values():
            names |= set(unit.flags)
        return names

    def names_by_kind(self, sides, game_map, unit_types, units) -> dict[str, frozenset[str]]:
        """The names an expression argument of each kind may use."""
        flags = {flag for unit in units.values() for flag in unit.flags}
        areas = (set(game_map.zones) | set(game_map.edges)) if game_map else set()
        kinds = {"side": frozenset(sides), "zone": frozenset(areas), "unit type": frozenset(unit_types), "flag": frozenset(flags)}
        if game_map:
            kinds["hex"] = frozenset(game_map.hexes)
        return kinds

    def awards(self, sides, game_map, sequence, compiler: ExpressionCompiler) -> tuple[m.Award, ...]:
        awards = []
        phase_ids = [p.id for p in sequence]
        for aid, body in self.get(("award",), {}).items():
            path = ("award", aid)
            side = self.reference(body.get("side"), sides, "side", path + ("side",))
            trigger = self.trigger(body.get("when"), path + ("when",), sides, game_map, phase_ids)
            amount = self.expression(body.get("amount", 0), path + ("amount",), compiler)
            only = self.expression(body["only"], path + ("only",), compiler) if "only" in body else None
            if side and trigger and amount:
                awards.append(m.Award(id=aid, side=side, trigger=trigger, amount=amount, only=only, text=body.get("text", ""),
                                      requires_supply=body.get("requires_supply", False)))
        return tuple(awards)

    def trigger(self, value: Any, path: Path, sides, game_map, phase_ids) -> m.Trigger | None:
        tree = value.get("tree") if isinstance(value, dict) else None
        if value == "selected":
            return m.Trigger(kind="selected")
        if not tree or tree[0] != "call" or tree[1] not in ("phase", "holds", "exits", "eliminated"):
            self.error("bad-trigger", f"'when' must be phase(P), holds(HEX...), exits(EDGE...), eliminated(SIDE) or selected; found {_show(value)}", path)
            return None
        kind, args = tree[1], [a[1] for a in tree[2]]
        if kind == "phase":
            phase = self.reference(args[0] if args else None, phase_ids, "phase", path)
            return m.Trigger(kind="phase", phase=phase)
        if kind == "holds":
            return m.Trigger(kind="holds", hexes=tuple(h for h in (self.hex_ref(a, path) for a in args) if h))
        if kind == "exits":
            edges = game_map.edges if game_map else {}
            return m.Trigger(kind="exits", edges=tuple(e for e in (self.reference(a, edges, "edge", path) for a in args) if e))
        side = self.reference(args[0] if args else None, sides, "side", path)
        return m.Trigger(kind="eliminated", side=side)

    def expression(self, value: Any, path: Path, compiler: ExpressionCompiler) -> m.Expr | None:
        if isinstance(value, dict) and "tree" in value:
            tree = value["tree"]
        elif isinstance(value, bool) or isinstance(value, (int, float)):
            tree = ["const", value]
        elif isinstance(value, str):
            tree = ["name", value]
        else:
            self.error("wrong-type", f"expected an expression, found {_show(value)}", path)
            return None
        try:
            source = compiler.source(tree)
        except ExpressionError as error:
            self.error(error.code, error.message, path, error.hint)
            return None
        from rulec.language.parse import unparse
        return m.Expr(source=unparse(tree), function=to_function(source))

    def victory(self) -> m.VictoryRules:
        body = self.data["victory"]
        levels = tuple(m.VictoryLevel(id=lid, name=b.get("name", lid), at_least=_level_threshold(b.get("at_least", 0)))
                       for lid, b in body.get("level", {}).items())
        for (first, a), (second, b) in zip(body.get("level", {}).items(), list(body.get("level", {}).items())[1:]):
            if _level_threshold(b.get("at_least", 0)) >= _level_threshold(a.get("at_least", 0)):
                self.error("victory-level-order", f"victory level '{second}' must need less than '{first}' (levels are listed best first)",
                           ("victory", "level", second, "at_least"))
        return m.VictoryRules(measure=body.get("measure", "difference"), levels=levels, draw=body.get("draw", "Draw"))

    def battle(self) -> m.BattleSystem | None:
        # Battle systems (no map) are built by their own module.
        from rulec.check.build_battle import build_battle

        return build_battle(self)

    # -------------------------------------------------------------- options
    def options(self, sides, units) -> dict[str, m.Option]:
        result = {}
        for oid, body in self.get(("option",), {}).items():
            path = ("option", oid)
            for i, uid in enumerate(body.get("adds", [])):
                self.reference(uid, units, "unit", path + ("adds", i))
            for side in body.get("vp", {}):
                self.reference(side, sides, "side", path + ("vp", side))
            modifiers = ()
            if "column_shift" in body or "drm" in body:
                modifiers = (m.CombatModifier(column_shift=body.get("column_shift", 0), drm=body.get("drm", 0), when=body.get("when", "always")),)
            withdrawal = None
            if "withdrawal_cost" in body:
                withdrawal = m.ZocWithdrawal(min_move=body.get("withdrawal_min_move", 0), cost=body["withdrawal_cost"],
                                             first_hex_across_river=body.get("withdrawal_first_hex_across_river", False))
            improve = self.int_range(body["improve_random"], path + ("improve_random",)) if "improve_random" in body else None
            for field_name in ("free_setup", "strength_multiplier"):
                for side in body.get(field_name, {}):
                    self.reference(side, sides, "side", path + (field_name, side), key=True)
            if "first_side" in body:
                self.reference(body["first_side"], sides, "side", path + ("first_side",))
            zones = set(self.get(("map", "zones"), {}))
            for side, zone in body.get("free_setup", {}).items():
                self.reference(zone, sorted(zones), "zone", path + ("free_setup", side))
            scenario = {key: body[key] for key in ("landing_locks", "start_turn", "turns", "first_side", "strength_multiplier_until_turn")
                        if key in body}
            result[oid] = m.Option(id=oid, name=body.get("name", oid), text=body.get("text", ""), adds=tuple(body.get("adds", ())),
                                   vp=dict(body.get("vp", {})), combat_modifiers=modifiers, zoc_withdrawal=withdrawal,
                                   improve_random=improve, improved_vp_to=body.get("improved_vp_to"),
                                   free_setup=dict(body.get("free_setup", {})),
                                   strength_multiplier={side: float(v) for side, v in body.get("strength_multiplier", {}).items()},
                                   **scenario)
        return result


def _cell_column(line: str, index: int) -> int:
    """1-based column of the index-th whitespace-separated cell of `line`."""
    position, seen = 0, -1
    in_cell = False
    for i, ch in enumerate(line):
        if not ch.isspace() and not in_cell:
            seen += 1
            if seen == index:
                return i + 1
        in_cell = not ch.isspace()
    return 1


def _level_threshold(value: Any) -> float:
    """A victory level threshold: a number, or a ratio such as 3:1 as a float."""
    if isinstance(value, dict) and "$ratio" in value:
        high, low = value["$ratio"]
        return high / low if low else float("inf")
    return value


_BAD = object()  # a column end of the wrong kind (already reported)


def _bound(end: int | tuple[int, int]) -> float:
    """A column end as a number: a differential, or an odds ratio as a fraction."""
    return end[0] / end[1] if isinstance(end, tuple) else end


def _difference_words(low: int, high: int) -> str:
    return f"{low:+d}" if low == high else f"{low:+d} to {high:+d}"


def _column_label(low, high, kind: str) -> str:
    def show(v):
        return ":".join(map(str, v)) if isinstance(v, tuple) else (f"{v:+d}" if kind == "differential" else str(v))
    if low == high:
        return show(low)
    if low is None:
        return f"{show(high)} or less"
    if high is None:
        return f"{show(low)} or more"
    return f"{show(low)}, {show(high)}"


def _tuples(body: dict, *names: str) -> dict[str, tuple]:
    """The listed fields of `body` that are present, as tuples (model collections are tuples)."""
    return {name: tuple(body[name]) for name in names if isinstance(body.get(name), list)}


def _count(number: int, word: str, plural: str | None = None) -> str:
    """'1 column', '3 columns'."""
    return f"{number} {word if number == 1 else (plural or word + 's')}"


def _show(value: Any) -> str:
    if isinstance(value, dict) and "$expr" in value:
        return value["$expr"]
    if isinstance(value, dict) and "$hexside" in value:
        return "/".join(value["$hexside"])
    if isinstance(value, dict) and "$range" in value:
        low, high = value["$range"]
        return f"{'' if low is None else _show(low)}..{'' if high is None else _show(high)}"
    return str(value)
