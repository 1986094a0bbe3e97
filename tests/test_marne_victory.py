"""The Marne, rules 9 (forts), 10 (victory) and 11 (scenarios, order-of-battle options), in play.

Positions are built with GameState.arrange on the Counterattack scenario (or Pursuit where the
rule is about it). Every fixed hex is named with what it is, and the test asserts the terrain or
zone it relies on, so a change of the map breaks loudly.
"""

from __future__ import annotations

import pytest

from rulec.engine import Action, new_game
from rulec.engine.context import EngineContext
from rulec.engine.scenarios import ScenarioError
from rulec.engine.victory import outcome

from tests.conftest import _game
from tests.test_metz_combat import attack, attackers_for

rule = pytest.mark.rule

GAME = _game("the_marne")
MAP = GAME.map
BASE = new_game(GAME, scenario="counterattack")

# Fort 0509 (4 SP) on the north-west of Paris: its neighbours 0508, 0608 and 0609 are clear,
# not forts, not Paris and not across a river; 0608 and 0508 touch it, 0607 does not.
FORT = "fort_0509"
FORT_HEX = "0509"


def at(units: dict[str, str], *, turn: int = 9, phase: str = "de_combat_1", scenario: str = "counterattack",
       options: tuple[str, ...] = ()):
    base = BASE if (scenario, options) == ("counterattack", ()) else new_game(GAME, scenario=scenario, options=options)
    return base.arrange(units, turn=turn, phase=phase)


def supplied(state, uid: str) -> bool:
    return EngineContext(state).traced("supply", state.unit(uid))


def traced_hex(state, side: str, hex: str) -> bool:
    return EngineContext(state).traced_hex("supply", side, hex)


def river_between(a: str, b: str) -> bool:
    return "river" in MAP.hexside_features.get(f"{min(a, b)}/{max(a, b)}", ())


def end_game(state):
    """Pass every remaining phase (no decision taken) until the game is over."""
    for _ in range(20):
        if state.is_terminal():
            return state
        state.apply_action(Action.end())
    raise AssertionError(f"the game did not end: {state}")


def test_the_fort_hexes_used_here_are_what_the_tests_say():
    assert GAME.units[FORT].type == "fort" and GAME.units[FORT].strength == 4 and GAME.units[FORT].setup == FORT_HEX
    neighbours = set(MAP.neighbours[FORT_HEX].values())
    assert {"0508", "0608", "0609"} <= neighbours and "0607" not in neighbours
    for h in ("0508", "0608", "0609"):
        assert MAP.terrain[h] == ("clear",) and not river_between(FORT_HEX, h)
        assert h not in MAP.zones["forts"] and h not in MAP.zones["paris"]


# ------------------------------------------------------------------ 9.1 forts in general
@rule("marne:9.1")
def test_a_fort_zoc_blocks_german_movement_but_not_allied():
    # 0608 and 0609 both lie in the fort's ZOC: a German cavalry may not step from one to the other,
    # so it cannot reach 0610 (beyond the ZOC, all clear) through 0609 as it could without the fort.
    state = at({FORT: FORT_HEX, "de_cav2": "0608"}, phase="de_move_1")
    assert {"0508", "0608", "0609"} <= state.enemy_zoc("germany") and "0610" not in state.enemy_zoc("germany")
    assert [MAP.neighbours["0608"]["s"], MAP.neighbours["0609"]["s"]] == ["0609", "0610"]
    assert state.move_cost("de_cav2", "0609") != 1
    without_fort = at({"de_cav2": "0608"}, phase="de_move_1")
    assert without_fort.move_cost("de_cav2", "0609") == 1 and without_fort.move_cost("de_cav2", "0610") == 2
    assert state.move_cost("de_cav2", "0610") > 2   # a detour round the ZOC
    # Friendly ZOCs never affect friendly units (6.1D): an Allied cavalry walks past the fort.
    allied = at({FORT: FORT_HEX, "fr_cav1": "0608"}, phase="al_move_1")
    assert "0609" not in allied.enemy_zoc("allies")
    assert allied.move_cost("fr_cav1", "0609") == 1


@rule("marne:9.1")
def test_a_fort_defends_with_its_printed_strength_and_never_attacks():
    state = at({FORT: FORT_HEX, "de_3": "0608"})
    odds = state.odds(Action.attack(FORT_HEX, ("de_3",)))
    assert (odds.attack, odds.defence, odds.label) == (8, 4, "2-1")
    # The 2-SP fort at 0211 defends with 2.
    small = at({"fort_0211": "0211", "de_3": "0210"})
    assert GAME.units["fort_0211"].strength == 2
    assert small.odds(Action.attack("0211", ("de_3",))).defence == 2
    # 9.1D, 9.2E: in the Allied combat phase the fort is never offered as an attacker.
    allied = at({FORT: FORT_HEX, "de_3": "0608"}, phase="al_combat_1")
    assert attackers_for(allied, "0608") == ()
    with_infantry = at({FORT: FORT_HEX, "fr_83t": FORT_HEX, "de_3": "0608"}, phase="al_combat_1")
    assert attackers_for(with_infantry, "0608") == ("fr_83t",)


def _fort_battle(roll: int):
    """Four German 8-3s against the lone fort: 32 to 4, the 8-1 column."""
    state = at({FORT: FORT_HEX, "de_3": "0608", "de_4": "0608", "de_7": "0508", "de_8": "0508"})
    attack(state, FORT_HEX, "de_3", "de_4", "de_7", "de_8")
    assert state.battle.odds.label == "8-1"
    state.apply_action(Action.roll(roll))
    return state


