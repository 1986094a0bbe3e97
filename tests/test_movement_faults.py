"""Movement rules that no other test pinned, each found by planting a fault in the engine's movement code
(step_costs.py: what a step costs; movement.py: the movement search's rules; sight.py: line of sight) that the rest
of the suite let through. Each test plays the rule through the public API on a shipped game, a made-up one in
tests/games/ (terrain_chart.rulec was made for these), or a variant of one."""

from __future__ import annotations

from pathlib import Path

import pytest

from game_variants import variant

from rulec.engine import Action, new_game
from rulec.pipeline import load_game

GAMES = Path(__file__).parent / "games"


@pytest.fixture(scope="module")
def chart():
    return load_game(str(GAMES / "terrain_chart.rulec"))


def at(game, units, phase="red_move", turn=None):
    return new_game(game).arrange(units, phase=phase, turn=turn)


def destinations(state, uid):
    return {a.hex for a in state.moves_of(uid) if a.kind == "move"}


def exits(state, uid):
    return {a.edge for a in state.moves_of(uid) if a.kind == "exit"}


# ------------------------------------------------------------ what entering a hex costs (step_costs.py)
def test_no_unit_enters_a_prohibited_terrain(chart):
    """terrain lake { prohibited = true }: r1 (1 MP) in 0201 may step to every neighbour but the lake in 0301."""
    state = at(chart, {"r1": "0201"})
    assert destinations(state, "r1") == {"0101", "0102", "0202", "0302"}


def test_a_hex_whose_terrains_give_no_cost_costs_one(chart):
    """The default terrain is `open { move = as_other }`: a hex of it alone costs 1 MP, so r1 (1 MP) goes
    one hex and no further (the lake in 0301 aside)."""
    state = at(chart, {"r1": "0201"})
    assert state.move_cost("r1", "0202") == 1
    assert "0203" not in destinations(state, "r1") and "0303" not in destinations(state, "r1")


def test_a_terrains_move_extra_is_added(chart):
    """terrain mud { move = as_other  move_extra = 1 }: the open hex it lies on costs 1 + 1."""
    state = at(chart, {"r2": "0202"})
    assert state.move_cost("r2", "0203") == 2


def test_of_two_roads_on_one_hexside_the_cheaper_sets_the_cost(chart):
    """0302/0402 carries a track (2 MP) and a highway (1 MP) into the forest of 0402 (3 MP): 1 MP by the highway."""
    state = at(chart, {"r2": "0302"})
    assert state.move_cost("r2", "0402") == 1


def test_a_road_closed_to_a_unit_type_closes_its_hexside_to_it(chart):
    """track { prohibited_for = [armor] }: armor may not cross 0302/0402 at all (not even by the highway beside
    the track there): the tank goes round, 1 MP to a neighbour and 3 into the forest."""
    state = at(chart, {"r_tank": "0302", "r2": "0302"})
    assert state.move_cost("r_tank", "0402") == 4
    assert state.move_cost("r2", "0402") == 1


def test_a_road_leads_into_a_prohibited_hex(chart):
    """A road sets the cost of entering through it whatever the terrain: the highway 0204/0304 (a causeway) takes
    r1 into the lake of 0304, which no other step enters."""
    state = at(chart, {"r1": "0204"})
    assert "0304" in destinations(state, "r1") and state.move_cost("r1", "0304") == 1
    assert "0304" not in destinations(at(chart, {"r1": "0305"}), "r1")


def test_a_road_leaving_the_map_sets_the_exit_cost(chart):
    """exit_cost = as_hex_left: leaving the forest of 0602 costs its 3 MP, but the highway leaves the map there
    (exits { 0602 = ne }): 1 MP, which r2's 2 MP pay."""
    state = at(chart, {"r2": "0602"})
    assert exits(state, "r2") == {"east"} and state.exit_cost("r2", "east") == 1


@pytest.fixture(scope="module")
def track_off_the_map(tmp_path_factory):
    """terrain_chart with the road leaving the map at 0602 a track (2 MP, closed to armor), not the highway."""
    return variant(tmp_path_factory.mktemp("track"), "terrain_chart",
                   ("hexsides tracks   { feature = track    sides = [0302/0402] }",
                    "hexsides tracks   { feature = track    sides = [0302/0402]  exits { 0602 = ne } }"),
                   ("exits { 0602 = ne  0601 = n }", "exits { 0601 = n }"))


