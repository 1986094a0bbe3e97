"""Drive on Metz, rules 7.x: movement, terrain, stacking, zones of control, leaving the map."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rulec.engine import EXITED, Action, IllegalAction, new_game
from rulec.engine.tables import tables_for

rule = pytest.mark.rule


def at(metz, units, phase="us_movement", turn=2, options=()):
    return new_game(metz, options=options).arrange(units, turn=turn, phase=phase)


def destinations(state, uid):
    return {a.hex for a in state.moves_of(uid) if a.kind == "move"}


def exits(state, uid):
    return {a.edge for a in state.moves_of(uid) if a.kind == "exit"}


@rule("metz:7.11")
def test_each_hex_spends_mp_and_a_unit_may_stop_short(metz):
    # 0107 (clear) southwards through plain hexsides: 0108 for 2 MP, 0109 for 4, 0110 would need 6
    # (and 5 by the roads through 0208 and 0209).
    state = at(metz, {"us_357": "0107", "de_1010": "0911"})
    reach = destinations(state, "us_357")
    assert "0108" in reach  # one clear hex, stopping with 2 MP unused
    assert "0109" in reach
    assert "0110" not in reach


@rule("metz:7.12")
def test_unused_mp_are_lost_and_movement_is_never_forced(metz):
    state = at(metz, {"us_357": "0204", "de_1010": "0911"})
    state.apply_action(Action.move("us_357", "0104"))  # 2 of 4 MP used
    assert destinations(state, "us_357") == set()  # the 2 MP left are not kept for a second move
    state.apply_action(Action.end())  # ending with units unmoved is always legal
    fresh = at(metz, {"us_357": "0204", "de_1010": "0911"})
    assert Action.end() in fresh.legal_actions()


@rule("metz:7.2")
def test_clear_costs_two_and_forest_four(metz):
    tables = tables_for(metz)
    assert tables.hex_cost["0204"] == 2  # clear
    assert tables.hex_cost["0306"] == 3  # rough
    assert tables.hex_cost["0403"] == 4  # forest
    # From 0304 the forest 0403 (no road) costs exactly the 4 MP of an infantry unit.
    state = at(metz, {"us_357": "0304", "de_1010": "0911"})
    assert "0403" in destinations(state, "us_357")


@rule("metz:7.21")
def test_no_entry_without_enough_mp(metz):
    # 0204 -> 0305 is clear through a plain hexside (2 MP); then forest 0404 needs 4 more.
    state = at(metz, {"us_357": "0204", "de_1010": "0911"})
    reach = destinations(state, "us_357")
    assert "0305" in reach and "0404" not in reach
    with pytest.raises(IllegalAction) as error:
        state.apply_action(Action.move("us_357", "0404"))
    assert error.value.rule == "7.21"


@rule("metz:7.22")
def test_several_terrains_cost_the_highest(metz):
    tables = tables_for(metz)
    assert tables.hex_cost["0507"] == 4  # forest + fortified: the forest's 4
    assert tables.hex_cost["0304"] == 2  # clear + town: the clear's 2
    # A hex of clear and rough together costs the rough's 3.
    terrain = dict(metz.map.terrain)
    terrain["0204"] = ("clear", "rough")
    variant = replace(metz, map=replace(metz.map, terrain=terrain))
    assert tables_for(variant).hex_cost["0204"] == 3


@rule("metz:7.23")
def test_road_entry_costs_one_whatever_the_terrain(metz):
    # 0303 (forest) -> 0402 (forest) along a road: 1 MP; -> 0502 (forest) along the road: 1 MP more.
    state = at(metz, {"us_357": "0303", "de_1010": "0911"})
    reach = destinations(state, "us_357")
    assert {"0402", "0502", "0601", "0701"} <= reach  # four road hexes for 4 MP, through forest
    # Not along a road: 0303 -> 0403 is forest through a plain hexside, 4 MP, and no farther.
    assert "0403" in reach and "0404" not in reach
    # The road into 0304 gives nothing when entering 0403 from 0304 across a non-road hexside.
    state = at(metz, {"us_357": "0203", "de_1010": "0911"})
    reach = destinations(state, "us_357")
    assert "0304" in reach and "0403" not in reach  # 1 (road) + 4 (forest) > 4


def test_the_steps_that_cost_the_same_share_one_entry_cost(metz):
    """The step costs keep one EntryCost for each cost a step may have, not one for each of the map's steps (six a
    hex, kept for the whole game): each is one more object for every full pass of the cycle collector."""
    entry = tables_for(metz).entry
    kinds = {(step.cost, step.river) for step in entry.values()}
    assert len({id(step) for step in entry.values()}) == len(kinds) < len(entry) // 10
    assert entry[("0303", "0402")].cost == 1 and entry[("0303", "0403")].cost == 4  # along the road, and not


@rule("metz:7.31")
def test_never_enter_or_pass_through_an_enemy_hex(metz):
    # Along the road 0303-0402-0502 a German unit in 0402 blocks the way (and its ZOC would stop us).
    state = at(metz, {"us_cca": "0304", "de_1010": "0402"}, options=())
    reach = destinations(state, "us_cca")
    assert "0402" not in reach
    with pytest.raises(IllegalAction) as error:
        state.apply_action(Action.move("us_cca", "0402"))
    assert error.value.rule == "7.31"


@rule("metz:7.32")
def test_may_not_end_the_phase_stacked(metz):
    # 358 has already moved into 0205, so 357 may not end its move there.
    state = at(metz, {"us_357": "0204", "us_358": "0104", "de_1010": "0911"})
    state.apply_action(Action.move("us_358", "0205"))
    assert "0205" not in destinations(state, "us_357")
    with pytest.raises(IllegalAction) as error:
        state.apply_action(Action.move("us_357", "0205"))
    assert error.value.rule == "7.32"


@rule("metz:7.33")
def test_pass_through_friends_and_over_stack_costs_a_unit_of_the_enemys_choice(metz):
    # CCA passes through 357's hex along the road 0203-0304-0305.
    state = at(metz, {"us_cca": "0203", "us_357": "0304", "de_1010": "0911"})
    assert "0405" in destinations(state, "us_cca")
    # Ending on a friend that could still move away is allowed for now ...
    state.apply_action(Action.move("us_cca", "0304"))
    assert set(state.units_at("0304")) == {"us_357", "us_cca"}
    # ... but if the phase ends so, the German player removes one of them.
    state.apply_action(Action.end())
    assert state.current_player() == 1
    assert set(state.legal_actions()) == {Action.remove("us_357"), Action.remove("us_cca")}
    state.apply_action(Action.remove("us_cca"))
    assert state.status("us_cca") == "eliminated" and state.phase.id == "us_combat"
    assert state.vp["germany"] == 7  # eliminated strength scores (6.2)


@rule("metz:7.41")
def test_entering_an_enemy_zoc_stops_the_unit(metz):
    # 357 on the road 0203-0304-0305-0405 (1 MP a hex): alone it reaches 0405; with a German
    # unit in 0404 it must stop in 0304, the first hex of that unit's zone of control.
    alone = at(metz, {"us_357": "0203", "de_1010": "0911"})
    assert "0405" in destinations(alone, "us_357")
    state = at(metz, {"us_357": "0203", "de_1010": "0404"})
    reach = destinations(state, "us_357")
    assert "0304" in reach and "0405" not in reach
    with pytest.raises(IllegalAction) as error:
        state.apply_action(Action.move("us_357", "0405"))
    assert error.value.rule == "7.41"


@rule("metz:7.42")
def test_zoc_is_the_six_adjacent_hexes(metz):
    state = at(metz, {"us_357": "0101", "de_1010": "0404"})
    assert state.enemy_zoc("us") == frozenset(metz.map.neighbours["0404"].values())
    assert len(state.enemy_zoc("us")) == 6


@rule("metz:7.43")
def test_a_unit_starting_in_enemy_zoc_may_not_leave(metz):
    state = at(metz, {"us_357": "0304", "de_1010": "0404"})
    assert destinations(state, "us_357") == set()
    with pytest.raises(IllegalAction) as error:
        state.apply_action(Action.move("us_357", "0203"))
    assert error.value.rule == "7.43"


@rule("metz:7.51")
def test_leaving_the_map_costs_the_hex_left(metz):
    # 0101 has road exits: 1 MP. 0102 (clear, no road exit) costs 2 MP to leave.
    tables = tables_for(metz)
    assert tables.exit_cost[("0101", "west")] == 1
    assert tables.exit_cost[("0102", "west")] == 2
    assert tables.exit_cost[("0105", "west")] == 1  # forest with a road exit: the road cost
    # A German infantry unit 1 hex from the west edge with 4 MP: 0202 is forest (4 MP) ...
    state = at(metz, {"de_1126": "0203", "us_357": "0911"}, phase="germany_movement")
    assert "west" in exits(state, "de_1126")  # 0203 -> 0103 by road (1) then off by road (1)
    # A 1-MP unit can leave from a road-exit hex but not from a clear one without a road.
    state = at(metz, {"de_gar": "0101", "us_357": "0911"}, phase="germany_movement")
    assert "west" in exits(state, "de_gar")
    state = at(metz, {"de_gar": "0102", "us_357": "0911"}, phase="germany_movement")
    assert "west" not in exits(state, "de_gar")
    with pytest.raises(IllegalAction) as error:
        state.apply_action(Action.exit("de_gar", "west"))
    assert error.value.rule == "7.51"


@rule("metz:7.52")
def test_exited_units_never_return(metz):
    state = at(metz, {"de_1126": "0102", "us_357": "0911"}, phase="germany_movement")
    state.apply_action(Action.exit("de_1126", "west"))
    assert state.status("de_1126") == EXITED and "de_1126" not in state.positions
    assert state.vp["germany"] == 10
    for _ in range(20):
        assert all(a.unit != "de_1126" for a in state.legal_actions())
        state.apply_action(Action.end())
        if state.is_terminal():
            break
    assert state.status("de_1126") == EXITED
