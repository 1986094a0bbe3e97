"""Rule behaviours of stacking, traces, combat duties, joining, steps, placement and modifiers that no other test
pinned: each test was written against a fault planted in the engine (a mutation testing round) that the rest of the
suite let through, and fails with that fault. Played on the made-up games of tests/games/, some with one line changed
(`variant`) to show the case."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from game_variants import variant

from rulec.engine import Action, EngineContext, new_game
from rulec.pipeline import load_game

GAMES = Path(__file__).parent / "games"


def traced_hex(state, side: str, h: str) -> bool:
    return EngineContext(state).traced_hex("supply", side, h)


def per_hex(game):
    """The game with its traces searched hex by hex (traces._spread), not as sets of hexes (trace_sets.py)."""
    return replace(game, traces={tid: replace(trace, sets=None) for tid, trace in game.traces.items()})


# ------------------------------------------------------------ stacking { counts }
def test_a_unit_that_does_not_count_for_stacking_may_end_its_move_on_a_full_hex(tmp_path):
    """stacking { counts }: a unit for which `counts` fails ends its move anywhere, even in a hex already at the
    limit, with a friend there that has moved and so cannot make room (river_screen: limit 1, forts do not count;
    here the fort may move). The move is offered and applying it is legal (stacking.may_end, asked when a move is
    applied, agrees with the moves listed)."""
    game = variant(tmp_path, "river_screen", ("strength = 2  move = 0  setup = 0402", "strength = 2  move = 3  setup = 0402"))
    state = new_game(game).arrange({"r_line": "0301", "b_fort": "0402", "b_guard": "0404", "b_picket": "0501"},
                                   turn=1, phase="blue_move")
    state.apply_action(Action.move("b_guard", "0403"))  # b_guard has moved: it may not make room by leaving again
    move = Action.move("b_fort", "0403")  # onto b_guard: 0403 is at the limit of 1
    assert "0403" in {a.hex for a in state.moves_of("b_fort")}
    assert state.is_legal(move)
    state.apply_action(move)
    assert set(state.units_at("0403")) == {"b_fort", "b_guard"}
    state.apply_action(Action.end())  # the end-of-movement check finds no hex over the limit: the fort is not counted
    assert state.removing is None and state.phase.id == "blue_fight"


# ------------------------------------------------------------ traces
def test_a_source_in_a_hex_the_trace_may_never_enter_supplies_nobody(tmp_path):
    """A trace's sources are hexes it must itself be able to pass: a source in a hex its map condition refuses
    (cut_off: never through the marsh) starts no path, whether the trace is searched as sets or hex by hex."""
    game = variant(tmp_path, "cut_off", ("from { blue = west  red = depot }", "from { blue = [0401]  red = depot }"))
    assert game.traces["supply"].through_static is not None  # the marsh is refused on the map alone (folded)
    for played in (game, per_hex(game)):
        state = new_game(played).arrange({"b1": "0503", "b3": "0102", "r1": "0901", "r3": "1001"}, phase="blue_move")
        assert not any(traced_hex(state, "blue", h) for h in ("0401", "0402", "0501", "0503", "0102"))
        assert not EngineContext(state).traced("supply", state.unit("b1"))


def test_a_trace_step_condition_reads_the_hex_left_as_from_hex(tmp_path):
    """trace { across }: `from_hex` is the hex a step leaves and `hex` the hex it enters. Here the ford may be
    crossed only from a bank a friendly unit holds (asked at each search): blue supply from the west crosses it
    with a friend on the west bank, not with one on the east bank only (bridgehead without its bridge)."""
    game = variant(tmp_path, "bridgehead",
                   ("  hexsides the_bridge { feature = bridge  sides = [0402/0502] }\n", ""),
                   ("or friendly_occupied(from_hex) or friendly_occupied(hex))", "or friendly_occupied(from_hex))"))
    assert game.traces["supply"].across is not None and "ford" in game.traces["supply"].across.source
    west_bank = new_game(game).arrange({"b1": "0602", "b2": "0404", "r1": "0801", "r2": "0804"}, phase="blue_move")
    assert traced_hex(west_bank, "blue", "0504") and traced_hex(west_bank, "blue", "0602")
    east_bank = new_game(game).arrange({"b1": "0504", "b2": "0101", "r1": "0801", "r2": "0804"}, phase="blue_move")
    assert traced_hex(east_bank, "blue", "0404") and not traced_hex(east_bank, "blue", "0504")
    assert not EngineContext(east_bank).traced("supply", east_bank.unit("b1"))


def test_a_step_condition_on_the_map_alone_reads_the_hex_left_as_from_hex(tmp_path):
    """trace { across }, its part on the map alone (folded once a game into the steps a search may take): supply
    may not climb onto a hill from lower ground (`not has_terrain(hex, hill) or has_terrain(from_hex, hill)`), so
    a hill among clear hexes is never reached while the clear hexes around it are."""
    game = variant(tmp_path, "bridgehead",
                   ("  edges { west", "  features { hill = [0302] }\n  edges { west"),
                   ("terrain clear { move = 1 }", 'terrain clear { move = 1 }\nterrain hill { move = as_other  name = "Hill" }'),
                   ("  across = (not crossing", "  across = (not has_terrain(hex, hill) or has_terrain(from_hex, hill))\n"
                                                "           and (not crossing"))
    assert "hill" in game.traces["supply"].across_static.source  # folded: the map alone decides it
    state = new_game(game).arrange({"b1": "0602", "b2": "0101", "r1": "0801", "r2": "0804"}, phase="blue_move")
    assert not traced_hex(state, "blue", "0302")
    assert all(traced_hex(state, "blue", h) for h in ("0202", "0301", "0303", "0402"))


# ------------------------------------------------------------ who may attack
def test_a_unit_of_strength_zero_may_not_attack_and_so_owes_no_attack(tmp_path):
    """A unit attacks only with a strength above 0 (duties.can_attack): a blue unit of strength 0 next to a fort
    that must be attacked (mandatory_combat) neither attacks nor obliges the phase to go on."""
    game = variant(tmp_path, "mandatory_combat",
                   ("type = infantry  strength = 2  move = 3  setup = 0102", "type = infantry  strength = 0  move = 3  setup = 0102"))
    state = new_game(game).arrange({"inf": "0302", "fort": "0303"}, phase="blue_fight")
    assert state.legal_actions() == [Action.end()]
    state = new_game(game).arrange({"inf": "0302", "r1": "0303"}, phase="blue_fight")
    assert Action.attack("0303") not in state.legal_actions()


def test_an_enemy_that_must_be_attacked_is_owed_no_more_once_it_has_been(tmp_path):
    """combat { must_be_attacked }: an enemy must be attacked while it has not been this phase. Once a fort has
    defended (one battle per defender), the friend next to it that did not attack owes nothing and the phase may
    end (mandatory_combat, with every blue unit free to attack)."""
    game = variant(tmp_path, "mandatory_combat", ("  may_attack = not has_flag(unit, reserve)\n", ""))
    state = new_game(game).arrange({"inf": "0302", "res": "0304", "fort": "0303"}, phase="blue_fight")
    assert state.legal_actions() == [Action.attack("0303")]
    for step in (Action.attack("0303"), Action.with_unit("inf"), Action.resolve(), Action.roll(1)):
        state.apply_action(step)
    assert state.status("fort") == "map"  # no effect: the fort stays, attacked once
    assert state.legal_actions() == [Action.end()]
    state.apply_action(Action.end())
    assert state.phase.id == "red_move"


def test_a_hex_holding_a_unit_not_yet_attacked_still_binds_a_unit_that_must_attack(tmp_path):
    """combat { must_attack }: a unit must attack while an enemy hex next to it may still be attacked, and a hex stays
    open to attack while it holds a unit not yet attacked this phase (docs/rulings.md). A defender that retreated into
    its friend's hex does not close that hex, so the duty of the blue unit next to it stays open (retreated_guests,
    every blue unit made to attack)."""
    game = variant(tmp_path, "retreated_guests", ("  one_battle_per_defender = phase\n",
                                                  "  one_battle_per_defender = phase\n  must_attack = true\n"))
    state = new_game(game).arrange({"b1": "0101", "r1": "0201", "r2": "0301", "b2": "0401"}, phase="blue_fight")
    for step in (Action.attack("0201"), Action.with_unit("b1"), Action.resolve(), Action.roll(1)):
        state.apply_action(step)  # D1: r1 retreats east into r2's hex, 0301
    assert state.positions["r1"] == "0301"
    assert Action.end() not in state.legal_actions()  # b2, next to 0301, must still attack it
    assert state.explain("end") is not None and "must still attack" in state.explain("end")
    assert state.legal_actions() == [Action.attack("0301")]


def test_a_unit_that_must_attack_a_fort_may_attack_it_together_with_another_hex(tmp_path):
    """combat { must_attack_target }: while its duty is open a unit may join no battle whose hexes hold no target,
    but a multi-hex battle that includes a hex holding one is fine (docs/rulings.md). River_assault with multi-hex
    battles: b1, next to the fort (0403) and to r1 (0302), attacks both hexes at once."""
    game = variant(tmp_path, "river_assault", ("  must_attack_target = unit.type == fort\n",
                                               "  must_attack_target = unit.type == fort\n  multi_hex = true\n"))
    state = new_game(game).arrange({"b1": "0303", "b2": "0301", "fort": "0403", "r1": "0302"}, phase="blue_combat_1")
    state.apply_action(Action.attack("0302"))
    assert Action.with_unit("b1") not in state.legal_actions()  # r1's hex alone: not the fort b1 owes
    assert Action.attack("0403") in state.legal_actions()
    state.apply_action(Action.attack("0403"))
    assert Action.with_unit("b1") in state.legal_actions()
    state.apply_action(Action.with_unit("b1"))
    assert Action.resolve() in state.legal_actions()


def test_a_hex_holding_a_target_among_other_units_is_a_target(tmp_path):
    """combat { must_attack_target }: a hex counts for the duty when it holds a unit for which the condition holds,
    whatever else stands with it: a fort stacked with infantry next to b1 (river_assault) still binds b1."""
    game = load_game(str(GAMES / "river_assault.rulec"))
    state = new_game(game).arrange({"b1": "0303", "fort": "0403", "r1": "0403"}, phase="blue_combat_1")
    assert state.legal_actions() == [Action.attack("0403")]


def test_a_unit_bound_to_attack_a_fort_is_no_attacker_for_an_enemy_that_must_be_attacked(tmp_path):
    """combat { must_be_attacked }: a battle may not use up the only unit left able to attack an enemy that must be
    attacked (docs/rulings.md). A unit whose own duty binds it to attack elsewhere (must_attack, must_attack_target:
    the tank must attack the fort) is no attacker for that enemy: so the infantry, r1's only free attacker, may not
    spend its attack on r2 (mandatory_combat: r1, strength 2, must be attacked; r2, strength 3, need not)."""
    game = variant(tmp_path, "mandatory_combat",
                   ("  must_be_attacked = unit.type == fort\n",
                    "  must_be_attacked = unit.type == infantry and unit.strength == 2\n  must_attack_target = unit.type == fort\n"),
                   ("unit r2   { side = red   type = infantry  strength = 2", "unit r2   { side = red   type = infantry  strength = 3"))
    # The tank (0302) is next to the fort (0303), r1 (0402) and r2 (0301); the infantry (0401) to r1 and r2 only.
    state = new_game(game).arrange(dict(tank="0302", fort="0303", r1="0402", inf="0401", r2="0301"), phase="blue_fight")
    state.apply_action(Action.attack("0301"))
    state.apply_action(Action.with_unit("inf"))
    assert Action.resolve() not in state.legal_actions()
    assert "no unit left to attack them" in state.explain("resolve")


# ------------------------------------------------------------ who may join a battle (combat { may_join })
def test_may_join_reads_the_defenders_side(tmp_path):
    """combat { may_join }: `defender_side` is the side of the units attacked. A condition letting units join only
    attacks on red lets blue attack a red unit (mandatory_combat)."""
    game = variant(tmp_path, "mandatory_combat", ("  must_be_attacked = unit.type == fort\n", "  may_join = defender_side == red\n"))
    state = new_game(game).arrange(dict(inf="0302", r1="0303"), phase="blue_fight")
    assert Action.attack("0303") in state.legal_actions()
    state.apply_action(Action.attack("0303"))
    assert Action.with_unit("inf") in state.legal_actions()


def test_may_join_reads_the_hexes_of_the_attackers_so_far_not_the_joining_units(tmp_path):
    """combat { may_join }: `attacker_hexes` are the hexes of the units already in the battle, not the one asking.
    With "one attacker per hex" (`not (unit.hex in attacker_hexes)`), the first unit of a stack may join and its
    stack-mate may not (mandatory_combat, every blue unit free to attack)."""
    game = variant(tmp_path, "mandatory_combat",
                   ("  may_attack = not has_flag(unit, reserve)\n", "  may_join = not (unit.hex in attacker_hexes)\n"))
    state = new_game(game).arrange(dict(inf="0302", res="0302", r1="0303"), phase="blue_fight")
    state.apply_action(Action.attack("0303"))
    assert {a.unit for a in state.legal_actions() if a.kind == "with"} == {"inf", "res"}
    state.apply_action(Action.with_unit("inf"))
    assert Action.with_unit("res") not in state.legal_actions()


def test_may_join_reads_the_defenders_of_every_target_hex(tmp_path):
    """combat { may_join }, multi-hex battles: `defenders` are the units of every target hex. With "no unit attacks a
    fort", a battle on r1 may not take in the fort's hex as well (mandatory_combat, multi-hex)."""
    game = variant(tmp_path, "mandatory_combat", ("  must_be_attacked = unit.type == fort\n",
                                                  "  may_join = not any(d in defenders where d.type == fort)\n  multi_hex = true\n"))
    state = new_game(game).arrange(dict(inf="0302", r1="0303", r2="0402"), phase="blue_fight")
    state.apply_action(Action.attack("0303"))
    state.apply_action(Action.with_unit("inf"))
    assert Action.attack("0402") in state.legal_actions()  # a second hex of infantry may be added ...
    state = new_game(game).arrange(dict(inf="0302", r1="0303", fort="0402"), phase="blue_fight")
    state.apply_action(Action.attack("0303"))
    state.apply_action(Action.with_unit("inf"))
    assert Action.attack("0402") not in state.legal_actions()  # ... the fort's may not


