"""What a move carries over of each side's views of the others (move_memory.carry_views, one pass over the views the
position before knew): a view is known exact or stale, never both (position.VIEWS), and each one kept, exact or
stale, gives what a position worked out from scratch gives, in random games. Views are asked at some steps only, in
turn by kind and side, so that exact, stale and unknown ones of every kind meet in the moves between."""

from __future__ import annotations

import random

import pytest

from rulec.engine import new_game
from rulec.engine.position import STALE, VIEWS
from rulec.pipeline import load_game
from tests.test_engine_move_memory import _fresh, _view


def _keys(state) -> list[tuple[str, str]]:
    return [key for key in state._standing if type(key) is tuple]


@pytest.mark.parametrize("name, policy, actions", [("drive_on_metz", "orders", 2500), ("the_marne", "actions", 1200)])
def test_views_carried_over_are_exact_or_stale_never_both_and_hold(name, policy, actions):
    game = load_game(name)
    state, rng = new_game(game, seed=7), random.Random(7)
    sides = list(game.sides)
    kinds_seen: set[str] = set()
    compared = 0
    for step in range(actions):
        if state.is_terminal():
            break
        # every view of every side at some steps, one view at others, none at the rest: exact, stale and unknown views
        # of each kind go into the moves
        if step % 5 == 0:
            asked = [(kind, side) for kind in VIEWS for side in sides]
        elif step % 5 == 2:
            asked = [(VIEWS[step % 3], sides[step % len(sides)])]
        else:
            asked = []
        for kind, side in asked:
            _view(state, kind, side)
        if state.is_chance_node():
            action = rng.choice([a for a, _ in state.chance_outcomes()])
        else:
            action = state.sample_legal_action(rng) if policy == "actions" else state.sample_legal_order(rng)
        state.apply_action(action)
        keys = _keys(state)
        for kind, side in keys:
            kinds_seen.add(kind)
            exact = kind.removeprefix("stale ")
            assert exact in VIEWS, kind
            assert not (kind != exact and (exact, side) in state._standing), (kind, side, state.history()[-3:])
        if step % 4 != 3:
            continue  # (compared at one step of four: stale views pile up over the moves between)
        for kind, side in keys:
            exact = kind.removeprefix("stale ")
            assert _view(state, exact, side) == _fresh(state, exact, side), (kind, side, state.history()[-3:])
            # asked now: exact, its stale copy (if it was stale) dropped
            assert (exact, side) in state._standing and (STALE[exact], side) not in state._standing
            compared += 1
    assert compared > 150
    assert kinds_seen >= set(VIEWS) | set(STALE.values()), kinds_seen
