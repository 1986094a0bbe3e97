"""What the players read of two positions played on from one position (rulec/players/view.py): the units whose hexes
differ, found from the changes of hexes since that position, are those comparing the positions finds."""

from __future__ import annotations

import random

from rulec.engine import new_game
from rulec.players import view


def _step(state, rng) -> None:
    if state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    else:
        state.apply_action(state.sample_legal_action(rng))


def test_two_lines_of_play_from_one_position_tell_the_units_whose_hexes_differ(metz):
    rng = random.Random(5)
    state = new_game(metz, seed=5)
    told = 0
    for _ in range(60):
        lines = [state.clone(), state.clone()]
        for line in lines:
            for _ in range(rng.randrange(1, 12)):
                if not line.is_terminal():
                    _step(line, rng)
        one, other = lines
        pairs, reorders = view.hexes_moved(one, other.last_relocated, one.pos, other.pos)
        assert pairs == one.pos.items() ^ other.pos.items()
        assert view.units_moved(one, other.last_relocated, one.pos, other.pos) == {uid for uid, _ in pairs}
        if reorders is False:  # none came onto the map or left it on either line
            assert list(one.pos) == list(other.pos)
        told += reorders is not None
        for _ in range(rng.randrange(1, 6)):
            if not state.is_terminal():
                _step(state, rng)
    assert told


def test_positions_set_up_apart_are_compared_unit_by_unit(metz):
    one, other = new_game(metz, seed=3), new_game(metz, seed=3)
    pairs, reorders = view.hexes_moved(one, other.last_relocated, one.pos, other.pos)
    assert reorders is None and pairs == one.pos.items() ^ other.pos.items()
