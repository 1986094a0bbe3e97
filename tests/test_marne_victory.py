"""The Marne, rules 9 (forts), 10 (victory) and 11 (scenarios, order-of-battle options), in play.

Positions are built with GameState.arrange on the Counterattack scenario (or Pursuit where the
rule is about it). Every fixed hex is named with what it is, and the test asserts the terrain or
zone it relies on, so a change of the map breaks loudly.
"""

from __future__ import annotations

import pytest

from rulec.engine import Action, IllegalAction, new_game
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
    # 0608 and 0609 both lie in the fort's ZOC: a German unit may not step from one to the other.
    state = at({FORT: FORT_HEX, "de_cav2": "0608"}, phase="de_move_1")
    assert {"0508", "0608", "0609"} <= state.enemy_zoc("germany")
    assert state.move_cost("de_cav2", "0609") is None
    without_fort = at({"de_cav2": "0608"}, phase="de_move_1")
    assert without_fort.move_cost("de_cav2", "0609") == 1
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