# ------------------------------------------------------------ steps
def test_a_unit_flipped_to_a_side_that_may_not_attack_attacks_no_more_later_in_the_game():
    """Units with reduced sides: a step loss may flip a unit to another type, and the flipped unit plays as that
    type from then on (two_steps: b3's reduced side is a cadre, which may not attack). Blue's b3 may attack in its
    first combat phase, is flipped by Red's attack, and may not attack in Blue's next combat phase, played on from
    the same game."""
    game = load_game(str(GAMES / "two_steps.rulec"))
    state = new_game(game).arrange({"b3": "0302", "r2": "0303"}, phase="blue_fight")
    assert Action.attack("0303") in state.legal_actions()  # b3, full strength, may attack r2
    state.apply_action(Action.end())  # blue_fight ends: red_move
    state.apply_action(Action.end())  # red_fight
    for step in (Action.attack("0302"), Action.with_unit("r2"), Action.resolve(), Action.roll(1)):
        state.apply_action(step)  # S1: b3 loses a step and flips to its cadre side
    assert state.unit("b3").type == "cadre"
    state.apply_action(Action.end())  # turn 2, blue_move
    state.apply_action(Action.end())  # blue_fight
    assert (state.turn, state.phase.id) == (2, "blue_fight")
    assert Action.attack("0303") not in state.legal_actions()


