"""The Marne's reconstructed map (scripts/the_marne/build_map.py): its block checks cleanly in a small
wrapper game, and the geography it encodes holds — Paris's 8 hexes, key places where grid.hex_of puts
them, rivers as connected chains of hexsides, cities on one bank, every zone named by the brief."""

from __future__ import annotations

import math
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("shapely")
pytest.importorskip("networkx")

ROOT = Path(__file__).resolve().parent.parent
BUILDER = ROOT / "scripts" / "the_marne"
sys.path.insert(0, str(BUILDER))

import build_map  # noqa: E402
import grid  # noqa: E402
import map_data  # noqa: E402

from rulec import pipeline  # noqa: E402

WRAPPER = """\
game map_check { title = "Map check"  turns = 1 }
side germany { name = "Germany" }
side allies { name = "Allies" }
terrain clear { move = 1 }
terrain woods { move = 2 }
terrain swamp { move = 2 }
terrain town  { move = as_other }
terrain city  { move = as_other }
hexside river { kind = river }
sequence { phase german_move { side = germany  kind = movement }  phase allied_move { side = allies  kind = movement } }
"""

RIVERS = ["aire", "aisne", "aube", "grand_morin", "marne", "oise", "ornain", "ourcq", "petit_morin", "saulx",
          "seine", "suippe", "vesle"]
GERMAN_ZONES = ["zone_de_1", "zone_de_2", "zone_de_3", "zone_de_4", "zone_de_5"]
ALLIED_ZONES = ["zone_fr_6", "zone_bef", "zone_fr_5", "zone_fr_9", "zone_fr_4", "zone_fr_3"]
GERMAN_ENTRIES = ["entry_de_1", "entry_de_2", "entry_de_3", "entry_de_4"]
ALLIED_ENTRIES = ["entry_fr_6", "entry_bef", "entry_fr_5", "entry_fr_4"]


@pytest.fixture(scope="module")
def block() -> str:
    return build_map.regions()["map"]


@pytest.fixture(scope="module")
def checked(block, tmp_path_factory):
    path = tmp_path_factory.mktemp("marne_map") / "map_check.rulec"
    path.write_text(WRAPPER + block, encoding="utf-8")
    game, diagnostics = pipeline.check(pipeline.parse(path))
    return game, diagnostics


@pytest.fixture(scope="module")
def board(checked):
    game, _ = checked
    assert game is not None
    return game.map


def corners(a: str, b: str) -> frozenset:
    """The two corners of the hexside between hexes a and b, in km rounded to a metre (from the grid alone)."""
    def hex_corners(label: str) -> set:
        x, y = grid.centre_km(int(label[:2]), int(label[2:]))
        radius = grid.HEX_KM / math.sqrt(3)
        return {(round(x + radius * math.cos(math.radians(t)), 3), round(y + radius * math.sin(math.radians(t)), 3))
                for t in range(0, 360, 60)}
    shared = hex_corners(a) & hex_corners(b)
    assert len(shared) == 2, f"{a}/{b} share no hexside"
    return frozenset(shared)


def chain_corners(sides) -> list:
    """The corners of a river's hexsides in order along it (the sides are listed upstream to downstream)."""
    pairs = [corners(*side.split("/")) for side in sides]
    first = pairs[0] - pairs[1]
    order = [next(iter(first))]
    for pair in pairs:
        assert order[-1] in pair, "consecutive hexsides do not meet"
        order.append(next(iter(pair - {order[-1]})))
    return order


def test_the_generator_is_deterministic_and_the_script_prints_it(block):
    assert build_map.regions()["map"] == block
    printed = subprocess.run([sys.executable, str(BUILDER / "build_map.py")], capture_output=True, text=True,
                             check=True, cwd=ROOT).stdout
    assert printed == block
    assert block.startswith("map {\n") and block.endswith("}\n")
    assert "# RECONSTRUCTED" in block


def test_the_map_block_checks_cleanly_in_a_small_game(checked):
    game, diagnostics = checked
    assert [f"{d.code}: {d.message}" for d in diagnostics] == []
    assert game is not None and game.map is not None
    assert (game.map.grid.columns, game.map.grid.rows) == ((1, 39), (1, 20))
    assert (game.map.grid.orientation, game.map.grid.offset, game.map.grid.numbering) == ("flat_top", "even_columns_down", "CCRR")


def test_paris_is_eight_joined_city_hexes_around_its_centre(board):
    paris = board.zones["paris"]
    assert len(paris) == 8
    assert grid.hex_of(48.853, 2.349) in paris
    for h in paris:
        assert "city" in board.terrain[h] and board.places[h] == "Paris"
    reached, frontier = {paris[0]}, [paris[0]]
    while frontier:
        here = frontier.pop()
        for there in board.neighbours[here].values():
            if there in paris and there not in reached:
                reached.add(there)
                frontier.append(there)
    assert reached == set(paris)
    assert len(board.zones["reims"]) == 2 and len(board.zones["troyes"]) == 1


