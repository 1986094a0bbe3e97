"""The compiled engine's searches in C (rulec/engine/search_core.pyx) answer as pure Python's, each rule found by
planting a fault in search_core.pyx that tests/test_engine_compiled.py let through (its games play the same with it):
a movement search that leaves the hexes it reached with no MP left out of the hexes it looked at (Reach.looked, which
lets reach_of keep a search for other boards), that leaves a layer's bucket of no MP left uncleaned for the next
search (the hexes looked at grow, and that bucket with them, search after search), that ranks paths through as many
objectives by the higher bits (a game with too many objectives to rank by VP), that keeps giving up after one search
tracked too many sets of objectives (movement.MOST_ROUTE_SETS), that tracks one set more than its limit, that takes
the lists kept on the steps while another search holds them (a search started midway through another, as Python code
that search runs may start one), and an OBJECTIVES_FIT that lets 64 objectives into masks of a C int64 (with -1 for
none). Each test runs the same searches in both builds, in processes of their own on the tree the long tier built
(the fixture and helpers of tests/test_engine_compiled.py), and compares everything a search answers (movement.Reach:
the destinations with their objectives, the exits with theirs and the hex left from, the hexes looked at) or a
trace's spread answers (its layers); where the game's rules say what it is (towns passed, a spread through every
hex), the answer by hand too.
"""

from __future__ import annotations

import json

import pytest
import test_engine_compiled as compiled_tests
from game_variants import variant

pytestmark = pytest.mark.long

built_tree = compiled_tests.built_tree  # (the tree tests/test_engine_compiled.py plays on: built once a session)


def _both(tree, script: str, *args: str) -> dict[bool, dict]:
    """What `script` prints last (JSON), in pure Python (False) and on the compiled engine (True), each checked to be
    the engine it was asked for."""
    found = {}
    for compiled in (False, True):
        done = compiled_tests._python(tree, compiled, "-c", script, *args)
        assert done.returncode == 0, done.stderr[-3000:]
        found[compiled] = json.loads(done.stdout.strip().splitlines()[-1])
    assert found[False]["engine"].startswith("pure Python") and found[True]["engine"] == "compiled engine (mypyc)"
    assert found[True]["native"], "the compiled engine runs without search_core"
    return found


_ENGINE = """
import json, random, glob
from rulec.fast_path import engine_kind
from rulec.engine import movement, native, trace_sets
from rulec.engine.tables import tables_for
from rulec.pipeline import load_game

GAMES = ["drive_on_metz", "the_marne"] + sorted(glob.glob("tests/games/*.rulec"))


def answer(found):
    print(json.dumps({"engine": engine_kind(), "native": native.core is not None, "found": found}))


def reach(r):
    return {"destinations": sorted(r.destinations.items()), "exits": list(r.exits),
            "exit_masks": sorted((r.exit_masks or {}).items()), "numbers": list(r.numbers),
            "exit_hexes": sorted((r.exit_hexes or {}).items()), "looked": r.looked}
"""

