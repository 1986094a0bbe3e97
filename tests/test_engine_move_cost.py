"""GameState.move_cost / exit_cost: the MP a move spends, on Drive on Metz positions, and the play narration."""

from __future__ import annotations

import io
import random
from dataclasses import replace

import pytest

from rulec.cli.board_view import GameScreen
from rulec.engine import PENDING, Action, new_game
from rulec.engine.movement import costs_of
from rulec.engine.reach import search_moves, unit_reach

rule = pytest.mark.rule


def at(game, units, phase="us_movement", turn=2):
    return new_game(game).arrange(units, turn=turn, phase=phase)


def roadless(metz):
    """The map without its roads, so that only the river rules are at work."""
    features = {k: tuple(f for f in v if f != "road") for k, v in metz.map.hexside_features.items()}
    return replace(metz, map=replace(metz.map, hexside_features=features, edge_exits={}))


@rule("metz:7.2")
def test_clear_costs_two_mp_a_hex(metz):
    # 0107 southwards through plain hexsides into clear hexes.
    state = at(metz, {"us_357": "0107", "de_1010": "0911"})
    assert state.move_cost("us_357", "0108") == 2
    assert state.move_cost("us_357", "0109") == 4
    assert state.move_cost("us_357", "0110") is None  # 6 MP (or 5 by road) is beyond its 4


@rule("metz:7.23")
def test_a_road_costs_one_mp_a_hex_whatever_the_terrain(metz):
    # 0303 (forest) along the road 0402, 0502, 0601, 0701, all forest.
    state = at(metz, {"us_357": "0303", "de_1010": "0911"})
    assert [state.move_cost("us_357", h) for h in ("0402", "0502", "0601", "0701")] == [1, 2, 3, 4]


@rule("metz:7.2")
def test_forest_off_the_road_costs_four(metz):
    state = at(metz, {"us_357": "0304", "de_1010": "0911"})
    assert state.move_cost("us_357", "0403") == 4


@rule("metz:7.2")
def test_a_river_crossing_spends_the_whole_allowance(metz):
    # Without roads, 0803 (clear, 2 MP) is reached from 0804 only across the Moselle.
    game = roadless(metz)
    assert at(game, {"us_357": "0804", "de_1010": "0101"}).move_cost("us_357", "0803") == 4
    assert at(game, {"us_cca": "0804", "de_1010": "0101"}).move_cost("us_cca", "0803") == 10
    # With the roads, the bridge 0804/0905 costs the road's 1 MP.
    assert at(metz, {"us_357": "0804", "de_1010": "0101"}).move_cost("us_357", "0905") == 1


@rule("metz:8.1")
def test_a_reinforcement_pays_its_entry_hex_road_or_not(metz):
    state = at(metz, {"us_357": PENDING, "de_1125": "0911"})
    # Entering 0103 through its road hexside costs 1 MP, then 1 a hex along the road.
    assert [state.move_cost("us_357", h) for h in ("0103", "0203", "0304", "0305")] == [1, 2, 3, 4]
    assert state.move_cost("us_357", "0102") == 2  # clear, no road: the clear cost
    assert state.move_cost("us_357", "0202") is None  # forest beyond: 2 + 4 > 4


@rule("metz:7.51")
def test_an_exit_costs_the_way_to_the_edge_and_the_step_off(metz):
    state = at(metz, {"de_1126": "0203", "us_357": "0911"}, phase="germany_movement")
    assert state.exit_cost("de_1126", "west") == 2  # 0203 -> 0103 by road (1), off by road (1)
    assert state.exit_cost("de_1126", "east") is None
    state = at(metz, {"de_gar": "0102", "us_357": "0911"}, phase="germany_movement")
    assert state.exit_cost("de_gar", "west") is None  # 2 MP to leave clear 0102, and it has 1


def test_no_cost_for_a_move_that_is_not_legal_now(metz):
    state = at(metz, {"us_357": "0107", "de_1010": "0911"})
    assert state.move_cost("de_1010", "0910") is None  # not its side's phase
    assert state.move_cost("us_357", "0107") is None  # staying put is not a move
    assert state.move_cost("no_such_unit", "0108") is None
    state.apply_action(Action.move("us_357", "0108"))
    assert state.move_cost("us_357", "0109") is None  # it has moved


def test_asking_changes_neither_the_legal_actions_nor_their_order(metz):
    state = new_game(metz, seed=3)
    before = state.legal_actions()
    orders = [order for action in before for order in (state.moves_of(action.unit) if action.kind == "move" else [action])]
    assert orders
    for action in orders:
        if action.kind == "move":
            assert state.move_cost(action.unit, action.hex) is not None
        elif action.kind == "exit":
            assert state.exit_cost(action.unit, action.edge) is not None
    assert state.legal_actions() == before


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_cost_search_finds_the_same_destinations_as_the_reach_search(metz, seed):
    """Along random games, every unit that may move: the same hexes and edges, within its allowance."""
    state, rng, checked = new_game(metz, seed=seed), random.Random(seed), 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        if state.phase.kind == "movement":
            for uid in {a.unit for a in state.legal_actions() if a.kind in ("move", "exit")}:
                found, costs = unit_reach(state, uid), search_moves(state, uid, costs_of)
                assert set(costs.destinations) == set(found.destinations)
                assert tuple(costs.exits) == found.exits
                assert all(0 <= spent <= state.unit(uid).move for spent in costs.destinations.values())
                checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 50


def narrated(state, action) -> str:
    out = io.StringIO()
    GameScreen(state.game, out=out).narrate(state, action, state.current_player())
    return out.getvalue().splitlines()[-1]


def test_the_narration_tells_the_mp_spent_of_the_allowance(metz):
    state = at(metz, {"us_357": "0303", "de_1010": "0911"})
    assert narrated(state, Action.move("us_357", "0502")) == "  United States: 357 moves 0303 -> 0502 (2 of 4 MP)"
    state = at(metz, {"us_357": PENDING, "de_1125": "0911"})
    assert narrated(state, Action.move("us_357", "0103")) == "  United States: 357 enters the map at 0103 (1 of 4 MP)"
    state = at(metz, {"de_1126": "0203", "us_357": "0911"}, phase="germany_movement")
    assert narrated(state, Action.exit("de_1126", "west")) == \
        "  Germany: 1126 leaves the map from 0203 by the west edge (2 of 4 MP)"
