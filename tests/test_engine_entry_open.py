"""entry_open(UNIT): a reinforcement may be held back only when its own entry area is blocked
(`reinforcement_delay = side == red and not entry_open(unit)`), played on a variant of the made-up
tests/games/river_screen.rulec: Red's reserve is due on turn 2 by the west edge (0101..0104)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.engine import Action, new_game
from rulec.pipeline import load_game

GAME = Path(__file__).resolve().parent / "games" / "river_screen.rulec"


@pytest.fixture(scope="module")
def only_when_blocked(tmp_path_factory):
    text = GAME.read_text(encoding="utf-8")
    old = "reinforcement_delay = side == red\n"
    assert text.count(old) == 1
    path = tmp_path_factory.mktemp("entry_open") / "river_screen.rulec"
    path.write_text(text.replace(old, "reinforcement_delay = side == red and not entry_open(unit)\n"), encoding="utf-8")
    return load_game(str(path))


def may_hold_back(game, blue):
    state = new_game(game).arrange({"r_reserve": "pending", "r_line": "0303", **blue}, turn=2, phase="red_move")
    return Action.delay("r_reserve") in state.legal_actions()


def test_an_open_entry_area_must_be_entered(only_when_blocked):
    assert not may_hold_back(only_when_blocked, {"b_guard": "0504"})


def test_one_open_hex_is_enough(only_when_blocked):
    # b_picket in 0102 covers 0101, 0102 and 0103 (its ZOC, entry_blocked); 0104 stays open.
    assert not may_hold_back(only_when_blocked, {"b_picket": "0102"})


def test_a_wholly_blocked_area_may_be_waited_out(only_when_blocked):
    # b_picket in 0102 and b_guard in 0104: every west-edge hex is enemy-occupied or in an enemy ZOC.
    assert may_hold_back(only_when_blocked, {"b_picket": "0102", "b_guard": "0104"})


def test_without_the_condition_red_may_always_wait():
    game = load_game(str(GAME))
    assert may_hold_back(game, {"b_guard": "0504"})