@rule("marne:9.1")
def test_a_fort_is_destroyed_only_by_a_DE():
    # 8-1, roll 4: D3. The fort does not retreat; it stays, undamaged.
    held = _fort_battle(4)
    assert held.positions[FORT] == FORT_HEX and held.status(FORT) == "map"
    assert held.vp == {"germany": 0, "allies": 0}
    assert held.advancing is None  # the hex was not vacated
    # 8-1, roll 1: DE. The fort is gone (the blank counter of 9.2D: nothing is left there).
    destroyed = _fort_battle(1)
    assert destroyed.status(FORT) == "eliminated"
    assert destroyed.units_at(FORT_HEX) == []


# ------------------------------------------------------------------ 9.2 fort effects
@rule("marne:9.2")
def test_the_fort_adds_its_strength_to_allied_units_in_its_hex():
    state = at({FORT: FORT_HEX, "fr_83t": FORT_HEX, "de_3": "0608", "de_4": "0608", "de_7": "0508"})
    odds = state.odds(Action.attack(FORT_HEX, ("de_3", "de_4", "de_7")))
    assert (odds.attack, odds.defence, odds.label) == (24, 4 + 4, "3-1")


@rule("marne:9.2")
def test_on_a_retreat_only_the_units_go_and_the_fort_keeps_its_zoc():
    state = at({FORT: FORT_HEX, "fr_83t": FORT_HEX, "de_3": "0608", "de_4": "0608", "de_7": "0508"})
    attack(state, FORT_HEX, "de_3", "de_4", "de_7", roll=1)  # 3-1, roll 1: D2
    assert [r.unit for r in state.retreats] == ["fr_83t"]  # the fort stays; Germany picks the path
    state.apply_action(state.legal_actions()[0])
    assert state.status("fr_83t") == "map" and state.positions["fr_83t"] != FORT_HEX
    assert state.positions[FORT] == FORT_HEX
    assert state.advancing is None  # the fort still holds the hex: no advance into it
    assert {"0508", "0608", "0609"} <= state.enemy_zoc("germany")


@rule("marne:9.2")
def test_germans_never_enter_a_fort_hex_until_a_DE_destroys_the_fort():
    # An ungarrisoned fort is still an enemy unit: neither a move nor an advance enters it.
    state = at({FORT: FORT_HEX, "de_cav2": "0607"}, phase="de_move_1")
    assert "enemy unit" in state.explain(f"move de_cav2 {FORT_HEX}")
    # After a DE the attackers may advance into the vacated fort hex.
    destroyed = _fort_battle(1)
    assert Action.advance("de_3", FORT_HEX) in destroyed.legal_actions()
    destroyed.apply_action(Action.advance("de_3", FORT_HEX))
    assert destroyed.positions["de_3"] == FORT_HEX


@rule("marne:9.2")
def test_fort_zocs_cut_german_supply_and_reach_across_rivers():
    # 9.2G: fort 0711 reaches over the river into 0811; an Allied infantry there would not (6.2F).
    assert river_between("0711", "0811")
    assert "0811" in at({"fort_0711": "0711"}).enemy_zoc("germany")
    assert "0811" not in at({"fr_83t": "0711"}).enemy_zoc("germany")
    # 9.2F: Paris hexes 0411 and 0412 are not next to any fort, but every other hex around them is
    # a fort or lies in a fort's ZOC (0210 among them, across the river from fort 0209: 9.2G).
    # A German unit there cannot trace supply out; with the forts gone it can.
    forts = {u.id: u.setup for u in GAME.units.values() if u.type == "fort"}
    ringed = at({**forts, "de_3": "0411"})
    pocket = {"0411", "0412"}
    around = {n for h in pocket for n in MAP.neighbours[h].values()} - pocket
    assert not pocket & ringed.enemy_zoc("germany")
    assert all(n in ringed.enemy_zoc("germany") for n in around)
    assert any(n not in MAP.zones["forts"] for n in around)   # some of the ring is ZOC alone
    assert river_between("0209", "0210") and "0210" in ringed.enemy_zoc("germany")
    assert not supplied(ringed, "de_3")
    assert supplied(at({"de_3": "0411"}), "de_3")


@rule("marne:9.2")
def test_allied_supply_passes_forts_even_in_a_german_zoc():
    # A German 8-3 at 0608 controls both the fort hex 0509 and the empty hex 0609.
    state = at({FORT: FORT_HEX, "de_3": "0608"})
    assert {FORT_HEX, "0609"} <= state.enemy_zoc("allies")
    assert traced_hex(state, "allies", FORT_HEX)       # the fort is a friendly unit: the line passes
    assert not traced_hex(state, "allies", "0609")     # the empty controlled hex blocks it
    without_fort = at({"de_3": "0608"})
    assert not traced_hex(without_fort, "allies", FORT_HEX)


@rule("marne:9.2")
def test_german_units_next_to_a_fort_must_attack_it():
    state = at({FORT: FORT_HEX, "de_3": "0608"})
    assert "mandatory" in state.explain("end")
    assert state.legal_actions() == [Action.attack(FORT_HEX)]
    attack(state, FORT_HEX, "de_3", roll=1)  # 2-1, roll 1: D2, which a fort ignores
    assert state.positions == {FORT: FORT_HEX, "de_3": "0608"}
    assert state.legal_actions() == [Action.end()]
    # Ruling: the duty is met once a player-turn. The attacker of the first combat phase is
    # disrupted (3.1.2B) and not bound again in the second combat phase.
    state.apply_action(Action.end())
    state.apply_action(Action.end())
    assert state.phase.id == "de_combat_2" and "disrupted" in state.markers_on("de_3")
    assert state.explain("end") is None
    # A German unit that is next to the fort in the second combat phase, and did not attack in the
    # first, must attack it then.
    second = at({FORT: FORT_HEX, "de_3": "0608"}, phase="de_combat_2")
    assert "mandatory" in second.explain("end")


