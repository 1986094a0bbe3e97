"""The sequence as procedures, on a made-up game (tests/games/procedures.rulec): a movement phase in
which only panzers move, a combat phase in which only panzers attack, an automatic weather phase that
comes up from turn 2 with hooks that score and eliminate, and an automatic VP phase with a hook."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.engine import Action, IllegalAction, new_game
from rulec.pipeline import load_game

GAMES = Path(__file__).parent / "games"


@pytest.fixture(scope="module")
def game():
    return load_game(str(GAMES / "procedures.rulec"))


def moving_units(state) -> set[str]:
    return {a.unit for a in state.legal_actions() if a.kind == "move"}


def end_phases_until(state, phase_id: str, turn: int | None = None) -> None:
    while not (state.phase.id == phase_id and (turn is None or state.turn == turn)):
        state.apply_action(Action.end())


def test_only_panzers_move_in_the_panzer_phase(game):
    state = new_game(game)
    assert state.phase.id == "red_panzers"  # the weather phase does not come up on turn 1
    assert moving_units(state) == {"p1"}
    with pytest.raises(IllegalAction, match="may not move in the red_panzers"):
        state.apply_action(Action.move("i1", "0202"))
    state.apply_action(Action.end())
    state.apply_action(Action.end())  # red_fight
    assert state.phase.id == "red_move" and moving_units(state) == {"p1", "i1", "i2"}


def test_only_panzers_attack_in_the_panzer_combat_phase(game):
    state = new_game(game).arrange({"p1": "0503", "i1": "0505", "b1": "0504"}, phase="red_fight")
    state.apply_action(Action.attack("0504"))
    joins = {a.unit for a in state.legal_actions() if a.kind == "with"}
    assert joins == {"p1"}  # i1 is next to b1 too, but only panzers attack in this phase
    with pytest.raises(IllegalAction):
        state.apply_action(Action.with_unit("i1"))


def test_the_weather_phase_comes_up_from_turn_2_and_its_hooks_score_and_eliminate(game):
    state = new_game(game)
    assert state.vp == {"red": 0, "blue": 0}
    end_phases_until(state, "red_panzers", turn=2)
    # Turn 2's weather phase: blue scored 2 at its start, and red's unit in the marsh was eliminated at its end.
    assert state.vp["blue"] == 2
    assert state.status("i2") == "eliminated" and state.status("i1") == "map"
    assert [e.source for e in state.vp_log] == ["weather:phase_start"]


def test_the_vp_hook_scores_only_when_its_condition_holds(game):
    state = new_game(game).arrange({"p1": "0501", "i1": "0502", "b1": "0101"}, phase="blue_move")
    state.apply_action(Action.end())  # turn 1: the scoring hook's `when` (turn >= 2) fails
    assert state.vp["red"] == 0
    end_phases_until(state, "blue_move", turn=2)
    state.apply_action(Action.end())
    assert state.vp["red"] == 2  # two red units in the east zone at the end of turn 2


def test_game_hooks_on_elimination_and_battle_end(game):
    state = new_game(game).arrange({"p1": "0503", "b1": "0504"}, phase="red_fight")
    for step in state.parse_orders("attack 0504 with p1"):
        state.apply_action(step)
    state.apply_action(Action.roll(1))  # 4 against 1: the defender is eliminated
    assert state.status("b1") == "eliminated"
    # unit_eliminated, about b1 (a blue unit of strength 1), then battle_resolved once every effect is done
    assert [(e.source, e.side, e.amount, e.unit) for e in state.vp_log] == [
        ("unit_eliminated", "red", 1, "b1"), ("battle_resolved", "blue", 1, None)]


def test_game_hooks_on_exit_and_game_end(game):
    state = new_game(game).arrange({"p1": "0501", "i1": "0502", "b1": "0101"}, turn=3, phase="red_move")
    state.apply_action(Action.exit("p1", "east_edge"))
    assert state.vp["red"] == 5  # unit_exited
    while not state.is_terminal():
        state.apply_action(Action.end())
    assert state.status("i1") == "eliminated"  # game_end: red's units in the east are eliminated