def test_leaving_the_map_by_a_road_costs_that_road_not_the_cheapest_of_the_game(track_off_the_map):
    """The track leaves the map at 0602 (2 MP); the highway, 1 MP, leaves it elsewhere: r2 pays the track's 2."""
    state = at(track_off_the_map, {"r2": "0602"})
    assert exits(state, "r2") == {"east"} and state.exit_cost("r2", "east") == 2


def test_a_reinforcement_entering_by_a_road_pays_that_road(track_off_the_map):
    """r_new enters by the east edge: into the forest of 0602 along the track for 2 MP, not the highway's 1."""
    state = at(track_off_the_map, {"r_new": "pending"})
    assert state.move_cost("r_new", "0602") == 2


def test_a_road_off_the_map_closed_to_a_type_is_no_way_off_for_it(track_off_the_map):
    """Armor may not use the track (as it may cross no hexside the track runs through): the tank leaves 0602 by its
    other side off the map, cross-country out of the forest, 3 MP (infantry takes the track, 2). Blue's b1 in 0603
    keeps the tank from a cheaper way off by the open hex."""
    state = at(track_off_the_map, {"r_tank": "0602", "r2": "0602", "b1": "0603"})
    assert state.exit_cost("r_tank", "east") == 3
    assert state.exit_cost("r2", "east") == 2


def test_a_road_off_the_map_by_another_side_does_not_cheapen_an_edge(chart):
    """The highway leaves the forest of 0601 northwards (exits { 0601 = n }), and no edge is to the north: leaving
    by the east edge there costs the forest's 3 MP, more than r2 has."""
    state = at(chart, {"r2": "0601"})
    assert exits(state, "r2") == set()


def test_a_reinforcement_may_spend_its_whole_allowance_entering(chart):
    """The mud of 0605, on the east edge, costs 2 MP to enter from off the map: all r_new has, and enough."""
    state = at(chart, {"r_new": "pending"})
    assert "0605" in destinations(state, "r_new") and state.move_cost("r_new", "0605") == 2


def test_a_terrain_closed_to_a_unit_type_no_other_cost_names(chart):
    """mud { prohibited_for = [cavalry] }, and cavalry pays the chart's costs everywhere else: r_cav may not enter
    the mud of 0203, which infantry enters for 2 MP."""
    state = at(chart, {"r_cav": "0202", "r2": "0202"})
    assert "0203" not in destinations(state, "r_cav") and state.move_cost("r2", "0203") == 2


def test_a_fixed_exit_cost_is_paid_whatever_the_hex_and_road(tmp_path):
    """movement { exit_cost = 2 }: leaving by the highway out of 0602's forest costs 2 MP, not the road's 1."""
    game = variant(tmp_path, "terrain_chart", ("exit_map = true", "exit_map = true\n  exit_cost = 2"))
    state = at(game, {"r2": "0602"})
    assert state.exit_cost("r2", "east") == 2
    assert exits(at(game, {"r1": "0602"}), "r1") == set()


def test_a_crossing_that_takes_all_mp_is_a_first_step_even_into_an_objective(tmp_path):
    """With the river 0104/0105 crossed only as a first step, using every MP (all_mp_from_start_adjacent), and a
    'holds' award on 0105 (an objective a path passes): r2 (2 MP) in 0103 may not step to 0104 and cross on into
    0105; from 0104 it crosses, using its whole allowance."""
    game = variant(tmp_path, "terrain_chart",
                   ("crossing = prohibited  road_negates_crossing = true", "crossing = all_mp_from_start_adjacent"),
                   ("sequence {", "award ford { side = red  when = holds(0105)  amount = 1 }\n\nsequence {"))
    assert "0105" not in destinations(at(game, {"r2": "0103"}), "r2")
    assert at(game, {"r2": "0104"}).move_cost("r2", "0105") == 2


def test_a_fractional_cost_expression_is_rounded_up(tmp_path):
    """MP are whole: clear costing 3/2 in the rains costs 2 (mud_and_armor, turn 3)."""
    game = variant(tmp_path, "mud_and_armor", ("move = if(turn >= 3, 2, 1)", "move = if(turn >= 3, 3 / 2, 1)"))
    state = at(game, {"r_inf": "0102", "b1": "0703"}, turn=3)
    assert state.move_cost("r_inf", "0202") == 2