# Searches on random boards of every game: enemy units (and their zones of control, every neighbour, whatever the
# game's rules: boards as a search takes them), friends in the way or none, from a hex with every MP, entering the
# map, leaving a zone of control locked or by the ZOC-to-ZOC exception, objectives held; each game's searches one
# after the other on the same kept lists (search_core's Packed)
_RANDOM_SEARCHES = _ENGINE + """
found, searched_in_c = {}, {}
for name in GAMES:
    tables = tables_for(load_game(name))
    size, numbered = len(tables.numbered), tables.numbered
    rng = random.Random(name)
    costs = [tables.base_costs] + [tables.costs_for(t, tables.base_values) for t in sorted(tables.typed_costs)]
    searches = found[name] = []
    for _ in range(150):
        enemy = sum(1 << h for h in range(size) if rng.random() < 0.06)
        zoc = 0
        for h in range(size):
            if enemy >> h & 1:
                for n in tables.neighbours[numbered[h]]:
                    zoc |= 1 << tables.index[n]
        zoc &= ~enemy
        friends = sum(1 << h for h in range(size) if rng.random() < 0.04) & ~enemy if rng.random() < 0.5 else 0
        board = movement.Board.of_bits(enemy, zoc, friends, size)
        free = [h for h in range(size) if not enemy >> h & 1]
        allowance, start, entries, locked, leave = rng.randint(0, 14), numbered[rng.choice(free)], (), False, None
        way = rng.random()
        if way < 0.12:
            start = None
            entries = tuple((numbered[rng.choice(free)], rng.randint(0, 3)) for _ in range(rng.randint(1, 3)))
        elif way < 0.4:
            leave = movement.Leave(rng.randint(0, 2), rng.random() < 0.5, frozenset(), frozenset(), rng.random() < 0.3)
            locked = rng.random() < 0.5
        held = sum(1 << k for k in range(len(tables.objectives)) if rng.random() < 0.2)
        searches.append(reach(movement.search(tables, board, allowance, start, entries, locked, leave,
                                              rng.choice(costs), held)))
    searched_in_c[name] = all(bool(c.packed) for c in costs)
answer({"searches": found, "in_c": searched_in_c})
"""


def test_the_compiled_search_answers_as_pure_pythons_on_random_boards_of_every_game(built_tree):
    """150 searches on random boards of each game (tests/games' and the big games), one after the other: the compiled
    search (in C for every game) answers each as pure Python's does, field by field. (Faults planted: a layer's
    bucket of no MP left not handled, N01, or not cleaned for the next search, N09, which changed the hexes looked at
    alone; search_core's too_many left set after a search that gave up, N10, and paths through as many objectives
    ranked by the higher bits, N04, which changed objectives passed.)"""
    found = _both(built_tree, _RANDOM_SEARCHES)
    pure, fast = found[False]["found"]["searches"], found[True]["found"]["searches"]
    assert all(found[True]["found"]["in_c"].values()) and not any(found[False]["found"]["in_c"].values())
    assert list(pure) == list(fast) and len(pure) > 50
    for name, searches in pure.items():
        assert len(searches) == len(fast[name]) == 150
        for i, (one, other) in enumerate(zip(searches, fast[name])):
            for field in one:
                assert one[field] == other[field], f"{name}, search {i}: {field}"
    # real searches were compared: most reach somewhere, some with objectives passed, some leave the map
    every = [s for searches in pure.values() for s in searches]
    assert sum(bool(s["destinations"]) for s in every) > 0.8 * len(every)
    assert sum(any(mask for _, mask in s["destinations"]) for s in every) > 100
    assert sum(bool(s["exits"]) for s in every) > 100


