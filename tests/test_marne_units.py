"""The Marne's reconstructed counters, set-ups and reinforcements (scripts/the_marne/build_units.py).

The generator's texts are spliced into games/the_marne.rulec; these tests hold them to the
rulebook's counts (11.4.1.2A, 11.4.2, 8.9A, 9.1), to the fixed grid, and to the language: the
unit blocks check cleanly inside a small wrapper game with the map helper's zone names.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

from rulec.language.parse import parse_text
from rulec.pipeline import check

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "the_marne" / "build_units.py"


def _load(name: str = "marne_build_units"):
    spec = importlib.util.spec_from_file_location(name, SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module                 # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module


units_module = _load()
grid = units_module.grid
UNITS = units_module.all_units()
BY_ID = {u.id: u for u in UNITS}
PARIS_HEX = grid.hex_of(*units_module.PARIS)

ZONES = (["paris", "forts", "zone_fr_6", "zone_bef", "zone_fr_5", "zone_fr_9", "zone_fr_4", "zone_fr_3", "zone_paris_garrison",
          "entry_de_east", "entry_fr_6", "entry_bef", "entry_fr_5", "entry_fr_4"]
         + [f"zone_de_{n}" for n in range(1, 6)] + [f"entry_de_{n}" for n in range(1, 5)])


def hex_distance(a: str, b: str) -> int:
    """Steps between two hexes of the grid (flat-topped; counted from 0, odd columns sit half a hex lower)."""
    def axial(label: str) -> tuple[int, int]:
        column, row = int(label[:2]) - 1, int(label[2:]) - 1
        return column, row - (column - (column & 1)) // 2
    (q1, r1), (q2, r2) = axial(a), axial(b)
    return (abs(q1 - q2) + abs(r1 - r2) + abs(q1 + r1 - q2 - r2)) // 2


def test_hex_distance_agrees_with_the_neighbours_of_the_grid():
    for label in ["0101", "0411", "0512", "2010", "3920"]:
        for neighbour in units_module.neighbours(label):
            assert hex_distance(label, neighbour) == 1, (label, neighbour)
        assert sorted(units_module.neighbours(label)) == sorted(
            grid.label(c, r) for c in grid.COLUMNS for r in grid.ROWS if hex_distance(label, grid.label(c, r)) == 1)


def test_the_generator_is_deterministic():
    assert units_module.regions() == _load("marne_build_units_again").regions()


def test_unit_ids_are_unique():
    blocks = re.findall(r"^unit (\w+) ", units_module.regions()["units"], re.M)
    assert len(blocks) == len(UNITS) and len(set(blocks)) == len(blocks)


def test_the_bef_is_the_rulebooks_six_8_3s_a_2_3_a_3_4_and_a_1_4():
    bef = Counter(u.value for u in UNITS if u.army == "army_bef")
    assert bef == Counter({(8, 3): 6, (2, 3): 1, (3, 4): 1, (1, 4): 1})


def test_the_paris_garrison_is_a_6_3_a_5_3_two_4_3s_and_a_2_3():
    garrison = Counter(u.value for u in UNITS if u.army == "paris_garrison")
    assert garrison == Counter({(6, 3): 1, (5, 3): 1, (4, 3): 2, (2, 3): 1})
    assert all(u.side == "allies" for u in UNITS if u.army == "paris_garrison")


def test_three_allied_1_4_cavalry_divisions_are_screens_and_nothing_else_is():
    screens = [u for u in UNITS if "screen" in u.flags]
    assert len(screens) == 3
    assert all(u.side == "allies" and u.type == "cavalry" and u.value == (1, 4) and u.size == "XX" for u in screens)


def test_every_unit_carries_exactly_one_army_flag_of_its_side():
    german = {f"army_de_{n}" for n in range(1, 6)}
    allied = {"army_fr_6", "army_bef", "army_fr_5", "army_fr_9", "army_fr_4", "army_fr_3", "paris_garrison"}
    for unit in UNITS:
        if unit.type == "fort":
            assert unit.flags == ["fort"] and unit.side == "allies"
            continue
        armies = [f for f in unit.flags if f != "screen"]
        assert len(armies) == 1 and armies[0] in (german if unit.side == "germany" else allied), unit.id


def test_every_setup_and_arrival_hex_is_on_the_grid():
    for unit in UNITS:
        hexes = [unit.setup] if unit.setup else (unit.arrives or {}).get("hexes", [])
        for hex_ in hexes:
            assert grid.on_map(int(hex_[:2]), int(hex_[2:])), (unit.id, hex_)
    for entry in units_module.pursuit_schedule().values():
        if entry != "free" and isinstance(entry[1], list):
            assert all(grid.on_map(int(h[:2]), int(h[2:])) for h in entry[1])


def test_every_unit_is_set_up_or_arrives_and_arrivals_fall_in_the_counterattack():
    for unit in UNITS:
        assert (unit.setup is not None) + unit.free + (unit.arrives is not None) == 1, unit.id
        if unit.arrives:
            assert units_module.COUNTERATTACK_START <= unit.arrives["turn"] <= units_module.LAST_TURN
            assert ("area" in unit.arrives) != ("hexes" in unit.arrives)
        assert unit.free == unit.optional, unit.id      # option units are placed in their army's zone (11.1 A)


def test_the_6_sep_setup_keeps_the_stacking_limit_and_the_sides_apart():
    sides: dict[str, set[str]] = {}
    counts = Counter()
    for unit in UNITS:
        if unit.setup:
            sides.setdefault(unit.setup, set()).add(unit.side)
            counts[unit.setup] += 1
    assert all(len(s) == 1 for s in sides.values())
    assert max(counts.values()) <= 3                     # 5.0 A; a fort counts as a unit here
    german_hexes = {h for h, s in sides.items() if "germany" in s}
    for unit in UNITS:
        for hex_ in (unit.arrives or {}).get("hexes", []):
            assert (hex_ in german_hexes) == (unit.side == "germany") or hex_ not in sides, (unit.id, hex_)


def test_no_hex_is_an_entry_of_both_sides_in_the_counterattack():
    entries: dict[str, set[str]] = {}
    for unit in UNITS:
        for hex_ in (unit.arrives or {}).get("hexes", []):
            entries.setdefault(hex_, set()).add(unit.side)
    assert entries and all(len(sides) == 1 for sides in entries.values())


def test_units_stand_near_their_historical_positions():
    """A unit nudged for stacking stays within two hexes of its 6 Sep position (§6)."""
    for unit in units_module._units():
        if unit.at is not None and units_module.on_map_hex(unit.at) is not None:
            placed = BY_ID[unit.id].setup
            assert hex_distance(placed, units_module.on_map_hex(unit.at)) <= 2, unit.id


def test_forts_are_allied_immobile_and_around_paris_only():
    forts = [u for u in UNITS if u.type == "fort"]
    assert len(forts) == len(units_module.fort_hexes()) >= 15
    assert len({u.setup for u in forts}) == len(forts)
    for fort in forts:
        assert fort.side == "allies" and fort.value[1] == 0 and fort.value[0] in (2, 3, 4)
        assert hex_distance(fort.setup, PARIS_HEX) <= 4, fort.id      # the camp is 15-22 km out at most (§5)
    assert BY_ID["fort_0409"].value[0] == 4                            # Domont, Montmorency, Ecouen: outer ring


def test_every_unit_of_the_pursuit_is_placed_or_arrives():
    schedule = units_module.pursuit_schedule()
    for unit in UNITS:
        entry = schedule.get(unit.id)
        if unit.optional:                                               # its option's Reinforcement Chart code (11.1 B)
            assert entry != "free" and entry[0] >= 2 and entry[1].startswith("entry_de_"), unit.id
        elif unit.type == "fort":
            assert entry is None and unit.setup                         # printed on the map
        elif entry is None:
            assert unit.arrives, unit.id                                # keeps its own arrival
        elif entry == "free":
            assert unit.army == "paris_garrison"
        else:
            turn, where = entry
            assert 1 <= turn <= units_module.LAST_TURN
            assert (where in ZONES) if isinstance(where, str) else where
    assert sorted(u for u, e in schedule.items() if e == "free") == sorted(u.id for u in UNITS if u.army == "paris_garrison")


def test_allies_enter_on_30_aug_and_germans_from_31_aug():
    schedule = units_module.pursuit_schedule()
    german = [e[0] for u, e in schedule.items() if e != "free" and BY_ID[u].side == "germany"]
    assert min(german) == 2                                             # 11.4 D
    allied_entries = {"entry_fr_6", "entry_bef", "entry_fr_5", "entry_fr_4"}
    turns = {e[1]: e[0] for e in schedule.values() if e != "free" and isinstance(e[1], str) and e[1] in allied_entries}
    assert turns == {entry: 1 for entry in allied_entries}                  # 11.4 C, 11.4.1.2.2 B
    assert all(schedule[u.id] == (1, "entry_bef") for u in UNITS if u.army == "army_bef")  # 11.4.1.2A


def test_options_add_optional_units_and_give_the_rulebooks_vp():
    text = units_module.regions()["options"]
    vp = dict(re.findall(r"option (oob_\w) \{.*?vp = \{ allies = (\d+) \}", text, re.S))
    assert vp == {"oob_a": "7", "oob_b": "30", "oob_c": "13", "oob_d": "20"}
    options = units_module.OPTIONS
    assert set(options["oob_d"][2]) == set(options["oob_a"][2]) | set(options["oob_c"][2])
    for name, (_, _, adds, rescheduled, _) in options.items():
        assert all(BY_ID[u].optional and BY_ID[u].side == "germany" for u in adds)
        assert set(rescheduled) <= set(units_module.OPTION_ARRIVALS) and not set(rescheduled) & set(units_module.pursuit_schedule())
        assert all(BY_ID[u].arrives["turn"] > units_module.OPTION_ARRIVALS[u][0] for u in rescheduled)   # C: earlier, not later
        assert ("arrivals = {" in text.split(f"option {name} ")[1].split("\n}")[0]) == bool(rescheduled)
    assert {u.id for u in UNITS if u.optional} == {u for o in options.values() for u in o[2]}


def test_every_region_parses():
    regions = units_module.regions()
    parse_text(regions["units"], "units.rulec")
    parse_text(regions["options"], "options.rulec")
    for name in ("pursuit", "counterattack_free"):
        document = parse_text(f"scenario s {{\n{regions[name]}}}\n", f"{name}.rulec")
        assert document is not None


def _wrapper_game(scenarios: bool = False) -> str:
    zones = "  ".join(f"{z} = [{grid.label(1 + i, 1)}]" for i, z in enumerate(ZONES))
    return f"""
