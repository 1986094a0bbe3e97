"""The Marne, rules 8.1-8.9, 8.12 and 8.13: attacks, odds and DRMs, advances, retreats, retreated guests.

Positions are built with `arrange()` on the 6 Sep set-up (turn 9: the Allies are no longer
demoralized, 11.4.1.1). Most fights happen around 2714/2715, a patch of open country with no
river, woods or city within two hexes (asserted by `open_country`); the river tests use the
river south of it (2717 on the north bank, 2617, 2718 and 2817 on the south bank).
Strengths used: German infantry de_3..de_8 are 8, de_7r 6, cavalry de_cav4/de_cav9 2; French
fr_35, fr_36, fr_5, fr_6 are 7, fr_53r 5, fr_45alg 6, the (1)-4 screen cavalry fr_cav1 1, fr_cav4 2.
"""

from __future__ import annotations

import pytest

from rulec.engine import ELIMINATED, Action, IllegalAction, new_game
from tests.conftest import _game
from battle_steps import attack, attackers_for

rule = pytest.mark.rule

GAME = _game("the_marne")
MAP = GAME.map
START = new_game(GAME, scenario="counterattack")
TABLE = GAME.tables["main"]


def at(units, phase="de_combat_1", turn=9):
    return START.arrange(units, turn=turn, phase=phase)


def settle(state):
    """Make the pending retreats (first path offered) and decline every advance."""
    while state.retreats or state.advancing:
        state.apply_action(Action.advance() if state.advancing else state.legal_actions()[0])
    return state


def settle_retreats(state):
    """Make the pending retreats (first path offered), leaving the advance to the test."""
    while state.retreats:
        state.apply_action(state.legal_actions()[0])
    return state


def side(a, b):
    return f"{min(a, b)}/{max(a, b)}"


def river(a, b):
    return "river" in MAP.hexside_features.get(side(a, b), ())


def adjacent(a, b):
    return b in MAP.neighbours[a].values()


def open_country(*hexes):
    """Assert the hexes are clear (a town has no combat effect) with no river between any two of them."""
    for h in hexes:
        assert MAP.terrain[h] in (("clear",), ("clear", "town")), (h, MAP.terrain[h])
    for a in hexes:
        for b in hexes:
            assert not river(a, b), (a, b)


# Around 2715: 2714 north of it, 2814 NE, 2815 SE, 2716 south, 2615 SW, 2614 NW.
AROUND_2715 = ("2714", "2814", "2815", "2716", "2615", "2614")
OPEN = ("2613", "2713", "2813", "2612", "2712", "2812", "2715", "2717", "2816", "2616") + AROUND_2715


def test_the_open_country_is_open():
    open_country(*OPEN)
    assert tuple(MAP.neighbours["2715"][d] for d in ("n", "ne", "se", "s", "sw", "nw")) == AROUND_2715


# ------------------------------------------------------------------ 8.1 and 8.4: odds, die, result
@rule("marne:8.1")
def test_odds_are_the_ratio_rounded_down_and_the_result_is_applied_at_once():
    state = at({"de_3": "2714", "de_4": "2614", "fr_35": "2715", "fr_36": "2813"})
    odds = state.odds(Action.attack("2715", ("de_3", "de_4")))
    assert (odds.attack, odds.defence, odds.drm, odds.label) == (16, 7, 0, "2-1")  # 16:7 is 2.3, read 2-1
    attack(state, "2715", "de_3", "de_4", roll=1)
    result = TABLE.rows[1][odds.column]
    assert state.last_battle.result == result == "D2"
    # The result is carried out before anything else: Germany retreats fr_35 two hexes toward its
    # army, where it is disrupted; Germany must decide its advance before declaring another battle.
    assert state.current_player() == 0 and Action.retreat(("2716", "2717")) in state.legal_actions()
    state.apply_action(Action.retreat(("2716", "2717")))
    assert state.positions["fr_35"] == "2717" and "disrupted" in state.markers_on("fr_35")
    assert state.advancing is not None
    assert not any(a.kind == "attack" for a in state.legal_actions())
    with pytest.raises(IllegalAction):
        state.apply_action(Action.attack("2813"))


def _woods_hex_in_the_open():
    """A woods hex whose six neighbours are clear, with no river around it."""
    for h, terrain in sorted(MAP.terrain.items()):
        around = tuple(MAP.neighbours[h].values())
        if terrain == ("woods",) and len(around) == 6 and all(MAP.terrain[n] == ("clear",) for n in around) \
                and not any(river(h, n) for n in around):
            return h, MAP.neighbours[h]
    raise AssertionError("no woods hex in open country")


@rule("marne:8.1")
def test_the_die_roll_is_modified_for_terrain():
    woods, around = _woods_hex_in_the_open()
    state = at({"de_3": around["n"], "de_4": around["ne"], "fr_35": woods})
    odds = state.odds(Action.attack(woods, ("de_3", "de_4")))
    assert odds.label == "2-1" and odds.drm == 1  # woods: +1 for the defender
    attack(state, woods, "de_3", "de_4", roll=1)
    assert state.last_battle.result == TABLE.rows[2][odds.column] == "D1"  # read on row 1 + 1
    assert settle_retreats(state).positions["fr_35"] != woods


