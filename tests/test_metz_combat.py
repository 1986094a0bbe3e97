"""Drive on Metz, rules 9.x and 10.x (and 7.53, 11.1): attacks, the CRT, retreats, advances."""

from __future__ import annotations

import pytest

from itertools import combinations

from rulec.engine import CHANCE, ELIMINATED, Action, IllegalAction, new_game
from battle_steps import attack, attackers_for

rule = pytest.mark.rule


def at(metz, units, phase="us_combat", turn=2, options=()):
    return new_game(metz, options=options).arrange(units, turn=turn, phase=phase)


def attacks_on(state, hex):
    """Every group of attackers that may be declared against `hex`, each checked by declaring it."""
    eligible = attackers_for(state, hex)
    groups = []
    for k in range(1, len(eligible) + 1):
        for group in combinations(eligible, k):
            trial = attack(state.clone(), hex, *group)
            assert trial.is_chance_node() and trial.battle.battle.attackers == group
            groups.append(group)
    return groups


# The worked example of 10.0: 15 US strength points against a 2-strength German unit.
EXAMPLE = {"us_357": "0705", "us_358": "0605", "us_cca": "0707", "de_utrfhr": "0706"}


@rule("metz:10.0")
def test_worked_example_differential_and_fortified_shift(metz):
    state = at(metz, EXAMPLE)
    odds = state.odds(Action.attack("0706", ("us_357", "us_358", "us_cca")))
    assert (odds.attack, odds.defence, odds.differential) == (15, 2, 13)
    assert metz.tables["main"].columns[odds.base_column].label == "+10 or more"
    assert odds.terrain_shift == -3  # 0706 is fortified
    assert odds.label == "+4, +5"
    # The same attack on a clear hex stays on the "+10 or more" column.
    state = at(metz, {"us_357": "0405", "us_358": "0305", "us_cca": "0506", "de_utrfhr": "0406"})
    assert state.odds(Action.attack("0406", ("us_357", "us_358", "us_cca"))).label == "+10 or more"


@rule("metz:11.1")
def test_command_control_shifts_right_after_terrain(metz):
    state = at(metz, EXAMPLE, options=("command_control",))
    # 357 and 358 are both of the 90th division.
    assert state.odds(Action.attack("0706", ("us_357", "us_358", "us_cca"))).label == "+6, +7"
    # CCA alone with 357 (7th Armored and 90th): no shared division, no shift.
    assert state.odds(Action.attack("0706", ("us_357", "us_cca"))).modifier_shift == 0
    # Without the option the example stays on "+4, +5".
    plain = at(metz, EXAMPLE)
    assert plain.odds(Action.attack("0706", ("us_357", "us_358", "us_cca"))).label == "+4, +5"


@rule("metz:10.2")
def test_beyond_the_table_use_the_end_columns_also_after_shifts(metz):
    # 1 against 3 is -2: the "-1" column. In forest (-2 columns) it stays there.
    state = at(metz, {"us_357": "0304", "de_fhnjkr": "0404"})  # Fhnjkr is 3, 0404 forest
    odds = state.odds(Action.attack("0404", ("us_357",)))
    assert odds.differential == 1 and odds.label == "-1"  # +1 shifted 2 left, clamped at "-1"
    state = at(metz, {"us_357": "0305", "de_fhnjkr": "0405"})  # clear
    assert state.odds(Action.attack("0405", ("us_357",))).label == "+1"
    weak = at(metz, {"us_2": "0305", "de_fhnjkr": "0405"})
    assert weak.odds(Action.attack("0405", ("us_2",))).label == "+2, +3"
    # +13 clamps to "+10 or more" before a 1-column rough shift: "+8, +9" (not still "+10").
    state = at(metz, {"us_357": "0206", "us_358": "0207", "us_cca": "0406", "de_utrfhr": "0306"})
    odds = state.odds(Action.attack("0306", ("us_357", "us_358", "us_cca")))
    assert odds.differential == 13 and odds.terrain_shift == -1 and odds.label == "+8, +9"


@rule("metz:10.5")
def test_terrain_shifts_are_not_cumulative(metz):
    # 0507 is forest (-2) and fortified (-3): only the worst, -3, applies.
    state = at(metz, {"us_357": "0407", "de_1010": "0507"})
    odds = state.odds(Action.attack("0507", ("us_357",)))
    assert odds.terrain_shift == -3


@rule("metz:9.1")
def test_combat_is_voluntary_and_any_subset_may_attack(metz):
    state = at(metz, {"us_357": "0305", "us_358": "0406", "de_1010": "0405"})
    assert sorted(attacks_on(state, "0405")) == sorted([("us_357",), ("us_358",), ("us_357", "us_358")])
    assert Action.end() in state.legal_actions()
    state.apply_action(Action.end())
    assert state.phase.id == "germany_movement"
    assert state.status("de_1010") == "map"


