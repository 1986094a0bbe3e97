"""What the expression functions answer (rulec/runtime/context.py, the engine's EngineContext and the scores-only
context) and what a move, exit, relocation or elimination records (rulec/engine/changes.py), where no other test
pinned it: each test was written against a fault planted in those modules (a mutation testing round) that the rest
of the suite let through, and fails with that fault. Each evaluates an expression of a made-up game of tests/games/
(some with one line changed, `variant`) on a real position, or plays the rule through the public API."""

from __future__ import annotations

from pathlib import Path

import pytest
from game_expressions import evaluate
from game_variants import variant

from rulec.engine import Action, EngineContext, new_game
from rulec.engine import changes, victory
from rulec.engine.scores_context import ScoresContext
from rulec.pipeline import load_game
from rulec.runtime.context import StandInContext

GAMES = Path(__file__).parent / "games"


def ids(values) -> list[str]:
    return [getattr(v, "id", v) for v in values]


@pytest.fixture(scope="module")
def mandatory():
    """Blue's tank (armor), inf and res (infantry, flagged reserve); red's r1, r2 (infantry) and fort."""
    return load_game(str(GAMES / "mandatory_combat.rulec"))


@pytest.fixture(scope="module")
def twice():
    """Red and blue; towns (a feature) on clear 0201 and 0202, hills at 0103; no victory levels read the lead."""
    return load_game(str(GAMES / "twice_the_enemy.rulec"))


@pytest.fixture(scope="module")
def three_sides(tmp_path_factory):
    """twice_the_enemy with a third side, green (no units)."""
    return variant(tmp_path_factory.mktemp("three"), "twice_the_enemy",
                   ('side blue { name = "Blue" }', 'side blue { name = "Blue" }\nside green { name = "Green" }'))


# ------------------------------------------------------------ units(...) filters
@pytest.mark.parametrize("source, expected", [
    ("units(hex = 0302)", ["tank", "inf"]),
    ("units(type = infantry)", ["inf", "res", "r1", "r2"]),
    ("units(flag = reserve)", ["res"]),
    ("units(side = blue, type = infantry)", ["inf", "res"]),
    ("units(side = red, hex = 0303, type = fort)", ["fort"]),
])
def test_each_filter_of_units_narrows_the_units_on_the_map(mandatory, source, expected):
    """units(hex =, type =, flag =): only the units in that hex, of that type, carrying that flag (mandatory_combat:
    tank and inf stacked in 0302, r1 and the fort stacked in 0303)."""
    state = new_game(mandatory).arrange({"tank": "0302", "inf": "0302", "res": "0101", "r1": "0303", "fort": "0303",
                                         "r2": "0606"}, phase="blue_move")
    assert ids(evaluate(mandatory, EngineContext(state), source)) == expected


# ------------------------------------------------------------ the leader, the lead, the lead ratio
def test_the_leader_is_no_side_on_equal_scores(twice):
    """`leader`: the side with most VP, "" on equal scores (0 to 0 at the start, 3 to 3 later): no side leads."""
    state = new_game(twice)
    assert evaluate(twice, EngineContext(state), "if(true, leader, leader)") == ""
    assert evaluate(twice, ScoresContext(twice, {"red": 3, "blue": 3}), "if(true, leader, leader)") == ""
    assert evaluate(twice, ScoresContext(twice, {"red": 3, "blue": 4}), "if(true, leader, leader)") == "blue"


def test_a_game_without_victory_levels_ends_in_a_draw_on_equal_scores():
    """With no victory block the side with most VP wins, and equal scores are a draw (history: red and blue)."""
    game = load_game(str(GAMES / "history.rulec"))
    assert game.victory is None
    assert victory.outcome(game, {"red": 2, "blue": 2}).winner is None
    assert victory.outcome(game, {"red": 2, "blue": 2}).level == "Draw"
    assert victory.outcome(game, {"red": 2, "blue": 3}).winner == "blue"