@rule("marne:9.2")
def test_next_to_a_fort_and_another_allied_unit_the_german_must_attack_the_fort():
    state = at({FORT: FORT_HEX, "de_3": "0608", "fr_83t": "0607"})
    assert state.legal_actions() == [Action.attack(FORT_HEX)]
    refusal = state.explain("attack 0607")
    assert refusal is not None and "must_attack_target" in refusal


@rule("marne:9.2")
def test_next_to_two_forts_attacking_one_meets_the_duty():
    # de_3 in 0210 touches fort_0209 and fort_0211 (docs/rulings.md: one attack a player-turn, 8.2D).
    units = {"fort_0209": "0209", "fort_0211": "0211", "de_3": "0210"}
    state = at(units)
    assert set(state.legal_actions()) == {Action.attack("0209"), Action.attack("0211")}
    # It may take both in one battle (8.3) ...
    both = at(units)
    for step in (Action.attack("0209"), Action.with_unit("de_3")):
        both.apply_action(step)
    assert both.is_legal(Action.attack("0211"))
    # ... or one alone: its duty is then met and the phase may end with the other fort unattacked.
    attack(state, "0209", "de_3", roll=6)
    assert state.explain("end") is None and state.status("fort_0211") == "map"


# ------------------------------------------------------------------ 10.1 eliminated units
@rule("marne:10.1")
def test_each_side_scores_1_vp_per_strength_point_it_eliminates():
    eight = next(u.id for u in GAME.units.values() if u.side == "allies" and u.type == "infantry" and u.strength == 8)
    around = list(MAP.neighbours["0609"].values())   # 0609 is clear; no river on its hexsides
    assert MAP.terrain["0609"] == ("clear",) and not any(river_between("0609", h) for h in around)
    germans = ["de_3", "de_4", "de_7", "de_8", "de_5", "de_6", "de_17", "de_18"]   # eight 8-3s
    placed = {uid: around[i % len(around)] for i, uid in enumerate(germans)}
    # 64 to 8 is 8-1; roll 1 reads a DE. The rule's example: a French 8-3 is worth 8 VP.
    state = at({eight: "0609", **placed})
    attack(state, "0609", *germans, roll=1)
    assert state.status(eight) == "eliminated" and state.vp == {"germany": 8, "allies": 0}
    # The Allies score the same way: 15 SP against a German 2-4 cavalry is 7-1, roll 1: DE.
    allied = at({"de_cav2": "0609", "fr_45alg": around[0], "fr_92t": around[1], "fr_83t": around[2]}, phase="al_combat_1")
    attack(allied, "0609", "fr_45alg", "fr_92t", "fr_83t", roll=1)
    assert allied.status("de_cav2") == "eliminated" and allied.vp == {"germany": 0, "allies": 2}
    # A fort destroyed by a DE counts its printed strength (docs/rulings.md).
    assert _fort_battle(1).vp == {"germany": 4, "allies": 0}


# ------------------------------------------------------------------ 10.2 towns and cities
TOWN_5 = "2810"   # a 5-VP town (towns_vp_5) on clear ground


def test_the_town_hexes_used_here_are_what_the_tests_say():
    assert TOWN_5 in MAP.zones["towns_vp_5"] and MAP.terrain[TOWN_5] == ("clear", "town")
    assert sorted(MAP.zones["reims"]) == ["2306", "2405"]
    assert {"0311", "0511", "0512"} <= set(MAP.zones["paris"])


@rule("marne:10.2")
def test_a_town_held_by_a_supplied_unit_at_the_end_scores_its_value():
    state = end_game(at({"de_3": TOWN_5}, turn=17, phase="al_combat_2"))
    assert state.vp == {"germany": 5, "allies": 0}
    # The same unit cut off from the north edge scores nothing: Allied units ring the town.
    ring = dict(zip(["fr_45alg", "fr_92t", "fr_83t", "fr_89t", "fr_mar", "fr_14"], MAP.neighbours[TOWN_5].values()))
    cut = at({"de_3": TOWN_5, **ring}, turn=17, phase="al_combat_2")
    assert not supplied(cut, "de_3")
    assert end_game(cut).vp["germany"] == 0


@rule("marne:10.2")
def test_a_town_scores_for_the_last_side_through_it_if_it_traces_supply_there():
    # A German cavalry passes through the town, 2809 -> 2810 -> 2811 (all clear), and leaves it
    # empty: the Germans hold it. A French infantry waits at 3110, three columns east.
    assert [MAP.neighbours["2809"]["s"], MAP.neighbours["2810"]["s"]] == [TOWN_5, "2811"]
    state = at({"de_cav2": "2809", "fr_45alg": "3110"}, turn=17, phase="de_move_2")
    assert state.move_cost("de_cav2", "2811") == 2
    state.apply_action(Action.move("de_cav2", "2811"))
    assert state.holders.get(TOWN_5) == "germany" and state.units_at(TOWN_5) == []
    assert end_game(state.clone()).vp == {"germany": 5, "allies": 0}
    # The French infantry ends its move next to the empty town (2910): its ZOC on the hex cuts the
    # German line to it. No VP for the Germans, and none for the Allies, who did not pass last.
    state.apply_action(Action.end())
    state.apply_action(Action.end())
    assert state.phase.id == "al_move_1"
    assert MAP.neighbours[TOWN_5]["ne"] == "2910"
    state.apply_action(Action.move("fr_45alg", "2910"))
    assert TOWN_5 in state.enemy_zoc("germany") and state.holders.get(TOWN_5) == "germany"
    assert end_game(state).vp == {"germany": 0, "allies": 0}


