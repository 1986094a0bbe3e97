"""A unit printed with no movement allowance (a fort) never advances after combat (tests/games/fixed_defences.rulec)."""

from __future__ import annotations

from rulec.engine import Action, new_game
from rulec.pipeline import load_game

GAME = load_game("tests/games/fixed_defences.rulec")


def _beaten_attack(units: dict[str, str]):
    """Red attacks the fort's hex and is thrown back (every result is A1); the defenders may advance."""
    state = new_game(GAME).arrange(units, turn=1, phase="red_fight")
    for step in (Action.attack("0203"), Action.with_unit("r_inf"), Action.resolve(), Action.roll(3)):
        state.apply_action(step)
    while state.retreats:
        state.apply_action(state.legal_actions()[0])
    assert state.positions["r_inf"] != "0303"  # the attacker left its hex
    return state


def test_infantry_beside_a_fort_may_advance_but_the_fort_never_does():
    state = _beaten_attack({"b_fort": "0203", "b_inf": "0203", "r_inf": "0303"})
    assert state.advancing is not None
    advances = [a for a in state.legal_actions() if a.kind == "advance" and a.unit is not None]
    assert advances == [Action.advance("b_inf", "0303")]
    state.apply_action(Action.advance("b_inf", "0303"))
    assert state.positions["b_fort"] == "0203"


def test_a_lone_fort_is_offered_no_advance_at_all():
    state = _beaten_attack({"b_fort": "0203", "r_inf": "0303"})
    assert state.advancing is None
    assert state.positions["b_fort"] == "0203"
