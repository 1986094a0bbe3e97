"""Drive on Metz, rules 11.x: optional rules and scenarios."""

from __future__ import annotations

import pytest

from rulec.engine import PENDING, Action, IllegalAction, new_game

rule = pytest.mark.rule


def at(metz, units, phase="germany_movement", turn=2, options=()):
    return new_game(metz, options=options).arrange(units, turn=turn, phase=phase)


def destinations(state, uid):
    return {a.hex for a in state.moves_of(uid) if a.kind == "move"}


@rule("metz:11.2")
def test_tactical_withdrawal(metz):
    # PzGr 8 (MA 8) starts next to US 357: it is stuck without the option ...
    units = {"de_8": "0405", "us_357": "0305"}
    assert destinations(at(metz, units), "de_8") == set()
    # ... and with it may leave for +4 MP into a hex outside enemy ZOC: 0506 by road is 1 + 4.
    state = at(metz, units, options=("tactical_withdrawal",))
    reach = destinations(state, "de_8")
    assert "0506" in reach
    assert "0404" not in reach and "0306" not in reach  # both touch 357 (enemy ZOC)
    # An infantry unit (MA 4) may not withdraw.
    assert destinations(at(metz, {"de_1010": "0405", "us_357": "0305"}, options=("tactical_withdrawal",)), "de_1010") == set()


@rule("metz:11.21")
def test_withdrawal_first_hex_not_across_a_river(metz):
    # PzGr 8 in 0804 next to US 357 in 0704: 0803, 0904 and 0905 lie across the Moselle
    # (0905 by a bridge); 0805 is on the same bank.
    state = at(metz, {"de_8": "0804", "us_357": "0704"}, options=("tactical_withdrawal",))
    reach = destinations(state, "de_8")
    assert "0805" in reach
    assert not {"0803", "0904", "0905"} & reach


@rule("metz:11.22")
def test_withdrawing_unit_may_go_on_moving(metz):
    state = at(metz, {"de_8": "0804", "us_357": "0704"}, options=("tactical_withdrawal",))
    reach = destinations(state, "de_8")
    # 0805 (road 1 + 4), then 0806 and Metz 0807 by road: 7 of its 8 MP.
    assert {"0806", "0807"} <= reach


@rule("metz:11.31")
def test_screaming_eagles_arrive_in_any_us_movement_phase(metz):
    plain = new_game(metz)
    assert plain.status("us_502") == "unused"
    state = new_game(metz, options=("screaming_eagles",))
    assert state.status("us_502") == PENDING and state.arrival_turn("us_502") is None
    for turn in (1, 4, 7):
        later = state.arrange({"us_502": PENDING, "de_1010": "0507"}, turn=turn, phase="us_movement")
        assert destinations(later, "us_502")
        assert Action.delay("us_502") not in later.legal_actions()
    german = state.arrange({"us_502": PENDING, "de_1010": "0507"}, turn=2, phase="germany_movement")
    assert not [a for a in german.legal_actions() if a.unit == "us_502"]


@rule("metz:11.32")
def test_paratroopers_land_on_empty_clear_hexes_and_sit_out_combat(metz):
    state = new_game(metz, options=("screaming_eagles",)).arrange(
        {"us_502": PENDING, "us_357": "0406", "de_1010": "0405"}, turn=2, phase="us_movement")
    spots = destinations(state, "us_502")
    clear = {h for h in metz.map.hexes if metz.map.terrain[h] == ("clear",)}
    assert spots == clear - {"0406", "0405"}
    assert "0304" not in spots  # a town is not clear terrain (RULING)
    assert "0506" in spots  # next to the German unit: landing in enemy ZOC is allowed
    state.apply_action(Action.move("us_502", "0506"))
    assert state.status("us_502") == "map"
    assert not [a for a in state.legal_actions() if a.unit == "us_502"]  # no further movement
    state.apply_action(Action.end())
    state.apply_action(Action.attack("0405"))
    attackers = {a.unit for a in state.legal_actions() if a.kind == "with"}
    assert attackers == {"us_357"}
    with pytest.raises(IllegalAction) as error:
        state.apply_action(Action.with_unit("us_502"))
    assert error.value.rule == "11.32"
    state.apply_action(Action.cancel())
    # In the next American combat phase it fights as a normal unit.
    for _ in range(4):
        state.apply_action(Action.end())
    assert state.phase.id == "us_combat"
    state.apply_action(Action.attack("0405"))
    assert Action.with_unit("us_502") in state.legal_actions()


@rule("metz:11.33")
def test_screaming_eagles_give_germany_five_vp(metz):
    state = new_game(metz, options=("screaming_eagles",))
    assert state.vp == {"us": 0, "germany": 5}
    assert [(e.source, e.phase, e.side) for e in state.vp_log] == [("option:screaming_eagles", "setup", "germany")]


@rule("metz:11.41")
def test_ninetieth_division_regiment_arrives_turn_four_in_the_northern_group(metz):
    state = new_game(metz, options=("ninetieth_division",))
    assert state.status("us_359") == PENDING and state.arrival_turn("us_359") == 4
    assert not [a for a in state.legal_actions() if a.unit == "us_359"]
    later = state.arrange({"us_359": PENDING, "de_1010": "0507"}, turn=4, phase="us_movement")
    reach = destinations(later, "us_359")
    assert {"0101", "0102", "0103", "0104"} <= reach and "0110" not in reach


@rule("metz:11.42")
def test_ninetieth_division_gives_germany_three_vp(metz):
    assert new_game(metz, options=("ninetieth_division",)).vp == {"us": 0, "germany": 3}


@rule("metz:11.51")
def test_reorganization_improves_one_or_two_random_german_units(metz):
    chosen = {}
    for seed in range(30):
        state = new_game(metz, options=("german_reorganization",), seed=seed)
        assert 1 <= len(state.variants) <= 2 and set(state.variants.values()) == {"improved"}
        for uid in state.variants:
            assert metz.units[uid].side == "germany"
            assert state.unit(uid).strength == metz.units[uid].strength + 1
            assert state.unit(uid).move == metz.units[uid].move
        chosen[seed] = tuple(state.variants)
    assert len(set(chosen.values())) > 5  # really random ...
    again = new_game(metz, options=("german_reorganization",), seed=7)
    assert tuple(again.variants) == chosen[7]  # ... and reproducible from the seed
    assert {len(c) for c in chosen.values()} == {1, 2}
    assert new_game(metz).variants == {}


@rule("metz:11.52")
def test_reorganization_vp_go_to_the_american(metz):
    for seed in range(10):
        state = new_game(metz, options=("german_reorganization",), seed=seed)
        expected = sum(metz.units[uid].variant("improved").vp for uid in state.variants)
        assert state.vp == {"us": expected, "germany": 0}