# ------------------------------------------------------------ placement
def places(state) -> set[tuple[str, str]]:
    """Every (unit, hex) placement open now, through the two steps: `place UNIT`, then `place UNIT HEX`."""
    found = set()
    for first in state.legal_actions():
        if first.kind == "place":
            second = state.clone()
            second.apply_action(first)
            found |= {(a.unit, a.hex) for a in second.legal_actions() if a.kind == "place"}
    return found


RED_ZONE = {"0101", "0102", "0103", "0104", "0105", "0201", "0202", "0203", "0204", "0205"}


def test_a_unit_that_does_not_count_for_stacking_leaves_room_to_place_a_unit(tmp_path):
    """Placement: a hex is allowed while it has room under the stacking limit, counting only the units for which
    stacking { counts } holds (free_setup, limit 1; here a unit of strength 3 does not count: r3 in 0105 leaves
    its hex open to the units red sets up, the full hexes of counted units stay closed)."""
    game = variant(tmp_path, "free_setup", ("stacking { limit = 1 }", "stacking { limit = 1  counts = unit.strength != 3 }"))
    state = new_game(game)
    assert state.phase.id == "red_setup" and state.positions["r3"] == "0105"
    assert places(state) == {(u, h) for u in ("r1", "r2") for h in RED_ZONE}
    state.apply_action(Action.place("r1", "0105"))
    assert set(state.units_at("0105")) == {"r1", "r3"}
    assert places(state) == {("r2", h) for h in RED_ZONE - {"0105"}}  # r1 counts: 0105 is full now