def test_the_lead_is_over_the_next_side_not_the_last(three_sides):
    """`lead`: the leader's VP minus the next side's, with three sides (5, 3, 1: a lead of 2, not 4)."""
    scores = ScoresContext(three_sides, {"red": 5, "blue": 3, "green": 1})
    assert evaluate(three_sides, scores, "lead + 0") == 2
    assert evaluate(three_sides, ScoresContext(three_sides, {"red": 1, "blue": 3, "green": 5}), "lead + 0") == 2


def test_the_lead_ratio_is_the_leaders_vp_over_the_next_sides(twice, three_sides):
    """`lead_ratio`: the leader's VP divided by the next side's (6 to 3: 2), whichever side leads."""
    assert evaluate(twice, ScoresContext(twice, {"red": 6, "blue": 3}), "lead_ratio + 0") == 2
    assert evaluate(twice, ScoresContext(twice, {"red": 3, "blue": 6}), "lead_ratio + 0") == 2
    assert evaluate(three_sides, ScoresContext(three_sides, {"red": 6, "blue": 3, "green": 1}), "lead_ratio + 0") == 2


def test_the_lead_ratio_of_equal_scores_is_one_even_at_none(twice):
    """`lead_ratio` on equal scores is 1, 0 to 0 included (as victory's margin reads it: no side is ahead), so a level
    `lead_ratio >= 1` holds at the start; with VP against none it is infinite."""
    state = new_game(twice)
    assert evaluate(twice, EngineContext(state), "lead_ratio + 0") == 1
    assert evaluate(twice, EngineContext(state), "lead_ratio >= 1")
    assert evaluate(twice, ScoresContext(twice, {"red": 4, "blue": 4}), "lead_ratio + 0") == 1
    assert evaluate(twice, ScoresContext(twice, {"red": 0, "blue": 2}), "lead_ratio + 0") == float("inf")


# ------------------------------------------------------------ the map
def test_terrain_is_the_base_terrain_not_a_feature(twice):
    """terrain(HEX): the base terrain; a town is a feature of clear 0201 (has_terrain finds both)."""
    context = EngineContext(new_game(twice))
    assert evaluate(twice, context, "terrain(0201) == clear")
    assert evaluate(twice, context, "has_terrain(0201, town) and has_terrain(0201, clear)")
    assert evaluate(twice, context, "count(h in hexes() where terrain(h) == town)") == 0


def test_a_hex_is_not_adjacent_to_itself(mandatory):
    """adjacent(A, B): whether the hexes are neighbours; no hex is its own neighbour."""
    state = new_game(mandatory).arrange({"tank": "0302", "r1": "0303"}, phase="blue_move")
    context = EngineContext(state)
    assert not evaluate(mandatory, context, "adjacent(0302, 0302)")
    assert evaluate(mandatory, context, "adjacent(0302, 0303)")
    assert evaluate(mandatory, context, "count(u in units() where adjacent(u.hex, tank.hex))") == 1


def test_the_neighbours_of_a_hex_are_the_hexes_around_it_not_itself(mandatory):
    """neighbours(HEX): the hexes next to it on the map (six inside the map, fewer at its edge), never the hex."""
    context = EngineContext(new_game(mandatory))
    assert evaluate(mandatory, context, "count(neighbours(0303))") == 6
    assert not evaluate(mandatory, context, "0303 in neighbours(0303)")
    assert evaluate(mandatory, context, "all(h in neighbours(0303) where adjacent(h, 0303))")
    assert evaluate(mandatory, context, "count(neighbours(0101))") == 2


def test_a_unit_off_the_map_is_farther_than_any_distance(mandatory):
    """distance(HEX, HEX): a unit not on the map has no hex ("") and is farther than any distance, so a range
    condition never holds for it (mandatory_combat: r2 left off the map)."""
    state = new_game(mandatory).arrange({"tank": "0302", "r1": "0303"}, phase="blue_move")
    context = EngineContext(state)
    assert evaluate(mandatory, context, "r2.status != on_map and r2.hex == \"\"")
    assert evaluate(mandatory, context, "distance(r2.hex, 0303) > 1000")
    assert evaluate(mandatory, context, "distance(0303, r2.hex) > 1000")
    assert evaluate(mandatory, context, "count(u in units(side = red, status = eliminated) + units(side = red) "
                                        "where distance(u.hex, tank.hex) <= 3)") == 1  # r1 only


