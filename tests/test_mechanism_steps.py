"""Steps in both directions, on a made-up game (tests/games/steps_both_ways.rulec): units that start or arrive
reduced, hooks that flip units down and back up, and replacements that restore a step on the map or bring an
eliminated unit back reduced."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.engine import Action, IllegalAction, new_game
from rulec.pipeline import check_file, load_game

GAMES = Path(__file__).parent / "games"


@pytest.fixture(scope="module")
def game():
    return load_game(str(GAMES / "steps_both_ways.rulec"))


def to_turn_2_replacements(state) -> None:
    while not (state.turn == 2 and state.phase.id == "blue_replacements"):
        state.apply_action(Action.end())


def end_phase(state) -> None:
    """End the phase, entering the reinforcement first when it is due (it may not be held back)."""
    if state.phase.id == "blue_move" and state.status("b_late") == "pending" and state.arrival_turn("b_late") == state.turn:
        state.apply_action(Action.move("b_late", "0101"))
    state.apply_action(Action.end())


def test_units_start_and_arrive_on_their_reduced_side(game):
    state = new_game(game)
    assert (state.unit("b_cadre").strength, state.unit("b_cadre").move, state.steps_left("b_cadre")) == (3, 2, 1)
    assert state.unit("r_camp").strength == 2
    assert state.status("b_late") == "pending" and state.unit("b_late").strength == 1 and state.steps_left("b_late") == 1
    to_turn_2_replacements(state)
    state.apply_action(Action.end())  # no replacement: on to blue_move, where b_late enters
    state.apply_action(Action.move("b_late", "0101"))
    assert state.status("b_late") == "map" and state.unit("b_late").strength == 1


def test_a_hook_takes_steps_until_the_unit_is_eliminated(game):
    state = new_game(game)
    assert state.status("b_gone") == "eliminated"  # two lose_step on a two-step unit in the marsh


def test_a_hook_restores_a_step(game):
    state = new_game(game)
    while state.turn < 3:
        end_phase(state)
    assert state.unit("r_camp").strength == 4 and state.steps_left("r_camp") == 2
    assert state.restore_step("r_camp") is False  # nothing left to regain


def test_replacements_restore_a_step_on_the_map_without_a_hex(game):
    state = new_game(game)
    to_turn_2_replacements(state)
    assert {a.unit for a in state.legal_actions() if a.kind == "place"} == {"b_cadre", "b_gone"}
    with pytest.raises(IllegalAction, match="flips it back one step"):
        state.apply_action(Action.place("b_cadre", "0101"))
    state.apply_action(Action.place("b_cadre"))
    assert state.unit("b_cadre").strength == 6 and state.unit("b_cadre").move == 3
    assert state.positions["b_cadre"] == "0102" and state.points_left == 1
    assert "b_cadre" not in {a.unit for a in state.legal_actions() if a.kind == "place"}  # at full strength now


def test_replacements_bring_an_eliminated_unit_back_reduced(game):
    state = new_game(game)
    to_turn_2_replacements(state)
    state.apply_action(Action.place("b_gone", "0101"))
    assert state.status("b_gone") == "map" and state.unit("b_gone").strength == 2 and state.steps_left("b_gone") == 1
    copy = state.clone()
    state.apply_action(Action.place("b_gone"))  # and with the last point, flipped back up
    assert state.unit("b_gone").strength == 4 and copy.unit("b_gone").strength == 2 and state.points_left == 0


def test_more_steps_lost_than_the_unit_has_is_reported(tmp_path):
    text = (GAMES / "steps_both_ways.rulec").read_text().replace("steps_lost = 2 }", "steps_lost = 3 }")
    path = tmp_path / "bad.rulec"
    path.write_text(text)
    problems = check_file(str(path)).diagnostics
    assert [p.code for p in problems] == ["out-of-range"]
    assert "2 reduced side(s)" in problems[0].message and "at most 2" in problems[0].hint
    assert problems[0].span.line == next(n for n, l in enumerate(text.split("\n"), 1) if "steps_lost = 3" in l)


def test_a_misspelt_step_effect_has_a_did_you_mean(tmp_path):
    text = (GAMES / "steps_both_ways.rulec").read_text().replace("[restore_step(", "[restore_steps(")
    path = tmp_path / "bad.rulec"
    path.write_text(text)
    problems = check_file(str(path)).diagnostics
    assert [p.code for p in problems] == ["unknown-effect"] and "restore_step" in (problems[0].hint or "")


def test_the_greedy_player_plans_a_restored_step_as_one_order(game):
    from rulec.players.greedy import placement_plans

    state = new_game(game)
    to_turn_2_replacements(state)
    plans = placement_plans(state, state.legal_actions())
    assert [Action.place("b_cadre")] in plans  # flipped back at once, no hex to choose
    assert all(len(p) == 2 and p[1].hex is not None for p in plans if p[0] == Action.place("b_gone"))
