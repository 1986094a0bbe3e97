"""Drive on Metz, rules 4.0, 5.0 and 8.x: the sequence of play, set-up and reinforcements."""

from __future__ import annotations

import pytest

from rulec.engine import PENDING, UNUSED, Action, IllegalAction, new_game

rule = pytest.mark.rule


def at(metz, units, phase="us_movement", turn=1, options=()):
    return new_game(metz, options=options).arrange(units, turn=turn, phase=phase)


def destinations(state, uid):
    return {a.hex for a in state.moves_of(uid) if a.kind == "move"}


@rule("metz:4.0")
def test_sequence_of_play_over_seven_turns(metz):
    state = new_game(metz)
    seen = []
    while not state.is_terminal():
        seen.append((state.turn, state.phase.id))
        state.apply_action(Action.end())
    one_turn = ["us_movement", "us_combat", "germany_movement", "germany_combat"]
    assert seen == [(t, p) for t in range(1, 8) for p in one_turn]
    # The VP phases ran in between: the German scored 1 VP each turn for an empty east bank
    # (turn 1's US Moselle phase found no US unit, and the American never moved).
    assert [(e.turn, e.phase) for e in state.vp_log] == [(t, "no_us_moselle_vp") for t in range(1, 8)]
    assert state.vp == {"us": 0, "germany": 7}


@rule("metz:5.0")
def test_set_up(metz):
    state = new_game(metz)
    germans = {uid: u.setup for uid, u in metz.units.items() if u.side == "germany" and u.setup}
    assert len(germans) == 10
    for uid, hex in germans.items():
        assert state.positions[uid] == hex
    assert state.status("de_106") == PENDING and state.arrival_turn("de_106") == 2
    us = [uid for uid, u in metz.units.items() if u.side == "us" and not u.optional]
    assert len(us) == 8 and all(state.status(u) == PENDING and state.arrival_turn(u) == 1 for u in us)
    assert state.status("us_502") == UNUSED and state.status("us_359") == UNUSED
    assert state.vp == {"us": 0, "germany": 0} and state.turn == 1


@rule("metz:8.1")
def test_reinforcements_pay_the_entry_hex_and_may_move_and_fight(metz):
    state = at(metz, {"us_357": PENDING, "de_1125": "0911"})
    reach = destinations(state, "us_357")
    # Entering 0103 along its road costs 1 MP; then 0203, 0304, 0305 by road: 4 MP in all.
    assert "0305" in reach
    # Entering 0102 (clear, no road) costs 2 MP; 0202 beyond is forest (4): out of reach.
    assert "0102" in reach and "0202" not in reach
    # It may attack in the same player turn.
    state = at(metz, {"us_357": PENDING, "de_1125": "0204"})
    state.apply_action(Action.move("us_357", "0104"))
    state.apply_action(Action.end())
    assert Action.attack("0204") in state.legal_actions()
    state.apply_action(Action.attack("0204"))
    assert Action.with_unit("us_357") in state.legal_actions()


@rule("metz:8.11")
def test_blocked_entry_goes_to_the_closest_legal_hex(metz):
    # Every Northern Group hex holds a German unit: 357 enters at the closest west-edge hex,
    # 0105, which is in enemy zone of control, so it stops there.
    blockers = {"de_1125": "0101", "de_1126": "0102", "de_1010": "0103", "de_utrfhr": "0104"}
    state = at(metz, {"us_357": PENDING, **blockers})
    assert destinations(state, "us_357") == {"0105"}
    # An entry hex in an enemy zone of control stops the unit there, and only one unit may end there.
    state = at(metz, {"us_357": PENDING, "us_358": PENDING, "de_1125": "0203"})
    reach = destinations(state, "us_357")
    assert {"0103", "0104"} <= reach and "0204" not in reach
    state.apply_action(Action.move("us_357", "0104"))
    assert "0104" not in destinations(state, "us_358")
    with pytest.raises(IllegalAction) as error:
        state.apply_action(Action.move("us_358", "0104"))
    assert error.value.rule == "7.32"


@rule("metz:8.2")
def test_reinforcements_may_be_delayed_turn_by_turn(metz):
    state = at(metz, {"de_106": PENDING, "us_357": "0101"}, phase="germany_movement", turn=2)
    assert Action.delay("de_106") in state.legal_actions()
    state.apply_action(Action.delay("de_106"))
    assert state.arrival_turn("de_106") == 3
    assert not [a for a in state.legal_actions() if a.unit == "de_106"]
    while not (state.turn == 3 and state.phase.id == "germany_movement"):
        state.apply_action(Action.end())
    assert destinations(state, "de_106")
    # Ending the phase without entering holds it back another turn (RULING: see docs/rulings.md).
    state.apply_action(Action.end())
    assert state.arrival_turn("de_106") == 4 and state.status("de_106") == PENDING


@rule("metz:8.3")
def test_all_us_units_enter_on_turn_one_by_group(metz):
    state = new_game(metz)
    groups = {"northern_group": {"us_357", "us_358"}, "central_group": {"us_2", "us_cca"},
              "southern_group": {"us_10", "us_11", "us_ccb", "us_ccr"}}
    for zone, units in groups.items():
        for uid in units:
            assert metz.units[uid].arrives.turn == 1 and metz.units[uid].arrives.hexes == metz.map.zones[zone]
            assert destinations(state, uid) & set(metz.map.zones[zone])
    # 357 of the Northern Group cannot enter through the Southern Group's 0110.
    assert "0110" not in destinations(state, "us_357")


@rule("metz:8.4")
def test_the_106th_enters_on_turn_two_on_the_north_edge(metz):
    state = new_game(metz)
    state.apply_action(Action.end())
    state.apply_action(Action.end())
    assert (state.turn, state.phase.id) == (1, "germany_movement")
    assert not [a for a in state.legal_actions() if a.unit == "de_106"]
    state = at(metz, {"de_106": PENDING, "us_357": "0101"}, phase="germany_movement", turn=2)
    reach = destinations(state, "de_106")
    assert {"0401", "0501", "0601", "0701", "0801", "0901"} <= reach
    assert metz.units["de_106"].arrives.hexes == ("0401", "0501", "0601", "0701", "0801", "0901")
    assert "0101" not in reach  # far along the north edge, outside its entry area