# A trace's breadth-first search on every game's map, forward and backward: from a few sources into random hexes, at
# most `limit` steps (or none), kept (trace_sets.new_layers), then searched again after the hexes passing changed a
# few at a time, as after a move, and a search from scratch with the same hexes passing beside each
_RANDOM_SPREADS = _ENGINE + """
from rulec.engine.hex_bits import numbers
found = {}
def searched(layers):
    return [hex(layer) for layer in layers.as_ints()]
for name in GAMES:
    tables = tables_for(load_game(name))
    size = len(tables.numbered)
    rng = random.Random(name)
    spreads = found[name] = []
    for backward in (False, True):
        steps = tables.map_steps(backward)
        for _ in range(30):
            passing = sum(1 << h for h in range(size) if rng.random() < rng.choice([0.55, 0.75]))
            start = sum(1 << rng.randrange(size) for _ in range(rng.randint(1, 3)))
            passing |= start  # (the sources pass, as a trace's do: trace_sets.search)
            limit = rng.choice([None, 0, 1, 2, 3, 5, 8, 20])
            kept = trace_sets.new_layers(steps, start, passing, limit)
            spread = [limit, searched(kept), hex(kept.reached)]
            for _ in range(6):
                for _ in range(rng.randint(1, 4)):  # anywhere, or next to the hexes reached (as a move opens a way)
                    edge = numbers(steps.after(kept.reached) & ~kept.reached & ~passing)
                    h = rng.choice(edge) if edge and rng.random() < 0.5 else rng.randrange(size)
                    if not start >> h & 1:
                        passing ^= 1 << h
                reached = kept.update(passing)
                afresh = trace_sets.new_layers(steps, start, passing, limit)
                spread.append([searched(kept), hex(reached), searched(afresh)])
            spreads.append(spread)
    # through every hex: layer k holds the hexes k steps or fewer from a source, by hand (steps out from the sources)
    steps, index = tables.map_steps(), tables.index
    for _ in range(5):
        sources = rng.sample(tables.numbered, rng.randint(1, 3))
        limit = rng.choice([None, 1, 2, 4])
        layers = trace_sets.new_layers(steps, sum(1 << index[h] for h in sources), (1 << size) - 1, limit)
        by_hand, near = [sum(1 << index[h] for h in sources)], set(sources)
        while limit is None or len(by_hand) <= limit:
            near |= {n for h in near for n in tables.neighbours[h]}
            bits = sum(1 << index[h] for h in near)
            if bits == by_hand[-1]:
                break
            by_hand.append(bits)
        spreads.append([limit, searched(layers), hex(layers.reached), {"by hand": [hex(layer) for layer in by_hand]}])
answer(found)
"""


def test_a_traces_search_kept_in_c_searches_as_pure_pythons_on_every_map(built_tree):
    """65 searches on each game's map, each searched again six times after a few hexes changed whether they pass:
    the compiled engine's layers (search_core.Layers) are pure Python's (trace_sets.IntLayers), each within its limit
    (at most `limit` steps from the sources: as many layers, plus the sources'); a search kept and searched again
    has the layers of a search from scratch, whichever layer it went on from; and through every hex, the hexes as
    many steps away or fewer, by hand. (Faults planted: one step past the limit; the bits a step to lower numbers
    carries from the last word of a set left out; a step backward that picks the hexes stepping as a step forward
    does, before the shift; a search again from the first layer holding a hex that passes no more rather than the
    one before; and from the layer after the first next to a hex passing anew.)"""
    found = _both(built_tree, _RANDOM_SPREADS)
    pure, fast = found[False]["found"], found[True]["found"]
    assert list(pure) == list(fast) and len(pure) > 50
    searched_again = 0
    for name, spreads in pure.items():
        assert spreads == fast[name], name
        for limit, layers, reached, *again in spreads:
            assert limit is None or len(layers) <= limit + 1, name
            assert reached == layers[-1], name
            if again and isinstance(again[0], dict):  # through every hex: the layers counted out by hand
                assert layers == again[0]["by hand"], name
                continue
            for kept, reached_again, afresh in again:
                assert kept == afresh and reached_again == kept[-1], name
                searched_again += kept != layers
                layers = kept
    assert sum(len(spread[1]) > 5 for spreads in pure.values() for spread in spreads) > 100
    assert searched_again > 500


# Searches of games with objectives passed through (many_towns: twenty towns, too many to rank by VP), each with a
# limit on the sets of objectives it tracks: does it give up (and take one route to each hex)? Pure Python: its limit
# movement.MOST_ROUTE_SETS set, and a give-up seen as the search started again with one_route; compiled: the limit
# given to search_core.run, which answers None. One search after another on the same kept lists, the limit changing.
_ROUTE_SETS = _ENGINE + """
found = {}
gave_up = []
if native.core is None:
    search = movement.search

    def spy(*args, **kwargs):
        if kwargs.get("one_route"):
            gave_up.append(True)
        return search(*args, **kwargs)

    movement.search = spy
for name in ["tests/games/many_towns.rulec", "tests/games/final_towns.rulec", "drive_on_metz"]:
    tables = tables_for(load_game(name))
    size, numbered = len(tables.numbered), tables.numbered
    costs = tables.base_costs
    board = movement.Board.of_bits(0, 0, 0, size)
    rng = random.Random(name)
    answers = found[name] = []
    for start, allowance, limit in [(rng.randrange(size), rng.randint(1, 6), rng.randint(1, 12)) for _ in range(100)]:
        if native.core is None:
            movement.MOST_ROUTE_SETS = limit
            gave_up.clear()
            movement.search(tables, board, allowance, numbered[start], (), False, None, costs)
            answers.append([limit, bool(gave_up)])
        else:
            first = [(n, 0, True) for n in costs.index_rivers[start]]
            kept = movement._packed(tables, costs, native.core)
            ran = native.core.run(kept, board.flags, allowance, start, True, first, 0, False, 0, False, numbered, limit)
            answers.append([limit, ran is None])
answer(found)
"""