@rule("marne:10.2")
def test_before_any_unit_passes_the_towns_are_french_and_the_counterattack_starts_with_its_holders():
    tracked = set().union(*(MAP.zones[z] for z in ("towns_vp_1", "towns_vp_2", "towns_vp_3", "towns_vp_5",
                                                   "paris", "reims", "troyes")))
    pursuit = new_game(GAME, scenario="pursuit")
    assert {pursuit.holders.get(h) for h in tracked} == {"allies"}   # first_holder = allies
    counter = new_game(GAME, scenario="counterattack")
    german = {h for h in tracked if counter.holders.get(h) == "germany"}
    # The 22 listed, and a town a German unit stands in as the game begins (3512).
    occupied = {h for u, h in counter.positions.items() if GAME.units[u].side == "germany"}
    assert german == set(GAME.scenarios["counterattack"].holders["germany"]) | (tracked & occupied)
    assert (len(german), len(tracked - german)) == (23, 32)
    assert {counter.holders.get(h) for h in tracked - german} == {"allies"}


@rule("marne:10.2")
def test_germany_scores_paris_with_one_supplied_unit_in_any_of_its_hexes():
    # The rule's example: 25 VP for Germany although the Allies hold the other Paris hexes. The
    # forts are left out (destroyed): with them the German unit could trace no supply (9.2F).
    state = at({"de_3": "0311", "fr_45alg": "0511", "fr_83t": "0512"}, turn=17, phase="al_combat_2")
    assert supplied(state, "de_3") and supplied(state, "fr_45alg")
    assert end_game(state).vp == {"germany": 25, "allies": 0}
    # The German unit out of supply scores nothing, and the Allies score Paris (the unit is ringed
    # by the forts in the same hex).
    forts = {u.id: u.setup for u in GAME.units.values() if u.type == "fort"}
    cut = at({**forts, "de_3": "0411", "fr_45alg": "0511"}, turn=17, phase="al_combat_2")
    assert not supplied(cut, "de_3")
    assert end_game(cut).vp == {"germany": 0, "allies": 25}
    # A city is scored once, however many of its hexes a side holds.
    allied = at({"fr_45alg": "0511", "fr_83t": "0512", "fr_92t": "0311"}, turn=17, phase="al_combat_2")
    assert end_game(allied).vp == {"germany": 0, "allies": 25}


@rule("marne:10.2")
def test_reims_goes_to_germany_with_one_supplied_unit_else_to_the_allies_holding_it():
    both = end_game(at({"de_3": "2306", "fr_45alg": "2405"}, turn=17, phase="al_combat_2"))
    assert both.vp == {"germany": 10, "allies": 0}
    allied = end_game(at({"fr_45alg": "2405"}, turn=17, phase="al_combat_2"))
    assert allied.vp == {"germany": 0, "allies": 10}


# ------------------------------------------------------------------ 10.3 exited units
SOUTH_EXIT = "1020"   # a clear hex of the south edge
NORTH_EXIT = "1001"   # a clear hex of the north edge


@rule("marne:10.3")
def test_germany_scores_5_per_sp_exited_south_if_the_exit_hex_is_supplied_at_the_end():
    assert SOUTH_EXIT in MAP.edges["south"] and MAP.terrain[SOUTH_EXIT] == ("clear",)
    state = at({"de_3": SOUTH_EXIT, "fr_45alg": "1018"}, turn=17, phase="de_move_2")   # 1018: two hexes north
    assert state.exit_cost("de_3", "south") == 1      # 1 MP to leave the map
    assert state.exit_cost("de_3", "north") is None
    state.apply_action(Action.exit("de_3", "south"))
    assert state.status("de_3") == "exited" and state.exited_from == {"de_3": SOUTH_EXIT}
    assert end_game(state.clone()).vp == {"germany": 5 * 8, "allies": 0}
    # The French 6-3 walks onto the exit hex in the Allied player-turn: it is out of German supply
    # at the end, and the exited 8-3 earns nothing.
    state.apply_action(Action.end())
    state.apply_action(Action.end())
    state.apply_action(Action.move("fr_45alg", SOUTH_EXIT))
    assert not traced_hex(state, "germany", SOUTH_EXIT)
    assert end_game(state).vp == {"germany": 0, "allies": 0}


@rule("marne:10.3")
def test_the_allies_score_3_per_sp_exited_north():
    assert NORTH_EXIT in MAP.edges["north"] and MAP.terrain[NORTH_EXIT] == ("clear",)
    state = at({"fr_45alg": NORTH_EXIT}, turn=17, phase="al_move_2")
    assert state.exit_cost("fr_45alg", "north") == 1
    state.apply_action(Action.exit("fr_45alg", "north"))
    assert end_game(state).vp == {"germany": 0, "allies": 3 * 6}
    # A German unit on the exit hex at the end leaves the Allies without those VP.
    held = at({"fr_45alg": NORTH_EXIT, "de_3": "1101"}, turn=17, phase="al_move_2")
    assert held.exit_cost("fr_45alg", "north") == 1
    held.apply_action(Action.exit("fr_45alg", "north"))
    assert traced_hex(held, "allies", NORTH_EXIT) is False  # in the German unit's ZOC, empty
    assert end_game(held).vp == {"germany": 0, "allies": 0}