def test_a_mode_whose_cost_is_nothing_is_closed(tmp_path):
    """mode rail { cost = 0 } (from turn 2): the network is closed, and r_inf (2 MP, clear 2 MP a hex) steps
    one hex; on turn 1 it rides the railway (1/4 MP a hexside)."""
    game = variant(tmp_path, "rail_lines", ("cost = 1/4 ", "cost = if(turn >= 2, 0, 1/4) "))
    assert "0502" in destinations(at(game, {"r_inf": "0102", "b1": "0803"}, turn=1), "r_inf")
    assert destinations(at(game, {"r_inf": "0102", "b1": "0803"}, turn=2), "r_inf") == {"0101", "0103", "0201", "0202"}


def test_a_mode_moves_into_and_through_an_objective(tmp_path):
    """A 'holds' award on 0402, on the railway: r_inf rides into it and on past it (only the railway takes it
    that far on 2 MP)."""
    game = variant(tmp_path, "rail_lines", ("sequence {", "award depot { side = red  when = holds(0402)  amount = 1 }\n\nsequence {"))
    state = at(game, {"r_inf": "0102", "b1": "0803"})
    assert {"0402", "0502"} <= destinations(state, "r_inf")



# ------------------------------------------------------------ the movement search's rules (movement.py)
ALL_MP_RIVER = ("crossing = prohibited  road_negates_crossing = true", "crossing = all_mp_from_start_adjacent")
EAST_EXITS_ONLY = ("exit_map = true", "exit_map = true\n  may_exit = edge == east")


def test_a_river_crossing_enters_no_enemy_hex(tmp_path):
    """The river 0104/0105 crossed only as a first step using every MP: r1 crosses into 0105, but not with b1 there."""
    game = variant(tmp_path, "terrain_chart", ALL_MP_RIVER)
    assert "0105" in destinations(at(game, {"r1": "0104"}), "r1")
    assert "0105" not in destinations(at(game, {"r1": "0104", "b1": "0105"}), "r1")



def test_a_river_crossing_ends_the_move_even_where_leaving_the_map_costs_nothing(tmp_path):
    """With the river between 0204 and 0105 (on the west edge) crossed only as a first step using every MP, and
    leaving the map costing nothing (exit_cost = 0): r1 in 0204 (lakes on 0104 and 0205) crosses into 0105, and
    its move ends there; it may not go on off the map."""
    game = variant(tmp_path, "terrain_chart", ALL_MP_RIVER, ("sides = [0104/0105]", "sides = [0204/0105]"),
                   ("exit_map = true", "exit_map = true\n  exit_cost = 0"),
                   ("lake = [0301, 0304]", "lake = [0301, 0304, 0104, 0205]"))
    state = at(game, {"r1": "0204"})
    assert {str(a) for a in state.moves_of("r1")} == {"move r1 0105", "move r1 0304", "move r1 0305"}

def test_a_unit_whose_only_step_is_across_a_river_into_an_enemy_is_not_offered(tmp_path):
    """With lakes on 0103 and 0204 (r1's other neighbours), an enemy across the river in 0105 and no exit west, r1
    has nowhere to go: the look one step away must not take the crossing into the enemy for a move."""
    game = variant(tmp_path, "terrain_chart", ALL_MP_RIVER, EAST_EXITS_ONLY,
                   ("lake = [0301, 0304]", "lake = [0301, 0304, 0103, 0204]"))
    state = at(game, {"r1": "0104", "b1": "0105"})
    assert [str(a) for a in state.legal_actions()] == ["end"]  # (asked first: the look one step away answers)
    assert state.moves_of("r1") == []
    assert [str(a) for a in at(game, {"r1": "0104"}).legal_actions()] == ["move r1", "end"]


def test_a_reinforcement_entering_on_a_friend_it_may_not_pass_stops_there(tmp_path):
    (tmp_path / "three").mkdir()
    """stacking { pass_through_friendly = false }: r_new (2 MP) reaches 0505 from off the map only through 0604;
    with r1 in 0604 it may not go through it (nor stop there, one unit a hex)."""
    game = variant(tmp_path, "terrain_chart", ("stacking { limit = 2 }", "stacking { limit = 1  pass_through_friendly = false }"))
    assert "0505" in destinations(at(game, {"r_new": "pending"}), "r_new")
    blocked = destinations(at(game, {"r_new": "pending", "r1": "0604"}), "r_new")
    assert "0505" not in blocked and "0604" not in blocked and "0603" in blocked
    # With 3 MP it reaches 0505 round by 0603 and 0504: 3 MP, not the 2 through r1.
    game = variant(tmp_path / "three", "terrain_chart", ("stacking { limit = 2 }", "stacking { limit = 1  pass_through_friendly = false }"),
                   ("strength = 1  move = 2  arrives", "strength = 1  move = 3  arrives"))
    assert at(game, {"r_new": "pending", "r1": "0604"}).move_cost("r_new", "0505") == 3