@rule("marne:8.4")
def test_odds_are_rounded_in_the_defenders_favour():
    # Two stacks north of fr_45alg leave its way south open: it is in supply (8.5 plays no part).
    state = at({"de_3": "2714", "de_cav4": "2714", "de_cav9": "2614", "de_7r": "2614", "fr_45alg": "2715"})
    # The rulebook's example: 10 strength points against 6 is 1-1.
    odds = state.odds(Action.attack("2715", ("de_3", "de_cav4")))
    assert (odds.attack, odds.defence, odds.label) == (10, 6, "1-1")
    assert state.odds(Action.attack("2715", ("de_3", "de_cav4", "de_cav9"))).label == "2-1"  # 12:6, exactly 2
    assert state.odds(Action.attack("2715", ("de_7r", "de_cav4", "de_cav9"))).label == "1-1"  # 10:6 again
    assert state.odds(Action.attack("2715", ("de_cav4", "de_cav9"))).label == "1-2"  # 4:6 is not 1-1


# ------------------------------------------------------------------ 8.2: who may attack
@rule("marne:8.2")
def test_only_units_adjacent_to_the_defender_attack():
    state = at({"de_3": "2714", "de_4": "2613", "fr_35": "2715"})
    assert not adjacent("2613", "2715")
    assert attackers_for(state, "2715") == ("de_3",)
    assert Action.attack("2613") not in state.legal_actions()  # nothing French next to de_4
    state.apply_action(Action.attack("2715"))
    with pytest.raises(IllegalAction):
        state.apply_action(Action.with_unit("de_4"))


@rule("marne:8.2")
def test_attacking_is_voluntary_and_a_stack_may_split():
    # de_3 and de_4 stacked in 2714, next to fr_35 (2715) and fr_36 (2813).
    state = at({"de_3": "2714", "de_4": "2714", "fr_35": "2715", "fr_36": "2813"})
    assert Action.end() in state.legal_actions()
    passed = state.clone()
    passed.apply_action(Action.end())
    assert passed.phase.id == "de_move_2" and passed.positions["fr_35"] == "2715"
    # de_3 attacks 2715 alone; its stack-mate is still free to attack 2813.
    settle(attack(state, "2715", "de_3", roll=4))  # 8:7, 1-1, 4: A1
    assert attackers_for(state, "2813") == ("de_4",)
    attack(state, "2813", "de_4", roll=4)
    assert state.last_battle.attackers == ("de_4",)


@rule("marne:8.2")
def test_no_unit_attacks_twice_in_a_player_turn():
    state = at({"de_3": "2714", "fr_35": "2715", "fr_36": "2813"})
    settle(attack(state, "2715", "de_3", roll=4))  # A1: de_3 retreats, disrupted
    assert state.positions["de_3"] != "2714"
    state = at({"de_3": "2714", "fr_35": "2715", "fr_36": "2813"})
    settle(attack(state, "2715", "de_3", roll=1))  # D1: fr_35 retreats, de_3 stays
    assert state.positions["de_3"] == "2714"
    assert attackers_for(state, "2813") == ()  # not again in this phase
    with pytest.raises(IllegalAction):
        state.apply_action(Action.attack("2813", ("de_3",)))
    # Nor in the second combat phase of the same player-turn, even with its disruption (3.1.2B) lifted.
    state.apply_action(Action.end())
    state.apply_action(Action.end())
    assert state.phase.id == "de_combat_2"
    state.unmark("de_3", "disrupted")
    assert attackers_for(state, "2813") == ()
    with pytest.raises(IllegalAction) as refused:
        state.apply_action(Action.attack("2813", ("de_3",)))
    assert "de_3 has already attacked" in str(refused.value)


@rule("marne:8.2")
def test_no_defender_is_attacked_twice_in_a_combat_phase():
    state = at({"de_3": "2714", "de_4": "2614", "fr_35": "2715"})
    settle(attack(state, "2715", "de_3", roll=4))  # 1-1, 4: A1; fr_35 holds 2715
    assert state.last_battle.result == "A1" and state.positions["fr_35"] == "2715"
    assert attackers_for(state, "2715") == ()
    with pytest.raises(IllegalAction) as refused:
        state.apply_action(Action.attack("2715", ("de_4",)))
    assert "already been attacked this phase" in str(refused.value)
    # In the next combat phase it may be attacked again.
    state.apply_action(Action.end())
    state.apply_action(Action.end())
    assert state.phase.id == "de_combat_2" and attackers_for(state, "2715") == ("de_4",)


# ------------------------------------------------------------------ 8.3: multi-hex attacks
@rule("marne:8.3")
def test_one_group_of_attackers_may_attack_two_enemy_hexes_at_once():
    # de_3 in 2714 is next to fr_35 (2715) and fr_36 (2813).
    state = at({"de_3": "2714", "fr_35": "2715", "fr_36": "2813"})
    state.apply_action(Action.attack("2715"))
    state.apply_action(Action.with_unit("de_3"))
    assert Action.attack("2813") in state.legal_actions()
    state.apply_action(Action.attack("2813"))
    odds = state.odds()
    assert (odds.attack, odds.defence, odds.label) == (8, 14, "1-2")  # both hexes defend together
    state.apply_action(Action.resolve())
    state.apply_action(Action.roll(1))  # 1-2, 1: D1
    assert state.last_battle.result == "D1" and set(state.last_battle.defenders) == {"fr_35", "fr_36"}
    settle(state)
    assert state.positions["fr_35"] not in ("2715", "2813") and state.positions["fr_36"] not in ("2715", "2813")
    assert {"disrupted"} <= set(state.markers_on("fr_35")) & set(state.markers_on("fr_36"))


