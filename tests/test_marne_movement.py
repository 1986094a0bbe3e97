"""The Marne, rules 4.x, 6.x and 7.x: movement, leapfrog withdrawals, zones of control, supply.

Every test builds a position with GameState.arrange (only the units named are in play) on the
reconstructed map; the hexes are fixed, and each test asserts the terrain and hexsides it relies
on so that a change of the map breaks it loudly. The quiet clear country around 2614 (between the
Aube and the Marne) serves for most movement tests; the marshes of Saint-Gond (2112-2312) for
the swamp. Supply is cut by a wall: units of one side on every even column of a row put every
hex of that row in their ZOC or under a unit, and no path changes rows by more than one a step.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from conftest import _game
from rulec.engine import ON_MAP, Action, IllegalAction, new_game
from rulec.engine.context import EngineContext
from battle_steps import attackers_for

rule = pytest.mark.rule


@pytest.fixture(scope="module")
def marne():
    return _game("the_marne")


def at(game, units, phase="de_move_1", turn=9):
    return new_game(game, scenario="counterattack").arrange(units, turn=turn, phase=phase)


def reach(state, uid):
    """Every hex `uid` may move to now, with its MP cost."""
    return {a.hex: state.move_cost(uid, a.hex) for a in state.moves_of(uid) if a.kind == "move"}


def refusal(state, action):
    with pytest.raises(IllegalAction) as error:
        state.apply_action(action)
    return error.value


def traced(state, side, hex):
    return EngineContext(state).traced_hex("supply", side, hex)


def river(game, a, b):
    return "river" in game.map.hexside_features.get(f"{min(a, b)}/{max(a, b)}", ())


# The units the tests move about; walls are built of the others.
PLAYERS = {"de_3", "de_4", "de_7", "de_cav2", "fr_14", "fr_17", "fr_18", "fr_col2", "fr_cav9"}


def field_units(game, side):
    """A side's non-fort units of the basic order of battle, in file order, but for PLAYERS."""
    return [u for u, unit in game.units.items()
            if unit.side == side and unit.type != "fort" and not unit.optional and u not in PLAYERS]


def wall(game, side, row, columns, skip=0):
    """Units of `side` in `row` on each of `columns` (the first `skip` wall units left out)."""
    columns = list(columns)
    units = field_units(game, side)[skip:skip + len(columns)]
    assert len(units) == len(columns)
    return {u: f"{c:02d}{row:02d}" for u, c in zip(units, columns)}


def end_phase(state):
    state.apply_action(Action.end())
    assert not state.is_chance_node()


# ---------------------------------------------------------------- 4.1 movement in general

@rule("marne:4.1")
def test_each_hex_costs_one_mp_plus_the_terrain_effects(marne):
    terrain = marne.map.terrain
    assert {terrain[h] for h in ("2614", "2613", "2612", "2611", "2610")} == {("clear",)}
    state = at(marne, {"de_3": "2614", "fr_14": "0120"})  # an 8-3; the French unit far away
    costs = reach(state, "de_3")
    assert (costs["2613"], costs["2612"], costs["2611"]) == (1, 2, 3)  # 1 MP a clear hex
    assert "2610" not in costs  # a fourth hex is beyond its 3 MP
    # Swamp and woods cost 2 (the reconstructed TEC), a river hexside 1 more.
    assert terrain["2212"] == ("swamp",) and terrain["2211"] == ("clear",) and not river(marne, "2211", "2212")
    assert terrain["2407"] == ("woods",) and terrain["2408"] == ("clear",) and not river(marne, "2407", "2408")
    assert terrain["2416"] == ("clear",) and river(marne, "2415", "2416")
    state = at(marne, {"de_3": "2211", "de_4": "2408", "de_7": "2415", "fr_14": "0120"})
    assert state.move_cost("de_3", "2212") == 2
    assert state.move_cost("de_4", "2407") == 2
    assert state.move_cost("de_7", "2416") == 2