def rearguard(tmp_path, *changes):
    return variant(tmp_path, "rearguard", *changes)


def test_leaving_an_enemy_zone_into_another_pays_the_zones_extra_cost(tmp_path):
    """rearguard's cavalry leaves b1's zone for 1 MP more; with into_zoc = true its first step may enter b1's zone
    again at 0603, paying the zone's extra cost too: 1 + 1 + 1 = 3 MP of its 3 with zoc_extra_cost = 1, too
    much with zoc_extra_cost = 2."""
    into = ("cost = 1  into_zoc = false", "cost = 1  into_zoc = true")
    for extra, cost in ((1, 3), (2, None)):
        game = rearguard(tmp_path, into, ("zoc_locks_start = true", f"zoc_locks_start = true\n  zoc_extra_cost = {extra}"))
        state = new_game(game).arrange({"r_cav": "0504", "b1": "0604"}, phase="red_move")
        assert state.move_cost("r_cav", "0603") == cost
        assert ("0603" in destinations(state, "r_cav")) == (cost is not None)


def test_leaving_an_enemy_zone_onto_a_friend_that_may_not_be_passed_stops_there(tmp_path):
    """With pass_through_friendly = false and r_inf in 0503, the cavalry leaving b1's zone from 0504 may not go on
    through 0503 to 0502, the only way there on 3 MP (2 for the first step, 1 more)."""
    game = rearguard(tmp_path, ("stacking { limit = 1 }", "stacking { limit = 1  pass_through_friendly = false }"))
    state = new_game(game).arrange({"r_cav": "0504", "b1": "0604"}, phase="red_move")
    assert "0502" in destinations(state, "r_cav")
    state = new_game(game).arrange({"r_cav": "0504", "b1": "0604", "r_inf": "0503"}, phase="red_move")
    assert "0502" not in destinations(state, "r_cav") and "0402" in destinations(state, "r_cav")



def test_a_first_step_out_of_an_enemy_zone_into_another_ends_the_move_with_then_stop(tmp_path):
    """rearguard with zoc = extra_cost (a zone does not end a move) and a leave rule whose first step may enter
    another enemy zone: the cavalry in 0302 (in the zone of b1 in 0402) steps into 0303, also in it, for 2 MP;
    with then_stop = true the move ends there, so 0403 and 0502 beyond are out of reach."""
    def cavalry_moves(then_stop):
        game = rearguard(tmp_path / then_stop, ("  zoc = stop_on_entry", "  zoc = extra_cost"),
                         ("cost = 1  into_zoc = false", f"cost = 1  into_zoc = true  then_stop = {then_stop}"))
        return destinations(new_game(game).arrange({"r_cav": "0302", "b1": "0402"}, phase="red_move"), "r_cav")
    (tmp_path / "true").mkdir()
    (tmp_path / "false").mkdir()
    assert {"0403", "0502"} <= cavalry_moves("false")
    stopped = cavalry_moves("true")
    assert "0303" in stopped and not {"0403", "0502"} & stopped



def test_a_first_step_that_ends_the_move_is_no_way_on_for_its_cost_either(tmp_path):
    """The same rule with then_stop = true and the cavalry given 5 MP, in 0102 next to b1 in 0101: 0301 costs it 4
    MP round by 0202 and 0302, not 3 by way of 0201 (in b1's zone: its move would end there)."""
    game = rearguard(tmp_path, ("  zoc = stop_on_entry", "  zoc = extra_cost"),
                     ("cost = 1  into_zoc = false", "cost = 1  into_zoc = true  then_stop = true"),
                     ("strength = 1  move = 3  setup = 0504", "strength = 1  move = 5  setup = 0504"))
    state = new_game(game).arrange({"r_cav": "0102", "b1": "0101"}, phase="red_move")
    assert state.move_cost("r_cav", "0301") == 4