@rule("marne:10.3")
def test_an_exited_unit_never_returns():
    state = at({"de_3": SOUTH_EXIT}, turn=16, phase="de_move_2")
    state.apply_action(Action.exit("de_3", "south"))
    for _ in range(8):   # on to the next German movement phase
        state.apply_action(Action.end())
    assert (state.turn, state.phase.id) == (17, "de_move_2")
    assert not [a for a in state.legal_actions() if a.unit == "de_3"]
    assert state.status("de_3") == "exited"


@rule("marne:10.3")
def test_either_side_may_exit_by_any_edge_and_only_its_own_scoring_edge_pays():
    # A German unit on the east edge may leave by it (10.3A: "exit units from the map at any point").
    state = at({"de_3": "3910"}, turn=17, phase="de_move_2")
    assert state.exit_cost("de_3", "east") == 1 and state.exit_cost("de_3", "north") is None
    state.apply_action(Action.exit("de_3", "east"))
    assert state.status("de_3") == "exited" and end_game(state).vp == {"germany": 0, "allies": 0}
    # A French unit may leave by the south edge, and scores nothing for it (10.3C: the north edge).
    allied = at({"fr_45alg": SOUTH_EXIT}, turn=17, phase="al_move_2")
    allied.apply_action(Action.exit("fr_45alg", "south"))
    assert allied.status("fr_45alg") == "exited" and end_game(allied).vp == {"germany": 0, "allies": 0}


@rule("marne:10.3")
def test_a_reinforcement_may_enter_and_leave_in_one_move_but_scores_nothing():
    # gb_1 enters the BEF boundary on the north edge (1 MP) and steps off it again (1 MP more).
    state = at({"gb_1": "pending"}, turn=1, phase="al_move_1", scenario="pursuit")
    assert state.exit_cost("gb_1", "north") == 2
    state.apply_action(Action.exit("gb_1", "north"))
    # It never stood on a hex of the map: there is no exit hex to trace supply to (10.3A), so no VP.
    assert state.status("gb_1") == "exited" and state.exited_from["gb_1"] == ""
    awards = {a.id: a for a in GAME.awards}
    assert awards["allied_exits"].amount(EngineContext(state)) == 0
    # The same 8-3 stepping off the north edge from a hex it stood on would score 3 per SP.
    stood = at({"gb_1": NORTH_EXIT}, turn=1, phase="al_move_1", scenario="pursuit")
    stood.apply_action(Action.exit("gb_1", "north"))
    assert awards["allied_exits"].amount(EngineContext(stood)) == 3 * GAME.units["gb_1"].strength


@rule("marne:11.4.1.2")
def test_allied_rail_arrivals_at_a_town_the_enemy_holds_come_a_turn_later():
    # fr_21 is due by rail at Chalons (2810) on turn 2 of the Pursuit; a German unit stands there.
    state = at({"fr_21": "pending", "de_3": "2810"}, turn=2, phase="al_move_1", scenario="pursuit")
    assert state.moves_of("fr_21") == [] and Action.delay("fr_21") not in state.legal_actions()
    assert state.explain("end") is None            # nothing it could do: the phase may end
    state.apply_action(Action.end())
    assert state.status("fr_21") == "pending" and state.arrival_turn("fr_21") == 3
    # With the town free it must come on time.
    free = at({"fr_21": "pending"}, turn=2, phase="al_move_1", scenario="pursuit")
    assert "may not be held back" in free.explain("end")


# ------------------------------------------------------------------ 10.5 levels of victory
@rule("marne:10.5")
def test_the_ratio_is_rounded_in_favour_of_the_side_with_the_lower_total():
    def level(allies: int, germany: int) -> tuple[str | None, str]:
        result = outcome(GAME, {"allies": allies, "germany": germany})
        return result.winner, result.level

    # The rule's example: 185 to 65 is 2.85 to 1, read as 2-1: an Allied Marginal Victory.
    assert level(185, 65) == ("allies", "Allied Marginal Victory")
    assert level(260, 65) == ("allies", "Allied Decisive Victory")       # 4-1
    assert level(259, 65) == ("allies", "Allied Substantive Victory")    # 3.98-1 reads 3-1
    assert level(195, 65) == ("allies", "Allied Substantive Victory")    # 3-1
    assert level(129, 65) == ("germany", "German Marginal Victory")      # 1.98-1 reads 1-1
    assert level(65, 65) == ("germany", "German Marginal Victory")       # 1-1
    assert level(65, 129) == ("germany", "German Marginal Victory")      # 1-1.98 reads 1-1
    assert level(65, 130) == ("germany", "German Substantive Victory")   # 1-2
    assert level(65, 194) == ("germany", "German Substantive Victory")   # 1-2.98 reads 1-2
    assert level(65, 195) == ("germany", "German Decisive Victory")      # 1-3
    # Rulings: a side with VP against none has the widest ratio; nothing against nothing is 1-1.
    assert level(10, 0) == ("allies", "Allied Decisive Victory")
    assert level(0, 10) == ("germany", "German Decisive Victory")
    assert level(0, 0) == ("germany", "German Marginal Victory")


