"""What a move keeps of the position before it (rulec/engine/move_memory.py): every side's enemy hexes, zones of
control and obstacles, kept for the mover's side and patched at the mover's two hexes for the others, must equal
what a position worked out from scratch gives, after every move of random games of every map game."""

from __future__ import annotations

import random

import pytest
from big_games import STEPS_OF_A_BIG_GAME, is_big

from rulec.engine import legal_moves, new_game
from rulec.engine.actions import EXIT, MOVE
from rulec.pipeline import GAMES_DIR, SUFFIX, load_game

TEST_GAMES = GAMES_DIR.parent / "tests" / "games"
MAP_GAMES = [str(p) for folder in (GAMES_DIR, TEST_GAMES) for p in sorted(folder.glob(f"*{SUFFIX}"))
             if load_game(str(p)).map is not None]
VIEWS = ("zoc", "enemy", "obstacles")


def _fresh(state, key: tuple):
    """The view `key` of the position worked out from scratch, on a copy that knows nothing yet."""
    copy = state.clone()
    copy._cache = {}
    kind, side = key
    if kind == "zoc":
        return copy.enemy_zoc(side)
    if kind == "enemy":
        return copy._enemy_occupied(side)
    return legal_moves.obstacles(copy, side)


def _kept_views_hold(path: str, seed: int) -> tuple[int, int]:
    """Play a random game of whole orders; after each move or exit compare every view the new position kept with
    one from scratch. (views compared, of them patched for a side other than the mover's)."""
    game = load_game(path)
    state, rng = new_game(game, seed=seed), random.Random(seed)
    limit = STEPS_OF_A_BIG_GAME if is_big(game) else 3000
    compared = patched = 0
    for _ in range(limit):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        for side in game.sides:  # ask every side's views, so that the move has them all to keep
            state.enemy_zoc(side), state._enemy_occupied(side), legal_moves.obstacles(state, side)
        action = state.sample_legal_order(rng)
        mover = state.unit(action.unit).side if action.kind in (MOVE, EXIT) else None
        state.apply_action(action)
        for key in [k for k in state._cache if k.__class__ is tuple and len(k) == 2 and k[0] in VIEWS]:
            assert state._cache[key] == _fresh(state, key), (path, key, state.history()[-3:])
            compared += 1
            patched += mover is not None and key[1] != mover
    return compared, patched


@pytest.mark.parametrize("path", MAP_GAMES, ids=lambda p: p.rsplit("/", 1)[-1].removesuffix(SUFFIX))
def test_views_kept_after_a_move_equal_views_from_scratch(path):
    compared, _ = _kept_views_hold(path, seed=3)
    assert compared > 0


def test_a_move_patches_the_views_of_the_sides_it_does_not_belong_to():
    _, patched = _kept_views_hold(str(GAMES_DIR / f"drive_on_metz{SUFFIX}"), seed=4)
    assert patched > 50  # the enemy's zones and obstacles, kept through the mover's moves rather than worked out again