def test_leaving_an_enemy_zone_makes_no_crossing_that_takes_all_mp(tmp_path):
    """A stream crossed only as a first step using every MP (all_mp_from_start_adjacent) between 0504 and 0503:
    the cavalry held in b1's zone in 0504 may not leave across it: it reaches 0503 round by 0403 (3 MP), and 0502
    not at all."""
    game = rearguard(tmp_path, ("features { town = [0202] }", "features { town = [0202] }\n  hexsides banks { feature = stream  sides = [0503/0504] }"),
                     ("terrain town  { move = as_other }", "terrain town  { move = as_other }\nhexside stream { crossing = all_mp_from_start_adjacent }"))
    state = new_game(game).arrange({"r_cav": "0504", "b1": "0604"}, phase="red_move")
    assert state.move_cost("r_cav", "0503") == 3 and "0502" not in destinations(state, "r_cav")


def test_the_zoc_to_zoc_exception_pays_the_zones_extra_cost(tmp_path):
    """leapfrog: r_mover (2 MP) leaps into r_anchor's enemy-controlled 0503 for 1 + 1 MP; with zoc_extra_cost = 1
    the leap costs 3, more than it has, and it has no move at all."""
    assert destinations(new_game(load_game(str(GAMES / "leapfrog.rulec"))), "r_mover") == {"0503"}
    game = variant(tmp_path, "leapfrog", ("zoc_to_zoc = false", "zoc_to_zoc = false\n  zoc_extra_cost = 1"))
    assert destinations(new_game(game), "r_mover") == set()


def test_the_zoc_to_zoc_exception_then_stop_ends_the_move_where_zones_do_not(tmp_path):
    """leapfrog with zoc = extra_cost (entering a zone does not end a move) and r_mover given 4 MP: its leap into
    0503 (2 MP) still ends its move (then_stop), so 0603 (one more step) is out of reach, and 0504 costs the 4 MP
    of the way round through the marsh of 0403, not 2 + 1 by the leap."""
    game = variant(tmp_path, "leapfrog", ("zoc = stop_on_entry", "zoc = extra_cost"),
                   ("strength = 2  move = 2  setup = 0402", "strength = 2  move = 4  setup = 0402"))
    state = new_game(game)
    assert state.move_cost("r_mover", "0503") == 2
    assert "0603" not in destinations(state, "r_mover")
    assert state.move_cost("r_mover", "0504") == 4


NO_PASSING = ("movement {", "stacking { limit = 1  pass_through_friendly = false }\n\nmovement {")
FRIEND_0302 = ("unit b_guard", "unit r_friend { side = red  type = infantry  strength = 1  move = 1  setup = 0302 }\nunit b_guard")
EXTRA_COST = ("  zoc = stop_on_entry\n  zoc_extra_cost = 1", "  zoc = extra_cost\n  zoc_extra_cost = 1")
NO_ZOC = ("  zoc = stop_on_entry\n  zoc_extra_cost = 1", "  zoc = none")


def award_on(h):
    return ("sequence {", f"award crossing {{ side = red  when = holds({h})  amount = 1 }}\n\nsequence {{")


def test_a_friend_in_an_enemy_zone_is_not_passed_through(tmp_path):
    """rigid_zoc with zoc = extra_cost (a unit moves on through enemy zones) and no passing through friends:
    r_friend in 0302, in b_guard's zone, closes the only way east past b_guard (0401) on the two-row map."""
    game = variant(tmp_path, "rigid_zoc", EXTRA_COST, NO_PASSING, FRIEND_0302)
    assert destinations(new_game(game), "r_scout") == {"0102", "0201", "0202", "0301"}



def test_a_friend_is_not_passed_through_where_the_game_says_so(tmp_path):
    """Without zones of control, with no passing through friends: r_friend in 0302 and b_guard in 0401 close the
    only way east on the two-row map."""
    game = variant(tmp_path, "rigid_zoc", NO_ZOC, NO_PASSING, FRIEND_0302)
    assert destinations(new_game(game), "r_scout") == {"0102", "0201", "0202", "0301"}

def test_a_friend_on_an_objective_in_an_enemy_zone_is_not_passed_through(tmp_path):
    """The same, with a 'holds' award on 0302 (a step into an objective is taken apart from the others)."""
    game = variant(tmp_path, "rigid_zoc", EXTRA_COST, NO_PASSING, FRIEND_0302, award_on("0302"))
    assert destinations(new_game(game), "r_scout") == {"0102", "0201", "0202", "0301"}


def test_a_friend_on_an_objective_is_not_passed_through(tmp_path):
    """Without zones of control: r_friend on the objective 0302 and b_guard in 0401 close the way east."""
    game = variant(tmp_path, "rigid_zoc", NO_ZOC, NO_PASSING, FRIEND_0302, award_on("0302"))
    assert destinations(new_game(game), "r_scout") == {"0102", "0201", "0202", "0301"}


