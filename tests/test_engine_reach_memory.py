"""The movement searches the tables remember (movement.reach_of): a search is reused on a board only when the board
agrees with the one it was made on at every hex it looked at, and then its answer is the one a fresh search gives."""

from __future__ import annotations

import random

import pytest

from rulec.engine import movement, new_game
from rulec.engine.hex_bits import numbers
from rulec.engine.move_memory import obstacles
from rulec.engine.movement import Board, reach_of, search
from rulec.pipeline import load_game


def _fresh(tables, allowance, start, enemy, zoc):
    """The search on its own board, nothing remembered."""
    board = Board.of_numbers(numbers(enemy), numbers(zoc), (), len(tables.numbered))
    return search(tables, board, allowance, start, (), False, None, tables.base_costs)


def _bits(tables, hexes):
    return sum(1 << tables.index[h] for h in set(hexes))


def test_a_remembered_search_answers_as_a_fresh_one_on_random_boards_near_its_start(metz):
    tables = new_game(metz).tables
    tables.reach_cache.clear()
    rng = random.Random(7)
    hexes = sorted(metz.map.hexes)
    starts = rng.sample(hexes, 4)
    reused = 0
    for _ in range(300):
        start = rng.choice(starts)
        # Enemies within a few hexes of the start, often the same ones: boards that repeat near the start and
        # differ further off, where a search may or may not have looked.
        near = [h for h in hexes if h != start and tables.distance[start][h] <= 5]
        enemies = rng.sample(near, rng.randint(0, 3))
        zoc = {n for h in enemies for n in tables.neighbours[h]} - set(enemies)
        enemy_bits, zoc_bits = _bits(tables, enemies), _bits(tables, zoc)
        kept = tables.reach_cache.get((4, start, (), False, None, tables.base_costs, 0))  # (no objective held)
        before = {id(kept[-1])} if kept else set()
        found = reach_of(tables, allowance=4, start=start, enemy=enemy_bits, zoc=zoc_bits, friends=0)
        reused += id(found) in before
        expected = _fresh(tables, 4, start, enemy_bits, zoc_bits)
        assert (found.destinations, found.exits) == (expected.destinations, expected.exits), (start, enemies)
    assert reused > 5  # the memory was used, not only filled


def test_a_search_is_reused_when_only_hexes_it_never_looked_at_differ_and_made_again_when_one_it_did_differs(metz):
    tables = new_game(metz).tables
    tables.reach_cache.clear()
    start = sorted(metz.map.hexes)[len(metz.map.hexes) // 2]
    first = reach_of(tables, allowance=2, start=start, enemy=0, zoc=0, friends=0)
    far = max(metz.map.hexes, key=lambda h: tables.distance[start][h])
    assert far not in first.destinations
    again = reach_of(tables, allowance=2, start=start, enemy=_bits(tables, [far]), zoc=0, friends=0)
    assert again is first  # an enemy it never came near: the same search
    step = tables.neighbours[start][0]
    blocked = reach_of(tables, allowance=2, start=start, enemy=_bits(tables, [step]), zoc=0, friends=0)
    assert blocked is not first and step not in blocked.destinations
    assert blocked.destinations == _fresh(tables, 2, start, _bits(tables, [step]), 0).destinations


def test_the_board_remembered_for_a_unit_is_the_last_searched_on(metz):
    """A unit's terms keep one search, the last made: on a board that differs where it looked, the search is made
    anew and takes its place (the earlier board, asked again, is searched again); on one that agrees, it answers."""
    tables = new_game(metz).tables
    tables.reach_cache.clear()
    start = sorted(metz.map.hexes)[len(metz.map.hexes) // 2]
    key = (2, start, (), False, None, tables.base_costs, 0)
    west, east = (_bits(tables, [h]) for h in [h for h in sorted(metz.map.hexes) if tables.distance[start][h] == 1][:2])
    first = reach_of(tables, allowance=2, start=start, enemy=west, zoc=0, friends=0)
    assert tables.reach_cache[key][-1] is first
    assert reach_of(tables, allowance=2, start=start, enemy=west, zoc=0, friends=0) is first
    second = reach_of(tables, allowance=2, start=start, enemy=east, zoc=0, friends=0)
    assert second is not first and tables.reach_cache[key][-1] is second
    again = reach_of(tables, allowance=2, start=start, enemy=west, zoc=0, friends=0)
    assert again is not first and again.destinations == first.destinations  # searched again, the same moves
    assert tables.reach_cache[key][-1] is again


@pytest.mark.parametrize("name", ["drive_on_metz", "the_marne"])
def test_the_lists_a_search_borrows_come_back_as_they_were_lent(name):
    """movement.search borrows its lists of a value per hex from the tables (Tables.search_arrays) and gives them
    back with -1 at every hex again: after the searches of random games, every list lent is all -1, and a search
    with lists made afresh finds what one with the lists lent found."""
    game = load_game(name)
    state = new_game(game, seed=3)
    tables = state.tables
    rng = random.Random(3)
    for _ in range(400 if name == "drive_on_metz" else 150):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    assert tables.search_arrays  # lent and given back
    assert all(len(lent) == len(tables.numbered) and set(lent) == {-1} for lent in tables.search_arrays)
    side = state.phase.side or state.players[0]
    enemy, zoc, friends = obstacles(state, side)
    for uid in sorted(u for u, h in state.positions.items() if state.unit(u).side == side)[:10]:
        board = Board.of_numbers(numbers(enemy), numbers(zoc), (), len(tables.numbered))
        lent = search(tables, board, 6, state.positions[uid], (), False, None, tables.base_costs)
        tables.search_arrays.clear()
        afresh = search(tables, board, 6, state.positions[uid], (), False, None, tables.base_costs)
        assert (lent.destinations, lent.exits, lent.looked) == (afresh.destinations, afresh.exits, afresh.looked)
    assert all(set(lent) == {-1} for lent in tables.search_arrays)


def test_paths_are_ranked_by_the_objectives_they_pass_with_or_without_a_rank():
    """A destination keeps the better of two paths' objectives: by Tables.mask_rank, or (too many objectives to
    rank) by how many they pass, then the lower bits; the same mask is never better than itself."""
    worth_more = movement._worth_more
    rank = (0, 5, 1, 6)  # mask -> rank: the first objective is worth more than the second
    assert worth_more(rank, 0b01, 0b10) and not worth_more(rank, 0b10, 0b01)
    assert worth_more(rank, 0b11, 0b01) and not worth_more(rank, 0b01, 0b01)
    many = 1 << 60  # an objective beyond any rank's table
    assert worth_more((), 0b11, many) and not worth_more((), many, 0b11)  # two objectives passed before one
    assert worth_more((), 0b01, many) and not worth_more((), many, 0b01)  # one each: the lower bit
    assert worth_more((), many | 1, many) and not worth_more((), many | 1, many | 1)
