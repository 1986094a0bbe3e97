"""A hex is closed to attack once every unit in it has been attacked this phase
(`combat { one_battle_per_defender = phase }`), not as soon as one has: a unit that retreated into a
friendly hex after defending defends there again with its host, who has not been attacked yet.
Played on tests/games/retreated_guests.rulec (one row of hexes: b1 0101, r1 0201, r2 0301, b2 0401).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.engine import ELIMINATED, Action, IllegalAction, new_game
from rulec.pipeline import load_game

GAME = load_game(str(Path(__file__).parent / "games" / "retreated_guests.rulec"))


def start():
    return new_game(GAME).arrange({"b1": "0101", "r1": "0201", "r2": "0301", "b2": "0401"}, phase="blue_fight")


def fight(state, hex, unit, roll):
    for step in (Action.attack(hex), Action.with_unit(unit), Action.resolve(), Action.roll(roll)):
        state.apply_action(step)
    return state


def test_a_host_not_yet_attacked_may_be_attacked_with_its_guest():
    state = fight(start(), "0201", "b1", roll=1)  # 6 - 2: D1, r1 retreats east into r2's hex
    assert state.last_battle.result == "D1" and state.positions["r1"] == "0301"
    assert Action.attack("0301") in state.legal_actions()
    odds = state.odds(Action.attack("0301", ("b2",)))
    assert odds.defence == 3  # r2 alone: the guest adds nothing (the game's modifier)
    fight(state, "0301", "b2", roll=1)
    assert set(state.last_battle.defenders) == {"r1", "r2"}  # the guest shares its host's fate
    # Both must retreat east, where b2 stands: both are eliminated.
    assert state.status("r1") == state.status("r2") == ELIMINATED


def test_a_hex_whose_units_have_all_been_attacked_stays_closed():
    state = fight(start(), "0301", "b2", roll=6)  # NE: r2 stays, attacked this phase
    assert state.last_battle.result == "NE"
    fight(state, "0201", "b1", roll=1)  # r1 retreats into r2's hex
    assert state.positions["r1"] == "0301"
    assert Action.attack("0301") not in state.legal_actions()
    with pytest.raises(IllegalAction) as refused:
        state.apply_action(Action.attack("0301"))
    assert "already been attacked this phase" in str(refused.value)
    # In the next combat phase of Blue's the hex may be attacked again.
    for _ in range(4):
        state.apply_action(Action.end())
    assert state.phase.id == "blue_fight" and Action.attack("0301") in state.legal_actions()
