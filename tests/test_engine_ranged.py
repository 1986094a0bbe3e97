"""Ranged attacks: a unit type with `range = 2` bombards a hex two hexes away when no
terrain that blocks line of sight stands between (tests/games/bombardment.rulec)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulec.engine import Action, IllegalAction, new_game
from rulec.engine import sight
from rulec.pipeline import load_game

GAMES = Path(__file__).parent / "games"


@pytest.fixture(scope="module")
def game():
    return load_game(str(GAMES / "bombardment.rulec"))


def at(game, **places):
    return new_game(game).arrange(places, phase="blue_fight")


def test_artillery_bombards_a_hex_two_away_and_neither_side_moves(game):
    state = at(game, art="0403", r1="0405")
    assert state.tables.distance["0403"]["0405"] == 2
    assert Action.attack("0405") in state.legal_actions()
    for step in (Action.attack("0405"), Action.with_unit("art"), Action.resolve(), Action.roll(1)):
        state.apply_action(step)
    assert state.last_battle.result == "S1"
    assert state.unit("r1").strength == 1  # the bombardment cost it a step
    assert state.positions["art"] == "0403" and state.positions["r1"] == "0405"
    assert state.pending is None


def test_woods_between_block_the_line_of_sight(game):
    state = at(game, art="0403", r1="0401")  # 0402, straight between, is woods
    assert Action.attack("0401") not in state.legal_actions()
    with pytest.raises(IllegalAction, match="line of sight"):
        state.parse_orders("attack 0401 with art")


def test_a_line_along_a_hexside_is_blocked_only_if_both_hexes_beside_it_block(game):
    tables = new_game(game).tables
    assert sight.line_of_sight(tables, "0403", "0502")  # between: 0402 (woods) and 0503 (clear)
    assert not sight.line_of_sight(tables, "0404", "0604")  # between: 0504 and 0505, both woods
    assert "0502" in sight.in_sight(tables, "0403", 2) and "0604" not in sight.in_sight(tables, "0404", 2)


def test_out_of_range_and_units_without_range_attack_only_next_to_the_target(game):
    state = at(game, art="0403", r1="0406")  # three hexes away
    assert state.tables.distance["0403"]["0406"] == 3
    assert Action.attack("0406") not in state.legal_actions()
    state = at(game, inf="0403", r1="0405")  # infantry has no range: two hexes is too far
    assert Action.attack("0405") not in state.legal_actions()
    with pytest.raises(IllegalAction, match="no unit that may still attack this phase is next to 0405"):
        state.parse_orders("attack 0405 with inf")
    state = at(game).arrange({"art": "0401", "inf": "0304", "r1": "0305"}, phase="blue_fight")  # art three away
    state.apply_action(Action.attack("0305"))
    with pytest.raises(IllegalAction, match="out of its range of 2"):
        state.parse_action("with art")


def test_a_ranged_unit_joins_an_adjacent_attack_on_the_same_hex(game):
    state = at(game, art="0403", inf="0304", r1="0305")  # art two away, inf next to it
    state.apply_action(Action.attack("0305"))
    assert {Action.with_unit("art"), Action.with_unit("inf")} <= set(state.legal_actions())


def test_the_terrain_chart_says_which_terrain_blocks_line_of_sight(game):
    from rulec.aids.tec import terrain_chart
    notes = {row.id: row.notes for row in terrain_chart(game).terrain}
    assert notes["woods"] == "Blocks line of sight" and "line of sight" not in notes["clear"]


@pytest.mark.parametrize("name", ["bombardment", "ranged_duties", "ranged_exemption"])
def test_the_hexes_offered_to_attack_are_the_enemy_hexes_next_to_or_in_range_of_a_unit_that_may_still_attack(name):
    """battles._targets, asked of the enemy hexes, against its definition asked of the attackers, in random games
    with ranged units and plain ones."""
    from rulec.engine import battles, duties, stacking

    played = load_game(str(GAMES / f"{name}.rulec"))
    compared = 0
    for seed in range(6):
        state, rng = new_game(played, seed=seed), random.Random(seed)
        while not state.is_terminal() and compared < 400:
            if state.phase.kind == "combat" and state.pending is None and not state.is_chance_node():
                near = set()
                for uid in duties.ready_to_attack(state):
                    h = state.pos.get(uid)
                    reach = battles.ranged_units(state).get(uid)
                    if h is not None:
                        near.update(sight.in_sight(state.tables, h, reach) if reach else state.tables.neighbours[h])
                occupants = stacking.occupants(state)
                expected = [Action.attack(h) for h in sorted(near.intersection(occupants))
                            if state.unit(occupants[h][0]).side != state.phase.side
                            and not (state.defended and state.defended.issuperset(occupants[h]))]
                assert battles._targets(state) == expected
                compared += 1
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    assert compared > 20