@rule("marne:4.1")
def test_movement_is_voluntary_and_unused_mp_are_lost(marne):
    state = at(marne, {"de_3": "2614", "fr_14": "0120"})
    assert Action.end() in state.legal_actions()  # nobody has to move
    state.apply_action(Action.move("de_3", "2613"))  # 1 of 3 MP
    assert reach(state, "de_3") == {}  # the 2 MP left are gone, not kept for another move
    end_phase(state)  # to the first combat phase
    end_phase(state)  # to the second movement phase: the full 3 MP again, never 5
    assert state.phase.id == "de_move_2"
    assert max(reach(state, "de_3").values()) == 3 and "2616" in reach(state, "de_3")


@rule("marne:4.1")
def test_stacked_units_move_individually_in_any_direction(marne):
    state = at(marne, {"de_3": "2614", "de_4": "2614", "fr_14": "0120"})
    state.apply_action(Action.move("de_3", "2611"))
    state.apply_action(Action.move("de_4", "2616"))
    assert state.positions["de_3"] == "2611" and state.positions["de_4"] == "2616"


@rule("marne:4.1")
def test_units_pass_through_friends_but_never_enter_enemies(marne):
    # 2612 -> 2613 -> 2614 is the only 2-hex path (one column): a friend in 2613 costs nothing.
    state = at(marne, {"de_3": "2612", "de_4": "2613", "fr_14": "0120"})
    assert reach(state, "de_3")["2614"] == 2
    # An Allied unit in 2614: its hex is never entered (its ZOC makes going round it dearer).
    state = at(marne, {"de_3": "2612", "fr_14": "2614"})
    assert "2614" not in reach(state, "de_3")
    error = refusal(state, Action.move("de_3", "2614"))
    assert "2614" in error.message
    assert state.positions["de_3"] == "2612"


# ------------------------------------------------------- 4.1 L, 6.2 A: never ZOC to ZOC

@rule("marne:4.1.L")
def test_never_directly_from_one_enemy_controlled_hex_to_another(marne):
    # fr_14 in 2616 controls 2615 and 2516; de_3 stands in 2615; fr_17 in 2414 controls the
    # free hexes round the way (2515, 2415), so 2516 is only to be had by the direct step.
    state = at(marne, {"de_3": "2615", "fr_14": "2616", "fr_17": "2414"})
    zoc = state.enemy_zoc("germany")
    assert {"2615", "2516", "2515", "2415"} <= zoc
    costs = reach(state, "de_3")
    assert "2516" not in costs
    error = refusal(state, Action.move("de_3", "2516"))
    assert "may not move directly from one enemy-controlled hex (2615) to another (2516)" in error.message
    assert costs["2614"] == 1  # leaving for a free hex is fine
    # Without fr_17 it gets there round through the free 2515: 1 MP, then 1 + 1 for the ZOC.
    assert reach(at(marne, {"de_3": "2615", "fr_14": "2616"}), "de_3")["2516"] == 3


@rule("marne:4.1.L")
def test_never_zoc_to_zoc_even_when_different_enemy_units_control_them(marne):
    # 2615 is controlled by fr_14 (2616) alone, 2515 by fr_17 (2414) alone.
    units = {"de_3": "2615", "fr_14": "2616", "fr_17": "2414"}
    assert "2615" not in at(marne, {"fr_17": "2414"}).enemy_zoc("germany")
    assert "2515" not in at(marne, {"fr_14": "2616"}).enemy_zoc("germany")
    # The direct step would cost 2 (1 + the ZOC); the only way is round through the free 2614.
    assert reach(at(marne, units), "de_3")["2515"] == 3
    zoc_to_zoc = replace(marne, movement=replace(marne.movement, zoc_to_zoc=True))
    assert reach(at(zoc_to_zoc, units), "de_3")["2515"] == 2