game marne_units {{ title = "Units" die = 6 turns = 17 }}
side germany {{ name = "Germany" }}
side allies {{ name = "Allies" }}
map {{
  orientation = flat_top  offset = even_columns_down  numbering = CCRR
  columns = 1..39  rows = 1..20  default_terrain = clear
  zones {{ {zones} }}
  edges {{ north = 0101..3901  south = 0120..3920  west = 0101..0120  east = 3901..3920 }}
}}
terrain clear {{ move = 1 }}
unit_type infantry {{ name = "Infantry" }}
unit_type cavalry {{ name = "Cavalry" }}
unit_type fort {{ name = "Fort" }}
stacking {{ limit = 3 }}
sequence {{
  phase german_setup {{ side = germany  kind = placement  when = turn == 8
                       placement {{ pool = units(side = germany, status = pending)  hexes = zone_de_1 }} }}
  phase allied_setup {{ side = allies  kind = placement  when = false
                       placement {{ pool = units(side = allies, status = pending)  hexes = zone_fr_6 }} }}
  phase german_move {{ side = germany  kind = movement }}
  phase allied_move {{ side = allies  kind = movement }}
}}
{units_module.regions()["units"]}
""" + (f"""
scenario pursuit {{ name = "Pursuit"  start = {{ turn = 1  phase = german_move }}  deployment = [allied_setup]
{units_module.regions()["pursuit"]}}}
scenario counterattack_free {{ name = "Free set-up"  start = {{ turn = 8  phase = german_move }}  deployment = [german_setup, allied_setup]
{units_module.regions()["counterattack_free"]}}}
{units_module.regions()["options"]}
""" if scenarios else "")


def test_the_unit_blocks_check_cleanly_in_a_wrapper_game():
    game, diagnostics = check(parse_text(_wrapper_game(), "marne_units.rulec"))
    # No error, and no warning but this: the options that add the optional units are not in this wrapper.
    diagnostics = [d for d in diagnostics if d.code != "optional-unit-unused"]
    assert not diagnostics, "\n".join(str(d) for d in diagnostics[:5])
    assert game is not None and len(game.units) == len(UNITS)


def _schema_has_scenario_setups() -> bool:
    schema = json.loads((ROOT / "schemas" / "game.schema.json").read_text())
    return "setup" in schema["$defs"]["scenario"]["properties"] and "arrivals" in schema["$defs"]["option"]["properties"]


@pytest.mark.skipif(not _schema_has_scenario_setups(), reason="scenario `setup` and option `arrivals` are not in the language yet")
def test_the_scenarios_and_options_check_cleanly_in_a_wrapper_game():
    game, diagnostics = check(parse_text(_wrapper_game(scenarios=True), "marne_units.rulec"))
    assert not diagnostics, "\n".join(str(d) for d in diagnostics[:5])
    assert {s for s in game.scenarios} >= {"pursuit", "counterattack_free"} and len(game.options) == 4


@pytest.mark.parametrize("region", ["units", "pursuit", "options"])
def test_every_group_says_it_is_reconstructed(region):
    assert "# RECONSTRUCTED:" in units_module.regions()[region]