@rule("marne:8.3")
def test_a_hex_may_be_attacked_from_every_adjacent_hex():
    attackers = {"de_3": "2714", "de_4": "2814", "de_5": "2815", "de_6": "2716", "de_7": "2615", "de_8": "2614"}
    state = at({**attackers, "fr_36": "2715"})
    assert set(attackers_for(state, "2715")) == set(attackers)
    odds = state.odds(Action.attack("2715", tuple(attackers)))
    assert (odds.attack, odds.label) == (48, "10-1")  # 48 against a surrounded fr_36 at half strength
    attack(state, "2715", *attackers, roll=6)
    assert set(state.last_battle.attackers) == set(attackers)


# ------------------------------------------------------------------ 8.5: out of supply
@rule("marne:8.5")
def test_out_of_supply_units_defend_at_half_strength_fractions_kept():
    # fr_35 (7) in 2715 between de_3 (north) and de_4 (south): their zones of control close
    # every hex around it, so it traces no supply line.
    state = at({"de_3": "2714", "de_4": "2716", "fr_35": "2715"})
    odds = state.odds(Action.attack("2715", ("de_3",)))
    assert odds.defence == 3.5 and odds.modifiers == ("out_of_supply",)
    assert odds.label == "2-1"  # 8:3.5 is 2.3
    # With its way south open it defends at 7.
    state = at({"de_3": "2714", "de_4": "2813", "fr_35": "2715"})
    odds = state.odds(Action.attack("2715", ("de_3",)))
    assert odds.defence == 7 and odds.label == "1-1"


@rule("marne:8.5")
def test_out_of_supply_units_attack_at_half_strength_fractions_kept():
    # fr_35 cut off by de_3 and de_4 attacks de_4, whose removal would reopen its supply (7.2B).
    state = at({"de_3": "2714", "de_4": "2716", "fr_35": "2715"}, phase="al_combat_1")
    assert attackers_for(state, "2716") == ("fr_35",)
    odds = state.odds(Action.attack("2716", ("fr_35",)))
    assert (odds.attack, odds.defence) == (3.5, 8)
    assert odds.label == "1-3"  # 3.5:8 is 0.44: 1-3 (a rounded-up 4 would make 1-2)


# ------------------------------------------------------------------ 8.6: ambiguous terrain
SWAMP, CLEAR_BY_SWAMP, ATTACKER_BY_BOTH = "2112", "2111", "2211"


@rule("marne:8.6")
def test_a_multi_hex_attack_on_swamp_and_clear_takes_the_swamps_plus_two():
    assert MAP.terrain[SWAMP] == ("swamp",) and MAP.terrain[CLEAR_BY_SWAMP] == MAP.terrain[ATTACKER_BY_BOTH] == ("clear",)
    assert adjacent(ATTACKER_BY_BOTH, SWAMP) and adjacent(ATTACKER_BY_BOTH, CLEAR_BY_SWAMP)
    assert not river(ATTACKER_BY_BOTH, SWAMP) and not river(ATTACKER_BY_BOTH, CLEAR_BY_SWAMP)
    units = {"de_3": ATTACKER_BY_BOTH, "de_4": ATTACKER_BY_BOTH, "fr_35": SWAMP, "fr_36": CLEAR_BY_SWAMP}
    state = at(units)
    assert state.odds(Action.attack(CLEAR_BY_SWAMP, ("de_3", "de_4"))).drm == 0
    assert state.odds(Action.attack(SWAMP, ("de_3", "de_4"))).drm == 2
    # The rulebook's example: one attack on both hexes applies the swamp's +2.
    state.apply_action(Action.attack(CLEAR_BY_SWAMP))
    state.apply_action(Action.with_unit("de_3"))
    state.apply_action(Action.with_unit("de_4"))
    state.apply_action(Action.attack(SWAMP))
    odds = state.odds()
    assert (odds.defence, odds.label, odds.drm) == (14, "1-1", 2)
    state.apply_action(Action.resolve())
    state.apply_action(Action.roll(2))
    assert state.last_battle.result == TABLE.rows[4][odds.column] == "A1"  # 2 read as 4


@rule("marne:8.6")
def test_a_multi_hex_attack_on_two_swamps_takes_plus_two_once_not_their_sum():
    # 2112 and 2212, both swamp, side by side; 2211 (clear) touches both. Resolved for the defender,
    # the ambiguity is which single effect applies (+2), not a sum of effects (+4).
    assert MAP.terrain["2112"] == MAP.terrain["2212"] == ("swamp",) and MAP.terrain["2211"] == ("clear",)
    assert adjacent("2211", "2112") and adjacent("2211", "2212") and adjacent("2112", "2212")
    assert not river("2211", "2112") and not river("2211", "2212")
    units = {"de_3": "2211", "de_4": "2211", "fr_35": "2112", "fr_36": "2212"}
    state = at(units)
    for step in (Action.attack("2112"), Action.with_unit("de_3"), Action.with_unit("de_4"), Action.attack("2212")):
        state.apply_action(step)
    odds = state.odds()
    assert (odds.defence, odds.label, odds.drm) == (14, "1-1", 2)
    # Each swamp alone is +2 too: the battle takes one of the two effects (a sum would be +4).
    assert state.odds(Action.attack("2112", ("de_3", "de_4"))).drm == state.odds(Action.attack("2212", ("de_3", "de_4"))).drm == 2