def test_a_step_into_an_objective_in_an_enemy_zone_pays_the_zones_extra_cost(tmp_path):
    """rigid_zoc with r_scout given 2 MP and a 'holds' award on 0301 (in b_guard's zone): 0301 costs 1 + 1 from
    0201, 3 MP in all, out of reach."""
    game = variant(tmp_path, "rigid_zoc", ("move = 8", "move = 2"), award_on("0301"))
    assert destinations(new_game(game), "r_scout") == {"0102", "0201", "0202"}


def test_a_unit_leaving_the_map_takes_the_objective_its_best_way_off_passes(tmp_path):
    """A 'holds' award on 0604: r2 (2 MP) on the east edge at 0603 could leave straight away, but may step to 0604
    first and leave from there, so leaving by the east edge passes (and takes) 0604."""
    game = variant(tmp_path, "terrain_chart", award_on("0604"))
    state = at(game, {"r2": "0603"})
    state.apply_action(Action.exit("r2", "east"))
    assert state.holders == {"0604": "red"}


def test_a_move_takes_the_objectives_of_its_best_way_whichever_the_mode(tmp_path):
    """rail_lines with a railway from 0302 to 0303 and a 'holds' award on 0302: r_inf in 0202 steps to 0303 on
    foot (2 MP, passing nothing) or by rail through 0302. The move passes 0302, and takes it."""
    game = variant(tmp_path, "rail_lines", ("sides = [0102/0202,", "sides = [0302/0303, 0102/0202,"), award_on("0302"))
    state = at(game, {"r_inf": "0202", "b1": "0803"})
    state.apply_action(Action.move("r_inf", "0303"))
    assert state.holders == {"0302": "red"}


def test_a_move_may_pass_one_objective_and_come_back_for_another(tmp_path):
    """Awards on 0303 and 0503, either side of the tank's 0403: with 4 MP it may go to 0303, back through 0403 and
    on through 0503 to 0603, and that move takes both."""
    game = variant(tmp_path, "terrain_chart", ("sequence {", "award west_farm { side = red  when = holds(0303)  amount = 1 }\n"
                                                            "award east_farm { side = red  when = holds(0503)  amount = 1 }\n\nsequence {"))
    state = at(game, {"r_tank": "0403"})
    state.apply_action(Action.move("r_tank", "0603"))
    assert state.holders == {"0303": "red", "0503": "red"}


def test_a_searchs_exits_include_one_that_takes_every_mp_left(chart):
    """The search's exits (in C with the compiled engine, make fast; else its Python loop) include an edge that takes
    every MP left: leaving 0603 by the east edge costs 1 MP, so a unit there with 1 MP may leave (with none it may
    not)."""
    from rulec.engine.movement import Board, search
    tables = new_game(chart).tables
    board = Board.of_bits(0, 0, 0, len(tables.numbered))
    assert search(tables, board, 1, "0603", (), False, None, tables.base_costs).exits == ("east",)
    assert search(tables, board, 0, "0603", (), False, None, tables.base_costs).exits == ()


# ------------------------------------------------------------ line of sight (sight.py)
@pytest.fixture(scope="module")
def bombardment():
    return load_game(str(GAMES / "bombardment.rulec"))


def attacks(state):
    return {a.hex for a in state.legal_actions() if a.kind == "attack"}


def test_the_firers_own_woods_do_not_block_its_line_of_sight(bombardment):
    """Only a hex between blocks: the artillery in the woods of 0402 bombards 0404 over the clear 0403."""
    state = new_game(bombardment).arrange({"art": "0402", "r1": "0404"}, phase="blue_fight")
    assert attacks(state) == {"0404"}


def test_woods_the_target_stands_in_do_not_block_the_line_of_sight(bombardment):
    """The artillery in 0403 bombards r1 in the woods of 0505, two hexes away over clear ground."""
    state = new_game(bombardment).arrange({"art": "0403", "r1": "0505"}, phase="blue_fight")
    assert attacks(state) == {"0505"}


def test_a_hex_is_not_in_its_own_sight(bombardment):
    """in_sight lists the hexes 1 to `reach` away: never the hex itself."""
    from rulec.engine import sight
    tables = new_game(bombardment).tables
    seen = sight.in_sight(tables, "0403", 2)
    assert "0403" not in seen and {"0402", "0405"} <= seen