@rule("marne:4.1.L")
def test_advance_after_combat_may_go_from_one_enemy_controlled_hex_to_another(marne):
    # de_3 and de_4 in 2615 (controlled by fr_14 in 2616) attack fr_17 in 2515; fr_18 in 2415
    # keeps 2515 under its ZOC after fr_17 retreats, yet the victors may advance into it.
    units = {"de_3": "2615", "de_4": "2615", "fr_14": "2616", "fr_17": "2515", "fr_18": "2415"}
    state = at(marne, units, phase="de_combat_1")
    state.apply_action(Action.attack("2515"))
    for unit in ("de_3", "de_4"):
        state.apply_action(Action.with_unit(unit))
    state.apply_action(Action.resolve())
    state.apply_action(Action.roll(1))  # 16 to 7: the 2-1 column; a 1: D2
    while state.retreats:
        state.apply_action(state.legal_actions()[0])
    assert state.positions.get("fr_17") != "2515"
    assert {"2615", "2515"} <= state.enemy_zoc("germany")
    state.apply_action(Action.advance("de_3", "2515"))
    assert state.positions["de_3"] == "2515"


# ------------------------------------------------------------ 4.2 leapfrog withdrawals

@rule("marne:4.2")
def test_leapfrog_into_an_enemy_controlled_hex_held_by_a_friend_one_hex_then_stop(marne):
    # de_3 in 2615 and de_4 in 2516 both stand in fr_14's ZOC (2616) at the start of the phase.
    state = at(marne, {"de_3": "2615", "de_4": "2516", "fr_14": "2616"})
    assert {"2615", "2516"} <= state.enemy_zoc("germany")
    assert reach(state, "de_3")["2516"] == 2  # 1 MP and 1 for entering the enemy ZOC
    state.apply_action(Action.move("de_3", "2516"))
    assert state.positions["de_3"] == "2516"
    assert reach(state, "de_3") == {}  # one hex, then it stops with 1 MP unused
    # 4.2 B: the unit that held the way open moves on at its normal rate (leaving is free).
    assert reach(state, "de_4")["2415"] == 1


@rule("marne:4.2")
def test_no_leapfrog_into_a_hex_whose_holder_only_just_arrived(marne):
    # de_4 moves from 2416 (free; across the Aube) into 2516 during the phase: it did not begin
    # there. fr_17 in 2414 controls 2515 and 2415, so de_3 has no way round.
    state = at(marne, {"de_3": "2615", "de_4": "2416", "fr_14": "2616", "fr_17": "2414"})
    assert "2416" not in state.enemy_zoc("germany")
    state.apply_action(Action.move("de_4", "2516"))
    assert "2516" not in reach(state, "de_3")
    error = refusal(state, Action.move("de_3", "2516"))
    assert "2516" in error.message


# ------------------------------------------------------------------ 4.3 supply effects

@rule("marne:4.3")
def test_an_isolated_unit_loses_one_mp(marne):
    state = at(marne, {"fr_col2": "2614", "fr_cav9": "2611", "de_3": "0101"}, phase="al_move_1")
    assert (state.allowance("fr_col2"), state.allowance("fr_cav9")) == (3, 4)
    state.mark("fr_col2", "isolated")
    state.mark("fr_cav9", "isolated")
    # 4.3 A's example: a 2-4 cavalry unit has 3 MP when isolated; an 8-3 has 2.
    assert (state.allowance("fr_col2"), state.allowance("fr_cav9")) == (2, 3)
    assert max(reach(state, "fr_col2").values()) == 2


@rule("marne:4.3")
def test_isolated_8_3_cannot_enter_an_enemy_controlled_swamp(marne):
    # 4.3 C's example: the Allied 8-3 (2 Col) in 2211, a German unit in 2213 controls the swamp 2212.
    assert marne.map.terrain["2212"] == ("swamp",) and marne.units["fr_col2"].strength == 8
    units = {"fr_col2": "2211", "de_3": "2213"}
    state = at(marne, units, phase="al_move_1")
    assert "2212" in state.enemy_zoc("allies") and "2211" not in state.enemy_zoc("allies")
    assert reach(state, "fr_col2")["2212"] == 3  # swamp 2 + ZOC 1: all of a supplied 8-3's MP
    state.mark("fr_col2", "isolated")
    assert state.allowance("fr_col2") == 2
    assert "2212" not in reach(state, "fr_col2")
    refusal(state, Action.move("fr_col2", "2212"))
    assert "2211" not in reach(state, "fr_col2") and reach(state, "fr_col2")  # it may still move elsewhere


