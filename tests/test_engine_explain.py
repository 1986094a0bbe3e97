"""Why an order is refused (rulec/engine/explain.py): the reason players would give."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.engine import Action, IllegalAction, new_game
from rulec.pipeline import load_game

GAMES = Path(__file__).parent / "games"


@pytest.fixture(scope="module")
def game():
    return load_game(str(GAMES / "mandatory_combat.rulec"))


def test_a_move_to_the_units_own_hex_is_refused_because_it_is_already_there(game):
    state = new_game(game).arrange({"inf": "0302", "r1": "0606"}, phase="blue_move")
    with pytest.raises(IllegalAction, match="inf is already in 0302: a move must end in another hex") as refused:
        state.apply_action(Action.move("inf", "0302"))
    assert "movement allowance" not in refused.value.message
    state.apply_action(Action.move("inf"))  # the unit chosen first, then its hex: the same reason
    with pytest.raises(IllegalAction, match="inf is already in 0302"):
        state.apply_action(Action.move("inf", "0302"))
    state.apply_action(Action.move("inf", "0303"))  # and a real move still goes
    assert state.positions["inf"] == "0303"
