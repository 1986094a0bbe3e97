"""Die-roll modifier direction is data on the combat table (crt { drm = attacker|defender }), so the
terrain effect "worst for the attacker" is the lowest DRM on one table and the highest on another."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from rulec.engine import Action, new_game
from rulec.pipeline import load_game

GAMES = Path(__file__).parent / "games"


@pytest.fixture(scope="module")
def game():
    return load_game(str(GAMES / "drm_direction.rulec"))


def drm_against_the_town(game):
    state = new_game(game).arrange({"b1": "0202", "r1": "0302"}, phase="blue_fight")
    return state.odds(Action.attack("0302", ("b1",))).drm


def test_when_a_positive_drm_helps_the_attacker_the_lowest_drm_applies(game):
    assert game.tables["main"].drm == "attacker"
    assert drm_against_the_town(game) == -1  # the town's -1, not the woods' +2


def test_when_a_positive_drm_helps_the_defender_the_highest_drm_applies(game):
    flipped = replace(game, tables={"main": replace(game.tables["main"], drm="defender")})
    assert drm_against_the_town(flipped) == 2  # the woods' +2 now hurts the attacker most


def test_the_drm_is_applied_to_the_roll(game):
    # +2 differential: the right column; a 5 with -1 is a 4: still DE; a 4 with -1 is a 3: NE.
    for roll, result in ((5, "DE"), (4, "NE")):
        state = new_game(game).arrange({"b1": "0202", "r1": "0302"}, phase="blue_fight")
        for step in state.parse_orders("attack 0302 with b1"):
            state.apply_action(step)
        state.apply_action(Action.roll(roll))
        assert state.last_battle.result == result


def test_drive_on_metz_says_a_positive_drm_helps_the_defender(metz):
    assert metz.tables[metz.combat.table].drm == "defender"
