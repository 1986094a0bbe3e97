"""What a unit's listing keeps of its search, made the cheap way, is what the plain way made: the compiled search
(search_core.run: the destinations' hexes in order, only those whose path passes an objective with its mask, the map
edges left by) made a Reach, against pure Python's own loop; search_core.board_flags against the bits made into bytes
one by one; and a tuple of destinations shared by units of the same search (movement.Reach.to) noted for each of
them."""

from __future__ import annotations

import json
import random

import pytest
import test_engine_compiled as compiled_tests

from rulec.engine import legal_moves, new_game
from rulec.engine.movement import Board
from rulec.engine.reach import REACHING

built_tree = compiled_tests.built_tree  # (the tree tests/test_engine_compiled.py plays on: built once a session)


def test_units_sharing_one_tuple_of_destinations_are_each_noted_at_its_hexes(metz):
    """Two units whose searches are one (the same terms: reach_of hands them the same Reach, and its `to`) are each
    noted in the phase's index of the units reaching each hex: a move into one of those hexes asks both again."""
    state = new_game(metz, seed=0)
    while state.phase.kind != "movement":
        state.apply_action(state.legal_actions()[0])
    first, second = [u for u in legal_moves.movable_units(state) if legal_moves.keeps_moves(state, u)][:2]
    to = ("0101", "0102")
    legal_moves._note_reaching(state, first, to)
    legal_moves._note_reaching(state, second, to)
    reaching = state._phase_moves[REACHING]
    assert {first, second} <= reaching["0101"] and {first, second} <= reaching["0102"]


def test_a_board_of_bits_is_the_board_of_the_same_hex_numbers(metz):
    """Board.of_bits (compiled: search_core.board_flags) gives the bytes Board.of_numbers does, a hex at a time."""
    tables = new_game(metz, seed=0).tables
    size = len(tables.numbered)
    rng = random.Random(3)
    for _ in range(40):
        enemy, zoc, no_pass = ([h for h in range(size) if rng.random() < share]
                               for share in (0.05, 0.2, rng.choice((0, 0.1))))
        bits = [sum(1 << h for h in hexes) for hexes in (enemy, zoc, no_pass)]
        assert Board.of_bits(*bits, size).flags == Board.of_numbers(enemy, zoc, no_pass, size).flags
    with pytest.raises(OverflowError):
        Board.of_bits(1 << size, 0, 0, size)


# The compiled search (search_core.run, made a Reach by movement.search) and pure Python's own loop, from random hexes
# of every game on random boards, objectives held at random
_COMPILED_AND_PURE = """
import json, random, glob
from rulec.fast_path import engine_kind
from rulec.engine import movement, native
from rulec.engine.tables import tables_for
from rulec.pipeline import load_game

found = []
core = native.core
for name in ["drive_on_metz", "the_marne"] + sorted(glob.glob("tests/games/*.rulec")):
    tables = tables_for(load_game(name))
    size, numbered, costs = len(tables.numbered), tables.numbered, tables.base_costs
    if movement._packed(tables, costs, core) is None:
        continue
    rng = random.Random(name)
    for _ in range(60):
        enemy, zoc = (sum(1 << h for h in range(size) if rng.random() < share) for share in (0.04, 0.15))
        flags = movement.Board.of_bits(enemy, zoc & ~enemy, 0, size).flags
        by_hand = movement.Board.of_numbers([h for h in range(size) if enemy >> h & 1],
                                            [h for h in range(size) if (zoc & ~enemy) >> h & 1], [], size).flags
        board = movement.Board.of_bits(enemy, zoc & ~enemy, 0, size)
        start, allowance = numbered[rng.randrange(size)], rng.randint(1, 12)
        held = sum(1 << i for i in range(len(tables.objectives)) if rng.random() < 0.3)
        args = (tables, board, allowance, start, (), False, None, costs, held)
        fast = movement.search(*args)
        native.core = None
        try:
            pure = movement.search(*args)
        finally:
            native.core = core
        if fast.to is None:  # (too many sets of objectives: the Python loop took one route to each hex)
            continue
        every = pure.destinations
        found.append([name, flags == by_hand, fast.to == tuple(every) and fast.numbers == pure.numbers,
                      (fast.masks or {}, fast.passed(), fast.looked) ==
                      ({h: mask for h, mask in every.items() if mask}, pure.passed(), pure.looked)
                      and fast.destinations == every and all(fast.mask_to(h) == every[h] for h in every),
                      (fast.exits, fast.exit_masks, fast.exit_hexes) == (pure.exits, pure.exit_masks, pure.exit_hexes),
                      bool(fast.exits), any(every.values())])
print(json.dumps({"engine": engine_kind(), "found": found}))
"""


@pytest.mark.long
def test_the_compiled_search_answers_as_pure_pythons_loop(built_tree):
    """Compiled: search_core.run, made a Reach by movement.search (the destinations' hexes in order, only those whose
    path passes an objective with its mask, every mask ORed; the exits, and by exit the mask and the hex left from),
    answers what pure Python's own loop does on the same board; and search_core.board_flags the board hex by hex."""
    done = compiled_tests._python(built_tree, True, "-c", _COMPILED_AND_PURE)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["engine"] == "compiled engine (mypyc)"
    searches = found["found"]
    for name, *same in searches:
        assert all(same[:4]), (name, same)
    assert sum(search[5] for search in searches) > 20  # searches that left the map, compared
    assert sum(search[6] for search in searches) > 20  # searches whose paths pass objectives, compared