# ------------------------------------------------------------------ 8.7: flank attacks
@rule("marne:8.7")
def test_attackers_next_to_every_hex_around_the_defender_make_a_flank_attack():
    # de_3 north and de_4 south of fr_35: between them they touch all six hexes around 2715.
    assert all(h in ("2714", "2716") or adjacent(h, "2714") or adjacent(h, "2716") for h in AROUND_2715)
    state = at({"de_3": "2714", "de_4": "2716", "fr_35": "2715"})
    flank = state.odds(Action.attack("2715", ("de_3", "de_4")))
    assert flank.drm == -1 and "flank_attack" in flank.modifiers
    # de_4 standing by without attacking makes no flank attack.
    assert state.odds(Action.attack("2715", ("de_3",))).drm == 0
    # Two attackers side by side (2714, 2814) leave 2716 and 2615 untouched: no flank attack.
    state = at({"de_3": "2714", "de_4": "2814", "fr_35": "2715"})
    assert state.odds(Action.attack("2715", ("de_3", "de_4"))).drm == 0
    # The -1 is read on the table: 16 against 3.5 (cut off) is 4-1, a 1 reads the 0 row.
    state = at({"de_3": "2714", "de_4": "2716", "fr_35": "2715"})
    attack(state, "2715", "de_3", "de_4", roll=1)
    assert state.last_battle.result == TABLE.rows[0][flank.column] == "D3"


# ------------------------------------------------------------------ 8.8: rivers
# The river runs south of 2717 and 2817: 2717/2718 and 2817/2718 are river hexsides.
NORTH_BANK, SOUTH_BANK, EAST_BANK = "2717", "2718", "2817"  # EAST_BANK: the north bank, east of 2717


def test_the_river_is_where_the_tests_expect_it():
    assert adjacent(NORTH_BANK, SOUTH_BANK) and adjacent(EAST_BANK, SOUTH_BANK)
    assert river(NORTH_BANK, SOUTH_BANK) and river(EAST_BANK, SOUTH_BANK)
    assert adjacent("2616", NORTH_BANK) and adjacent("2816", NORTH_BANK)
    open_country(NORTH_BANK, EAST_BANK, "2816", "2616", "2716")
    open_country(SOUTH_BANK, "2618", "2719")


@rule("marne:8.8")
def test_a_unit_that_moved_may_not_attack_across_a_river():
    # de_3 moves 2816 -> 2717 in the first movement phase, joining de_5 there; de_4 in 2817 and
    # de_5 stay put.
    units = {"de_3": "2816", "de_5": NORTH_BANK, "de_4": EAST_BANK, "fr_35": SOUTH_BANK, "fr_36": "2616"}
    state = at(units, phase="de_move_1")
    state.apply_action(Action.move("de_3", NORTH_BANK))
    state.apply_action(Action.end())
    assert state.phase.id == "de_combat_1"
    # Across the river to fr_35 only the units that did not move may attack ...
    assert set(attackers_for(state, SOUTH_BANK)) == {"de_4", "de_5"}
    state.apply_action(Action.attack(SOUTH_BANK))
    with pytest.raises(IllegalAction):
        state.apply_action(Action.with_unit("de_3"))
    state.apply_action(Action.cancel())
    # ... while de_3 may attack fr_36, with no river between them.
    assert set(attackers_for(state, "2616")) == {"de_3", "de_5"}


@rule("marne:8.8")
def test_attackers_advance_across_the_river_they_attacked_over():
    state = at({"de_4": EAST_BANK, "fr_35": SOUTH_BANK})
    settle_retreats(attack(state, SOUTH_BANK, "de_4", roll=1))  # 8:7, 1-1, 1: D1
    assert state.last_battle.result == "D1" and state.positions["fr_35"] != SOUTH_BANK
    assert Action.advance("de_4", SOUTH_BANK) in state.legal_actions()
    state.apply_action(Action.advance("de_4", SOUTH_BANK))
    assert state.positions["de_4"] == SOUTH_BANK


@rule("marne:8.8")
def test_defenders_behind_a_river_do_not_advance_across_it():
    state = at({"de_4": EAST_BANK, "fr_35": SOUTH_BANK})
    settle_retreats(attack(state, SOUTH_BANK, "de_4", roll=4))  # 1-1, 4: A1
    assert state.last_battle.result == "A1" and state.positions["de_4"] != EAST_BANK
    assert state.advancing is None or Action.advance("fr_35", EAST_BANK) not in state.legal_actions()
    assert state.positions["fr_35"] == SOUTH_BANK
    # With no river between them the victorious defender may advance into the vacated hex.
    state = at({"de_3": "2714", "fr_35": "2715"})
    attack(state, "2715", "de_3", roll=4)
    assert state.last_battle.result == "A1"
    state.apply_action(state.legal_actions()[0])  # the Allies retreat de_3
    assert state.current_player() == 1 and Action.advance("fr_35", "2714") in state.legal_actions()


# ------------------------------------------------------------------ 8.9: other special rules
@rule("marne:8.9")
def test_the_one_four_cavalry_never_attacks_but_defends():
    assert GAME.units["fr_cav1"].strength == 1 and "screen" in GAME.units["fr_cav1"].flags
    state = at({"de_3": "2714", "fr_cav1": "2715", "fr_cav4": "2814"}, phase="al_combat_1")
    assert attackers_for(state, "2714") == ("fr_cav4",)
    state.apply_action(Action.attack("2714"))
    with pytest.raises(IllegalAction):
        state.apply_action(Action.with_unit("fr_cav1"))
    # In the German combat phase it defends with its strength of 1.
    state = at({"de_3": "2714", "fr_cav1": "2715", "fr_cav4": "2816"})
    odds = state.odds(Action.attack("2715", ("de_3",)))
    assert (odds.defence, odds.label) == (1, "8-1")