def test_distance_to_is_from_the_nearest_hex_of_the_set(mandatory):
    """distance_to(HEXES, HEX): hexes from the nearest hex of the set (mandatory_combat's west edge is column 01:
    0303 is two hexes from it, 0603 five), not from the farthest."""
    context = EngineContext(new_game(mandatory))
    assert evaluate(mandatory, context, "distance_to(west, 0303)") == 2
    assert evaluate(mandatory, context, "distance_to(west, 0603)") == 5
    assert evaluate(mandatory, context, "distance_to(select(h in hexes() where h == 0101 or h == 0606), 0605)") == 1


def test_distance_to_an_empty_set_is_farther_than_any_range(mandatory):
    """distance_to(HEXES, HEX) of an empty set (here a select that finds no hex): a very large number, so that
    "within 2 of a hex of the set" never holds when the set has no hex."""
    context = EngineContext(new_game(mandatory))
    assert evaluate(mandatory, context, "distance_to(select(h in hexes() where occupied(h) and not occupied(h)), 0303) "
                                        "> 1000")
    assert not evaluate(mandatory, context, "distance_to(select(h in west where h == 0303), 0303) <= 2")


# ------------------------------------------------------------ a made-up position (StandInContext)
def test_a_made_up_position_answers_as_its_docstring_says(mandatory):
    """StandInContext, the context an AI (and the chart's own costs) weighs an expression in outside play: only the
    units placed are on the map (units(status = on_map) too), a unit not placed is not in this position,
    a zone or a map edge of the game names its hexes, and a unit with no entry area has none open."""
    tank, inf = mandatory.units["tank"], mandatory.units["inf"]
    context = StandInContext(unit=tank, placed=[(tank, "0302"), (inf, "0101")], game=mandatory)
    assert ids(evaluate(mandatory, context, "units(status = on_map)")) == ["tank", "inf"]
    assert ids(evaluate(mandatory, context, "units(side = blue, status = eliminated)")) == []
    assert evaluate(mandatory, context, "count(h in west where occupied(h))") == 1
    assert evaluate(mandatory, context, "count(west)") == 6
    assert evaluate(mandatory, context, "tank.status == on_map and res.status != on_map and res.hex == \"\"")
    assert not evaluate(mandatory, context, "entry_open(tank)")


def test_no_option_is_chosen_in_a_made_up_position():
    """Outside a running game no option is chosen (ContextBase.option), as the AI weighs a made-up position; in a
    game, the options chosen (combined_pools' any_order)."""
    game = load_game(str(GAMES / "combined_pools.rulec"))
    assert not evaluate(game, StandInContext(game=game), "option(any_order)")
    assert not evaluate(game, EngineContext(new_game(game)), "option(any_order)")
    assert evaluate(game, EngineContext(new_game(game, options={"any_order"})), "option(any_order)")


# ------------------------------------------------------------ EngineContext.units
def test_units_asked_with_a_flag_and_then_without_are_told_apart(mandatory):
    """units() is kept for the position under all its filters: asking units(flag = reserve) first does not make a
    later units() (or units(side = blue)) of the same position answer with the flagged units only."""
    state = new_game(mandatory).arrange({"tank": "0302", "inf": "0301", "res": "0101", "r1": "0606"},
                                        phase="blue_move")
    context = EngineContext(state)
    assert ids(evaluate(mandatory, context, "units(side = blue, flag = reserve)")) == ["res"]
    assert ids(evaluate(mandatory, context, "units(side = blue)")) == ["tank", "inf", "res"]
    assert evaluate(mandatory, EngineContext(state), "count(units(side = blue, flag = reserve)) * 10 "
                                                     "+ count(units(side = blue))") == 13


