"""Results as effect lists, played on made-up games in tests/games/ (one mechanism each)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.engine import Action, IllegalAction, new_game
from rulec.pipeline import load_game

GAMES = Path(__file__).parent / "games"


@pytest.fixture(scope="module")
def exchange_game():
    return load_game(str(GAMES / "exchange_choice.rulec"))


def fight(state, hex, *units, roll=1):
    for step in [Action.attack(hex), *(Action.with_unit(u) for u in units), Action.resolve(), Action.roll(roll)]:
        state.apply_action(step)
    return state


def around_0303(game):
    return new_game(game).arrange({"b1": "0302", "b2": "0402", "b4": "0403", "r2": "0303"}, phase="blue_fight")


def test_the_attacker_chooses_which_units_pay_for_an_exchange(exchange_game):
    state = fight(around_0303(exchange_game), "0303", "b1", "b2", "b4")
    assert state.last_battle.result == "EX"
    assert state.status("r2") == "eliminated"  # the defender goes at once
    # The attacker owes 2 strength and picks the unit that pays (not file order, which would take b1 then b2).
    assert state.current_player() == state.players.index("blue")
    assert set(state.legal_actions()) == {Action.lose("b1"), Action.lose("b2"), Action.lose("b4")}
    with pytest.raises(IllegalAction):
        state.apply_action(Action.end())
    state.apply_action(Action.lose("b2"))
    assert [state.status(u) for u in ("b1", "b2", "b4")] == ["map", "eliminated", "map"]
    assert Action.end() in state.legal_actions()  # paid in full: the phase goes on
    assert state.vp == {"blue": 2, "red": 2}


def test_an_exchange_goes_on_until_the_defenders_strength_is_paid(exchange_game):
    state = fight(around_0303(exchange_game), "0303", "b1", "b2", "b4")
    state.apply_action(Action.lose("b1"))  # 1 of 2 paid: another unit must pay
    assert set(state.legal_actions()) == {Action.lose("b2"), Action.lose("b4")}
    state.apply_action(Action.lose("b4"))
    assert [state.status(u) for u in ("b1", "b2", "b4")] == ["eliminated", "map", "eliminated"]
    assert state.pending is None


def test_a_lone_attacker_pays_without_a_decision(exchange_game):
    state = fight(around_0303(exchange_game), "0303", "b4")
    assert state.status("b4") == "eliminated" and state.status("r2") == "eliminated"
    assert state.pending is None and Action.end() in state.legal_actions()


def test_losses_read_back_from_text_and_saves(exchange_game):
    state = fight(around_0303(exchange_game), "0303", "b1", "b2", "b4")
    assert state.parse_action("lose b4") == Action.lose("b4")
    assert state.action_to_string(Action.lose("b4")) == "lose b4"


def test_a_side_that_loses_strength_chooses_who_pays(exchange_game):
    # Red defends 0303 with three units (1, 2 and 3 strong); a 6 costs it 2 strength, red's choice.
    state = new_game(exchange_game).arrange({"b4": "0302", "r1": "0303", "r2": "0303", "r3": "0303"},
                                            phase="blue_fight")
    state = fight(state, "0303", "b4", roll=6)
    assert state.last_battle.result == "L2"
    assert state.current_player() == state.players.index("red")
    assert set(state.legal_actions()) == {Action.lose("r1"), Action.lose("r2"), Action.lose("r3")}
    state.apply_action(Action.lose("r1"))  # 1 of 2 paid: one more unit pays
    assert set(state.legal_actions()) == {Action.lose("r2"), Action.lose("r3")}
    state.apply_action(Action.lose("r2"))
    assert [state.status(u) for u in ("r1", "r2", "r3", "b4")] == ["eliminated", "eliminated", "map", "map"]
    assert state.pending is None


def test_a_lone_unit_pays_a_strength_loss_without_a_decision(exchange_game):
    state = new_game(exchange_game).arrange({"b4": "0302", "r2": "0303"}, phase="blue_fight")
    state = fight(state, "0303", "b4", roll=6)
    assert state.status("r2") == "eliminated" and state.pending is None


def test_the_screen_tells_who_must_choose_the_losses(exchange_game, capsys):
    from rulec.cli.board_view import GameScreen

    state = around_0303(exchange_game)
    screen = GameScreen(exchange_game)
    for step in [Action.attack("0303"), *(Action.with_unit(u) for u in ("b1", "b2", "b4")), Action.resolve(),
                 Action.roll(1)]:
        screen.narrate(state, step, state.current_player())
        state.apply_action(step)
    screen.flush(state)
    screen.narrate(state, Action.lose("b2"), state.current_player())
    state.apply_action(Action.lose("b2"))
    screen.flush(state)
    out = capsys.readouterr().out
    assert "Blue: b1, b2, b4 attack 0303 (held by r2 (2-3))" in out
    assert "result: EX (Exchange)" in out
    assert "Blue must lose 2 more strength from b1, b2, b4 (`lose UNIT`, one at a time)" in out
    assert "Blue: b2 is lost to pay for the battle" in out and "eliminated: b2 (Blue)" in out
