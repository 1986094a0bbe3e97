"""A long move across a map thick with objectives (movement { control = pass_through }): past
movement.MOST_ROUTE_SETS sets of objectives passed, a search gives each destination the objectives of one route to it
(the route with the most MP left at each hex, of equal MP the more valuable), in bounded time, reaching the same hexes
(docs/rulings.md, "A long move across many objectives"). tests/games/many_towns.rulec: Red's rider (12 MP) among
twenty towns could pass 31,386 sets of them (a search of each took 95 s of pure Python); Blue's walker (2 MP) passes
a few, searched set by set as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.engine import movement, new_game
from rulec.engine.actions import Action
from rulec.engine.move_memory import obstacles
from rulec.engine.movement import _worth_more
from rulec.engine.reach import unit_reach
from rulec.pipeline import load_game

GAME = Path(__file__).parent / "games" / "many_towns.rulec"


@pytest.fixture
def state():
    return new_game(load_game(str(GAME)), seed=1)


def _one_route_oracle(state, uid: str) -> dict[str, int]:
    """Each destination of `uid` (every step of the made-up map costs 1 MP, no zones of control) and the objectives
    of its route: the route to a hex is one with the most MP left there, and of those the one whose objectives are
    worth more; a destination takes the best of the routes to its neighbours, each one step on."""
    tables = state.tables
    start, allowance = state.positions[uid], state.unit(uid).move
    enemy = {h for u, h in state.positions.items() if state.unit(u).side != state.unit(uid).side}
    bit = {h: 1 << i for i, h in enumerate(tables.objectives)}
    rank = tables.mask_rank
    route, left, frontier = {start: 0}, {start: allowance}, [start]
    while frontier and left[frontier[0]] > 0:  # breadth first: a step is one MP
        after: dict[str, int] = {}
        for h in frontier:
            for n in tables.neighbours[h]:
                if n in enemy or n in left:
                    continue
                mask = route[h] | bit.get(n, 0)
                if n not in after or _worth_more(rank, mask, after[n]):
                    after[n] = mask
        for n, mask in after.items():
            route[n], left[n] = mask, left[frontier[0]] - 1
        frontier = sorted(after)
    ends: dict[str, int] = {}
    for h, mp in left.items():
        if mp == 0:
            continue
        for n in tables.neighbours[h]:
            if n in enemy or n == start:
                continue
            mask = route[h] | bit.get(n, 0)
            if n not in ends or _worth_more(rank, mask, ends[n]):
                ends[n] = mask
    return ends


def test_a_move_past_more_sets_of_objectives_than_a_search_weighs_takes_one_route_to_each_hex(state):
    reach = unit_reach(state, "rider")
    enemy, zoc, friends = obstacles(state, "red")
    costs = movement.costs_of(state.tables, allowance=12, start=state.positions["rider"], enemy=enemy, zoc=zoc,
                              friends=friends)
    assert set(reach.destinations) == set(costs.destinations)  # the same hexes as every path's search reaches
    assert len(reach.destinations) == 61  # the whole map but the rider's hex and the walker's
    assert reach.destinations == _one_route_oracle(state, "rider")
    assert max(mask.bit_count() for mask in reach.destinations.values()) >= 5  # (routes that pass towns)
    # A hex next to the rider gets the towns of a step or two there (from the start, or through a town next to both):
    # weighing every path, a detour of 12 MP through many towns and back would have been given instead
    assert all(reach.destinations[n].bit_count() <= 2 for n in state.tables.neighbours[state.positions["rider"]])


def test_the_move_takes_the_towns_of_its_route_and_no_other(state):
    reach = unit_reach(state, "rider")
    to, mask = max(reach.destinations.items(), key=lambda item: (item[1].bit_count(), item[0]))
    towns = {h for i, h in enumerate(state.tables.objectives) if mask >> i & 1}
    state.apply_action(Action.move("rider", to))
    assert {h for h, side in state.holders.items() if side == "red"} == towns
    assert state.vp["red"] == len(towns)


def test_a_short_move_still_weighs_every_set_of_objectives(state):
    state.apply_action(Action.end())  # Blue's movement phase
    reach = unit_reach(state, "walker")
    # Each destination (one or two steps: 2 MP) gets the most valuable of its paths' towns: here, the most towns
    tables, start = state.tables, state.positions["walker"]
    bit = {h: 1 << i for i, h in enumerate(tables.objectives)}
    best: dict[str, int] = {}
    for first in tables.neighbours[start]:
        for path in [(first,), *((first, then) for then in tables.neighbours[first] if then != start)]:
            mask = sum(bit.get(h, 0) for h in path)
            if path[-1] not in best or _worth_more(tables.mask_rank, mask, best[path[-1]]):
                best[path[-1]] = mask
    assert reach.destinations == best
    assert 2 in {mask.bit_count() for mask in best.values()}  # (a path through a town into another)


def test_a_search_that_gives_up_leaves_the_borrowed_lists_clean(state):
    tables = state.tables
    tables.search_arrays.clear()
    first = unit_reach(state, "rider")
    tables.reach_cache.clear()
    again = movement.search(tables, movement._board(tables, *obstacles(state, "red")), 12, state.positions["rider"],
                            (), False, None, tables.base_costs)
    assert again.destinations == first.destinations
    assert tables.search_arrays and all(set(lent) == {-1} for lent in tables.search_arrays)
