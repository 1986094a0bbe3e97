"""Where a move may end on friends: never over the limit unless the game says so (stacking { moves_end_over_limit }),
and then only on friends that may still move away this phase (they may move in it and have somewhere to go).
The engine never offers a move whose end the stacking check will punish for want of a friend able to leave."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulec.engine import IllegalAction, legal_moves, new_game
from rulec.engine.actions import Action
from rulec.pipeline import load_game

GAME = Path(__file__).parent / "games" / "crowded_roads.rulec"


@pytest.fixture(scope="module")
def strict():
    return load_game(str(GAME))


@pytest.fixture(scope="module")
def lenient(strict):
    return replace(strict, stacking=replace(strict.stacking, moves_end_over_limit=True))


def ends(state, unit: str) -> set[str]:
    return {a.hex for a in state.moves_of(unit) if a.hex is not None}


def test_by_default_a_move_never_ends_over_the_limit(strict):
    state = new_game(strict)
    assert state.phase.id == "blue_trucks"
    assert not {"0302", "0402", "0103"} & ends(state, "b_truck")
    with pytest.raises(IllegalAction):
        state.apply_action(state.parse_action("move b_truck 0103"))
    assert state.sample_legal_order(random.Random(1)).hex not in {"0302", "0402", "0103"}


def test_a_random_game_of_the_default_never_removes_a_unit(strict):
    for seed in range(30):
        state, rng = new_game(strict, seed=seed), random.Random(seed)
        while not state.is_terminal():
            action = rng.choice(state.legal_actions())
            assert action.kind != "remove"
            state.apply_action(action)
        assert all(status != "eliminated" for status in state.where.values())


def test_a_friend_that_may_not_move_in_this_phase_cannot_make_room(lenient):
    state = new_game(lenient)
    # b_inf may move only in blue_foot: in blue_trucks it stays, so the truck may not end on it
    assert "0302" not in ends(state, "b_truck")
    assert state.explain("move b_truck 0302") is not None


def test_a_friend_with_nowhere_to_go_cannot_make_room(lenient):
    state = new_game(lenient)
    assert state.moves_of("b_stuck") == []  # no MP
    assert "0402" not in ends(state, "b_truck")


def test_a_friend_free_to_move_makes_room_and_must_then_leave(lenient):
    state = new_game(lenient)
    assert "0103" in ends(state, "b_truck")
    state.apply_action(state.parse_action("move b_truck 0103"))
    # b_free, now sharing 0103, has not moved: it may leave, and 0103 is full for anyone else meanwhile
    assert state.moves_of("b_free")
    assert "0103" not in ends(state, "b_stuck")
    state.apply_action(state.parse_action("end"))  # left over the limit: the check at the phase's end removes one
    assert state.removing == "red"


@given(st.lists(st.text("0123456789abc", min_size=1, max_size=4), unique=True, max_size=40), st.data())
@settings(max_examples=200, deadline=None)
def test_cutting_out_the_moves_into_full_hexes_keeps_every_other_move_in_order(hexes, data):
    """listed_moves cuts the moves into full hexes out of a unit's moves (one into each of its destinations, in the
    order of the hexes) where it finds each, by bisection: exactly those moves go, the rest stay in order."""
    to = tuple(sorted(hexes))
    moves = tuple(Action.move("u", h) for h in to)
    blocked = data.draw(st.sets(st.sampled_from(to))) if to else set()
    assert legal_moves._without_moves_into(moves, to, blocked) == tuple(m for m in moves if m.hex not in blocked)


@given(st.lists(st.text("0123456789abc", min_size=1, max_size=4), unique=True, max_size=40), st.data(),
       st.booleans())
@settings(max_examples=200, deadline=None)
def test_a_units_moves_but_those_into_full_hexes_are_the_same_made_either_way(hexes, data, made_first):
    """UnitMoves.moves_except gives a unit's moves but those into full hexes, in order: cut from the whole tuple once
    it is made, else made from the hex numbers alone (no Action made for a full hex)."""
    to = tuple(sorted(hexes))
    numbers = tuple(range(len(to)))
    made: list[str] = []

    class Row(dict):
        def __missing__(self, number):
            made.append(to[number])
            action = self[number] = Action.move("u", to[number])
            return action

    reached = legal_moves.UnitMoves((), to, numbers, Row(), None)
    if made_first:
        assert reached.moves == tuple(Action.move("u", h) for h in to)
    blocked = data.draw(st.sets(st.sampled_from(to))) if to else set()
    assert reached.moves_except(blocked) == tuple(Action.move("u", h) for h in to if h not in blocked)
    if not made_first:
        assert not set(made) & blocked  # no move made into a hex the unit may not end in