@pytest.mark.parametrize("name, lat, lon", [
    ("Paris", 48.853, 2.349), ("Reims", 49.252, 4.040), ("Troyes", 48.297, 4.078), ("Meaux", 48.957, 2.900),
    ("Château-Thierry", 49.056, 3.382), ("Verdun", 49.145, 5.361), ("Épernay", 49.037, 3.931),
    ("Châlons-sur-Marne", 48.964, 4.379), ("Vitry-le-François", 48.728, 4.592),
])
def test_key_places_sit_in_the_hex_grid_puts_them_in(board, name, lat, lon):
    """Data file §2.1's coordinates; Verdun is on the map's east edge."""
    where = grid.hex_of(lat, lon)
    assert where is not None
    assert name in board.places[where].split(" / ")
    assert {"town", "city"} & set(board.terrain[where])


def test_every_river_is_one_connected_chain_of_hexsides(board):
    rivers = {s.id: s for s in board.hexside_sets if s.feature == "river"}
    assert sorted(rivers) == RIVERS
    for river in rivers.values():
        assert len(river.sides) >= 5, river.id
        for side in river.sides:
            a, b = side.split("/")
            assert b in board.neighbours[a].values(), f"{river.id}: {side} is not between neighbours"
        order = chain_corners(river.sides)
        assert len(set(order)) == len(order), f"{river.id} crosses itself"


def test_tributaries_end_on_their_river_and_rivers_meet_nowhere_else(board):
    rivers = {s.id: s for s in board.hexside_sets if s.feature == "river"}
    listed = Counter(side for s in rivers.values() for side in s.sides)
    assert max(listed.values()) == 1, "a hexside belongs to two rivers"
    chains = {river_id: chain_corners(s.sides) for river_id, s in rivers.items()}
    mouths = {}
    for river_id, spec in map_data.RIVERS.items():
        if spec["joins"]:
            mouth = chains[river_id][-1]
            assert mouth in chains[spec["joins"]], f"the {river_id} does not reach the {spec['joins']}"
            mouths[river_id] = mouth
    for a in chains:
        for b in chains:
            if a < b:
                met = set(chains[a]) & set(chains[b])
                allowed = {mouths.get(a)} if map_data.RIVERS[a]["joins"] == b else set()
                allowed |= {mouths.get(b)} if map_data.RIVERS[b]["joins"] == a else set()
                assert met <= allowed, f"the {a} and the {b} touch away from a mouth"


def test_no_river_runs_between_two_hexes_of_one_city(board):
    for city in ("paris", "reims", "troyes"):
        hexes = set(board.zones[city])
        for s in board.hexside_sets:
            assert not [side for side in s.sides if set(side.split("/")) <= hexes], (city, s.id)


def test_every_zone_the_game_needs_is_there_and_not_empty(board):
    needed = (["paris", "reims", "troyes", "forts", "zone_paris_garrison"] + GERMAN_ZONES + ALLIED_ZONES
              + GERMAN_ENTRIES + ALLIED_ENTRIES + ["entry_de_east"])
    for zone in needed:
        assert board.zones.get(zone), zone
        assert set(board.zones[zone]) <= set(board.hexes)
    values = sorted(int(z.removeprefix("towns_vp_")) for z in board.zones if z.startswith("towns_vp_"))
    assert values == [1, 2, 3, 5]
    assert sorted(board.edges) == ["east", "north", "south", "west"]


def test_every_town_has_one_value_a_name_and_the_town_feature(board):
    town_hexes = [h for h in board.hexes if "town" in board.terrain[h]]
    valued = Counter(h for z, hexes in board.zones.items() if z.startswith("towns_vp_") for h in hexes)
    assert sorted(valued) == sorted(town_hexes)
    assert set(valued.values()) == {1}
    assert all(board.places.get(h) for h in town_hexes)
    assert grid.hex_of(49.145, 5.361) in board.zones["towns_vp_5"]       # Verdun, the fortress
    assert grid.hex_of(48.790, 3.764) in board.zones["towns_vp_1"]       # Mondement


def test_forts_ring_paris_one_to_a_hex_and_the_camp_holds_them(board):
    forts, paris = board.zones["forts"], set(board.zones["paris"])
    assert not set(forts) & paris
    centre = grid.km_of(*map_data.PARIS_CENTRE)
    for h in forts:
        assert math.dist(grid.centre_km(int(h[:2]), int(h[2:])), centre) < 30, h
        assert board.places[h].startswith(("Fort", "Batteries", "Redoute")), board.places[h]
        assert " / " not in board.places[h]                               # no two forts in one hex
    assert set(forts) | paris <= set(board.zones["zone_paris_garrison"])
    assert grid.hex_of(49.019, 2.322) in forts                           # Fort de Domont, which fired in 1914


