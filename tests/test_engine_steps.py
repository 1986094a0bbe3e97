"""Units with steps: full and reduced sides, flipped by losses and back by replacements
(tests/games/two_steps.rulec)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.engine import Action, new_game
from rulec.pipeline import load_game

GAMES = Path(__file__).parent / "games"


@pytest.fixture(scope="module")
def game():
    return load_game(str(GAMES / "two_steps.rulec"))


def fight(state, hex, *units, roll=1):
    for step in [Action.attack(hex), *(Action.with_unit(u) for u in units), Action.resolve(), Action.roll(roll)]:
        state.apply_action(step)
    return state


def test_the_checker_reads_reduced_sides(game):
    assert game.units["b6"].steps == 2 and game.units["r6"].steps == 3 and game.units["b1"].steps == 1
    assert game.units["r6"].reduced[1].strength == 2 and game.units["r6"].reduced[1].move == 2


def test_a_step_loss_flips_a_unit_and_a_second_eliminates_it(game):
    state = new_game(game).arrange({"b6": "0302", "r2": "0303"}, phase="blue_fight")
    fight(state, "0303", "b6", roll=1)  # S1: the defender loses a step
    assert state.status("r2") == "map" and state.unit("r2").strength == 1 and state.steps_left("r2") == 1
    assert state.vp == {"blue": 0, "red": 0}  # flipped, not eliminated
    state = state.arrange({"b4": "0302", "r2": "0303"}, phase="blue_fight")  # keeps r2's lost step
    fight(state, "0303", "b4", roll=1)
    assert state.status("r2") == "eliminated" and state.steps_left("r2") == 0
    assert state.vp == {"blue": 1, "red": 0}  # the award reads the strength it had left


def test_a_reduced_side_may_change_the_move_and_a_clone_keeps_its_own_side(game):
    state = new_game(game).arrange({"b6": "0302", "r6": "0303"}, phase="blue_fight")
    before = state.clone()
    fight(state, "0303", "b6", roll=5)  # S2: two steps, red chooses the unit each time (one unit: no choice)
    assert state.unit("r6").strength == 2 and state.unit("r6").move == 2 and state.steps_left("r6") == 1
    assert before.unit("r6").strength == 6 and before.steps_left("r6") == 3


def test_the_owner_chooses_which_unit_loses_each_step(game):
    state = new_game(game).arrange({"b6": "0302", "r6": "0303", "r2": "0303"}, phase="blue_fight")
    fight(state, "0303", "b6", roll=5)  # S2 on a stack of two
    assert state.current_player() == state.players.index("red")
    assert set(state.legal_actions()) == {Action.lose("r6"), Action.lose("r2")}
    state.apply_action(Action.lose("r6"))
    assert state.unit("r6").strength == 4 and set(state.legal_actions()) == {Action.lose("r6"), Action.lose("r2")}
    state.apply_action(Action.lose("r6"))  # the same unit may pay the second step too
    assert state.unit("r6").strength == 2 and state.unit("r2").strength == 2 and state.pending is None


def test_an_exchange_is_paid_in_steps_chosen_by_the_attacker(game):
    # Red's 2-strength unit is eliminated; blue owes 2 strength and chooses who flips.
    state = new_game(game).arrange({"b6": "0302", "b4": "0402", "r2": "0303"}, phase="blue_fight")
    fight(state, "0303", "b6", "b4", roll=2)
    assert state.last_battle.result == "EX" and state.status("r2") == "eliminated"
    assert set(state.legal_actions()) == {Action.lose("b6"), Action.lose("b4")}
    state.apply_action(Action.lose("b4"))  # 4 -> 2 pays 2: enough
    assert state.unit("b4").strength == 2 and state.unit("b6").strength == 6 and state.pending is None
    assert state.vp == {"blue": 2, "red": 0}  # nobody of blue's was eliminated


def test_a_lone_payer_keeps_losing_steps_until_the_loss_is_paid(game):
    # L3: red loses 3 strength; r6 alone pays 6 -> 4 (2), then 4 -> 2 (2 more).
    state = new_game(game).arrange({"b6": "0302", "r6": "0303"}, phase="blue_fight")
    fight(state, "0303", "b6", roll=3)
    assert state.unit("r6").strength == 2 and state.steps_left("r6") == 1 and state.pending is None


def test_a_replacement_restores_a_step(game):
    state = new_game(game).arrange({"b6": "0302", "r6": "0303"}, phase="blue_fight")
    fight(state, "0303", "b6", roll=5)
    assert state.restore_step("r6") and state.unit("r6").strength == 4 and state.unit("r6").move == 4
    assert state.restore_step("r6") and state.unit("r6").strength == 6 and state.steps_left("r6") == 3
    assert not state.restore_step("r6")  # already full
    assert not state.restore_step("b1")  # not in play, nothing to regain


def test_a_reduced_side_of_another_type_plays_as_that_type(game):
    state = new_game(game).arrange({"b3": "0302", "r2": "0303"}, phase="red_fight")
    state.apply_action(Action.attack("0302"))
    state.apply_action(Action.with_unit("r2"))
    state.apply_action(Action.resolve())
    state.apply_action(Action.roll(1))  # S1: b3 flips to its cadre side
    assert state.unit("b3").type == "cadre" and state.unit("b3").strength == 1
    blue = state.arrange({"b3": "0302", "r2": "0303"}, phase="blue_fight")
    assert Action.attack("0303") not in blue.legal_actions()  # a cadre may not attack
    assert Action.attack("0303") in new_game(game).arrange({"b3": "0302", "r2": "0303"}, phase="blue_fight").legal_actions()


def test_the_crt_aid_shades_step_and_strength_losses_as_hurting_that_side(game):
    from rulec.aids.crt_odds import codes_by_side
    attacker, defender = codes_by_side(game.results)
    assert {"S1", "S2", "L3", "DE"} <= defender and "EX" not in attacker


def test_play_narrates_a_step_lost_to_pay_for_a_battle(game, capsys):
    from rulec.cli.board_view import GameScreen
    state = new_game(game).arrange({"b6": "0302", "r6": "0303", "r2": "0303"}, phase="blue_fight")
    screen = GameScreen(game)
    for step in (Action.attack("0303"), Action.with_unit("b6"), Action.resolve(), Action.roll(5),
                 Action.lose("r6")):
        screen.narrate(state, step, state.current_player())
        state.apply_action(step)
    screen.flush(state)
    out = capsys.readouterr().out
    assert "Red must lose 2 more steps from r6, r2 (`lose UNIT`, one at a time)" in out
    assert "Red: r6 loses a step to pay for the battle" in out


def test_the_browser_board_shows_the_face_a_unit_plays_as(game, metz):
    from rulec.web.page import counter_symbols
    from rulec.web.view import counter_face
    state = new_game(game).arrange({"b6": "0302", "r2": "0303"}, phase="blue_fight")
    fight(state, "0303", "b6", roll=1)
    assert counter_face(state, "r2") == "reduced" and counter_face(state, "b6") == "base"
    assert 'id="counter-r2-reduced"' in counter_symbols(game)
    chosen = new_game(metz, options=("german_reorganization",), seed=7)
    uid = next(iter(chosen.variants))
    assert counter_face(chosen, uid) == "variant" and 'id="counter-%s-variant"' % uid in counter_symbols(metz)