def test_a_unit_is_never_placed_in_a_hex_holding_an_enemy(tmp_path):
    """Placement: a hex of the phase's `hexes` holding an enemy unit is refused, room or not (free_setup with a
    stacking limit of 2: a blue unit standing in red's set-up zone, as after an early move, closes its hex to red's
    set-up, while r3's hex has room for one more)."""
    game = variant(tmp_path, "free_setup", ("stacking { limit = 1 }", "stacking { limit = 2 }"))
    state = new_game(game).arrange({"r1": "pending", "r2": "pending", "r3": "0105", "b2": "0104"}, phase="red_setup")
    assert state.phase.id == "red_setup"
    assert places(state) == {(u, h) for u in ("r1", "r2") for h in RED_ZONE - {"0104"}}
    assert not state.is_legal(Action.place("r1", "0104"))


def test_only_the_phasing_sides_units_are_placed_from_a_pool_of_both_sides(tmp_path):
    """Placement: the pool offers the phasing side's units only, whatever its expression lists (free_setup with
    red's set-up pool written as every pending unit: b1, blue's, waits for blue's set-up)."""
    game = variant(tmp_path, "free_setup", ("placement { pool = units(side = red, status = pending)  hexes = red_zone }",
                                            "placement { pool = units(status = pending)  hexes = red_zone }"))
    state = new_game(game)
    assert state.phase.id == "red_setup"
    assert {a.unit for a in state.legal_actions() if a.kind == "place"} == {"r1", "r2"}
    assert not state.is_legal(Action.place("b1", "0101"))


