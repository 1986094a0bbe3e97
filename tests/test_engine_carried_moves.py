"""What a position keeps from the one before (the stacking patched after a move, each unit's moves kept for
the phase while what they depend on stands still) gives exactly the moves worked out afresh."""

from __future__ import annotations

import random

import pytest

from rulec.engine import new_game
from made_up_maps import made_up_map_game


@pytest.mark.parametrize("which,seed", [("metz", 0), ("metz", 1), ("made_up", 0), ("made_up", 1)])
def test_carried_over_moves_equal_moves_worked_out_afresh(which, seed, metz):
    game = metz if which == "metz" else made_up_map_game(10, 6, 24)
    rng = random.Random(seed)
    state = new_game(game, seed=seed)
    carried = compared = 0
    while not state.is_terminal():
        carried += "crowded" in state._cache  # the stacking carried over from the position before
        actions = state.legal_actions()
        afresh = state.clone()
        afresh._cache, afresh._phase_moves = {}, {}
        assert afresh.legal_actions() == actions, str(state)
        for action in actions:
            if action.kind == "move" and action.hex is None:
                assert afresh.moves_of(action.unit) == state.moves_of(action.unit), (str(state), action.unit)
                compared += 1
        state.apply_action(rng.choice(actions))
    assert carried > 20 and compared > 100  # the carried-over path was taken, and checked
