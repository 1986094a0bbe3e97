"""Displacement, combat { retreat { displace } }, on a made-up game (tests/games/displacement.rulec): a retreating
unit whose only path ends in a friend's hex pushes that friend aside, one hex, where the game says so."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.engine import Action, new_game
from rulec.pipeline import check_file, load_game

GAMES = Path(__file__).parent / "games"


@pytest.fixture(scope="module")
def game():
    return load_game(str(GAMES / "displacement.rulec"))


def beat_the_defender(state) -> None:
    state.apply_action(Action.attack("0201"))
    state.apply_action(Action.with_unit("r_att"))
    state.apply_action(Action.resolve())
    state.apply_action(Action.roll(1))  # every roll: the defender retreats one hex


def test_the_friend_is_pushed_aside(game):
    state = new_game(game, options=["push"])
    beat_the_defender(state)
    assert state.positions["b_def"] == "0301" and state.positions["b_friend"] == "0401"
    assert state.status("b_def") == "map" and state.pending is None


def test_without_displacement_the_defender_has_no_path(game):
    state = new_game(game)
    beat_the_defender(state)
    assert state.status("b_def") == "eliminated" and state.positions["b_friend"] == "0301"


def test_a_friend_in_a_fort_is_not_displaced(game):
    state = new_game(game, options=["push"]).arrange({"r_att": "0201", "b_def": "0301", "b_friend": "0401"},
                                                     phase="red_fight")
    state.apply_action(Action.attack("0301"))
    state.apply_action(Action.with_unit("r_att"))
    state.apply_action(Action.resolve())
    state.apply_action(Action.roll(1))
    assert state.status("b_def") == "eliminated" and state.positions["b_friend"] == "0401"


def test_a_displaced_friend_follows_the_retreat_rules_and_displaces_nobody(game):
    # The friend's one hex aside is in the enemy guard's zone of control, so it cannot retreat and is eliminated.
    state = new_game(game, options=["push"]).arrange(
        {"r_att": "0101", "b_def": "0201", "b_friend": "0301", "r_guard": "0501"}, phase="red_fight")
    beat_the_defender(state)
    assert state.positions["b_def"] == "0301" and state.status("b_friend") == "eliminated"


def test_displace_with_occupied_hexes_open_is_a_field_alone(tmp_path):
    text = (GAMES / "displacement.rulec").read_text().replace("retreat { displace", "retreat { may_not_enter = [enemy_zoc]  displace")
    path = tmp_path / "bad.rulec"
    path.write_text(text)
    problems = check_file(str(path)).diagnostics
    assert [p.code for p in problems] == ["field-alone"] and "occupied" in problems[0].hint