def test_the_compiled_search_gives_up_past_as_many_sets_of_objectives_as_pure_pythons(built_tree):
    """A search tracking more sets of objectives than its limit gives up (movement.MOST_ROUTE_SETS; one route to each
    hex then): the compiled search gives up where pure Python's does, at the same limit, and a search after one that
    gave up tracks every set again. (Faults planted: search_core's too_many left set for the next search, N10; one
    set more tracked than the limit, N11.)"""
    found = _both(built_tree, _ROUTE_SETS)
    pure, fast = found[False]["found"], found[True]["found"]
    assert pure == fast
    every = [gave for answers in pure.values() for _, gave in answers]
    assert 10 < sum(every) < len(every) - 10  # searches that gave up and searches that did not, mixed


# many_towns' walker (2 MP, every hex clear: 1 MP a step, no zones of control) from every hex of the map, the towns
# passed through: too many to rank by VP, so the more towns the better, then the lower bits (Tables.objectives, in
# hex order). By hand: each path of one or two steps, the best of its towns kept for where it ends.
_TOWNS_BY_HAND = _ENGINE + """
import sys
tables = tables_for(load_game(sys.argv[1]))
assert not tables.mask_rank and len(tables.objectives) == int(sys.argv[2])
bit = {h: 1 << i for i, h in enumerate(tables.objectives)}
board = movement.Board.of_bits(0, 0, 0, len(tables.numbered))
found, ties = [], 0
for start in tables.numbered:
    by_hand = {}
    for first in tables.neighbours[start]:
        for path in [(first,), *((first, then) for then in tables.neighbours[first] if then != start)]:
            mask = sum(bit.get(h, 0) for h in path)
            old = by_hand.get(path[-1])
            if old is None or (mask.bit_count(), -mask) > (old.bit_count(), -old):
                by_hand[path[-1]] = mask
            ties += old is not None and mask != old and mask.bit_count() == old.bit_count()
    reach = movement.search(tables, board, 2, start, (), False, None, tables.base_costs)
    found.append([start, sorted(reach.destinations.items()), sorted(by_hand.items())])
answer({"ties": ties, "moves": found, "packed": bool(tables.base_costs.packed)})
"""
# Every hex of columns 1 to 8 a town: 64 objectives, one more than a mask of a C int64 (with -1 for none) holds
_SIXTY_FOUR_TOWNS = (("rows = 1..7", "rows = 1..8"),
                     ("""control_of = [0202, 0204, 0206, 0302, 0304, 0306, 0402, 0404, 0406, 0502,
                0506, 0602, 0604, 0606, 0702, 0704, 0706, 0802, 0804, 0806]""",
                      "control_of = [" + ", ".join(f"{c:02d}{r:02d}" for c in range(1, 9) for r in range(1, 9)) + "]"))