@rule("marne:4.3")
def test_no_unit_may_deliberately_move_out_of_supply(marne):
    # A German unit in 3802 controls 3801 and 3902, the only hexes next to the corner hex 3901.
    # fr_cav9 stands in 3801, in supply through 3701; stepping into 3901 would leave 3801 empty and
    # the corner cut off.
    units = {"fr_cav9": "3801", "de_3": "3802"}
    state = at(marne, units, phase="al_move_1")
    assert {"3801", "3902"} <= state.enemy_zoc("allies") and "3701" not in state.enemy_zoc("allies")
    assert set(marne.map.neighbours["3901"].values()) == {"3801", "3902"}
    assert traced(state, "allies", "3801")
    free = replace(marne, movement=replace(marne.movement, may_end_move=None))
    assert reach(at(free, units, phase="al_move_1"), "fr_cav9")["3901"] == 1
    assert "3901" not in reach(state, "fr_cav9")
    error = refusal(state, Action.move("fr_cav9", "3901"))
    assert "may not end its move in 3901" in error.message
    state.apply_action(Action.move("fr_cav9", "3701"))  # back toward its lines is fine


# ---------------------------------------------------------------- 6.1, 6.2 zones of control

@rule("marne:6.1")
def test_zoc_is_the_six_surrounding_hexes(marne):
    state = at(marne, {"fr_14": "2614"})
    assert state.enemy_zoc("germany") == frozenset(marne.map.neighbours["2614"].values())
    assert len(state.enemy_zoc("germany")) == 6 and state.enemy_zoc("allies") == frozenset()


@rule("marne:6.1")
def test_zocs_are_rigid_no_unit_moves_through_one(marne):
    # fr_cav9 (4 MP) in 3601: the corner hex 3901 lies beyond 3801, which de_3 in 3802 controls.
    # Through 3801 it would cost 1 + 2 + 1: enough MP, but a unit entering an enemy ZOC stops.
    units = {"fr_cav9": "3601", "de_3": "3802"}
    free = replace(marne, movement=replace(marne.movement, may_end_move=None))  # supply aside
    costs = reach(at(free, units, phase="al_move_1"), "fr_cav9")
    assert costs["3801"] == 3 and "3901" not in costs
    passing = replace(free, movement=replace(free.movement, zoc="extra_cost"))
    assert reach(at(passing, units, phase="al_move_1"), "fr_cav9")["3901"] == 4


@rule("marne:6.1")
def test_both_sides_may_control_the_same_hex(marne):
    # 2615 lies between de_3 (2614) and fr_14 (2616): each side pays 1 MP more to enter it.
    state = at(marne, {"de_3": "2614", "fr_14": "2616", "de_4": "2514", "fr_17": "2716"})
    assert "2615" in state.enemy_zoc("germany") and "2615" in state.enemy_zoc("allies")
    assert "2515" not in state.enemy_zoc("germany")
    assert reach(state, "de_4")["2515"] == 1 and reach(state, "de_4")["2615"] == 3  # 2514-2515-2615
    state.apply_action(Action.end())
    state.apply_action(Action.end())
    state.apply_action(Action.end())
    state.apply_action(Action.end())
    assert state.phase.id == "al_move_1"
    assert reach(state, "fr_17")["2715"] == 2  # 2715 is German-controlled too (de_3 in 2614)


@rule("marne:6.1")
def test_zoc_has_no_effect_on_combat(marne):
    # Units next to each other need not fight, and a battle's odds are the strengths alone.
    state = at(marne, {"de_3": "2614", "de_4": "2614", "fr_14": "2615"}, phase="de_combat_1")
    assert Action.end() in state.legal_actions()
    odds = state.odds(Action.attack("2615", ("de_3",)))
    assert (odds.attack, odds.defence) == (8, 7)


@rule("marne:6.2")
def test_entering_an_enemy_controlled_hex_costs_one_more_and_leaving_is_free(marne):
    state = at(marne, {"de_3": "2613", "fr_14": "2616"})
    costs = reach(state, "de_3")
    assert costs["2614"] == 1 and costs["2615"] == 3  # 2615: 1 MP + 1 for fr_14's ZOC
    state = at(marne, {"de_3": "2615", "fr_14": "2616"})  # starting in the ZOC
    costs = reach(state, "de_3")
    assert costs["2614"] == 1 and costs["2613"] == 2 and costs["2612"] == 3  # nothing to pay for leaving