@rule("marne:10.5")
def test_the_level_is_read_from_the_vp_scored_in_play():
    state = end_game(at({"de_3": "2306", "fr_45alg": "2405", "fr_83t": "3907"}, turn=17, phase="al_combat_2"))
    assert state.vp == {"germany": 10, "allies": 5}   # Reims to Germany, a 5-VP town to the Allies
    assert (state.outcome().winner, state.outcome().level) == ("germany", "German Substantive Victory")


# ------------------------------------------------------------------ 11.1 order-of-battle options
OPTION_VP = {"oob_a": 7, "oob_b": 30, "oob_c": 13, "oob_d": 20}


@rule("marne:11.1")
@pytest.mark.parametrize("option", sorted(OPTION_VP))
def test_each_ob_option_adds_its_vp_to_the_allies(option):
    for scenario in ("counterattack", "pursuit"):
        state = new_game(GAME, scenario=scenario, options=[option])
        assert state.vp == {"germany": 0, "allies": OPTION_VP[option]}
        assert [(e.side, e.amount, e.source) for e in state.vp_log] == [("allies", OPTION_VP[option], f"option:{option}")]


@rule("marne:11.1")
def test_the_ob_options_change_the_german_forces():
    historical = new_game(GAME, scenario="counterattack")
    option_units = {u for o in OPTION_VP for u in GAME.options[o].adds}
    assert all(historical.status(u) == "unused" for u in option_units)
    # A: the units kept from the East Front; C: the besiegers of Antwerp; D: both; B: both and the S divisions.
    a, b, c, d = (set(GAME.options[o].adds) for o in ("oob_a", "oob_b", "oob_c", "oob_d"))
    assert d == a | c and b == d | {"de_s1", "de_s2", "de_s3", "de_s4", "de_s5"}
    for option, added in (("oob_a", a), ("oob_b", b), ("oob_c", c), ("oob_d", d)):
        state = new_game(GAME, scenario="counterattack", options=[option])
        assert {u for u in option_units if state.status(u) != "unused"} == added
        # VII Reserve Corps is freed from Maubeuge under B, C and D: it comes on 6 Sep, not 12 Sep.
        assert state.arrival_turn("de_13r") == (14 if option == "oob_a" else 8)
    assert historical.arrival_turn("de_13r") == 14
    # 11.1A: in the Counterattack the added units are set up first, within their army boundary.
    state = new_game(GAME, scenario="counterattack", options=["oob_a"])
    assert state.phase.id == "de_2_setup" and state.phase.side == "germany"
    pool = {a.unit for a in state.legal_actions() if a.kind == "place"}
    assert pool == {"de_gd3", "de_gdr1"}   # the 2nd Army's; the 3rd Army's come next
    state.apply_action(Action.place("de_gd3"))
    assert {a.hex for a in state.legal_actions() if a.kind == "place"} == set(MAP.zones["zone_de_2"])


@rule("marne:11.1")
def test_only_one_ob_option_may_be_chosen():
    with pytest.raises(ScenarioError, match="exclude each other"):
        new_game(GAME, scenario="counterattack", options=["oob_a", "oob_c"])


# ------------------------------------------------------------------ 11.2-11.4 scenarios
@rule("marne:11.2")
def test_the_historical_counterattack_starts_on_6_sep_with_the_printed_set_up():
    state = new_game(GAME)            # the game's default scenario
    assert state.scenario == "counterattack"
    assert (state.turn, state.phase.id, state.phase.side) == (8, "de_move_1", "germany")
    assert GAME.info.turn_label(8) == "6 Sep" and state.last_turn == 17   # ten turns: 8 to 17
    assert GAME.info.turn_label(17) == "15 Sep"                          # VP counted then (10.0C)
    # Every unit with a printed position is on it; nothing waits to be placed.
    printed = {uid: u.setup for uid, u in GAME.units.items() if u.setup is not None}
    assert printed and all(state.positions[uid] == h for uid, h in printed.items())
    assert {"de_3", "fr_45alg", FORT} <= set(printed)
    assert not [a for a in state.legal_actions() if a.kind == "place"]


@rule("marne:11.3")
def test_the_free_set_up_places_each_army_inside_its_boundary_germans_first():
    state = new_game(GAME, scenario="counterattack_free")
    order = []
    while state.phase.kind == "placement":
        order.append(state.phase.side)
        if state.phase.id == "de_1_setup":
            state.apply_action(Action.place("de_3"))
            hexes = {a.hex for a in state.legal_actions() if a.kind == "place"}
            assert hexes == set(MAP.zones["zone_de_1"]) and "1212" in hexes
            outside = next(h for h in MAP.zones["zone_de_2"] if h not in MAP.zones["zone_de_1"])
            assert not state.is_legal(Action.place("de_3", outside))
            state.apply_action(Action.place("de_3", "1212"))
        if state.phase.id == "paris_garrison_setup":
            state.apply_action(Action.place("fr_45alg"))
            assert {a.hex for a in state.legal_actions() if a.kind == "place"} == set(MAP.zones["zone_paris_garrison"])
            state.apply_action(Action.cancel())
        # Every unit of the army must be placed (11.3B: placement { all = true }): no end before.
        assert Action.end() not in state.legal_actions()
        while Action.end() not in state.legal_actions():
            state.apply_action(state.legal_actions()[0])      # the next unit ...
            state.apply_action(state.legal_actions()[0])      # ... in the first hex with room
        state.apply_action(Action.end())
    assert order == ["germany"] * 5 + ["allies"] * 7
    assert state.positions["de_3"] == "1212" and state.positions["fr_45alg"] in MAP.zones["zone_paris_garrison"]
    assert not [u for u in GAME.units if state.awaiting_placement(u)]
    assert (state.turn, state.phase.id) == (8, "de_move_1") and state.last_turn == 17