@rule("metz:9.2")
def test_one_battle_targets_one_hex(metz):
    # 357 in 0305 is adjacent to German units in 0405 and 0404; each attack names one hex.
    state = at(metz, {"us_357": "0305", "de_1010": "0405", "de_1126": "0404"})
    targets = {a.hex for a in state.legal_actions() if a.kind == "attack"}
    assert targets == {"0404", "0405"}
    attack(state, "0405", "us_357", roll=4)  # +3, roll 4: NE
    # Having fought for 0405, 357 may not also attack 0404.
    assert not [a for a in state.legal_actions() if a.kind == "attack"]
    # An attack must target a hex holding enemy units.
    with pytest.raises(IllegalAction) as error:
        state.apply_action(Action.attack("0306", ("us_357",)))
    assert error.value.rule == "9.2"


@rule("metz:9.3")
def test_no_unit_attacks_twice(metz):
    state = at(metz, {"us_357": "0305", "de_1010": "0405", "de_1126": "0404"})
    attack(state, "0405", "us_357", roll=4)
    with pytest.raises(IllegalAction) as error:
        state.apply_action(Action.attack("0404", ("us_357",)))
    assert error.value.rule == "9.3"


@rule("metz:9.4")
def test_no_defender_is_attacked_twice(metz):
    state = at(metz, {"us_357": "0305", "us_358": "0406", "de_1010": "0405"})
    attack(state, "0405", "us_357", roll=4)  # +3 column, roll 4: NE, the defender stays
    assert state.status("de_1010") == "map"
    assert attacks_on(state, "0405") == []
    with pytest.raises(IllegalAction) as error:
        state.apply_action(Action.attack("0405", ("us_358",)))
    assert error.value.rule == "9.4"


@rule("metz:9.5")
def test_adjacent_units_combine_their_strength(metz):
    state = at(metz, {"us_357": "0305", "us_358": "0406", "us_cca": "0506", "de_1010": "0405"})
    odds = state.odds(Action.attack("0405", ("us_357", "us_358", "us_cca")))
    assert odds.attack == 15 and odds.differential == 14
    assert ("us_357", "us_358", "us_cca") in attacks_on(state, "0405")
    # The attackers may be named in any order (the one-line order stands for the steps).
    assert state.parse_orders("attack 0405 with CCA, 358 357") == [
        Action.attack("0405"), Action.with_unit("us_357"), Action.with_unit("us_358"), Action.with_unit("us_cca"),
        Action.resolve()]


@rule("metz:10.1")
def test_attack_declared_with_its_column_before_the_roll(metz):
    state = at(metz, EXAMPLE)
    action = Action.attack("0706", ("us_357", "us_358", "us_cca"))
    announced = state.odds(action)
    for step in (Action.attack("0706"), Action.with_unit("us_357"), Action.with_unit("us_358"), Action.with_unit("us_cca")):
        state.apply_action(step)
    assert state.odds() == announced  # the battle as declared so far
    state.apply_action(Action.resolve())
    assert state.current_player() == CHANCE and state.battle.odds == announced
    with pytest.raises(IllegalAction) as error:
        state.apply_action(Action.end())  # no changing one's mind once declared
    assert error.value.rule == "10.1"
    state.apply_action(Action.roll(1))
    report = state.last_battle
    assert report.result == metz.tables["main"].rows[1][announced.column] == "DR2"


@rule("metz:10.3")
def test_result_codes(metz):
    # NE: 357 (4) against Fhnjkr (3) is +1; a 3 there is "no effect".
    ne = attack(at(metz, {"us_357": "0305", "de_fhnjkr": "0405"}), "0405", "us_357", roll=3)
    assert ne.last_battle.result == "NE" and ne.positions["de_fhnjkr"] == "0405"
    # AR: 2nd regiment (5) against 3 is +2; a 6 makes every attacker retreat one hex, chosen by its owner.
    ar = attack(at(metz, {"us_2": "0305", "de_fhnjkr": "0405", "de_1010": "0911"}), "0405", "us_2", roll=6)
    assert ar.last_battle.result == "AR"
    assert ar.current_player() == 0 and ar.retreats
    ar.apply_action(ar.legal_actions()[0])
    assert ar.positions["us_2"] in metz.map.neighbours["0305"].values()
    assert ar.positions["us_2"] not in metz.map.neighbours["0405"].values()
    assert ar.advancing is None  # the defender may not advance after an AR
    # DR2: 8 against 1 is +7; a 1 makes the defender retreat two hexes.
    dr2 = attack(at(metz, {"us_357": "0305", "us_358": "0406", "de_1010": "0405"}), "0405", "us_357", "us_358", roll=1)
    assert dr2.last_battle.result == "DR2"
    # DR: 4 against 1 is +3; a 2 makes the defender retreat one hex, chosen by the defender;
    # then one attacker may advance into the vacated hex.
    dr = attack(at(metz, {"us_357": "0305", "de_1010": "0405"}), "0405", "us_357", roll=2)
    assert dr.last_battle.result == "DR"
    assert dr.current_player() == 1
    paths = [a.path for a in dr.legal_actions()]
    assert all(len(p) == 1 for p in paths) and len(paths) > 1
    dr.apply_action(Action.retreat(paths[0]))
    assert dr.positions["de_1010"] == paths[0][0]
    assert dr.current_player() == 0 and dr.advancing is not None
    assert set(dr.legal_actions()) == {Action.advance("us_357", "0405"), Action.advance()}
    dr.apply_action(Action.advance("us_357", "0405"))
    assert dr.positions["us_357"] == "0405" and dr.phase.id == "us_combat"


