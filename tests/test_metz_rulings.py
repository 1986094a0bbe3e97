"""The rulings of docs/rulings.md, where the Drive on Metz rulebook leaves a question open."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rulec.engine import Action, new_game
from rulec.engine.tables import tables_for

rule = pytest.mark.rule


def at(metz, units, phase="us_combat", turn=2, options=()):
    return new_game(metz, options=options).arrange(units, turn=turn, phase=phase)


def destinations(state, uid):
    return {a.hex for a in state.moves_of(uid) if a.kind == "move"}


@rule("metz:10.4")
def test_two_hex_retreat_moves_straight_away_and_every_hex_obeys_10_4(metz):
    state = at(metz, {"us_cca": "0305", "us_357": "0607", "de_1010": "0405"})
    for step in state.parse_orders("attack 0405 with CCA"):
        state.apply_action(step)
    state.apply_action(Action.roll(1))  # +6: DR2
    assert state.current_player() == 1
    paths = {a.path for a in state.legal_actions()}
    distance = tables_for(metz).distance
    for first, second in paths:
        assert distance["0405"][first] == 1 and distance["0405"][second] == 2
        assert distance["0305"][second] >= distance["0305"][first] >= distance["0305"]["0405"]
        assert second not in metz.map.neighbours["0607"].values()  # not next to 357
    # 0507 and 0606 are next to US 357 in 0607: no path ends there.
    assert ("0406", "0507") not in paths and ("0506", "0606") not in paths
    assert ("0406", "0407") in paths and ("0505", "0604") in paths


@rule("metz:10.5")
def test_bridged_hexsides_count_as_river_for_the_combat_shift(metz):
    # CCA attacks Metz from 0707 across a bridged Moselle hexside: the river's -3 applies.
    state = at(metz, {"us_cca": "0707", "de_1010": "0807"})
    assert state.odds(Action.attack("0807", ("us_cca",))).terrain_shift == -3
    # With 357 attacking too from the land side (0708), only the city's -2 applies.
    state = at(metz, {"us_cca": "0707", "us_357": "0708", "de_1010": "0807"})
    assert state.odds(Action.attack("0807", ("us_cca", "us_357"))).terrain_shift == -2


@rule("metz:7.2")
def test_river_crossing_is_a_first_step_that_ends_the_move(metz):
    # The same map without its roads, so that only the river rules are at work.
    features = {k: tuple(f for f in v if f != "road") for k, v in metz.map.hexside_features.items()}
    roadless = replace(metz, map=replace(metz.map, hexside_features=features, edge_exits={}))
    # 357 starts in 0804, on the Moselle: it may cross to 0803 and must stop there.
    state = at(roadless, {"us_357": "0804", "de_1010": "0101"}, phase="us_movement")
    reach = destinations(state, "us_357")
    assert "0803" in reach and "0802" not in reach
    # A unit that does not start next to the river may not cross it later in its move.
    state = at(roadless, {"us_357": "0705", "de_1010": "0101"}, phase="us_movement")
    assert "0804" in destinations(state, "us_357") and "0803" not in destinations(state, "us_357")
    # Crossing is allowed whatever the hex costs: the 1-MP garrison may cross into forest 0608.
    state = at(roadless, {"de_gar": "0708", "us_357": "0101"}, phase="germany_movement")
    assert "0608" in destinations(state, "de_gar")
    # With the roads, the bridge 0804/0905 is crossed at road cost and the move goes on.
    state = at(metz, {"us_357": "0804", "de_1010": "0101"}, phase="us_movement")
    assert {"0905", "0906"} <= destinations(state, "us_357")


@rule("metz:7.33")
def test_over_stacking_is_checked_at_the_end_of_a_combat_phase_too(metz):
    state = at(metz, {"us_357": "0305", "us_358": "0305", "de_1010": "0911"})
    state.apply_action(Action.end())
    assert state.removing == "germany" and state.current_player() == 1
    state.apply_action(Action.remove("us_358"))
    assert state.phase.id == "germany_movement" and state.vp["germany"] == 4


@rule("metz:7.51")
def test_a_corner_hex_may_leave_by_either_edge(metz):
    state = at(metz, {"de_1125": "0101", "us_357": "0911"}, phase="germany_movement")
    exits = {a.edge for a in state.moves_of("de_1125") if a.kind == "exit"}
    assert exits == {"north", "west"}
    assert state.parse_action("exit 1125 north") == Action.exit("de_1125", "north")
