"""EngineContext.units: the units on the map that match every filter given, in the order of the position's units:
what runtime.context.select_units finds over every unit on the map and its hex (the game's zones merged for it only
when a zone is asked for)."""

from __future__ import annotations

import random

from rulec.engine import new_game
from rulec.engine.context import EngineContext
from rulec.pipeline import load_game
from rulec.runtime.context import select_units


def test_units_on_the_map_by_side_and_type_are_those_select_units_finds_at_every_step_of_random_games():
    game = load_game("the_marne")
    types = sorted({unit.type for unit in game.units.values()})
    zone = sorted(game.map.edges)[0]
    first_side = next(iter(game.sides))
    compared = 0
    for seed in range(2):
        state, rng = new_game(game, seed=seed), random.Random(seed)
        for _ in range(150):
            if state.is_terminal():
                break
            placed = [(state.unit(uid), where) for uid, where in state.positions.items()]
            zones = {**game.map.edges, **state.tables.zones}
            for side in (None, *game.sides):
                for kind in (None, rng.choice(types)):
                    context = EngineContext(state)
                    found = context.units(side=side, type=kind)
                    assert list(found) == select_units(placed, zones, side, None, None, kind, None)
                    compared += 1
            assert list(EngineContext(state).units(side=first_side, zone=zone)) == \
                select_units(placed, zones, first_side, zone)
            state.apply_action(state.sample_legal_action(rng) if not state.is_chance_node()
                               else rng.choice(state.chance_outcomes())[0])
    assert compared >= 1000