@rule("marne:11.4")
def test_the_pursuit_starts_on_30_aug_with_only_paris_garrison_and_forts_on_the_map():
    state = new_game(GAME, scenario="pursuit")
    assert state.turn == 1 and GAME.info.turn_label(1) == "30 Aug" and state.last_turn == 17
    on_map = {uid for uid in GAME.units if state.status(uid) == "map"}
    assert on_map == {uid for uid, u in GAME.units.items() if u.type == "fort"}
    state = _pursuit_placed()
    # The German player-turn of 30 Aug comes first and has nothing to do (11.4B).
    for phase in ("de_move_1", "de_combat_1", "de_move_2", "de_combat_2"):
        assert (state.turn, state.phase.id) == (1, phase) and state.legal_actions() == [Action.end()]
        state.apply_action(Action.end())
    # The Allied player-turn: the armies march on from the north edge (11.4C).
    assert state.phase.id == "al_move_1"
    entering = {a.unit for a in state.legal_actions() if a.kind == "move" and state.status(a.unit) == "pending"}
    assert {"gb_1", "fr_14", "fr_35", "fr_33"} <= entering
    assert all(GAME.units[u].side == "allies" for u in entering)
    gb_entry = set(MAP.zones["entry_bef"])
    assert gb_entry <= set(MAP.edges["north"])
    assert gb_entry <= {a.hex for a in state.moves_of("gb_1")}
    # The Germans come on 31 Aug, on the north edge too (11.4D).
    germans = [uid for uid, u in GAME.units.items() if u.side == "germany" and state.status(uid) == "pending"]
    assert germans and min(state.arrival_turn(u) for u in germans) == 2
    assert state.arrival_turn("de_17") == 2


def _pursuit_placed():
    """The Pursuit after the Paris Garrison's set-up (11.4.2)."""
    state = new_game(GAME, scenario="pursuit")
    for uid, h in zip(["fr_45alg", "fr_92t", "fr_83t", "fr_89t", "fr_mar"], ["0410", "0411", "0511", "0512", "0311"]):
        state.apply_action(Action.place(uid))
        state.apply_action(Action.place(uid, h))
    assert state.legal_actions() == [Action.end()]   # the pool is empty: the phase ends when the Allies say so
    state.apply_action(Action.end())
    return state


@rule("marne:11.4.2")
def test_the_pursuit_set_up_is_five_french_units_inside_the_paris_garrison():
    state = new_game(GAME, scenario="pursuit")
    assert (state.phase.id, state.phase.side) == ("paris_garrison_setup", "allies")
    pool = {a.unit for a in state.legal_actions() if a.kind == "place"}
    assert sorted(GAME.units[u].strength for u in pool) == [2, 4, 4, 5, 6]
    assert all(GAME.units[u].move == 3 and GAME.units[u].side == "allies" for u in pool)
    state.apply_action(Action.place("fr_45alg"))
    assert {a.hex for a in state.legal_actions() if a.kind == "place"} == set(MAP.zones["zone_paris_garrison"])
    assert not state.is_legal(Action.place("fr_45alg", "0810"))   # 0810: outside the garrison's boundary
    assert "0810" not in MAP.zones["zone_paris_garrison"]
    placed = _pursuit_placed()
    assert (placed.turn, placed.phase.id) == (1, "de_move_1")
    assert {uid: placed.positions[uid] for uid in pool} == {"fr_45alg": "0410", "fr_92t": "0411", "fr_83t": "0511",
                                                            "fr_89t": "0512", "fr_mar": "0311"}


@rule("marne:11.4.1.1")
def test_the_allies_are_at_half_strength_through_turn_6_on_top_of_supply():
    units = {"fr_45alg": "0609", "de_3": "0608"}   # a French 6-3 and a German 8-3, in clear hexes
    for turn, defence in ((1, 3), (6, 3), (7, 6), (9, 6)):
        state = at(units, turn=turn, scenario="pursuit")
        assert state.odds(Action.attack("0609", ("de_3",))).defence == defence, turn
    # Attacking too: on turn 6 the 6-3 attacks with 3.
    allied = at(units, turn=6, phase="al_combat_1", scenario="pursuit")
    assert allied.odds(Action.attack("0608", ("fr_45alg",))).attack == 3
    # Out of supply as well (ringed by Germans), the halves multiply: 6 -> 1.5, fractions kept.
    ring = dict(zip(["de_4", "de_5", "de_6", "de_7", "de_8", "de_17"], MAP.neighbours["0609"].values()))
    cut = at({"fr_45alg": "0609", **ring}, turn=6, scenario="pursuit")
    assert not supplied(cut, "fr_45alg")
    attacker = next(iter(ring))
    assert cut.odds(Action.attack("0609", (attacker,))).defence == 1.5
    assert at({"fr_45alg": "0609", **ring}, turn=7, scenario="pursuit").odds(Action.attack("0609", (attacker,))).defence == 3
    # A fort is not demoralized.
    assert at({FORT: FORT_HEX, "de_3": "0608"}, turn=6, scenario="pursuit").odds(Action.attack(FORT_HEX, ("de_3",))).defence == 4


