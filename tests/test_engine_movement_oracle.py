"""The movement search against a plain recursive walk over every path, on random positions.

The walk reads the game model directly (terrain, hexside features, neighbours), not the
engine's precomputed tables, so the two implementations check each other.
"""

from __future__ import annotations

import random

from rulec.engine import new_game, reach


def step_cost(game, a, b):
    """(MP, is a river crossing) to enter b from a, from the model's own words."""
    features = [game.hexside_types[f] for f in game.map.features_between(a, b)]
    road = [f.move for f in features if f.kind == "road" and f.move is not None]
    if road:
        return min(road), False
    costs = [game.terrain[t].move for t in game.map.terrain[b] if game.terrain[t].move is not None]
    river = any(f.crossing == "all_mp_from_start_adjacent" for f in features)
    return max(costs), river


def walk(game, start, allowance, enemies, zoc):
    """Every hex a unit can stop in, trying every path (fine for small allowances)."""
    found = set()

    def go(hex, left, first):
        for n in game.map.neighbours[hex].values():
            if n in enemies:
                continue
            cost, river = step_cost(game, hex, n)
            if river:
                if first:
                    found.add(n)
                continue
            if cost > left:
                continue
            found.add(n)
            if n not in zoc:
                go(n, left - cost, False)

    go(start, allowance, True)
    found.discard(start)
    return found


def test_the_search_finds_what_a_walk_over_every_path_finds(metz):
    rng = random.Random(5)
    hexes = list(metz.map.hexes)
    us = [u for u, x in metz.units.items() if x.side == "us" and not x.optional]
    germans = [u for u, x in metz.units.items() if x.side == "germany"]
    checked = 0
    for _ in range(40):
        spots = rng.sample(hexes, 8)
        units = dict(zip(rng.sample(us, 4), spots[:4])) | dict(zip(rng.sample(germans, 4), spots[4:]))
        state = new_game(metz).arrange(units, turn=2, phase="us_movement")
        enemies = {h for u, h in units.items() if metz.units[u].side == "germany"}
        zoc = {n for h in enemies for n in metz.map.neighbours[h].values()}
        for uid, hex in units.items():
            unit = metz.units[uid]
            if unit.side != "us" or unit.move > 5:
                continue  # the walk is exponential in the allowance
            expected = set() if hex in zoc else walk(metz, hex, unit.move, enemies, zoc)  # 7.43: locked
            assert set(reach.unit_reach(state, uid).destinations) == expected, (uid, hex, units)
            checked += 1
    assert checked > 50
