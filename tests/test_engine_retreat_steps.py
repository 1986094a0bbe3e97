"""The steps between hexes a retreat asks of (combat.Steps, kept with the game's tables from battle to battle) are
the map's distances: after random games, every one kept equals a breadth-first count over the map's adjacencies."""

from __future__ import annotations

import random
from collections import deque

import pytest

from rulec.engine import combat, new_game
from rulec.pipeline import load_game


def _steps_from_scratch(neighbours: dict, a: str) -> dict[str, int]:
    found, todo = {a: 0}, deque([a])
    while todo:
        h = todo.popleft()
        for n in neighbours[h]:
            if n not in found:
                found[n] = found[h] + 1
                todo.append(n)
    return found


@pytest.mark.parametrize("name, games, actions", [("drive_on_metz", 12, 400), ("the_marne", 1, 1500)])
def test_the_steps_kept_for_retreats_are_the_distances_on_the_map(name, games, actions):
    game = load_game(name)
    tables = None
    for seed in range(games):
        state, rng = new_game(game, seed=seed), random.Random(seed)
        tables = state.tables
        for _ in range(actions):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            else:
                state.apply_action(state.sample_legal_action(rng))
    assert tables is not None
    kept = {key[1]: steps for key, steps in tables.edge_distances.items()
            if type(key) is tuple and len(key) == 2 and key[0] == "steps"}
    assert kept, "no retreat asked"
    compared = 0
    for a, steps in kept.items():
        assert isinstance(steps, combat.Steps) and combat.steps_from(tables, a) is steps
        fresh = _steps_from_scratch(tables.neighbours, a)
        for b, known in steps.known.items():
            assert known == fresh.get(b), (a, b)
            compared += 1
    assert compared > 20