@pytest.mark.parametrize("source, expected", [
    ("units(status = eliminated)", ["res", "r2", "fort"]),
    ("units(status = eliminated, type = fort)", ["fort"]),
    ("units(status = eliminated, flag = reserve)", ["res"]),
    ("units(status = eliminated, side = red, type = infantry)", ["r2"]),
    ("units(status = eliminated, zone = west)", []),
    ("units(status = eliminated, hex = 0101)", []),
])
def test_units_off_the_map_match_every_filter_and_stand_in_no_zone_or_hex(mandatory, source, expected):
    """units(status = ..., type =, flag =): the units of that status matching every filter; a unit off the map
    stands in no zone and no hex, so a zone or hex filter finds none of them (mandatory_combat: res, r2 and the
    fort eliminated; res eliminated from 0101, on the west edge)."""
    state = new_game(mandatory).arrange({"tank": "0302", "inf": "0301", "res": "0101", "r1": "0606", "r2": "0605",
                                         "fort": "0604"}, phase="blue_move")
    for uid in ("res", "r2", "fort"):
        changes.eliminate(state, uid)
    assert ids(evaluate(mandatory, EngineContext(state), source)) == expected


# ------------------------------------------------------------ traced_without
def test_traced_without_keeps_the_unit_that_traces(tmp_path):
    """traced_without(TRACE, UNIT, UNITS): the trace with those units off the map, the unit itself staying even
    when it is one of them. Bridgehead without its bridge: b1 alone on the east bank of the ford (0504) is in
    supply because it stands there (the ford is crossed onto a bank a friend holds), and stays so with every blue
    unit but itself gone (b2 is elsewhere on the map)."""
    game = variant(tmp_path, "bridgehead", ("  hexsides the_bridge { feature = bridge  sides = [0402/0502] }\n", ""))
    state = new_game(game).arrange({"b1": "0504", "b2": "0102", "r1": "0801", "r2": "0804"}, phase="blue_move")
    context = EngineContext(state)
    assert evaluate(game, context, "supplied(b1)")
    assert evaluate(game, context, "traced_without(supply, b1, units(side = blue))")
    assert evaluate(game, context, "traced_without(supply, b1, units(side = red))")


# ------------------------------------------------------------ history and the game's length
def test_entered_reads_the_scope_it_is_given():
    """entered(HEX, SCOPE): whether a unit ended a move there in the scope, not in this phase only. Red's r1 ends
    its move in 0303 in red_move; in blue_move it entered this turn and in the last red_move, not this phase."""
    game = load_game(str(GAMES / "history.rulec"))
    state = new_game(game)
    state.apply_action(Action.move("r1", "0303"))
    assert evaluate(game, EngineContext(state), "entered(0303) and entered(0303, this_phase)")
    while state.phase.id != "blue_move":
        state.apply_action(Action.end())
    context = EngineContext(state)
    assert not evaluate(game, context, "entered(0303)")
    assert evaluate(game, context, "entered(0303, this_turn)")
    assert evaluate(game, context, "entered(0303, previous(red_move))")
    assert not evaluate(game, context, "entered(0302, this_turn)")


def test_turns_is_the_length_of_the_scenario_played(tmp_path):
    """`turns`: the game's length in turns, a scenario's when one is played (campaign_scenarios, its march scenario
    made three turns long; the full game has four)."""
    game = variant(tmp_path, "campaign_scenarios", ("  start = { turn = 2 }\n", "  start = { turn = 2 }\n  turns = 3\n"))
    assert evaluate(game, EngineContext(new_game(game)), "turns + 0") == 4
    assert evaluate(game, EngineContext(new_game(game, scenario="march")), "turns + 0") == 3