@pytest.mark.parametrize("towns", [20, 64])
def test_a_path_through_as_many_towns_of_lower_bits_is_worth_more_in_both_builds(built_tree, tmp_path, towns):
    """tests/games/many_towns (twenty towns; or a variant of 72 hexes, 64 of them towns: more than search_core's
    masks hold, OBJECTIVES_FIT, so pure Python's loop searches there, compiled too), each ranked by how many towns a
    path passes, then by the lower bits: a 2-MP move from each hex gets at each destination the towns worked out by
    hand from its paths, compiled as in pure Python. (Faults planted: search_core's _worth_more preferring the higher
    bits among as many towns, N04; OBJECTIVES_FIT letting 64 objectives into C int64 masks, N16.)"""
    game = str(built_tree / "tests" / "games" / "many_towns.rulec")
    if towns == 64:
        variant(tmp_path, "many_towns", *_SIXTY_FOUR_TOWNS)  # (checked here, written beside it)
        game = str(tmp_path / "many_towns_variant.rulec")
    found = _both(built_tree, _TOWNS_BY_HAND, game, str(towns))
    for compiled in (False, True):
        moves = found[compiled]["found"]["moves"]
        assert len(moves) == (63 if towns == 20 else 72)
        for start, destinations, by_hand in moves:
            assert destinations == by_hand, (compiled, start)
    assert found[False]["found"]["ties"] > 50  # paths of as many towns, other towns, to one hex: the lower bits won
    assert found[True]["found"]["packed"] == (towns == 20)  # (searched in C with twenty towns, in Python with 64)


# search_core.run on drive_on_metz's steps, from hexes with every MP: each search on its own, then each again with a
# second search started while it holds the kept lists (an arrival of its `first` that, unpacked, runs the other: the
# Python code a search may run midway), and each on its own once more
_SEARCH_WITHIN_A_SEARCH = _ENGINE + """
tables = tables_for(load_game("drive_on_metz"))
size, numbered = len(tables.numbered), tables.numbered
costs = tables.base_costs
kept = movement._packed(tables, costs, native.core)
rng = random.Random(7)
zoc = sum(1 << h for h in range(size) if rng.random() < 0.1)
flags = movement.Board.of_bits(0, zoc, 0, size).flags


def run(start, allowance, first=()):
    return native.core.run(kept, flags, allowance, start, True, list(first), 0, True, 1, False, numbered, 256)


def plain(found):
    masks, passed, to, numbers, looked, exits, exit_masks, exit_hexes = found
    return [list(to), sorted((masks or {}).items()), passed, list(numbers), looked, list(exits),
            sorted(exit_masks.items()), sorted(exit_hexes.items())]


class Arrival:
    # (hex number, MP left, stop there), unpacked by the search: runs `inner` first
    def __init__(self, item, inner):
        self.item, self.inner, self.found = item, inner, []

    def __iter__(self):
        self.found.append(plain(self.inner()))
        return iter(self.item)


pairs = [(rng.randrange(size), rng.randint(3, 10), rng.randrange(size), rng.randint(3, 10)) for _ in range(20)]
found = []
for start, allowance, other, other_allowance in pairs:
    near = tables.index[tables.neighbours[numbered[start]][0]]
    alone = plain(run(start, allowance, [(near, allowance - 3, False)]))
    other_alone = plain(run(other, other_allowance))
    arrival = Arrival((near, allowance - 3, False), lambda: run(other, other_allowance))
    outer = plain(run(start, allowance, [arrival]))
    again = plain(run(start, allowance, [(near, allowance - 3, False)]))
    found.append([alone, outer, again, other_alone, arrival.found])
answer(found)
"""


def test_a_search_started_within_another_takes_lists_of_its_own(built_tree):
    """A search that runs while another holds the lists kept on the same steps (search_core's Packed: busy) makes
    lists of its own: both answer as each does alone (destinations, their masks and numbers, the hexes looked at, the
    exits), and the kept lists are clean for the next. (Fault planted: the kept lists taken by the second search too,
    N26.)"""
    done = compiled_tests._python(built_tree, True, "-c", _SEARCH_WITHIN_A_SEARCH)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["engine"] == "compiled engine (mypyc)" and found["native"]
    for alone, outer, again, other_alone, inner in found["found"]:
        assert outer == alone == again and inner == [other_alone]
        assert alone[0] and other_alone[0]