@rule("marne:8.9")
def test_attacking_disrupted_units_is_minus_one():
    state = at({"de_3": "2714", "fr_35": "2715", "fr_36": "2813"})
    assert state.odds(Action.attack("2715", ("de_3",))).drm == 0
    state.mark("fr_35", "disrupted")
    odds = state.odds(Action.attack("2715", ("de_3",)))
    assert odds.drm == -1 and "disrupted_defenders" in odds.modifiers
    played = attack(state.clone(), "2715", "de_3", roll=3)
    assert played.last_battle.result == TABLE.rows[2][odds.column] == "D1"  # 1-1: a plain 3 would be A1
    # A multi-hex attack gets the -1 only when every defender is disrupted (docs/rulings.md).
    state.apply_action(Action.attack("2715"))
    state.apply_action(Action.with_unit("de_3"))
    state.apply_action(Action.attack("2813"))
    assert state.odds().drm == 0
    state.mark("fr_36", "disrupted")
    assert state.odds().drm == -1
    state.apply_action(Action.resolve())
    state.apply_action(Action.roll(4))  # 8:14 is 1-2; 4 - 1 reads row 3
    assert state.last_battle.result == TABLE.rows[3][3] == "A1"


@rule("marne:8.9")
def test_odds_beyond_ten_to_one_or_below_one_to_five_use_the_end_columns():
    state = at({"de_3": "2714", "de_4": "2714", "de_5": "2814", "fr_cav1": "2715"})
    odds = state.odds(Action.attack("2715", ("de_3", "de_4", "de_5")))
    assert (odds.attack, odds.defence, odds.label) == (24, 1, "10-1")
    attack(state, "2715", "de_3", "de_4", "de_5", roll=6)
    assert state.last_battle.result == TABLE.rows[6][-1] == "D3"
    state = at({"de_cav4": "2714", "fr_35": "2715", "fr_36": "2715", "fr_5": "2715"})
    odds = state.odds(Action.attack("2715", ("de_cav4",)))
    assert (odds.attack, odds.defence, odds.label) == (2, 21, "1-5")
    attack(state, "2715", "de_cav4", roll=6)
    assert state.last_battle.result == TABLE.rows[6][0] == "AE"
    assert state.status("de_cav4") == ELIMINATED


# ------------------------------------------------------------------ 8.12.1: advance after combat
@rule("marne:8.12.1")
def test_any_or_all_of_the_involved_units_may_advance_at_once():
    # de_3, de_4 and de_5 attack fr_35 from three hexes; de_6, stacked with de_4, stands by.
    units = {"de_3": "2714", "de_4": "2614", "de_5": "2814", "de_6": "2614", "fr_35": "2715", "fr_36": "2515"}
    state = settle_retreats(attack(at(units), "2715", "de_3", "de_4", "de_5", roll=1))  # 24:7 is 3-1, 1: D2
    assert state.last_battle.result == "D2" and state.positions["fr_35"] != "2715"
    offered = {a.unit for a in state.legal_actions() if a.kind == "advance" and a.unit}
    assert offered == {"de_3", "de_4", "de_5"}  # not de_6, which did not attack
    assert all(a.kind == "advance" for a in state.legal_actions())  # before any other battle
    state.apply_action(Action.advance("de_3", "2715"))
    state.apply_action(Action.advance("de_5", "2715"))
    state.apply_action(Action.advance())  # de_4 stays
    assert (state.positions["de_3"], state.positions["de_4"], state.positions["de_5"]) == ("2715", "2614", "2715")
    # Attackers of a first combat phase advance before they are disrupted for attacking (3.1.2B).
    assert all("disrupted" in state.markers_on(u) for u in ("de_3", "de_4", "de_5"))
    assert attackers_for(state, "2515") == ("de_6",)  # the phase goes on
    assert attackers_for(state, "2515") == ("de_6",)  # the phase goes on


@rule("marne:8.12.1")
def test_advancing_units_obey_the_stacking_limit():
    # Four attackers from four hexes; three units fill 2715 (5.0A).
    units = {"de_3": "2714", "de_4": "2614", "de_5": "2814", "de_6": "2815", "fr_35": "2715"}
    state = attack(at(units), "2715", "de_3", "de_4", "de_5", "de_6", roll=1)
    assert state.last_battle.result in ("D3", "DE")
    for uid in ("de_3", "de_4", "de_5"):
        state.apply_action(Action.advance(uid, "2715"))
    assert state.advancing is None and state.positions["de_6"] == "2815"
    assert sorted(u for u, h in state.positions.items() if h == "2715") == ["de_3", "de_4", "de_5"]


@rule("marne:8.12.1")
def test_advance_from_one_enemy_zone_of_control_to_another():
    # de_3 in 2714 is in the ZOC of fr_37alg (2613); the vacated 2715 is in the ZOC of fr_36 (2716),
    # where fr_35 retreats. A move could not go from one to the other (4.1L); an advance may.
    units = {"de_3": "2714", "fr_35": "2715", "fr_36": "2716", "fr_37alg": "2613"}
    state = attack(at(units), "2715", "de_3", roll=1)  # 8:7, 1-1, 1: D1
    settle_retreats(state)
    assert Action.advance("de_3", "2715") in state.legal_actions()
    state.apply_action(Action.advance("de_3", "2715"))
    assert state.positions["de_3"] == "2715"


