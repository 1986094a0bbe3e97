"""What applying an action keeps rather than works out again, for speed, must be what a position worked out from
scratch gives: the order of each hex's occupants (kept by the units' ranks in pos: position.pos_ranks), the sides in
each hex handed on where a move changed none (and what their lineage tells), the units over the stacking limit
(overstacked_units' early answer), and the views of who stands where handed on by a new phase."""

from __future__ import annotations

import random

import pytest

from rulec.engine import new_game, stacking
from rulec.engine.position import STALE, VIEWS, pos_ranks, view_keys
from rulec.pipeline import load_game


def _occupants_in_pos_order(state) -> dict:
    found: dict = {}
    for uid, h in state.pos.items():
        found.setdefault(h, []).append(uid)
    return found


def _over_the_limit(state) -> list[str]:
    """overstacked_units without its early answer: every hex looked at."""
    limit, free, units = state.game.stacking.limit, stacking.uncounted(state), []
    for us in _occupants_in_pos_order(state).values():
        counted = [u for u in us if u not in free]
        if len(counted) > limit:
            units += counted
    side = state.phase.side if state.game.sequence else None
    if state.game.stacking.checked == "end_of_movement" and side is not None:
        units = [u for u in units if state.unit(u).side == side]
    return sorted(units, key=state.tables.unit_order.__getitem__)


@pytest.mark.parametrize("name, policy, actions", [("the_marne", "actions", 1500), ("drive_on_metz", "orders", 1500)])
def test_what_an_action_keeps_is_what_a_fresh_position_gives(name, policy, actions):
    game = load_game(name)
    state, rng = new_game(game, seed=3), random.Random(3)
    stacked = entered = same_sides = 0
    for _ in range(actions):
        if state.is_terminal():
            break
        stacking.occupant_sides(state)  # (known, so that a move patches them)
        pos_ranks(state)
        sides = state._standing.get("occupant sides")
        on_map, occupied = set(state.pos), {h: list(us) for h, us in state.occupants().items()}
        action = state.sample_legal_action(rng) if policy == "actions" else state.sample_legal_order(rng)
        state.apply_action(action)
        # the occupants, in the order of pos
        assert state.occupants() == _occupants_in_pos_order(state), state.history()[-3:]
        ranks = pos_ranks(state)
        assert [ranks[u] for u in state.pos] == sorted(ranks[u] for u in state.pos)
        entered += bool(set(state.pos) - on_map)
        stacked += action.hex is not None and action.unit not in occupied.get(action.hex, [action.unit])
        # the sides in each hex, and what changed since the position before as their lineage tells it
        now = state._standing.get("occupant sides")
        if now is not None and sides is not None:
            fresh = state.clone()
            fresh.forget()
            assert now == stacking.occupant_sides(fresh)
            differ = {h for h in set(now) | set(sides) if now.get(h) != sides.get(h)}
            if now is sides:
                same_sides += 1
                assert not differ
            else:
                told = stacking.sides_changed(sides, now, state._standing.get(stacking.SIDES_LINEAGE))
                assert told is None or differ <= told, (differ, told)
        assert stacking.overstacked_units(state) == _over_the_limit(state)
    assert stacked > 0 or name != "the_marne"
    assert entered > 0 and same_sides > 0, (entered, same_sides)


def test_a_new_phase_without_stale_views_hands_who_stands_where_on_as_it_is():
    game = load_game("drive_on_metz")
    state, rng = new_game(game, seed=1), random.Random(1)
    handed_on = 0
    while not state.is_terminal() and handed_on < 5:
        standing = state._standing
        stale = any(type(k) is tuple and k[0] in STALE.values() for k in standing)
        phase = state.phase_index
        state.apply_action(state.sample_legal_order(rng))
        if state.phase_index != phase and not stale and state._standing is standing:
            handed_on += 1
    assert handed_on == 5


def test_view_keys_are_the_keys_of_the_views():
    keys = view_keys("red")
    assert view_keys("red") is keys
    assert (keys.zoc, keys.enemy, keys.obstacles) == tuple((kind, "red") for kind in VIEWS)
    assert (keys.stale_zoc, keys.stale_enemy, keys.stale_obstacles) == tuple((STALE[k], "red") for k in VIEWS)
