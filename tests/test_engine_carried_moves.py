"""Legal moves carried over from the position before a move (patched, not worked out again: the per-action
cost stays linear in units) are exactly those worked out afresh."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import pytest

from rulec.engine import new_game

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def _made_up(columns: int, rows: int, units: int):
    sys.path.insert(0, str(BENCHMARKS))
    spec = importlib.util.spec_from_file_location("made_up_game", BENCHMARKS / "made_up_game.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.compile_text(module.game_text(columns, rows, units))


@pytest.mark.parametrize("which,seed", [("metz", 0), ("metz", 1), ("made_up", 0), ("made_up", 1)])
def test_carried_over_moves_equal_moves_worked_out_afresh(which, seed, metz):
    game = metz if which == "metz" else _made_up(10, 6, 24)
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