@rule("marne:8.12.1")
def test_disrupted_units_do_not_advance():
    # fr_35 and fr_53r (disrupted earlier) hold 2715; de_3's attack fails (8:12 is 1-2, 4: A2).
    state = at({"de_3": "2714", "fr_35": "2715", "fr_53r": "2715"})
    state.mark("fr_53r", "disrupted")
    attack(state, "2715", "de_3", roll=4)
    assert state.last_battle.result == "A2"
    settle_retreats(state)
    offered = {a.unit for a in state.legal_actions() if a.kind == "advance" and a.unit}
    assert offered == {"fr_35"}
    with pytest.raises(IllegalAction):
        state.apply_action(Action.advance("fr_53r", "2714"))


# ------------------------------------------------------------------ 8.12.2: retreats
@rule("marne:8.12.2")
def test_the_victor_retreats_the_beaten_units_one_at_a_time_strongest_first():
    # The Allies beat de_7r (6) and de_3 (8) in 2714; the ways north are 2613 and 2713.
    state = at({"de_7r": "2714", "de_3": "2714", "fr_35": "2715", "fr_36": "2814"}, phase="al_combat_1")
    attack(state, "2714", "fr_35", "fr_36", roll=1)  # 14:14, 1-1, 1: D1
    assert state.last_battle.result == "D1"
    assert [r.unit for r in state.retreats] == ["de_3", "de_7r"]  # the 8 first
    assert state.current_player() == 1  # the Allies choose
    assert {a.path for a in state.legal_actions()} == {("2613",), ("2713",)}
    state.apply_action(Action.retreat(("2713",)))
    # de_7r's way is worked out after de_3 moved: the vacant 2613 now beats 2713 (8.12.2.1).
    assert not state.retreats and state.positions["de_7r"] == "2613" and state.positions["de_3"] == "2713"
    # Germany never chose: the next decision is the Allies' advance.
    assert state.current_player() == 1 and state.advancing is not None


# ------------------------------------------------------------------ 8.12.2.1: retreat priorities
# In the tests below fr_35 (7) beats de_3 (8) in 2714 (1-2, a 1: D1). The hexes toward the
# German army are 2613, 2713 and 2813; a French unit in 2814 puts the vacant 2813 in an enemy ZOC.
@rule("marne:8.12.2.1")
def test_a_vacant_hex_free_of_enemy_zoc_comes_first():
    # de_3 beaten in 2714: 2613 is vacant, 2713 holds de_4, far from any enemy.
    state = at({"de_3": "2714", "de_4": "2713", "fr_35": "2715"}, phase="al_combat_1")
    attack(state, "2714", "fr_35", roll=1)  # 7:8 is 1-2, 1: D1
    assert state.last_battle.result == "D1"
    assert state.current_player() == 1  # the Allies choose between the two vacant hexes, not de_4's
    assert {a.path for a in state.legal_actions()} == {("2613",), ("2813",)}
    # With every vacant hex behind it in an enemy ZOC, it joins de_4.
    state = at({"de_3": "2714", "de_4": "2713", "fr_35": "2715", "fr_36": "2612", "fr_5": "2814"}, phase="al_combat_1")
    attack(state, "2714", "fr_35", roll=1)
    assert state.positions["de_3"] == "2713"


@rule("marne:8.12.2.1")
def test_a_vacant_hex_beats_a_friendly_hex_that_holds_no_unit_but_a_fort():
    # fr_35 beaten in 2715 from 2714: southward 2716 is vacant, 2815 holds only fort_0509 (a friendly
    # hex counting no unit for stacking), 2615 lies in de_4's ZOC. The first priority alone sends it to 2716.
    units = {"de_3": "2714", "de_4": "2515", "fr_35": "2715", "fort_0509": "2815"}
    assert "2615" in at(units).enemy_zoc("allies") and not {"2716", "2815"} & at(units).enemy_zoc("allies")
    state = attack(at(units), "2715", "de_3", roll=1)  # 8:7, 1-1, 1: D1
    assert state.last_battle.result == "D1" and not state.retreats and state.positions["fr_35"] == "2716"


@rule("marne:8.12.2.1")
def test_between_vacant_hexes_free_of_enemy_zoc_the_victor_picks_even_one_next_to_an_enemy():
    # de_3 beaten in 0613 from 0614. fr_5 in 0611 is next to 0612 across a river, so 0612 is vacant and
    # free of its ZOC (6.2F), as 0513 and 0713 are: three equally good hexes, and the Allies pick.
    assert river("0611", "0612") and not river("0613", "0612")
    units = {"de_3": "0613", "fr_35": "0614", "fr_5": "0611"}
    state = attack(at(units, phase="al_combat_1"), "0613", "fr_35", roll=1)  # 7:8 is 1-2, 1: D1
    assert state.last_battle.result == "D1" and state.current_player() == 1
    assert {a.path for a in state.legal_actions()} == {("0612",), ("0513",), ("0713",)}
    state.apply_action(Action.retreat(("0612",)))
    assert state.positions["de_3"] == "0612"


@rule("marne:8.12.2.1")
def test_then_the_friendly_hex_whose_units_are_not_next_to_enemies():
    # de_4 in 2613 is next to fr_5 (2513); de_5 and de_6 in 2713 are next to no enemy.
    units = {"de_3": "2714", "de_4": "2613", "de_5": "2713", "de_6": "2713", "fr_35": "2715",
             "fr_36": "2814", "fr_5": "2513"}
    state = at(units, phase="al_combat_1")
    attack(state, "2714", "fr_35", roll=1)
    assert state.last_battle.result == "D1"
    assert state.positions["de_3"] == "2713"  # two units there, yet not next to an enemy