@rule("metz:10.4")
def test_retreat_only_into_empty_hexes_outside_enemy_zoc(metz):
    # German 1010 in 0405 beaten from 0305. The hexes away from 0305 are 0406, 0505 and 0506
    # (0404 holds US 2nd regiment). 0505 touches 0404 and 0506 touches 358 in 0605: enemy
    # zones of control. Only 0406 is left, so the retreat is carried out at once.
    state = at(metz, {"us_357": "0305", "us_358": "0605", "us_2": "0404", "de_1010": "0405"})
    attack(state, "0405", "us_357", roll=2)  # +3, 2: DR
    assert state.last_battle.result == "DR"
    assert not state.retreats
    assert state.positions["de_1010"] == "0406"
    # Without 358 the defender may choose between 0406 and 0506.
    state = at(metz, {"us_357": "0305", "us_2": "0404", "de_1010": "0405"})
    attack(state, "0405", "us_357", roll=2)
    assert {a.path for a in state.legal_actions()} == {("0406",), ("0506",)}


@rule("metz:10.41")
def test_no_retreat_across_a_river_even_by_road(metz):
    # German 1010 in 0804, beaten by 357 from 0704: the hexes away from it are 0803, 0904 and
    # 0905 across the Moselle (0804/0905 is a road bridge) and 0805, next to US 358 in 0705.
    state = at(metz, {"us_357": "0704", "us_358": "0705", "de_1010": "0804"})
    attack(state, "0804", "us_357", roll=2)  # +3, 2: DR
    assert state.last_battle.result == "DR"
    assert state.status("de_1010") == ELIMINATED
    # With 358 elsewhere the unit retreats by land, to 0805.
    state = at(metz, {"us_357": "0704", "us_358": "0703", "de_1010": "0804"})
    attack(state, "0804", "us_357", roll=2)
    assert state.positions.get("de_1010") == "0805"


@rule("metz:10.42")
def test_a_unit_that_cannot_retreat_is_destroyed(metz):
    state = at(metz, {"us_357": "0304", "us_358": "0305", "us_2": "0505", "us_10": "0504", "de_1126": "0404"})
    attack(state, "0404", "us_357", "us_358", roll=1)
    assert state.last_battle.result in ("DR", "DR2")
    assert state.status("de_1126") == ELIMINATED
    assert state.vp == {"us": 0, "germany": 0}  # a German loss scores nothing in this game
    # The attackers may advance into the vacated hex.
    assert state.advancing is not None and state.advancing.hexes == ("0404",)


@rule("metz:7.53")
def test_units_forced_off_the_map_are_eliminated(metz):
    # 1126 in 0102 on the west edge, beaten from 0202: one hex back (0101) is on the map,
    # but a two-hex retreat would have to leave it.
    state = at(metz, {"us_cca": "0202", "de_1126": "0102"})
    attack(state, "0102", "us_cca", roll=1)  # +6: DR2
    assert state.last_battle.result == "DR2"
    assert state.status("de_1126") == ELIMINATED
    state = at(metz, {"us_357": "0202", "de_1126": "0102"})
    attack(state, "0102", "us_357", roll=1)  # +3: DR
    assert state.positions["de_1126"] == "0101"


@rule("metz:10.43")
def test_advance_even_across_a_river_and_into_either_hex_after_dr2(metz):
    # US 357 in 0904 attacks across the Moselle into 0804; a DR lets it advance across.
    state = at(metz, {"us_357": "0904", "us_358": "0803", "de_1010": "0804"})
    attack(state, "0804", "us_357", "us_358", roll=1)
    assert state.last_battle.result in ("DR", "DR2")
    while state.retreats:
        state.apply_action(state.legal_actions()[0])
    assert Action.advance("us_357", "0804") in state.legal_actions()
    state.apply_action(Action.advance("us_357", "0804"))
    assert state.positions["us_357"] == "0804"
    # After a DR2 the advancing unit may take either vacated hex.
    state = at(metz, {"us_cca": "0305", "de_1010": "0405"})
    attack(state, "0405", "us_cca", roll=1)  # +6: DR2
    assert state.last_battle.result == "DR2"
    while state.retreats:
        state.apply_action(state.legal_actions()[0])
    first = state.advancing.hexes[1]
    assert set(state.legal_actions()) == {Action.advance("us_cca", "0405"), Action.advance("us_cca", first),
                                          Action.advance()}
    state.apply_action(Action.advance("us_cca", first))
    assert state.positions["us_cca"] == first