# ------------------------------------------------------------ modifiers
def test_a_unit_modifier_multiplies_then_adds(tmp_path):
    """Unit modifiers multiply then add to a unit's printed strength (rulec/engine/modifiers.py): a hill that
    doubles its defender and adds 1 (cut_off's dug_in, given a `strength_plus`) makes a defender of 2 worth 5,
    not (2 + 1) * 2 = 6."""
    game = variant(tmp_path, "cut_off", ("has_terrain(unit.hex, hill)  strength_times = 2 }",
                                         "has_terrain(unit.hex, hill)  strength_times = 2  strength_plus = 1 }"))
    state = new_game(game).arrange({"b3": "0802", "r3": "0902"}, phase="blue_combat")
    odds = state.odds(Action.attack("0902", ("b3",)))
    assert odds.defence == 5 and odds.modifiers == ("dug_in",)


def test_a_unit_off_the_map_regains_no_step():
    """Steps: only a reduced unit on the map flips back a side (GameState.restore_step; a hook's restore_step leaves
    a unit off the map as it is). b_late waits to arrive on its second reduced side (steps_both_ways: steps_lost = 2)
    and stays on it."""
    game = load_game(str(GAMES / "steps_both_ways.rulec"))
    state = new_game(game)
    assert state.status("b_late") == "pending" and state.unit("b_late").strength == 1
    assert state.restore_step("b_late") is False
    assert state.unit("b_late").strength == 1 and state.steps_left("b_late") == 1


