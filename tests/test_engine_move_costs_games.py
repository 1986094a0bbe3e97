"""Movement costs and policies on made-up games: costs per unit type and hexside, costs that change
with the turn (weather), leaving an enemy zone of control as a declared rule, control by ending a move."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from rulec.engine import Action, new_game
from rulec.pipeline import load_game

GAMES = Path(__file__).resolve().parent / "games"


@pytest.fixture(scope="module")
def mud():
    return load_game(str(GAMES / "mud_and_armor.rulec"))


@pytest.fixture(scope="module")
def rearguard():
    return load_game(str(GAMES / "rearguard.rulec"))


def at(game, units, turn=1, phase="red_move"):
    return new_game(game).arrange(units, turn=turn, phase=phase)


def destinations(state, uid):
    return {a.hex for a in state.moves_of(uid) if a.kind == "move"}


ROW = ("0202", "0302", "0402", "0502", "0602")  # clear, forest, clear, swamp, clear


def test_each_unit_type_pays_its_own_terrain_costs(mud):
    state = at(mud, {"r_inf": "0102", "r_tanks": "0102", "b1": "0703"})
    assert [state.move_cost("r_inf", h) for h in ROW] == [1, 3, 4, 5, 6]
    # Armor pays 4 for forest and may not enter swamp at all (so nothing beyond it either).
    assert [state.move_cost("r_tanks", h) for h in ROW] == [1, 5, 6, None, None]
    assert "0502" in destinations(state, "r_inf") and "0502" not in destinations(state, "r_tanks")


def test_a_hexside_costs_each_unit_type_its_own_extra(mud):
    # 0101 lies behind a stream on both its hexsides: +1 MP for infantry, +2 for armor.
    state = at(mud, {"r_inf": "0102", "r_tanks": "0102", "b1": "0703"})
    assert (state.move_cost("r_inf", "0101"), state.move_cost("r_tanks", "0101")) == (2, 3)


def test_costs_written_as_expressions_follow_the_turn(mud):
    dry = at(mud, {"r_inf": "0102", "r_tanks": "0102", "b1": "0703"}, turn=2)
    wet = at(mud, {"r_inf": "0102", "r_tanks": "0102", "b1": "0703"}, turn=3)
    assert [dry.move_cost("r_inf", h) for h in ROW[:3]] == [1, 3, 4]
    assert [wet.move_cost("r_inf", h) for h in ROW[:3]] == [2, 4, 6]  # clear costs 2 in the rains
    assert wet.move_cost("r_tanks", "0302") == 6
    assert "0602" in destinations(dry, "r_inf") and "0602" not in destinations(wet, "r_inf")


def test_the_weather_changes_in_play_when_the_turn_changes(mud):
    state = new_game(mud)
    assert state.move_cost("r_inf", "0202") == 1
    while state.turn < 3:
        state.apply_action(Action.end())
    assert state.phase.id == "red_move" and state.move_cost("r_inf", "0202") == 2


def test_a_unit_type_named_by_a_leave_rule_slips_out_of_an_enemy_zone(rearguard):
    state = new_game(rearguard)
    # Cavalry in 0504, next to Blue's 0604: 1 MP more for its first step, into a hex free of enemy control.
    assert {h: state.move_cost("r_cav", h) for h in ("0503", "0403", "0404")} == {"0503": 2, "0403": 2, "0404": 2}
    assert "0603" not in destinations(state, "r_cav")  # in Blue's zone of control
    assert state.move_cost("r_cav", "0502") == 3
    # Infantry next to Blue may not leave at all.
    assert destinations(state, "r_foot") == set()


def test_without_the_leave_rule_every_unit_is_held(rearguard):
    held = replace(rearguard, movement=replace(rearguard.movement, leave_zoc=None))
    assert destinations(new_game(held), "r_cav") == set()


def test_a_town_is_held_by_the_last_side_to_end_a_move_in_it(rearguard):
    state = new_game(rearguard)
    state.apply_action(Action.move("r_inf", "0302"))  # by way of the town 0202 (or beside it)
    assert (state.vp["red"], state.holders) == (0, {})
    state.apply_action(Action.move("r_inf2", "0202"))
    assert (state.vp["red"], state.holders) == (3, {"0202": "red"})


def test_passing_through_takes_the_town_where_the_game_says_so(rearguard):
    passing = replace(rearguard, movement=replace(rearguard.movement, control="pass_through"))
    state = new_game(passing)
    state.apply_action(Action.move("r_inf", "0302"))
    assert (state.vp["red"], state.holders) == (3, {"0202": "red"})


# ------------------------------------------------------------------ what the checker says
def check(tmp_path, text: str) -> list[tuple[str, str, str | None]]:
    from rulec.pipeline import check_file

    path = tmp_path / "g.rulec"
    path.write_text(text, encoding="utf-8")
    return [(d.code, d.message, d.hint) for d in check_file(str(path)).diagnostics if d.is_error]


@pytest.mark.parametrize("old,new,code,message", [
    ("move_for = { armor = 4 }", "move_for = { armr = 4 }", "unknown-unit-type", "unknown unit type 'armr'"),
    ("prohibited_for = [armor]", "prohibited_for = [amor]", "unknown-unit-type", "unknown unit type 'amor'"),
    ("move = if(turn >= 3, 2, 1)", "move = if(turn >= 3, 2, rain)", "unknown-name", "unknown name 'rain' in expression"),
    ("move = if(turn >= 3, 2, 1)", "move = turn >= 3", "wrong-kind", "expected a number here, found a condition (turn >= 3)"),
])
def test_mistakes_in_movement_costs(tmp_path, old, new, code, message):
    text = (GAMES / "mud_and_armor.rulec").read_text(encoding="utf-8")
    assert old in text
    found = check(tmp_path, text.replace(old, new))
    assert [(c, m) for c, m, _ in found] == [(code, message)]


@pytest.mark.parametrize("old,new,code,message,hint", [
    ("into_zoc = false }", "into_zoc = false  not_across = [rivr] }", "unknown-hexside-feature", "unknown hexside feature 'rivr'", None),
    ("into_zoc = false }", "into_zoc = false  option = hasty }", "unknown-option", "unknown option 'hasty'", None),
    ("when = unit.type == cavalry", "when = unit.type == cavalery", "unknown-name", None, "did you mean 'cavalry'?"),
])
def test_mistakes_in_the_leave_rule(tmp_path, old, new, code, message, hint):
    text = (GAMES / "rearguard.rulec").read_text(encoding="utf-8")
    assert old in text
    found = check(tmp_path, text.replace(old, new))
    assert len(found) == 1 and found[0][0] == code
    assert message is None or found[0][1] == message
    assert hint is None or found[0][2] == hint


# ------------------------------------------------------------------ a movement mode along a network
@pytest.fixture(scope="module")
def rail():
    return load_game(str(GAMES / "rail_lines.rulec"))


RAILWAY = ("0202", "0302", "0402", "0502", "0602", "0702")


def test_rail_movement_follows_the_network_at_its_own_cost(rail):
    state = new_game(rail)
    # Infantry with 2 MP: eight rail hexsides, each 1/4 MP, as far as Blue's zone of control.
    assert RAILWAY[-1] in destinations(state, "r_inf")
    assert [state.move_cost("r_inf", h) for h in ("0202", "0302", "0702")] == [Fraction(1, 4), Fraction(1, 2), Fraction(3, 2)]
    # Off the railway a move costs the terrain's 2 MP a hex: one hex only.
    assert state.move_cost("r_inf", "0101") == 2 and "0303" not in destinations(state, "r_inf")


def test_rail_movement_may_not_enter_an_enemy_zone_of_control(rail):
    state = new_game(rail)
    assert "0802" not in destinations(state, "r_inf")  # the railway's end, next to Blue's 0803


def test_only_eligible_units_move_by_rail(rail):
    state = new_game(rail)
    assert destinations(state, "r_tanks") == {"0102", "0103", "0201", "0203", "0302", "0303"}  # its neighbours only


def test_rail_movement_may_not_start_in_an_enemy_zone_of_control(rail):
    state = new_game(rail)
    # r_guard stands on the railway in Blue's zone of control: it moves only as infantry on foot.
    assert destinations(state, "r_guard") == {"0702", "0703", "0801"}


def test_a_rail_move_ends_where_it_was_ordered(rail):
    state = new_game(rail)
    state.apply_action(Action.move("r_inf", "0602"))
    assert state.positions["r_inf"] == "0602"


# ------------------------------------------------------------------ the control policies on a published map
@pytest.mark.parametrize("control,after_advance,after_passing", [
    ("pass_through", "us", "us"),  # Drive on Metz's own rule (6.1)
    ("enter", "us", None),         # stopping in a hex takes it, passing does not
    ("end_move", "germany", None),  # only the end of a move takes it: not an advance after combat
])
def test_each_control_policy_takes_the_hexes_it_names(metz, control, after_advance, after_passing):
    game = replace(metz, movement=replace(metz.movement, control=control))
    # CCA and 357 beat the garrison of Thionville (0701); CCA advances into the town.
    state = new_game(game).arrange({"us_357": "0601", "us_cca": "0702", "de_1010": "0701"}, turn=2, phase="us_combat")
    state.apply_action(Action.attack("0701"))
    for unit in ("us_357", "us_cca"):
        state.apply_action(Action.with_unit(unit))
    state.apply_action(Action.resolve())
    state.apply_action(Action.roll(1))
    state.apply_action(Action.advance("us_cca", "0701"))
    assert state.holders.get("0701") == after_advance
    # CCA drives along the road through Thionville to 0703.
    state = new_game(game).arrange({"us_cca": "0601", "de_1010": "0911"}, turn=2, phase="us_movement")
    state.apply_action(Action.move("us_cca", "0703"))
    assert state.holders.get("0701") == after_passing


def test_cost_expressions_are_read_as_the_phase_begins(tmp_path):
    # Clear costs 2 while 0202 is occupied, as the phase begins: moving the tanks away changes
    # nothing until the next phase.
    text = (GAMES / "mud_and_armor.rulec").read_text(encoding="utf-8")
    path = tmp_path / "crowded.rulec"
    path.write_text(text.replace("move = if(turn >= 3, 2, 1)", "move = if(occupied(0202), 2, 1)"), encoding="utf-8")
    state = new_game(load_game(str(path)))
    assert state.move_cost("r_inf", "0103") == 2
    state.apply_action(Action.move("r_tanks", "0201"))
    assert state.move_cost("r_inf", "0103") == 2
    state.apply_action(Action.end())
    state.apply_action(Action.end())  # Blue's phase, then Red's again: 0202 is empty now
    assert state.phase.id == "red_move" and state.move_cost("r_inf", "0103") == 1


def test_a_hexside_closed_to_a_unit_type(tmp_path):
    text = (GAMES / "mud_and_armor.rulec").read_text(encoding="utf-8")
    path = tmp_path / "closed.rulec"
    path.write_text(text.replace("move_extra_for = { armor = 2 }", "prohibited_for = [armor]"), encoding="utf-8")
    state = new_game(load_game(str(path))).arrange({"r_inf": "0102", "r_tanks": "0102", "b1": "0703"}, turn=1, phase="red_move")
    # 0101 lies behind the stream on both its hexsides.
    assert (state.move_cost("r_inf", "0101"), state.move_cost("r_tanks", "0101")) == (2, None)


def test_a_leave_rule_may_let_the_first_step_enter_another_enemy_zone(rearguard):
    units = {"r_cav": "0504", "r_foot": "0101", "b1": "0604"}
    # 0603 is in Blue's zone too: without into_zoc the cavalry gets there only by a hex free of it (0503).
    held_out = new_game(rearguard).arrange(units, phase="red_move")
    assert held_out.move_cost("r_cav", "0603") == 3  # 1 + 1 for leaving into 0503, then 1
    rules = replace(rearguard.movement, leave_zoc=replace(rearguard.movement.leave_zoc, into_zoc=True))
    state = new_game(replace(rearguard, movement=rules)).arrange(units, phase="red_move")
    assert state.move_cost("r_cav", "0603") == 2  # straight in: 1 MP and 1 more for leaving


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_the_board_server_shows_a_fraction_of_a_mp_as_its_text(rail):
    testclient = pytest.importorskip("starlette.testclient")
    from rulec.web.app import create_app

    client = testclient.TestClient(create_app({"rail_lines": rail}))
    response = client.post("/api/games", json={"game": "rail_lines", "seed": 1, "players": {}})
    assert response.status_code == 201, response.text
    costs = client.get(f"/api/games/{response.json()['id']}/costs/r_inf").json()["costs"]
    assert (costs["0702"], costs["0101"]) == ("3/2", 2)
