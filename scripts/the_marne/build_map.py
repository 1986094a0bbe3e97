"""The Marne's map, reconstructed: prints the game file's `map { ... }` block.

    python scripts/the_marne/build_map.py        # the block the lead splices into games/the_marne.rulec
                                                 # between "# >>> generated: map" and "# <<< generated: map"

The published map is not available; ../shared/data/the-marne.md describes the geography it is
rebuilt from (map_data.py transcribes it) on the fixed hex grid of grid.py. rivers.py draws the
rivers along hexsides, areas.py finds the hexes of terrain, cities, towns, forts and zones; this
module writes them out in the language of docs/language.md "map". The output is the same bytes
on every run.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import areas  # noqa: E402
import grid  # noqa: E402
import map_data  # noqa: E402
import rivers  # noqa: E402

LEGEND = {"clear": "C", "woods": "W", "swamp": "S"}
INDENT = "  "


def regions() -> dict[str, str]:
    """The generated texts of games/the_marne.rulec, by region name: {"map": the whole map block}."""
    return {"map": map_block()}


def hex_ranges(labels: list[str]) -> list[str]:
    """Hexes written compactly: a full rectangle as one range (0101..3901), else three or more
    consecutive rows of one column as a range (0101..0104)."""
    cells = {(int(label[:2]), int(label[2:])) for label in labels}
    columns, rows = [c for c, _ in cells], [r for _, r in cells]
    width, height = max(columns) - min(columns) + 1, max(rows) - min(rows) + 1
    if len(cells) > 2 and len(cells) == width * height:
        return [f"{grid.label(min(columns), min(rows))}..{grid.label(max(columns), max(rows))}"]
    by_column: dict[int, list[int]] = {}
    for label in sorted(set(labels)):
        by_column.setdefault(int(label[:2]), []).append(int(label[2:]))
    written: list[str] = []
    for column, rows in sorted(by_column.items()):
        start = previous = rows[0]
        for row in rows[1:] + [None]:
            if row is not None and row == previous + 1:
                previous = row
                continue
            if previous - start >= 2:
                written.append(f"{grid.label(column, start)}..{grid.label(column, previous)}")
            else:
                written += [grid.label(column, r) for r in range(start, previous + 1)]
            if row is not None:
                start = previous = row
    return written


def _list(items: list[str], indent: str, per_line: int = 10) -> str:
    """A bracketed list, wrapped."""
    if len(items) <= per_line:
        return "[" + ", ".join(items) + "]"
    lines = [", ".join(items[i:i + per_line]) + "," for i in range(0, len(items), per_line)]
    inner = "\n".join(indent + INDENT + line for line in lines)
    return "[\n" + inner + "\n" + indent + "]"


def _hexes(labels: list[str], indent: str) -> str:
    return _list(hex_ranges(labels), indent)


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def map_block() -> str:
    out: list[str] = []
    add = out.append
    i1, i2 = INDENT, INDENT * 2
    cities = areas.cities()
    towns = areas.towns()
    forts = areas.forts()

    add("map {")
    add(f"{i1}# RECONSTRUCTED: the published map is not available (data file, first section). This is the")
    add(f"{i1}# reconstruction's grid over the real theatre (scripts/the_marne/grid.py; data file §1): 7.2 km")
    add(f"{i1}# hexes, north edge 49.55°N, south 48.25°N, west 2.10°E, east 5.45°E; built by")
    add(f"{i1}# scripts/the_marne/build_map.py — edit that, not this block.")
    add(f"{i1}orientation = flat_top")
    add(f"{i1}offset = even_columns_down")
    add(f"{i1}numbering = CCRR")
    add(f"{i1}columns = {grid.COLUMNS.start}..{grid.COLUMNS.stop - 1}")
    add(f"{i1}rows = {grid.ROWS.start}..{grid.ROWS.stop - 1}")
    add(f'{i1}sheet = "22in x 34in"')
    add(f"{i1}legend = {{ C = clear, W = woods, S = swamp }}")
    add(f"{i1}# RECONSTRUCTED (data file §4, outlines MEM): a hex is woods when a forest of §4.2 covers half")
    add(f"{i1}# of it (each forest at least its most covered hex), swamp when the marshes of Saint-Gond")
    add(f"{i1}# (§4.1) cover a fifth of it; everything else is clear (no source mentions rough terrain).")
    add(f"{i1}terrain = <<")
    ground = areas.terrain()
    add(f"{i2}   " + " ".join(f"{c:02d}" for c in grid.COLUMNS))
    for row in grid.ROWS:
        add(f"{i2}{row:02d} " + " ".join(f" {LEGEND[ground[(c, row)]]}" for c in grid.COLUMNS))
    add(f"{i1}>>")

    city_hexes = sorted(h for hexes in cities.values() for h in hexes)
    add(f"{i1}features {{")
    add(f"{i2}# RECONSTRUCTED (§2): Paris's 8 hexes are the hex of its centre and the 7 hexes nearest it (the")
    add(f"{i2}# walled city and the inner forts, about a 10 km radius); Reims is 2 hexes and Troyes 1 (rule")
    add(f"{i2}# 10.2 C names Reims and Paris as the cities of more than one hex). Towns: §2.1's list, on the map.")
    add(f"{i2}city = {_hexes(city_hexes, i2)}")
    add(f"{i2}town = {_hexes([h for h, _ in towns.values()], i2)}")
    add(f"{i1}}}")

    names: dict[str, list[str]] = {}
    for city, hexes in cities.items():
        for h in hexes:
            names.setdefault(h, []).append(city)
    for town, (h, _vp) in towns.items():
        names.setdefault(h, []).append(town)
    for h, fort_names in forts.items():
        names.setdefault(h, []).extend(fort_names)
    add(f"{i1}places {{")
    for h in sorted(names):
        add(f"{i2}{h} = {_quoted(' / '.join(names[h]))}")
    add(f"{i1}}}")

    add(f"{i1}# RECONSTRUCTED (data file §3): each river's waypoints (riverside communes, upstream to")
    add(f"{i1}# downstream) joined along hexsides by the cheapest chain of hex edges near the real course; a")
    add(f"{i1}# tributary ends on the river it flows into; no river runs between two hexes of one city.")
    add(f"{i1}# Which rivers SPI printed is unknown: these are the data file's rivers that are on the map.")
    drawn = rivers.draw_rivers(map_data.RIVERS, map_data.RIVER_ORDER, list(cities.values()))
    for river_id in sorted(drawn):
        spec = map_data.RIVERS[river_id]
        mem = [name for name, _, _ in spec["points"] if "(MEM)" in name]
        add(f"{i1}hexsides {river_id} {{")
        add(f"{i2}feature = river")
        add(f'{i2}name = "{spec["name"]} River"')
        if mem:
            add(f"{i2}# RECONSTRUCTED (MEM): carried on to the map edge toward {', '.join(m.replace(' (MEM)', '') for m in mem)}.")
        add(f"{i2}sides = {_list([rivers.hexside_label(side) for side in drawn[river_id]], i2, 8)}")
        add(f"{i1}}}")

    add(f"{i1}edges {{")
    for edge, hexes in areas.edges().items():
        add(f"{i2}{edge} = {_hexes(hexes, i2)}")
    add(f"{i1}}}")

    add(f"{i1}zones {{")
    add(f"{i2}# Cities are scored as a whole (rule 10.2 C). RECONSTRUCTED values: Paris 25 VP (rule 10.2's")
    add(f"{i2}# example); Reims 10 and Troyes 5 VP (from their size in 1914: about 115,000 and 55,000 people, MEM).")
    add(f"{i2}paris = {_hexes(cities['Paris'], i2)}")
    add(f"{i2}reims = {_hexes(cities['Reims'], i2)}")
    add(f"{i2}troyes = {_hexes(cities['Troyes'], i2)}")
    add(f"{i2}# RECONSTRUCTED (§2.1; values MEM): a town's VP from its standing in 1914 — 5 a departmental")
    add(f"{i2}# capital (Châlons, Melun, Bar-le-Duc, Laon) or the fortress of Verdun; 3 an arrondissement seat;")
    add(f"{i2}# 2 another town of about 5,000 people or a great river crossing; 1 a market town or a village")
    add(f"{i2}# the battle made famous.")
    by_value: dict[int, list[str]] = {}
    for h, vp in towns.values():
        by_value.setdefault(vp, []).append(h)
    for vp in sorted(by_value):
        add(f"{i2}towns_vp_{vp} = {_hexes(by_value[vp], i2)}")
    add(f"{i2}# RECONSTRUCTED (§5.1–5.2): the forts of the 1914 entrenched camp on the map, outside Paris's own")
    add(f"{i2}# hexes (the inner forts inside them are part of the city); a fort whose hex already holds one")
    add(f"{i2}# moves to the free neighbouring hex nearest its real place, sourced forts first.")
    add(f"{i2}forts = {_hexes(list(forts), i2)}")
    add(f"{i2}# RECONSTRUCTED (§5): the Paris garrison's zone is the entrenched camp: Paris, the forts and")
    add(f"{i2}# every hex inside the ring of the outer forts.")
    add(f"{i2}zone_paris_garrison = {_hexes(areas.entrenched_camp(), i2)}")
    add(f"{i2}# RECONSTRUCTED (§6, §8.1–8.2): army boundaries for the free set-up (rule 11.3). The front of the")
    add(f"{i2}# evening of 5 Sep is drawn between the armies' 5–6 Sep positions; every hex on the German side")
    add(f"{i2}# goes to the German army of the nearest division, every hex on the Allied side to the Allied")
    add(f"{i2}# army of the nearest division. The Allied zones overlap the Paris garrison's.")
    for zone, hexes in areas.army_zones().items():
        add(f"{i2}{zone} = {_hexes(hexes, i2)}")
    add(f"{i2}# RECONSTRUCTED (§8.1–8.2, 30–31 Aug): the Pursuit's entry boundaries (rule 11.4.1.2). The north")
    add(f"{i2}# edge is shared out between the armies, west to east, each hex to the army whose position on")
    add(f"{i2}# 30–31 Aug has the nearest longitude. The German east-edge entry is the east edge, open only")
    add(f"{i2}# north of the northernmost Allied unit east of Suippes's column (11.4.1.2.1A: movement {{ entry_blocked }}).")
    for zone, hexes in areas.entry_zones().items():
        add(f"{i2}{zone} = {_hexes(hexes, i2)}")
    add(f"{i1}}}")
    add("}")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    sys.stdout.write(regions()["map"])
