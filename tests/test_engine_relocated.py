"""A position tells which units changed hexes since a position it was played on from (Position.moved_since): the
units whose hexes differ are among those it lists, and when it says none came onto the map or left it, the units
are listed in the same order; asked of a position it was not played on from, or from too far back, it says None."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from big_games import STEPS_OF_A_BIG_GAME, is_big

from rulec.adapters.games import load, map_game_names
from rulec.engine import new_game
from rulec.engine.position import MOST_RELOCATIONS_TOLD
from rulec.players import view

TEST_GAMES = sorted(str(p) for p in Path("tests/games").glob("*.rulec"))


def _differ(now, then) -> set[str]:
    return {uid for uid, _ in now.pos.items() ^ then.pos.items()}


def _step(state, rng) -> None:
    if state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    else:
        state.apply_action(state.sample_legal_action(rng))


@pytest.mark.parametrize("name", map_game_names() + TEST_GAMES)
def test_a_position_tells_the_units_that_changed_hexes_since_one_it_was_played_on_from(name):
    game = load(name)
    rng = random.Random(7)
    state = new_game(game, seed=7)
    earlier = []  # clones of the position at earlier steps (a clone keeps the position's last change of hexes)
    told = 0
    for step in range(STEPS_OF_A_BIG_GAME if is_big(game) else 2000):
        if state.is_terminal():
            break
        if step % 5 == 0:
            earlier = (earlier + [state.clone()])[-12:]
        _step(state, rng)
        for then in earlier:
            found = state.moved_since(then.last_relocated)
            if found is None:
                assert state.last_relocated.count - then.last_relocated.count > MOST_RELOCATIONS_TOLD
                continue
            told += 1
            moved, reorders = found
            assert _differ(state, then) <= set(moved)
            if not reorders:
                assert list(state.pos) == list(then.pos)
            # what the players read of it (rulec/players/view.py) is what comparing the positions finds
            assert view.units_moved(state, then.last_relocated, state.pos, then.pos) == _differ(state, then)
            pairs, _ = view.hexes_moved(state, then.last_relocated, state.pos, then.pos)
            assert pairs == state.pos.items() ^ then.pos.items()
    if any(a.last_relocated.count for a in earlier):
        assert told


def test_a_position_not_played_on_from_another_or_set_up_apart_is_not_told(metz):
    state = new_game(metz, seed=3)
    rng = random.Random(3)
    while state.last_relocated.count < 3:
        _step(state, rng)
    branch = state.clone()
    while branch.last_relocated.count == state.last_relocated.count:
        _step(branch, rng)
    while state.last_relocated.count <= branch.last_relocated.count:
        _step(state, rng)
    assert state.moved_since(branch.last_relocated) is None  # two lines of play from one position
    assert branch.moved_since(state.last_relocated) is None  # (and it came before: fewer changes)
    other = new_game(metz, seed=3)  # the same set-up, apart: nothing in common
    assert other.moved_since(new_game(metz, seed=3).last_relocated) is None
    assert other.moved_since(other.last_relocated) == ([], False)
