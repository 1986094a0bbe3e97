"""Scenario and option overrides of set-up and arrivals, towns whose holder is tracked without an award on
them, and exit points kept only if the exit hex is in supply at the end, on a made-up game
(tests/games/campaign_scenarios.rulec)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.engine import Action, new_game
from rulec.engine.position import holders_changed
from rulec.pipeline import check_file, load_game

GAMES = Path(__file__).parent / "games"
GAME_FILE = GAMES / "campaign_scenarios.rulec"
TOWNS = ("0302", "0402", "0404")


@pytest.fixture(scope="module")
def game():
    return load_game(str(GAME_FILE))


def end_game(state) -> None:
    while not state.is_terminal():
        state.apply_action(Action.end())


def entries(state, uid: str) -> set[str]:
    return {a.hex for a in state.moves_of(uid) if a.kind == "move"}


def test_the_full_game_sets_red_up_on_the_map_and_blue_holds_the_towns(game):
    state = new_game(game)
    assert state.positions == {"r1": "0101", "r2": "0102", "b1": "0504"}
    assert state.arrival_turn("r3") == 2 and state.status("r4") == "unused"
    # movement { control_of = [towns]  first_holder = blue }: tracked without any holds(...) award.
    assert {h: state.holders.get(h) for h in TOWNS} == dict.fromkeys(TOWNS, "blue")
    end_game(state)
    assert state.vp == {"red": 0, "blue": 6}  # 2 VP a town held at the end


def test_a_unit_passing_through_a_town_takes_it_from_its_first_holder(game):
    state = new_game(game)
    state.apply_action(Action.move("r1", "0302"))
    assert state.holders["0302"] == "red"
    end_game(state)
    assert state.vp == {"red": 2, "blue": 4}


def test_the_objectives_a_path_passed_are_read_off_its_mask_in_the_tables_order(game):
    from rulec.engine.changes import passed

    state = new_game(game)
    objectives = state.tables.objectives
    assert len(objectives) >= 3
    assert passed(state, 0) == []
    assert passed(state, 0b101) == [objectives[0], objectives[2]]
    every = (1 << len(objectives)) - 1
    assert passed(state, every) == list(objectives)


def test_an_option_adds_a_unit_with_its_own_set_up_and_delays_a_reinforcement(game):
    state = new_game(game, options=("reserves",))
    assert state.positions["r4"] == "0103"  # not the 0104 of its own counter
    assert state.arrival_turn("r3") == 3


def test_a_scenario_brings_units_set_up_on_the_map_on_as_reinforcements(game):
    state = new_game(game, scenario="march")
    # Its deployment first: blue's screen, set up free in the scenario only, inside blue's zone.
    assert (state.turn, state.phase.id) == (2, "blue_screen")
    assert {a.unit for a in state.legal_actions() if a.kind == "place"} == {"b1"}
    assert state.holders["0302"] == "red" and state.holders["0402"] == "blue"  # scenario holders over first_holder
    assert state.status("r1") == "pending" and state.status("r2") == "pending"
    assert (state.arrival_turn("r1"), state.arrival_turn("r2"), state.arrival_turn("r3")) == (2, 3, 2)
    state.apply_action(Action.place("b1", "0601"))
    state.apply_action(Action.end())
    assert state.phase.id == "red_move"
    assert entries(state, "r1") >= {"0101", "0104", "0201", "0301"}  # any hex of the west edge, and on
    assert state.move_cost("r1", "0104") == 1
    assert not entries(state, "r2")  # due on turn 3
    state.apply_action(Action.end())
    state.apply_action(Action.end())
    # r2 enters by 0101 or 0102 only: 0104 is two steps further (3 MP), where r1 entered it for 1.
    assert state.turn == 3 and state.move_cost("r2", "0102") == 1 and state.move_cost("r2", "0104") == 3


def test_a_scenario_entry_wins_over_an_option_entry_for_the_same_unit(game):
    state = new_game(game, scenario="march", options=("reserves",))
    assert state.arrival_turn("r3") == 2  # the scenario's r3 = 2, not the option's 3
    assert state.positions["r4"] == "0204"  # the scenario's set-up, not the option's 0103


def test_exit_points_count_only_if_the_exit_hex_is_in_supply_at_the_end(game):
    base = new_game(game).arrange({"r2": "0603", "b1": "0502"}, turn=4, phase="red_move")
    state = base.clone()
    state.apply_action(Action.exit("r2", "east"))
    assert state.status("r2") == "exited" and state.exited_from == {"r2": "0603"}
    end_game(state)
    assert state.vp["red"] == 5 * 3  # the exit hex traces back to the west edge
    cut = base.clone()
    cut.apply_action(Action.exit("r2", "east"))
    cut.apply_action(Action.end())
    cut.apply_action(Action.move("b1", "0603"))  # blue stands in the exit hex: no supply reaches it
    end_game(cut)
    assert cut.vp["red"] == 0


def check_game(tmp_path: Path, old: str, new: str):
    text = GAME_FILE.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path = tmp_path / "campaign.rulec"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return [(d.code, d.message, d.hint or "", d.span.line if d.span else None) for d in check_file(str(path)).diagnostics]


@pytest.mark.parametrize("old, new, code, message, hint", [
    ("r3 = 2 }", "r3 = 1 }", "arrival-before-start", "unit 'r3' arrives on turn 1, before scenario 'march' starts on turn 2",
     "a unit there from the start is set up"),
    ("r1 = { turn = 2, area = west }", "r1 = { turn = 2, area = wset }", "unknown-zone", "unknown zone 'wset'",
     "did you mean 'west'?"),
    ("setup = { b1 = free  r4 = 0204 }", "setup = { b11 = free  r4 = 0204 }", "unknown-unit", "unknown unit 'b11'",
     "did you mean 'b1'?"),
    ("setup = { b1 = free  r4 = 0204 }", "setup = { b1 = free  r4 = 0209 }", "hex-off-map", "hex 0209 is not on the map",
     "the map"),
    ("holders = { red = [0302] }", "holders = { red = [0303] }", "untracked-hex",
     "the engine does not track who holds 0303", "list the hexes in movement { control_of"),
    ("arrivals = { r3 = 3 }", "arrivals = { r3 = 3  r1 = 3 }", "scenario-arrival", "unit 'r1' has no arrival to schedule",
     "give it a whole arrival here"),
    ("r2 = { turn = 3, hexes = [0101, 0102] }", "r2 = { turn = 3 }", "arrival-nowhere",
     "unit 'r2' arrives at the map edge but names no area or hexes", "add 'area = ZONE_OR_EDGE'"),
    ("r2 = { turn = 3, hexes = [0101, 0102] }", "r2 = { turn = 9, hexes = [0101, 0102] }", "arrival-after-game",
     "unit 'r2' arrives on turn 9, after the last turn (4)", ""),
    ("arrivals = { r3 = 3 }", "arrivals = { r3 = 7 }", "arrival-after-game", "unit 'r3' arrives on turn 7, after the last turn (4)",
     ""),
    ("first_holder = blue", "first_holder = bleu", "unknown-side", "unknown side 'bleu'", "did you mean 'blue'?"),
    ("control_of = [towns]", "control_of = [townz]", "unknown-zone", "unknown zone 'townz'", "did you mean 'towns'?"),
])
def test_mistakes_in_overrides_and_tracked_hexes_are_reported_in_place(tmp_path, old, new, code, message, hint):
    found = check_game(tmp_path, old, new)
    assert len(found) == 1, found
    (got_code, got_message, got_hint, line), = found
    assert (got_code, got_message) == (code, message) and got_hint.startswith(hint)
    lines = GAME_FILE.read_text(encoding="utf-8").replace(old, new).split("\n")
    assert new in lines[line - 1]  # reported on the line of the mistake


def test_controls_accepts_a_tracked_hex_and_refuses_an_untracked_one(tmp_path):
    assert check_game(tmp_path, "award towns_red  { side = red   when = game_end  amount = 2 *",
                      "award towns_red  { side = red   when = game_end  amount = if(controls(red, 0404), 1, 0) +") == []
    found = check_game(tmp_path, "award towns_red  { side = red   when = game_end  amount = 2 *",
                       "award towns_red  { side = red   when = game_end  amount = if(controls(red, 0403), 1, 0) +")
    assert [code for code, *_ in found] == ["wrong-kind-argument"] and "control_of = [0403]" in found[0][2]


def test_a_first_holder_without_hexes_to_hold_is_an_error_not_a_setting_ignored(tmp_path):
    found = check_game(tmp_path, "control = pass_through  control_of = [towns]", "control = pass_through")
    assert ("field-alone", "movement gives 'first_holder' without 'control_of = [...]' (the hexes it holds), so it would "
            "do nothing") in [(code, message) for code, message, *_ in found]
    assert {code for code, *_ in found} == {"field-alone", "untracked-hex"}  # the scenario's holders lose their hexes too


def test_a_move_takes_the_path_that_takes_a_town_not_one_through_its_own(game):
    """Two paths of two MP lead b1 from 0303 to 0401: through 0302, a town blue holds, or through 0402, one red
    holds. The search ranks the objectives a path passes whoever holds them, and would give the path through 0302
    (the first objective); passing one's own town takes nothing, so the move takes the path through red's town, as a
    player would (docs/rulings.md)."""
    from rulec.engine.changes import passed
    from rulec.engine.reach import path_taken, unit_reach

    state = new_game(game)
    state.apply_action(Action.end())  # red stands
    state.apply_action(Action.move("b1", "0303"))  # by 0403: no town
    state.apply_action(Action.end())
    state.apply_action(Action.end())  # turn 2: red stands again
    assert (state.turn, state.phase.id) == (2, "blue_move")
    state.holders["0402"] = "red"  # as if a red unit had passed through it (none reaches it but through 0302)
    holders_changed(state)
    assert passed(state, unit_reach(state, "b1").destinations["0401"]) == ["0302"]  # the path the search ranks first
    assert passed(state, path_taken(state, "b1", unit_reach(state, "b1"), to="0401").destinations["0401"]) == ["0402"]
    state.apply_action(Action.move("b1", "0401"))
    assert state.holders["0402"] == "blue" and state.holders["0302"] == "blue"
    end_game(state)
    assert state.vp == {"red": 0, "blue": 6}


def test_a_path_through_the_movers_own_town_is_the_searchs_own_where_no_other_could_take_one(game):
    """The search's path through no objective is the move's; so is its path to 0403 through 0404, a town blue holds,
    while every town b1 reaches is blue's (no second search: no path could take one), and it takes nothing."""
    from rulec.engine.changes import passed
    from rulec.engine.reach import path_taken, unit_reach

    state = new_game(game)
    state.apply_action(Action.end())
    reach = unit_reach(state, "b1")
    assert reach.destinations["0303"] == 0 and path_taken(state, "b1", reach, to="0303") is reach
    assert passed(state, reach.destinations["0403"]) == ["0404"]  # ranked first: through blue's own town
    assert path_taken(state, "b1", reach, to="0403") is reach
    state.apply_action(Action.move("b1", "0403"))
    assert all(state.holders[h] == "blue" for h in TOWNS)
