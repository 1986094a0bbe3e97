"""What a move patches rather than works out again (stacking.carry_over: the occupants, the sides in each hex, the
full hexes) and what is worked out once a game (stacking.uncounted, for a condition that reads nothing of the
position) must be what a position worked out from scratch gives, at every position of random games."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulec.engine import legal_moves, new_game, stacking
from rulec.pipeline import load_game

GAMES = Path(__file__).parent / "games"


def from_scratch(state):
    fresh = state.clone()
    fresh.forget()
    fresh._for_the_game = {}
    return fresh


def assert_same_stacking(state) -> None:
    fresh = from_scratch(state)
    assert stacking.occupants(state) == stacking.occupants(fresh)
    assert stacking.occupant_sides(state) == stacking.occupant_sides(fresh)
    assert stacking.full_hexes(state, lambda u: legal_moves.may_leave(state, u)) == \
        stacking.full_hexes(fresh, lambda u: legal_moves.may_leave(fresh, u))
    on_map_or_due = {u for u, w in state.where.items() if w in ("map", "pending")}
    assert stacking.uncounted(state) & on_map_or_due == stacking.uncounted(fresh) & on_map_or_due


@pytest.mark.parametrize("name, games, actions", [("drive_on_metz", 3, 2000), ("the_marne", 1, 400),
                                                   (str(GAMES / "river_screen.rulec"), 5, 2000)])
def test_kept_stacking_is_what_a_fresh_position_gives(name, games, actions):
    game = load_game(name)
    for seed in range(games):
        rng = random.Random(seed)
        state = new_game(game, seed=seed)
        for _ in range(actions):
            if state.is_terminal():
                break
            assert_same_stacking(state)
            state.apply_action(rng.choice(state.legal_actions()))


def test_the_comparison_sees_a_wrong_patch():
    state = new_game(load_game("drive_on_metz"), seed=1)
    stacking.occupant_sides(state)
    uid, hex = next(iter(state.pos.items()))
    state._standing["occupant sides"] = {**state._standing["occupant sides"], hex: frozenset({"nobody"})}
    with pytest.raises(AssertionError):
        assert_same_stacking(state)