# ------------------------------------------------------------ what a change records
def test_a_unit_that_walks_off_the_map_left_from_the_edge_hex_its_path_ended_in(tmp_path):
    """u.exited_from: the hex a unit left the map from, the last of its path, not the hex it started its move in
    (final_exits with the runner two hexes from the east edge and two MP: it steps to the edge and off)."""
    game = variant(tmp_path, "final_exits", ("move = 1  setup = 0402", "move = 2  setup = 0602"))
    state = new_game(game)
    state.apply_action(Action.exit("b1", "east"))
    context = EngineContext(state)
    assert evaluate(game, context, "b1.status == exited and b1.exited_from in east")
    assert evaluate(game, context, "sum(2 * u.strength for u in units(side = blue, status = exited) "
                                   "where u.exited_from in east)") == 4


def test_a_unit_that_leaves_the_map_has_moved_and_takes_its_markers_along(tmp_path):
    """A unit that exits has moved this phase (moved(UNIT)), and a counter leaving the map takes its markers with
    it: marked(UNIT, MARKER) no longer holds (final_exits with a marker the runner carries as it leaves)."""
    game = variant(tmp_path, "final_exits", ("unit_type infantry", 'marker tired { name = "Tired" }\nunit_type infantry'),
                   ("move = 1  setup = 0402", "move = 2  setup = 0602"))
    state = new_game(game)
    state.mark("b1", "tired")
    assert evaluate(game, EngineContext(state), "marked(b1, tired) and not moved(b1)")
    state.apply_action(Action.exit("b1", "east"))
    context = EngineContext(state)
    assert evaluate(game, context, "moved(b1)")
    assert not evaluate(game, context, "marked(b1, tired)")


def retreat_b1_into_0402(state):
    """History: red's r1 (0202) attacks b1 (0302), which retreats one hex into 0402 (every roll retreats it)."""
    while state.phase.id != "red_fight":
        state.apply_action(Action.end())
    for step in (Action.attack("0302"), Action.with_unit("r1"), Action.resolve(), Action.roll(1)):
        state.apply_action(step)
    state.apply_action(next(a for a in state.legal_actions() if a.kind == "retreat" and a.path == ("0402",)))
    assert state.positions["b1"] == "0402"
    return state


def test_a_retreat_is_an_entry_the_history_records():
    """entered(HEX) and last_to_enter(HEX): a unit that ends a retreat in a hex entered it (history.rulec)."""
    game = load_game(str(GAMES / "history.rulec"))
    state = retreat_b1_into_0402(new_game(game))
    context = EngineContext(state)
    assert evaluate(game, context, "entered(0402) and entered(0402, this_turn)")
    assert evaluate(game, context, "last_to_enter(0402) == blue")
    assert not evaluate(game, context, "entered(0302)")


@pytest.mark.parametrize("control, held", [("end_move", False), ("enter", True), ("pass_through", True)])
def test_only_the_end_of_a_move_takes_a_hex_under_end_move(tmp_path, control, held):
    """movement { control = end_move }: the last side to end a move in a tracked hex holds it; a retreat ending
    there does not take it (with `enter` or `pass_through` it does). History with 0402 tracked."""
    game = variant(tmp_path, "history", ("combat { table = main }",
                                         f"combat {{ table = main }}\nmovement {{ control = {control}  control_of = [0402] }}"))
    state = retreat_b1_into_0402(new_game(game))
    assert evaluate(game, EngineContext(state), "controls(blue, 0402)") is held


def test_an_eliminated_award_scores_the_units_of_the_side_it_names_whoever_it_pays(tmp_path):
    """eliminated(SIDE): for each unit of SIDE eliminated, whichever side the award pays; a side may lose VP for its
    own losses (mandatory_combat: blue scores red's losses by strength, and loses 1 for each blue unit lost)."""
    game = variant(tmp_path, "mandatory_combat",
                   ("award red_losses { side = blue  when = eliminated(red)  amount = strength }",
                    "award red_losses { side = blue  when = eliminated(red)  amount = strength }\n"
                    "award own_losses { side = blue  when = eliminated(blue)  amount = -1 }"))
    state = new_game(game).arrange({"tank": "0302", "inf": "0301", "r1": "0606", "fort": "0604"}, phase="blue_move")
    changes.eliminate(state, "fort")
    assert state.vp.get("blue", 0) == 1
    changes.eliminate(state, "inf")
    assert state.vp.get("blue", 0) == 0
    assert evaluate(game, EngineContext(state), "vp(blue) + 0") == 0


