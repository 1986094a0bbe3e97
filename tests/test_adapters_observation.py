"""The observation tensor: fixed size, and it shows what the engine says about the position."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from big_games import STEPS_OF_A_BIG_GAME, is_big

from rulec.adapters.games import load, map_game_names
from rulec.adapters.observation import Layout
from rulec.engine import new_game

TEST_GAMES = sorted(str(p) for p in Path("tests/games").glob("*.rulec"))


def _positions(game, seeds=range(3)):
    """Every position of a few random games (of a big game: of the first actions of one)."""
    big = is_big(game)
    for seed in seeds[:1] if big else seeds:
        state, rng = new_game(game, seed=seed), random.Random(seed)
        for _ in range(STEPS_OF_A_BIG_GAME if big else 1_000_000):
            if state.is_terminal():
                break
            yield state
            options = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
            state.apply_action(rng.choice(options))
        yield state


def _observe(layout, state, player=0):
    tensor = np.zeros(layout.size, np.float32)
    views = layout.views(tensor)
    layout.fill(views, state, player)
    return tensor, views


@pytest.mark.parametrize("name", map_game_names() + TEST_GAMES[:3])
def test_every_position_fills_the_same_pieces_with_what_the_engine_says(name):
    game = load(name)
    layout = Layout(game)
    for state in _positions(game):
        tensor, views = _observe(layout, state)
        assert tensor.shape == (layout.size,) and np.isfinite(tensor).all()
        assert views["unit_hex"].sum() == len(state.positions)  # each unit on the map in one hex
        assert (views["unit_status"].sum(axis=1) == 1).all()  # each unit has exactly one status
        assert views["vp"].tolist() == [state.vp[s] for s in layout.sides]
        assert views["unit_values"][:, 0].tolist() == [state.unit(u).strength for u in layout.units]
        assert views["phase"][state.phase_index] == 1 and views["decision"].sum() == 1


def test_a_game_that_declares_markers_shows_them_on_units_and_hexes():
    found = [load(n) for n in map_game_names() + TEST_GAMES if getattr(load(n), "markers", None)]
    if not found:
        pytest.skip("no map game declares markers (the engine has none yet)")
    seen = 0
    for game in found:
        layout = Layout(game)
        for state in _positions(game, range(10)):
            _, views = _observe(layout, state)
            for target, piece, index in [(u, "unit_markers", layout.unit_index) for u in state.positions] + \
                                        [(h, "hex_markers", layout.hex_index) for h in layout.hexes]:
                marks = set(state.markers_on(target))
                shown = {m for m in layout.markers if views[piece][index[target], layout.marker_index[m]]}
                assert shown == marks, target
                seen += len(marks)
    assert seen, "no marker was put on in ten random games of each"