@rule("marne:8.12.2.1")
def test_then_the_friendly_hex_with_the_fewest_units():
    # fr_6 in 2712 is next to 2713 too: both friendly hexes touch an enemy; 2613 (one unit) beats 2713 (two).
    units = {"de_3": "2714", "de_4": "2613", "de_5": "2713", "de_6": "2713", "fr_35": "2715",
             "fr_36": "2814", "fr_5": "2513", "fr_6": "2712"}
    state = at(units, phase="al_combat_1")
    attack(state, "2714", "fr_35", roll=1)
    assert state.positions["de_3"] == "2613"
    # With one unit in each the victor picks (no battle is ever pending: docs/rulings.md).
    units["de_6"] = "2711"
    state = at(units, phase="al_combat_1")
    attack(state, "2714", "fr_35", roll=1)
    assert state.current_player() == 1 and {a.path for a in state.legal_actions()} == {("2613",), ("2713",)}


# ------------------------------------------------------------------ 8.12.2.2: retreat considerations
@rule("marne:8.12.2.2")
def test_retreats_go_straight_toward_the_own_army():
    # Nothing German south of 2715: the steps toward the Allied (south) edge are 2716 straight south
    # and the diagonals 2615 (in de_4's ZOC) and 2815; each step nearer the edge across the hex rows
    # and a hex farther from 2715. Germany, the victor, picks among the two-hex paths.
    state = attack(at({"de_3": "2714", "de_4": "2614", "fr_35": "2715"}), "2715", "de_3", "de_4", roll=1)  # 2-1: D2
    assert state.last_battle.result == "D2" and state.current_player() == 0
    assert {a.path for a in state.legal_actions()} == {
        ("2716", "2717"), ("2716", "2616"), ("2716", "2816"), ("2815", "2816"), ("2815", "2916")}
    # German units retreat north: from 2714 toward 2613, 2713 or 2813, the victor choosing.
    state = attack(at({"de_3": "2714", "fr_35": "2715"}, phase="al_combat_1"), "2714", "fr_35", roll=1)
    assert {a.path for a in state.legal_actions()} == {("2613",), ("2713",), ("2813",)}


@rule("marne:8.12.2.2")
@pytest.mark.parametrize("hex, below, north_of_north, diagonals", [
    ("2614", "2615", "2612", {"2514", "2714"}),  # an even column: its diagonals lie on its own row
    ("2714", "2715", "2712", {"2613", "2813"}),  # the column east: its diagonals lie one row up
])
def test_a_blocked_straight_retreat_takes_either_diagonal_on_every_column(hex, below, north_of_north, diagonals):
    # de_3 (8-3) beaten from the south; fr_5 two hexes north puts the hex straight north in its ZOC but
    # neither diagonal: "as straight a line as possible" (8.12.2.2A) is then a diagonal, the victor picking.
    units = {"de_3": hex, "fr_35": below, "fr_5": north_of_north}
    open_country(hex, below, *diagonals)
    state = attack(at(units, phase="al_combat_1"), hex, "fr_35", roll=1)  # 7:8 is 1-2, 1: D1
    assert state.last_battle.result == "D1" and state.status("de_3") != ELIMINATED
    assert state.current_player() == 1
    assert {a.path for a in state.legal_actions()} == {(h,) for h in diagonals}


@rule("marne:8.12.2.2")
def test_no_retreat_into_enemy_units_or_their_zoc_unless_friendly_occupied():
    # fr_5 in 2612 covers 2613 and 2713, fr_36 in 2814 covers 2813: de_3 has nowhere to go.
    units = {"de_3": "2714", "fr_35": "2715", "fr_5": "2612", "fr_36": "2814"}
    state = attack(at(units, phase="al_combat_1"), "2714", "fr_35", roll=1)  # 7:8 is 1-2, 1: D1
    assert state.last_battle.result == "D1" and state.status("de_3") == ELIMINATED
    # Enemy units in the way block it the same.
    units = {"de_3": "2714", "fr_35": "2715", "fr_5": "2613", "fr_6": "2713", "fr_36": "2813"}
    state = attack(at(units, phase="al_combat_1"), "2714", "fr_35", roll=1)
    assert state.status("de_3") == ELIMINATED
    # A friendly unit in 2713 opens it: the ZOC does not reach into a friendly-occupied hex.
    units = {"de_3": "2714", "de_4": "2713", "fr_35": "2715", "fr_5": "2612", "fr_36": "2814"}
    state = attack(at(units, phase="al_combat_1"), "2714", "fr_35", roll=1)
    assert state.positions["de_3"] == "2713"


@rule("marne:8.12.2.2")
def test_no_retreat_across_a_river_units_are_eliminated_instead():
    # fr_35 in 1218, beaten from 1217: all three ways south (1119, 1219, 1319) cross the river.
    assert all(river("1218", h) for h in ("1119", "1219", "1319"))
    state = attack(at({"de_3": "1217", "fr_35": "1218"}), "1218", "de_3", roll=1)  # 1-1, 1: D1
    assert state.last_battle.result == "D1" and state.status("fr_35") == ELIMINATED
    assert Action.advance("de_3", "1218") in state.legal_actions()


def _south_edge_hex():
    """A clear hex on the south edge whose northern neighbour is clear, with no river between."""
    for h in sorted(MAP.edges["south"]):
        north = MAP.neighbours[h].get("n")
        if north and MAP.terrain[h] == MAP.terrain[north] == ("clear",) and not river(h, north):
            return h, north
    raise AssertionError("no open hex on the south edge")