def test_the_scores_only_context_stands_at_the_end_of_the_game():
    """ScoresContext (a result decided from final scores alone): the game's last turn and last phase, the scores
    given (a side not given has none), and no position: an expression that reads one is refused."""
    game = load_game(str(GAMES / "history.rulec"))
    context = ScoresContext(game, {"red": 3})
    assert evaluate(game, context, "turn == turns and turns == 3")
    assert evaluate(game, context, "phase == blue_score and phase != red_move")
    assert evaluate(game, context, "vp(red) * 10 + vp(blue)") == 30
    with pytest.raises(ValueError):
        evaluate(game, context, "count(units())")


def test_a_holds_award_taken_back_once_is_not_taken_back_again(tmp_path):
    """holds(HEX): the amount scored when a side takes the hex is taken back when the enemy takes it, once. Twice the
    Enemy with a town worth 2 on turn 1 and nothing later (amount = if(turn == 1, 2, 0)): red passes through it on
    turn 1 (+2), blue passes through it (-2); red takes it again on turn 2 for nothing, and blue's retaking it then
    takes nothing back."""
    game = variant(tmp_path, "twice_the_enemy",
                   ("unit r1 { side = red   type = infantry  strength = 3  move = 1",
                    "unit r1 { side = red   type = infantry  strength = 3  move = 3"),
                   ("unit r2 { side = red   type = infantry  strength = 3  move = 1",
                    "unit r2 { side = red   type = infantry  strength = 3  move = 3"),
                   ("award red_towns { side = red  when = holds(0201, 0202)  amount = 2 }",
                    "award red_towns { side = red  when = holds(0201)  amount = if(turn == 1, 2, 0) }"))
    state = new_game(game)
    state.apply_action(Action.move("r1", "0301"))  # through 0201
    assert state.holders == {"0201": "red"} and state.vp["red"] == 2
    state.apply_action(Action.end())
    state.apply_action(Action.move("b1", "0101"))  # through 0201
    assert state.holders == {"0201": "blue"} and state.vp["red"] == 0
    while state.phase.id != "red_move":
        state.apply_action(Action.end())
    state.apply_action(Action.move("r2", "0301"))  # through 0201, on turn 2: worth nothing
    state.apply_action(Action.end())
    state.apply_action(Action.move("b1", "0201"))
    assert state.holders == {"0201": "blue"}
    assert evaluate(game, EngineContext(state), "vp(red) + 0") == 0


def test_units_read_as_a_move_passes_an_objective_are_read_anew_where_it_ends(tmp_path):
    """A move takes the objectives its path passes before the unit stands in its new hex, and the hex it ends in
    once it stands there (taken as the move ends, not as one more hex passed); and units(...), kept for the
    position, is read anew once the unit has changed hexes. Twice the Enemy with red's r1 able to move 3, each
    town worth 1 plus the red units in 0202: r1 passes 0201 (1 VP: nobody in 0202 yet) and ends in 0202 (2 VP:
    r1 is there)."""
    game = variant(tmp_path, "twice_the_enemy",
                   ("unit r1 { side = red   type = infantry  strength = 3  move = 1",
                    "unit r1 { side = red   type = infantry  strength = 3  move = 3"),
                   ("award red_towns { side = red  when = holds(0201, 0202)  amount = 2 }",
                    "award red_towns { side = red  when = holds(0201, 0202)  amount = count(units(side = red, hex = 0202)) + 1 }"))
    state = new_game(game)
    state.apply_action(Action.move("r1", "0202"))
    assert state.holders == {"0201": "red", "0202": "red"}
    assert state.vp["red"] == 3
    assert evaluate(game, EngineContext(state), "count(units(side = red, hex = 0202))") == 1