@rule("marne:11.4.1.2")
def test_german_reinforcements_may_wait_or_sidestep_a_blocked_entry_boundary():
    entry = sorted(MAP.zones["entry_de_1"])
    assert entry == [f"{c:02d}01" for c in range(1, 14)]
    # French units on every other hex of the 1st Army's boundary: the rest lie in their ZOCs.
    blockers = dict(zip(["fr_45alg", "fr_92t", "fr_83t", "fr_89t", "fr_mar", "fr_14"], ["0201", "0401", "0601", "0801", "1001", "1201"]))
    state = at({**blockers, "de_17": "pending"}, turn=2, phase="de_move_1", scenario="pursuit")
    assert all(h in blockers.values() or h in state.enemy_zoc("germany") for h in entry)
    options = [a for a in [*state.legal_actions(), *state.moves_of("de_17")] if a.unit == "de_17"]
    assert Action.delay("de_17") in options                          # Germany may hold it back
    assert state.explain("end") is None                               # ... for as long as it likes
    assert Action.move("de_17", "1401") in options                    # or step just right of the boundary
    assert state.move_cost("de_17", "1401") == 1                      # its first hex, counted against its MA
    # No hex of the boundary is its first hex: it reaches one, if at all, only through 1401.
    assert all(state.move_cost("de_17", a.hex) > 1 for a in options if a.hex in entry)
    # An unblocked boundary is entered as printed, and the unit may not wait (only a blocked one allows it).
    free = at({"de_17": "pending"}, turn=2, phase="de_move_1", scenario="pursuit")
    hexes = {a.hex for a in free.moves_of("de_17") if a.kind == "move"}
    assert set(entry) <= hexes and Action.delay("de_17") not in free.legal_actions()
    assert "may not be held back" in free.explain("end")
    # One open hex of the boundary is enough: the five blockers west of 1201 leave 1201..1301 free of ZOC.
    del blockers["fr_14"]
    partly = at({**blockers, "de_17": "pending"}, turn=2, phase="de_move_1", scenario="pursuit")
    assert "1301" not in partly.enemy_zoc("germany")
    assert Action.delay("de_17") not in partly.legal_actions()


def _east_entries(units):
    """The east-edge hexes de_11 (due on the east edge on turn 2 of the Pursuit) may enter the map by."""
    state = at({**units, "de_11": "pending"}, turn=2, phase="de_move_1", scenario="pursuit")
    return {h for h in MAP.edges["east"] if state.move_cost("de_11", h) == 1}  # its first hex, clear: 1 MP


@rule("marne:11.4.1.2")
def test_german_east_edge_entries_lie_north_of_the_northernmost_allied_unit_east_of_suippes():
    suippes_column = int(next(h for h, name in MAP.places.items() if name == "Suippes")[:2])
    assert all(MAP.terrain[h][0] == "clear" for h in MAP.edges["east"])
    # fr_14 in 3512, east of Suippes's column: the German line on the east edge runs at row 12.
    assert int("3512"[:2]) > suippes_column
    assert _east_entries({"fr_14": "3512"}) == {f"39{r:02d}" for r in range(1, 12)}
    # fr_63r further north in 3504 moves the line up to row 4 (the northernmost unit draws it).
    assert _east_entries({"fr_14": "3512", "fr_63r": "3504"}) == {"3901", "3902", "3903"}
    # A unit in Suippes's own column (3004) draws no line: nothing east of it, the whole edge is open.
    assert _east_entries({"fr_14": f"{suippes_column:02d}04"}) == set(MAP.edges["east"])
    # Enemy ZOCs still block: fr_63r on the edge in 3906 draws the line at row 6 and covers 3905.
    assert _east_entries({"fr_63r": "3906"}) == {"3901", "3902", "3903", "3904"}
    # A Pursuit rule (11.4.1.2.1): the Counterattack's V Corps, due on 3908-3910 on turn 8, enters there
    # whatever the line (its entry area is those hexes, not the east edge).
    state = at({"de_9": "pending", "fr_14": "3504"}, turn=8, phase="de_move_1")
    assert {h for h in MAP.edges["east"] if state.move_cost("de_9", h) == 1} == {"3908", "3909", "3910"}


@rule("marne:11.4.1.2")
def test_allied_reinforcements_must_enter_on_time_sidestepping_a_blocked_boundary():
    entry = sorted(MAP.zones["entry_bef"])
    blockers = dict(zip(["de_3", "de_4", "de_5", "de_6"], ["0901", "1101", "1301", "1501"]))
    state = at({**blockers, "gb_1": "pending"}, turn=1, phase="al_move_1", scenario="pursuit")
    assert all(h in blockers.values() or h in state.enemy_zoc("allies") for h in entry)
    options = [a for a in [*state.legal_actions(), *state.moves_of("gb_1")] if a.unit == "gb_1"]
    assert Action.delay("gb_1") not in options
    assert "may not be held back" in state.explain("end")
    # The nearest free hexes on either side of the boundary (0801 and 1601 lie in German ZOCs).
    assert {Action.move("gb_1", "0701"), Action.move("gb_1", "1701")} <= set(options)
    assert MAP.terrain["0701"] == ("clear",) and MAP.terrain["1701"] == ("woods",)
    assert (state.move_cost("gb_1", "0701"), state.move_cost("gb_1", "1701")) == (1, 2)   # the first hex's cost counts
    assert all(state.move_cost("gb_1", a.hex) > 1 for a in options if a.hex in entry)
    state.apply_action(Action.move("gb_1", "1701"))
    assert state.positions["gb_1"] == "1701" and state.explain("end") is None