@rule("marne:6.2")
def test_no_zoc_across_a_river_hexside(marne):
    # The Aube runs between 2616 and 2517 and between 2616 and 2617: fr_14 in 2616 controls
    # only its four other neighbours.
    assert river(marne, "2517", "2616") and river(marne, "2616", "2617")
    state = at(marne, {"fr_14": "2616", "de_3": "2417"})
    zoc = state.enemy_zoc("germany")
    assert zoc == frozenset(marne.map.neighbours["2616"].values()) - {"2517", "2617"}
    # de_3 next door in 2417 enters 2517 for 1 MP: no ZOC to pay for.
    assert not river(marne, "2417", "2517") and reach(state, "de_3")["2517"] == 1
    # From 2517 it may step on into the controlled 2516 (no ZOC-to-ZOC): across the Aube, 1 + 1 + 1.
    state = at(marne, {"fr_14": "2616", "de_3": "2517"})
    assert reach(state, "de_3")["2516"] == 3


# ------------------------------------------------------------------------- 7.0 supply

ROW_2 = range(2, 39, 2)  # every even column: every hex of row 2 under a unit or in its ZOC


@rule("marne:7.0")
def test_no_supply_line_through_enemy_units_or_their_zoc(marne):
    # An Allied wall across row 2 cuts every German unit south of it from the north edge.
    units = {**wall(marne, "allies", 2, ROW_2), "de_3": "2015", "de_4": "2009"}
    state = at(marne, units)
    assert not traced(state, "germany", "2015") and not traced(state, "germany", "2009")
    assert all(traced(state, "allies", h) for h in ("3015", "3009"))  # the wall is no obstacle to its own side


@rule("marne:7.0")
def test_a_friendly_unit_in_an_enemy_controlled_hex_opens_the_supply_line(marne):
    # de_4 and de_7 stand in 0302 and 0303, hexes that the Allied units in 0202 and 0402 control.
    units = {**wall(marne, "allies", 2, ROW_2), "de_3": "2015", "de_4": "0302", "de_7": "0303"}
    state = at(marne, units)
    assert {"0302", "0303"} <= state.enemy_zoc("germany")
    assert traced(state, "germany", "2015") and traced(state, "germany", "0302")


@rule("marne:7.0")
def test_a_supply_line_is_at_most_40_hexes(marne):
    # Two walls: row 2 open at its west end (columns 1-2), row 6 open at its east end (38-39).
    # From the north edge to 0210 a path snakes east along rows 3-5 and back: far more than 40.
    units = {**wall(marne, "allies", 2, range(4, 39, 2)), **wall(marne, "allies", 6, range(2, 37, 2), skip=18),
             "de_3": "0210", "de_4": "3805"}
    state = at(marne, units)
    assert not traced(state, "germany", "0210")
    assert traced(state, "germany", "3805")  # near the row 6 gap: about 40 hexes by the row 2 gap
    # Pinned at 40: 3807's shortest line is 40 hexes long, 3808's 41 (a limit of 39 or 41 fails here).
    assert traced(state, "germany", "3807") and not traced(state, "germany", "3808")
    for limit, reaches_3807, reaches_3808 in ((39, False, False), (41, True, True)):
        other = replace(marne, traces={**marne.traces, "supply": replace(marne.traces["supply"], max_length=limit)})
        assert (traced(at(other, units), "germany", "3807"), traced(at(other, units), "germany", "3808")) \
            == (reaches_3807, reaches_3808)
    unlimited = replace(marne, traces={**marne.traces, "supply": replace(marne.traces["supply"], max_length=None)})
    assert traced(at(unlimited, units), "germany", "0210")


# -------------------------------------------------------------------- 7.1 supply sources

@rule("marne:7.1")
def test_german_supply_comes_from_the_north_edge_only(marne):
    units = {**wall(marne, "allies", 2, ROW_2), "de_3": "2019"}
    state = at(marne, units)
    assert "2020" in marne.map.edges["south"]
    assert not traced(state, "germany", "2019")  # next to the south edge, cut from the north
    del units[next(u for u, h in units.items() if h == "2002")]  # open the wall at column 20
    assert traced(at(marne, units), "germany", "2019")