@rule("marne:8.12.2.2")
def test_no_retreat_off_the_map_units_are_eliminated_instead():
    edge, north = _south_edge_hex()
    assert "s" not in MAP.neighbours[edge]
    state = attack(at({"de_3": north, "fr_35": edge}), edge, "de_3", roll=1)  # 1-1, 1: D1
    assert state.last_battle.result == "D1" and state.status("fr_35") == ELIMINATED


@rule("marne:8.12.2.2")
def test_no_retreat_over_the_stacking_limit_units_are_eliminated_instead():
    # 2716, fr_35's only way south (de_4 and de_5 cover 2615 and 2815 anyway), already holds three units.
    units = {"de_3": "2714", "de_4": "2614", "de_5": "2814", "fr_35": "2715",
             "fr_36": "2716", "fr_5": "2716", "fr_6": "2716"}
    state = attack(at(units), "2715", "de_3", roll=1)  # 8:7, 1-1, 1: D1
    assert state.last_battle.result == "D1"
    assert state.status("fr_35") == ELIMINATED
    assert sorted(u for u, h in state.positions.items() if h == "2716") == ["fr_36", "fr_5", "fr_6"]
    # A two-hex retreat passes through the full stack to a vacant hex beyond (16:7 is 2-1, 1: D2).
    state = attack(at(units), "2715", "de_3", "de_4", roll=1)
    assert state.last_battle.result == "D2"
    assert {a.path for a in state.legal_actions()} == {("2716", h) for h in ("2616", "2717", "2816")}
    # With two units there it fits.
    del units["fr_6"]
    state = attack(at(units), "2715", "de_3", roll=1)
    assert state.positions["fr_35"] == "2716"


# ------------------------------------------------------------------ 8.13: retreated units
@rule("marne:8.13")
def test_retreated_units_add_no_strength_and_share_the_defending_hosts_fate():
    # fr_35, beaten in 2715, retreats into 2716 beside fr_36 (its only way south).
    units = {"de_3": "2714", "de_4": "2815", "de_5": "2615", "fr_35": "2715", "fr_36": "2716"}
    state = settle(attack(at(units), "2715", "de_3", roll=1))  # 8:7, 1-1, 1: D1
    assert state.last_battle.result == "D1" and state.positions["fr_35"] == "2716"
    odds = state.odds(Action.attack("2716", ("de_4", "de_5")))
    assert (odds.defence, odds.label) == (7, "2-1")  # fr_36 alone: fr_35 adds nothing (8.13C)
    assert "retreated_guests" in odds.modifiers
    # 2716 may be attacked: fr_36 has not been this phase. Beaten, its guest retreats with it (8.13A),
    # a second time this phase ...
    retreated = attack(state.clone(), "2716", "de_4", "de_5", roll=2)  # 2-1, 2: D1
    assert retreated.last_battle.result == "D1" and set(retreated.last_battle.defenders) == {"fr_35", "fr_36"}
    while retreated.retreats:
        retreated.apply_action(Action.retreat(("2717",)))
    assert retreated.positions["fr_35"] == retreated.positions["fr_36"] == "2717"
    # ... and with no way back across the river behind 1218, both are eliminated: fr_35 retreats
    # there from 1217 (de_4 and de_5 hold both diagonals), beside fr_36; 1218 is then beaten with a D2.
    assert all(river("1218", h) for h in ("1119", "1219", "1319"))
    units = {"de_3": "1216", "de_4": "1118", "de_5": "1318", "fr_35": "1217", "fr_36": "1218"}
    state = settle(attack(at(units), "1217", "de_3", roll=1))  # 8:7, 1-1, 1: D1
    assert state.positions["fr_35"] == "1218"
    eliminated = settle(attack(state, "1218", "de_4", "de_5", roll=1))  # 2-1, 1: D2
    assert eliminated.last_battle.result == "D2"
    assert eliminated.status("fr_35") == eliminated.status("fr_36") == ELIMINATED


def _guest_in_2713(extra=()):
    """de_3 attacks fr_35 and loses (A1); with 2613 and 2813 in enemy ZOCs it joins de_4 in 2713."""
    units = {"de_3": "2714", "de_4": "2713", "fr_35": "2715", "fr_5": "2612", "fr_36": "2814", **dict(extra)}
    state = attack(at(units), "2715", "de_3", roll=4)  # 8:7, 1-1, 4: A1
    assert state.last_battle.result == "A1"
    settle(state)
    assert state.positions["de_3"] == "2713" and "disrupted" in state.markers_on("de_3")
    return state


@rule("marne:8.13")
def test_an_attacking_host_that_loses_takes_its_guest_along():
    state = _guest_in_2713()
    attack(state, "2612", "de_4", roll=4)  # 8:7, 1-1, 4: A1
    assert state.last_battle.result == "A1" and state.last_battle.attackers == ("de_4",)
    settle(state)
    assert state.positions.get("de_4") != "2713" and state.positions.get("de_3") != "2713"
    # With de_5 in 2713 taking no part in the failed attack, the guest stays (8.13B).
    state = _guest_in_2713({"de_5": "2713"})
    attack(state, "2612", "de_4", roll=4)
    settle(state)
    assert state.positions.get("de_4") != "2713"
    assert state.positions["de_3"] == state.positions["de_5"] == "2713"


@rule("marne:8.13")
def test_retreated_units_do_not_advance_with_their_host():
    state = _guest_in_2713()
    attack(state, "2612", "de_4", roll=1)  # 1-1, 1: D1
    assert state.last_battle.result == "D1"
    settle_retreats(state)
    offered = {a.unit for a in state.legal_actions() if a.kind == "advance" and a.unit}
    assert offered == {"de_4"}  # de_3, retreated (and so disrupted: 8.10), stays behind
