"""The SVG map and counter sheet, read back from the written files with ElementTree."""

from __future__ import annotations

import dataclasses
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from rulec.aids.map_svg import parse_sheet, render_map_svg
from rulec.aids.palette import terrain_style
from rulec.aids.render import render_html, write_aids
from rulec.pipeline import load_game
from rulec.runtime.model import HexsideType, hexside_key

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def game():
    return load_game("drive_on_metz")


@pytest.fixture(scope="module")
def written(game, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("aids")
    write_aids(game, out, {"svg"})
    return out


@pytest.fixture(scope="module")
def map_root(written):
    return ET.parse(written / "map.svg").getroot()


def elements(root, css_class: str) -> list[ET.Element]:
    return [e for e in root.iter() if css_class in e.get("class", "").split()]


def test_map_has_one_element_per_hex(game, map_root):
    hexes = [e for e in map_root.iter() if e.get("data-hex")]
    assert len(hexes) == 99
    assert sorted(e.get("data-hex") for e in hexes) == sorted(game.map.hexes)
    assert all(e.tag == f"{SVG}polygon" for e in hexes)
    # Coloured and patterned by the hex's base terrain, which it also names.
    for element in hexes:
        terrain = game.map.terrain[element.get("data-hex")]
        assert element.get("data-terrain") == " ".join(terrain)
        assert element.get("fill") == terrain_style(terrain[0]).fill
    # ... and each base terrain with marks has one patterned outline over its hexes (black-and-white prints).
    marks = {e.get("data-terrain"): e.get("d").count("Z") for e in elements(map_root, "marks")}
    counts = {t: sum(1 for ts in game.map.terrain.values() if ts[0] == t) for t in ("forest", "rough")}
    assert marks == counts


@pytest.mark.rule("metz:7.23")
def test_map_roads_and_rivers_are_hexside_elements(game, map_root):
    roads = {e.get("data-hexside") for e in elements(map_root, "road")}
    rivers = {e.get("data-hexside") for e in elements(map_root, "river")}
    assert (len(elements(map_root, "road")), len(elements(map_root, "river"))) == (79, 37)
    by_feature = {f: {k for k, fs in game.map.hexside_features.items() if f in fs} for f in ("road", "river")}
    assert roads == by_feature["road"] and rivers == by_feature["river"]
    assert all(key == hexside_key(*key.split("/")) for key in roads | rivers)


@pytest.mark.rule("metz:10.41")
def test_bridges_are_where_roads_cross_rivers(game, map_root):
    bridges = {e.get("data-hexside") for e in elements(map_root, "bridge")}
    roads = {k for k, fs in game.map.hexside_features.items() if "road" in fs}
    rivers = {k for k, fs in game.map.hexside_features.items() if "river" in fs}
    assert bridges == roads & rivers
    assert "0701/0801" in bridges


def test_map_names_places_zones_edges_and_road_exits(game, map_root):
    places = [" ".join(t.strip() for t in e.itertext()) for e in elements(map_root, "place")]
    assert sorted(places) == sorted(game.map.places.values())
    assert {e.get("data-zone") for e in elements(map_root, "zone")} == set(game.map.zones)
    edge_labels = {"".join(e.itertext()) for e in elements(map_root, "edge-label")}
    assert edge_labels == {f"{edge.title()} edge" for edge in game.map.edges}
    exits = {e.get("data-exit") for e in elements(map_root, "road-exit")}
    assert exits == {f"{h}:{d}" for h, ds in game.map.edge_exits.items() for d in ds}
    # Forts, towns and cities are marked by symbols, not by colour alone.
    fortified = sum(1 for t in game.map.terrain.values() if "fortified" in t)
    on_map = elements(map_root, "symbols")[0]  # the key below the map has one of each too
    assert len(elements(on_map, "fort")) == fortified


def test_map_is_sized_to_the_chosen_paper(game, map_root, tmp_path):
    assert game.map.sheet == "8.5in x 11in"  # the original sheet; the aids print on the chosen paper
    assert (map_root.get("width"), map_root.get("height")) == ("8.268in", "11.693in")  # A4, the default
    assert map_root.get("viewBox") == "0 0 595.28 841.89"
    write_aids(game, tmp_path, {"svg"}, paper="letter")
    letter = ET.parse(tmp_path / "map.svg").getroot()
    assert (letter.get("width"), letter.get("height"), letter.get("viewBox")) == ("8.5in", "11in", "0 0 612 792")
    assert parse_sheet("210mm x 297mm") == pytest.approx((595.28, 841.89), abs=0.01)
    assert parse_sheet("a large sheet") is None


def test_counter_sheet_has_every_unit_and_its_variant_counter(game, written):
    root = ET.parse(written / "counters.svg").getroot()
    counters = [e for e in root.iter() if e.get("data-unit")]
    base = {e.get("data-unit"): e for e in counters if e.get("data-version") == "base"}
    assert set(base) == set(game.units) and len(counters) == len(game.units)  # the file is the front
    (front, back), = counter_pages(game)
    variant = {e.get("data-unit"): e for e in back.iter() if e.get("data-version") == "variant"}
    assert set(variant) == {u.id for u in game.units.values() if u.variants}
    plain = {e.get("data-unit") for e in back.iter() if e.get("data-version") == "back"}
    assert plain == {u.id for u in game.units.values() if not u.variants}
    for unit in game.units.values():
        element = base[unit.id]
        values = next(e for e in element.iter() if e.get("class") == "values").text
        assert values == f"{unit.strength}-{unit.move}"
        corner = next(e for e in element.iter() if e.get("class") == "corner").text or ""
        assert corner == (unit.setup or (f"T{unit.arrives.turn}" if unit.arrives.turn else ""))
        symbol = game.unit_types[unit.type].symbol
        assert any(e.get("class") == f"nato {symbol}" for e in element.iter())
        if unit.variants:
            assert variant[unit.id].get("data-strength") == str(unit.variants[0].strength)


def counter_pages(game):
    """The (front, back) counter grids of the A4 aids, as parsed SVG."""
    html = render_html(game, aids=("counters",))
    svgs = re.findall(r'<svg [^>]*class="counter-sheet.*?</svg>', html, re.S)
    roots = [ET.fromstring(svg) for svg in svgs]
    return list(zip(roots[0::2], roots[1::2]))


def test_division_colours_are_distinct_and_stable(game, written):
    root = ET.parse(written / "counters.svg").getroot()
    bands: dict[tuple[str, str], set[str]] = {}
    for counter in (e for e in root.iter() if e.get("data-version") == "base"):
        unit = game.units[counter.get("data-unit")]
        band = [e for e in counter if e.tag == f"{SVG}path"][0].get("fill")
        bands.setdefault((unit.side, unit.division), set()).add(band)
    assert all(len(colours) == 1 for colours in bands.values())  # one colour per division
    divisions = [k for k in bands if k[1]]
    assert len({next(iter(bands[k])) for k in divisions}) == len(divisions)  # no two divisions alike


def test_svg_output_is_byte_stable(game, written, tmp_path):
    write_aids(game, tmp_path, {"svg", "html"})
    for name in ("map.svg", "counters.svg"):
        assert (tmp_path / name).read_bytes() == (written / name).read_bytes()


def test_other_hexside_features_are_drawn_and_keyed(game):
    # A feature that is neither road nor river (a ridge, say) still appears on the map and in its key.
    features = dict(game.map.hexside_features)
    features["0101/0102"] = ("ridge",)
    ridged = dataclasses.replace(game, map=dataclasses.replace(game.map, hexside_features=features),
                                 hexside_types={**game.hexside_types, "ridge": HexsideType("ridge", "Ridge")})
    root = ET.fromstring(render_map_svg(ridged))
    (line,) = elements(root, "hexside-feature")
    assert (line.get("data-hexside"), line.get("data-feature")) == ("0101/0102", "ridge")
    assert "Ridge hexside" in {"".join(e.itertext()) for e in root.iter(f"{SVG}text")}
    assert not elements(ET.fromstring(render_map_svg(game)), "hexside-feature")


def points_per_unit(root) -> float:
    """How many points one SVG user unit is on paper: the width attribute (inches) over the viewBox width."""
    width = root.get("width")
    assert width.endswith("in")
    return float(width[:-2]) * 72 / float(root.get("viewBox").split()[2])


def origins(root) -> dict[tuple[int, int], tuple[float, float]]:
    """Each counter's (row, column) -> where its top-left corner is, in points on paper."""
    scale = points_per_unit(root)
    found = {}
    for element in root.iter():
        if element.get("data-row") is None:
            continue
        match = re.match(r"translate\(([-\d.]+) ([-\d.]+)\) scale\(([\d.]+)\)", element.get("transform"))
        x, y, face_scale = (float(v) for v in match.groups())
        assert face_scale * 54 * scale == pytest.approx(float(root.get("data-pitch")) * scale, abs=0.01)
        found[int(element.get("data-row")), int(element.get("data-column"))] = (x * scale, y * scale)
    return found


@pytest.mark.parametrize("size, inches", [("5/8", 0.625), ("1/2", 0.5)])
def test_counter_grid_pitch_is_the_real_size(game, tmp_path, size, inches):
    write_aids(game, tmp_path, {"svg"}, counters=size)
    root = ET.parse(tmp_path / "counters.svg").getroot()
    at = origins(root)
    # Neighbours along a row and down a column are exactly one counter apart: a die-cut grid, no gaps.
    steps_x = {round(at[r, c + 1][0] - at[r, c][0], 3) for r, c in at if (r, c + 1) in at}
    steps_y = {round(at[r + 1, c][1] - at[r, c][1], 3) for r, c in at if (r + 1, c) in at}
    assert steps_x == steps_y == {round(inches * 72, 3)}
    # The cut lines fall on the same pitch.
    lines = [e for e in root.iter(f"{SVG}line") if e.get("x1") == e.get("x2")]
    xs = sorted(float(e.get("x1")) * points_per_unit(root) for e in lines)
    assert [round(b - a, 3) for a, b in zip(xs, xs[1:])] == [round(inches * 72, 3)] * (len(xs) - 1)


def test_the_back_of_each_counter_is_mirrored_behind_its_front(game):
    (front, back), = counter_pages(game)
    assert (front.get("width"), front.get("height")) == (back.get("width"), back.get("height"))
    columns = round((float(front.get("viewBox").split()[2]) - 2) / float(front.get("data-pitch")))
    front_at = {e.get("data-unit"): (int(e.get("data-row")), int(e.get("data-column")))
                for e in front.iter() if e.get("data-row")}
    back_at = {e.get("data-unit"): (int(e.get("data-row")), int(e.get("data-column")))
               for e in back.iter() if e.get("data-row")}
    assert set(front_at) == set(back_at) == set(game.units)
    for unit, (row, column) in front_at.items():
        assert back_at[unit] == (row, columns - 1 - column)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_map_hex_numbers_stay_legible_and_the_scale_bar_measures_hexes(game, tmp_path, paper):
    write_aids(game, tmp_path, {"svg"}, paper=paper)
    root = ET.parse(tmp_path / "map.svg").getroot()
    scale = points_per_unit(root)
    numbers = elements(root, "hex-numbers")[0]
    assert float(numbers.get("font-size")) * scale >= 5.4  # points on paper
    bar = elements(root, "scale-bar")[0]
    pitch, hexes = float(bar.get("data-pitch")), int(bar.get("data-hexes"))
    # The bar's step is the distance between neighbouring hex centres on the drawn map.
    centres = {}
    for polygon in (e for e in root.iter(f"{SVG}polygon") if e.get("data-hex") in ("0101", "0102")):
        points = [tuple(map(float, p.split(","))) for p in polygon.get("points").split()]
        centres[polygon.get("data-hex")] = (sum(x for x, _ in points) / 6, sum(y for _, y in points) / 6)
    assert pitch == pytest.approx(math.dist(centres["0101"], centres["0102"]), abs=0.05)
    label = "".join(next(e for e in bar.iter(f"{SVG}text")).itertext())
    assert label == f"Scale: {hexes} hexes = {4 * hexes} km"  # "1 hex = 4 km across"


def test_a_counter_sheet_taller_than_a_page_goes_on_several_pages(game):
    from rulec.aids import counters_svg

    pitch = counters_svg.PITCHES["5/8"]
    pages = counters_svg.pages(game, width=5 * pitch, height=2 * pitch)  # 5 across, 2 rows a page
    assert len(pages) > 1
    seen = []
    for front, back in pages:
        assert front.rows <= 2 and (front.rows, front.columns) == (back.rows, back.columns)
        assert all(0 <= f.row < front.rows and 0 <= f.column < 5 for f in front.faces)
        assert {f.unit.id for f in front.faces} == {f.unit.id for f in back.faces}
        seen += [f.unit.id for f in front.faces]
    assert sorted(seen) == sorted(game.units)  # every counter once


def test_the_back_of_a_unit_with_steps_shows_its_reduced_side():
    stepped = load_game(str(Path(__file__).parent / "games" / "two_steps.rulec"))
    (front, back), = counter_pages(stepped)
    faces = {(e.get("data-unit"), e.get("data-version")): (e.get("data-strength"), e.get("data-move"))
             for e in back.iter() if e.get("data-version")}
    assert faces[("b6", "reduced")] == ("3", "3") and faces[("r6", "reduced")] == ("4", "4")
    assert ("b1", "back") in faces  # no reduced side: a plain back