PARIS = ("0311", "0312", "0313", "0410", "0411", "0412", "0511", "0512")


def in_german_hands(state, hexes=PARIS):
    """The state with `hexes` held by Germany (a German unit passed through them: 10.2 B)."""
    for h in hexes:
        state.holders[h] = "germany"
    return state


@rule("marne:7.1")
def test_allied_supply_from_the_south_edge_or_a_paris_hex_not_in_german_hands(marne):
    assert sorted(h for h, name in marne.map.places.items() if name == "Paris") == list(PARIS)
    # A German wall across row 19 cuts the Allies from the south edge: fr_14 in 0805 and fr_17 in
    # 3805 trace to Paris instead.
    walled = {**wall(marne, "germany", 19, range(2, 39, 2)), "fr_14": "0805", "fr_17": "3805"}
    state = at(marne, walled, phase="al_move_1")
    assert traced(state, "allies", "0805") and traced(state, "allies", "3805")
    # Every Paris hex in German hands: no supply at all north of the wall.
    state = in_german_hands(at(marne, walled, phase="al_move_1"))
    assert not traced(state, "allies", "0805") and not traced(state, "allies", "3805")
    # One Paris hex not in German hands is enough.
    state = in_german_hands(at(marne, walled, phase="al_move_1"), PARIS[1:])
    assert traced(state, "allies", "0805")
    # Paris lost but no wall: the south edge supplies them.
    state = in_german_hands(at(marne, {"fr_14": "0805", "fr_17": "3805", "de_3": "0101"}, phase="al_move_1"))
    assert traced(state, "allies", "0805") and traced(state, "allies", "3805")


# ---------------------------------------------------------- 7.2 effects of lack of supply

def german_wall(marne):
    """A German wall across row 19: with Paris in German hands, no Allied supply north of it."""
    return wall(marne, "germany", 19, range(2, 39, 2))


@rule("marne:7.2")
def test_out_of_supply_is_half_strength_without_rounding(marne):
    # 7.2 A's example: an Allied 7-3 out of supply is worth 3.5.
    units = {**german_wall(marne), "fr_14": "3805", "de_3": "3705", "de_4": "3706"}
    assert marne.units["fr_14"].strength == 7
    state = in_german_hands(at(marne, units, phase="de_combat_1"))
    assert not traced(state, "allies", "3805")
    odds = state.odds(Action.attack("3805", ("de_3", "de_4")))
    assert (odds.attack, odds.defence) == (16, 3.5)
    # In supply (Paris not in German hands) it counts 7.
    state = at(marne, units, phase="de_combat_1")
    assert traced(state, "allies", "3805")
    assert state.odds(Action.attack("3805", ("de_3", "de_4"))).defence == 7


def allied_turn(marne, units):
    """The First Allied Movement Phase of turn 9 begun by ending the German player-turn, so that
    its phase_start hook marks the Allied units out of supply as isolated (7.3 A); Paris is in
    German hands and a German wall runs across row 19."""
    state = in_german_hands(at(marne, {**german_wall(marne), **units}, phase="de_combat_2"))
    end_phase(state)
    assert state.phase.id == "al_move_1"
    return state


@rule("marne:7.2")
def test_out_of_supply_units_lose_one_mp_and_move_only_toward_supply(marne):
    state = allied_turn(marne, {"fr_14": "3805", "fr_17": "0120"})
    assert "isolated" in state.markers_on("fr_14") and "isolated" not in state.markers_on("fr_17")
    assert (state.allowance("fr_14"), state.allowance("fr_17")) == (2, 3)  # 7.2 A: 7-3 -> 2 MP
    ends = reach(state, "fr_14")
    assert "3806" in ends and "3807" in ends  # toward the south edge
    assert not {"3804", "3803", "3705", "3905"} & set(ends)  # never farther from it, nor sideways
    error = refusal(state, Action.move("fr_14", "3804"))
    assert "may not end its move in 3804" in error.message