def test_army_zones_share_out_the_map_along_the_5_sep_front(board):
    owners = Counter(h for z in GERMAN_ZONES + ALLIED_ZONES for h in board.zones[z])
    assert set(owners) == set(board.hexes) and set(owners.values()) == {1}
    zone_of = {h: z for z in GERMAN_ZONES + ALLIED_ZONES for h in board.zones[z]}
    for (lat, lon), zone in [((49.252, 4.040), "zone_de_3"),  # Reims: XII Reserve Corps
                             ((48.880, 3.561), "zone_de_2"),  # Montmirail: VII Corps
                             ((48.812, 3.091), "zone_de_1"),  # Coulommiers: II Corps
                             ((48.728, 4.592), "zone_de_4"),  # Vitry: VIII Corps
                             ((49.054, 2.679), "zone_fr_6"),  # Dammartin: VII Corps
                             ((48.684, 2.964), "zone_bef"),   # Rozay: the BEF's right
                             ((48.724, 3.724), "zone_fr_5"),  # Sézanne
                             ((48.771, 4.017), "zone_fr_9"),  # Fère-Champenoise: Foch's HQ
                             ((49.145, 5.361), "zone_fr_3")]:  # Verdun
        assert zone_of[grid.hex_of(lat, lon)] == zone, (lat, lon)


def test_each_division_sets_up_in_its_army_zone_unless_another_army_shares_its_hex(board):
    zone_of = {h: z for z in GERMAN_ZONES + ALLIED_ZONES for h in board.zones[z]}
    armies = {**map_data.GERMAN_ARMIES, **map_data.ALLIED_ARMIES}
    holders: dict[str, set] = {}
    for zone, points in armies.items():
        for point in points:
            if grid.hex_of(*point):
                holders.setdefault(grid.hex_of(*point), set()).add(zone)
    for zone, points in armies.items():
        for point in points:
            where = grid.hex_of(*point)
            if where and holders[where] == {zone}:
                assert zone_of[where] == zone, (zone, point)


def test_entry_areas_run_west_to_east_along_the_north_edge(board):
    north = board.edges["north"]
    for entries in (GERMAN_ENTRIES, ALLIED_ENTRIES):
        columns = [sorted(int(h[:2]) for h in board.zones[z]) for z in entries]
        assert sorted(h for z in entries for h in board.zones[z]) == sorted(north)
        for west, east in zip(columns, columns[1:]):
            assert west[-1] < east[0]
    east_edge = board.edges["east"]
    # The whole east edge: 11.4.1.2.1A narrows it in play to the hexes north of the German line.
    assert sorted(board.zones["entry_de_east"]) == sorted(east_edge)
    suippes = next(h for h, name in board.places.items() if name == "Suippes")
    assert sorted(board.zones["east_of_suippes"]) == sorted(h for h in board.hexes if int(h[:2]) > int(suippes[:2]))


def test_terrain_holds_the_marshes_of_saint_gond_and_the_forests(board):
    swamp = [h for h in board.hexes if board.terrain[h][0] == "swamp"]
    marsh = grid.km_of(48.818, 3.88)
    assert swamp and all(math.dist(grid.centre_km(int(h[:2]), int(h[2:])), marsh) < 15 for h in swamp)
    woods = {h for h in board.hexes if board.terrain[h][0] == "woods"}
    for lat, lon in [(49.36, 2.90), (49.26, 3.10), (49.14, 4.03), (49.15, 4.99), (48.41, 2.66)]:  # §4.2's great forests
        assert grid.hex_of(lat, lon) in woods, (lat, lon)
    assert len(woods) < len(board.hexes) / 5


def test_rivers_keep_within_a_hex_of_their_waypoints(board):
    """Every waypoint of §3 on the map lies within one hex (7.2 km) of a corner of its river, except
    near Paris, which the Seine skirts so that the city lies on one bank."""
    rivers = {s.id: s for s in board.hexside_sets if s.feature == "river"}
    paris = grid.km_of(*map_data.PARIS_CENTRE)
    for river_id, spec in map_data.RIVERS.items():
        chain = chain_corners(rivers[river_id].sides)
        for name, lat, lon in spec["points"]:
            point = grid.km_of(lat, lon)
            if grid.hex_of(lat, lon) is None or math.dist(point, paris) < 12:
                continue
            assert min(math.dist(point, corner) for corner in chain) < grid.HEX_KM, (river_id, name)