def test_a_battle_modifier_reads_every_hex_of_a_multi_hex_battle(tmp_path):
    """Battle modifiers: `defender_hexes` are every hex attacked. A town that helps blue defenders (cut_off's
    town_defence, written over `defender_hexes`, with multi-hex battles) shifts a battle on two hexes whose second
    is the town."""
    game = variant(tmp_path, "cut_off",
                   ("when = defender_side == blue and has_terrain(defender_hex, town)",
                    "when = defender_side == blue and any(h in defender_hexes where has_terrain(h, town))"),
                   ("combat { table = main  fractions = down }", "combat { table = main  fractions = down  multi_hex = true }"))
    state = new_game(game).arrange({"b3": "0802", "b2": "0702", "r3": "0703", "r1": "1003"}, phase="red_combat")
    for step in (Action.attack("0702"), Action.attack("0802"), Action.with_unit("r3")):
        state.apply_action(step)  # 0702 first, then the town (0802): r3 (0703) is next to both
    assert "town_defence" in state.odds().modifiers
    alone = new_game(game).arrange({"b3": "0802", "b2": "0702", "r3": "0703", "r1": "1003"}, phase="red_combat")
    assert "town_defence" not in alone.odds(Action.attack("0702", ("r3",))).modifiers  # no town attacked


def test_a_modifier_that_only_adds_to_strength_plays(tmp_path):
    """Unit modifiers: one that only adds to strength (`strength_plus`, no `strength_times`) changes it too: a hill
    adding 1 to its defender (cut_off's dug_in, written as `strength_plus = 1`) makes a defender of 2 worth 3."""
    game = variant(tmp_path, "cut_off", ("has_terrain(unit.hex, hill)  strength_times = 2 }",
                                         "has_terrain(unit.hex, hill)  strength_plus = 1 }"))
    state = new_game(game).arrange({"b3": "0802", "r3": "0902"}, phase="blue_combat")
    odds = state.odds(Action.attack("0902", ("b3",)))
    assert odds.defence == 3 and odds.modifiers == ("dug_in",)


def test_a_modified_movement_allowance_is_rounded_down(tmp_path):
    """Unit modifiers: a movement allowance through the modifiers is rounded down (modifiers.allowance): a unit of 3
    MP out of supply at half allowance (cut_off's out_of_supply, written as `move_times = 0.5`) has 1 MP, not 2."""
    game = variant(tmp_path, "cut_off",
                   ("strength_times = 0.5  move_plus = -1 }", "strength_times = 0.5  move_times = 0.5 }"),
                   ("strength = 5  move = 4  setup = 0503", "strength = 5  move = 3  setup = 0503"))
    cut_off = new_game(game).arrange({"b1": "0503", "r1": "0302", "r3": "1001"}, phase="blue_move")
    assert not EngineContext(cut_off).traced("supply", cut_off.unit("b1"))
    assert cut_off.allowance("b1") == 1
    assert cut_off.is_legal(Action.move("b1", "0603")) and not cut_off.is_legal(Action.move("b1", "0703"))


def test_a_units_strength_as_attacker_and_as_defender_are_told_apart_in_one_position():
    """Unit modifiers read the unit's role (`defending`): a hill doubles its defender, not its attacker (cut_off's
    dug_in). Asked of the same position, r3 on the hill defends at 4 and attacks at 2 (state.odds of a battle, if it
    were declared, whichever side would fight it)."""
    game = load_game(str(GAMES / "cut_off.rulec"))
    state = new_game(game).arrange({"b3": "0802", "r3": "0902"}, phase="blue_combat")
    assert state.odds(Action.attack("0902", ("b3",))).defence == 4
    odds = state.odds(Action.attack("0802", ("r3",)))
    assert odds.attack == 2 and "dug_in" not in odds.modifiers