@rule("marne:7.2")
def test_out_of_supply_units_attack_only_to_reopen_their_supply(marne):
    # fr_14 in 2018 is cut off by the wall; the German unit in 2019 is part of it, de_3 in 2017 is not.
    units = {**german_wall(marne), "fr_14": "2018", "de_3": "2017"}
    assert "2019" in german_wall(marne).values() and "2017" not in german_wall(marne).values()
    state = in_german_hands(at(marne, units, phase="al_combat_1"))
    assert not traced(state, "allies", "2018")
    assert "fr_14" in attackers_for(state, "2019")  # success would open the wall: 2019, 2020
    assert "fr_14" not in attackers_for(state, "2017")
    # In supply, it may attack either.
    state = at(marne, units, phase="al_combat_1")
    assert "fr_14" in attackers_for(state, "2017") and "fr_14" in attackers_for(state, "2019")


@rule("marne:7.2")
def test_units_are_never_lost_for_isolation_alone(marne):
    state = allied_turn(marne, {"fr_14": "3805"})
    for _ in range(8):  # the Allied player-turn and the next German one: every phase ended
        end_phase(state)
    assert (state.turn, state.phase.id) == (10, "al_move_1")
    assert state.status("fr_14") == ON_MAP and state.positions["fr_14"] == "3805"
    assert "isolated" in state.markers_on("fr_14")  # still cut off, still there


# --------------------------------------------------------------- 7.3 supply determination

@rule("marne:7.3")
def test_supply_for_movement_is_fixed_as_the_movement_phase_begins(marne):
    # fr_14 in 3316 is isolated as the phase begins. fr_18 stands on the south edge in 3320 and
    # fr_17 steps into the wall's ZOC in 3319: the line 3320-3319-3318... opens at once, yet
    # fr_14 keeps the isolated unit's 2 MP and its leash for the rest of the phase.
    state = allied_turn(marne, {"fr_14": "3316", "fr_17": "3318", "fr_18": "3320"})
    assert "isolated" in state.markers_on("fr_14")
    assert not traced(state, "allies", "3316")
    state.apply_action(Action.move("fr_17", "3319"))
    assert traced(state, "allies", "3316")  # supplied now...
    assert "isolated" in state.markers_on("fr_14") and state.allowance("fr_14") == 2  # ...but not for this phase
    assert "3315" not in reach(state, "fr_14")  # still only toward supply
    end_phase(state)  # the marker comes off as the phase ends
    assert "isolated" not in state.markers_on("fr_14")


@rule("marne:7.3")
def test_supply_for_combat_is_determined_at_the_instant_of_combat(marne):
    # 7.3 B's example. The German cavalry in 3219 closes the wall: fr_14 in 3216 is out of supply
    # and may not attack de_3 in 3215 (that would not reopen its supply). Four Allied units
    # destroy the cavalry; then fr_14 attacks at full strength.
    units = {**german_wall(marne), "fr_14": "3216", "de_3": "3215",
             "fr_17": "3218", "fr_18": "3119", "fr_col2": "3319", "fr_cav9": "3220"}
    blocker = next(u for u, h in units.items() if h == "3219")
    units[blocker] = "0101"  # out of the way: a 2-4 cavalry unit takes its place in the wall
    units["de_cav2"] = "3219"
    state = in_german_hands(at(marne, units, phase="al_combat_1"))
    assert not traced(state, "allies", "3216")
    assert "fr_14" not in attackers_for(state, "3215")
    assert state.odds(Action.attack("3215", ("fr_14",))).attack == 3.5
    battle = [Action.attack("3219"), *(Action.with_unit(u) for u in ("fr_17", "fr_18", "fr_col2", "fr_cav9")),
              Action.resolve()]
    for action in battle:
        state.apply_action(action)
    state.apply_action(Action.roll(1))
    assert "de_cav2" not in state.positions  # eliminated
    while state.advancing is not None:
        state.apply_action(Action.advance())  # nobody advances
    assert traced(state, "allies", "3216")
    assert "fr_14" in attackers_for(state, "3215")
    assert state.odds(Action.attack("3215", ("fr_14",))).attack == 7
