"""The arrival policy as data (movement { late_arrival }), on a made-up game
(tests/games/late_arrivals.rulec): a reinforcement not entered by the end of its movement phase
is removed from the game, where the default (next_turn) keeps it for the next turn."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from rulec.engine import Action, new_game
from rulec.pipeline import load_game
from rulec.runtime.model import Expr

GAMES = Path(__file__).parent / "games"


@pytest.fixture(scope="module")
def game():
    return load_game(str(GAMES / "late_arrivals.rulec"))


def to_turn_2(state):
    state.apply_action(Action.end())  # red_move, turn 1
    state.apply_action(Action.end())  # blue_move
    assert (state.turn, state.phase.id) == (2, "red_move")


def test_a_reinforcement_not_entered_in_its_phase_is_removed(game):
    state = new_game(game)
    to_turn_2(state)
    move = next(a for a in state.moves_of("r_reserve") if a.kind == "move")
    state.apply_action(move)
    state.apply_action(Action.end())  # r_second stays off the map
    assert state.status("r_reserve") == "map"
    assert state.status("r_second") == "unused"  # out of the game, not due next turn


def test_by_default_a_reinforcement_not_entered_comes_next_turn(game):
    waiting = replace(game, movement=replace(game.movement, late_arrival="next_turn"))
    state = new_game(waiting)
    to_turn_2(state)
    state.apply_action(Action.end())
    assert state.status("r_second") == "pending" and state.arrival_turn("r_second") == 3


def test_a_movement_phase_passed_over_makes_its_reinforcements_late(game):
    # red_move does not come up on turn 2 (a `when` that fails): r_reserve and r_second, due in it,
    # are late as if the phase had ended without them, and are removed (late_arrival = removed).
    skipped = Expr(source="turn != 2", function=lambda ctx: ctx.turn != 2)
    sequence = tuple(replace(p, when=skipped) if p.id == "red_move" else p for p in game.sequence)
    state = new_game(replace(game, sequence=sequence))
    state.apply_action(Action.end())  # red_move, turn 1
    state.apply_action(Action.end())  # blue_move; turn 2 goes straight to blue_move
    assert (state.turn, state.phase.id) == (2, "blue_move")
    assert state.status("r_reserve") == "unused" and state.status("r_second") == "unused"
