"""Legal moves carried over from the position before a move (patched, not worked out again: the per-action
cost stays linear in units) are exactly those worked out afresh."""

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
    patched = 0
    while not state.is_terminal():
        actions = state.legal_actions()
        carried = "moves before" in state._cache
        afresh = state.clone()
        afresh._cache = {}
        assert afresh.legal_actions() == actions, str(state)
        patched += carried
        state.apply_action(rng.choice(actions))
    assert patched > 20  # the carried-over path was taken
