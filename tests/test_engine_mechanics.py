"""The engine reads every mechanic from the model: variants of Drive on Metz with other rules."""

from __future__ import annotations

from dataclasses import replace

from rulec.engine import Action, new_game
from rulec.engine.combat import base_column
from rulec.engine.tables import tables_for
from rulec.runtime.model import CombatTable, CrtColumn


def at(game, units, phase="us_movement", turn=2):
    return new_game(game).arrange(units, turn=turn, phase=phase)


def destinations(state, uid):
    return {a.hex for a in state.moves_of(uid) if a.kind == "move"}


def test_odds_tables_round_in_the_defenders_favour():
    table = CombatTable(id="odds", kind="odds", rows={1: ("AE", "NE", "DR", "DE")},
                        columns=(CrtColumn("1:2", None, (1, 2)), CrtColumn("1:1", (1, 1), (1, 1)),
                                 CrtColumn("2:1", (2, 1), (2, 1)), CrtColumn("3:1", (3, 1), None)))
    assert [table.columns[base_column(table, a, d)].label for a, d in
            [(1, 4), (3, 4), (4, 4), (5, 2), (6, 2), (20, 1)]] == ["1:2", "1:2", "1:1", "2:1", "3:1", "3:1"]


def test_cumulative_terrain_adds_the_shifts(metz):
    cumulative = replace(metz, combat=replace(metz.combat, terrain_effects="cumulative"))
    assert tables_for(cumulative).hex_shift["0507"] == (-5, 0)  # forest -2 and fortified -3
    assert tables_for(metz).hex_shift["0507"] == (-3, 0)


def test_zoc_with_an_extra_cost_instead_of_a_stop(metz):
    rules = replace(metz.movement, zoc="extra_cost", zoc_extra_cost=1, zoc_locks_start=False)
    variant = replace(metz, movement=rules)
    # 357 on the road 0203-0304-0305-0405 past a German unit in 0404: 1 + 2 + 2 = 5 MP > 4.
    state = at(variant, {"us_357": "0203", "de_1010": "0404"})
    assert "0305" in destinations(state, "us_357") and "0405" not in destinations(state, "us_357")
    state = at(variant, {"us_cca": "0203", "de_1010": "0404"})
    assert "0405" in destinations(state, "us_cca")  # armour has the MP to go on


def test_zoc_does_not_cross_rivers_when_the_game_says_so(metz):
    variant = replace(metz, movement=replace(metz.movement, zoc_across_rivers=False))
    state = at(variant, {"us_357": "0101", "de_1010": "0804"})
    assert "0803" not in state.enemy_zoc("us") and "0805" in state.enemy_zoc("us")
    assert "0803" in at(metz, {"us_357": "0101", "de_1010": "0804"}).enemy_zoc("us")


def test_a_stacking_limit_of_two(metz):
    variant = replace(metz, stacking=replace(metz.stacking, limit=2))
    state = at(variant, {"us_357": "0204", "us_358": "0104", "de_1010": "0911"})
    state.apply_action(Action.move("us_358", "0205"))
    state.apply_action(Action.move("us_357", "0205"))
    state.apply_action(Action.end())
    assert state.removing is None and state.phase.id == "us_combat"


def test_the_owner_removes_over_stacked_units_when_the_game_says_so(metz):
    variant = replace(metz, stacking=replace(metz.stacking, overstack="owner_removes"))
    state = at(variant, {"us_357": "0305", "us_358": "0305", "de_1010": "0911"}, phase="us_combat")
    state.apply_action(Action.end())
    assert state.removing == "us" and state.current_player() == 0


def test_the_victor_chooses_the_retreat_when_the_game_says_so(metz):
    variant = replace(metz, combat=replace(metz.combat, retreat=replace(metz.combat.retreat, chosen_by="victor")))
    state = at(variant, {"us_357": "0305", "de_1010": "0405"}, phase="us_combat")
    for step in state.parse_orders("attack 0405 with 357"):
        state.apply_action(step)
    state.apply_action(Action.roll(2))  # +3: DR
    assert state.retreats and state.current_player() == 0


def test_no_exit_when_the_map_may_not_be_left(metz):
    variant = replace(metz, movement=replace(metz.movement, exit_map=False))
    state = at(variant, {"us_357": "0905", "de_1010": "0101"})
    assert not [a for a in state.moves_of("us_357") if a.kind == "exit"]
    assert [a for a in at(metz, {"us_357": "0905", "de_1010": "0101"}).moves_of("us_357") if a.kind == "exit"]


def test_no_passing_through_friends_when_the_game_says_so(metz):
    variant = replace(metz, stacking=replace(metz.stacking, pass_through_friendly=False, moves_end_over_limit=False))
    units = {"us_cca": "0203", "us_357": "0304", "de_1010": "0911"}
    # The road 0203-0304-0305 runs through 357: CCA must go round.
    blocked = at(variant, units)
    assert "0304" not in destinations(blocked, "us_cca")  # nor stop on 357 (no move ends over the limit)
    # where a move may end over the limit, it may stop on 357 (which may still move away)
    stopping = at(replace(variant, stacking=replace(variant.stacking, moves_end_over_limit=True)), units)
    assert "0304" in destinations(stopping, "us_cca")
    assert "0405" in destinations(at(metz, units), "us_cca")
    free = at(variant, {"us_cca": "0203", "de_1010": "0911"})
    assert destinations(blocked, "us_cca") < destinations(free, "us_cca")


def test_victory_by_ratio(metz):
    from rulec.engine.victory import outcome
    from rulec.runtime.model import VictoryLevel, VictoryRules

    rules = VictoryRules(measure="ratio", levels=(VictoryLevel("big", "Big Win", 3.0), VictoryLevel("win", "Win", 1.5)))
    variant = replace(metz, victory=rules)
    assert outcome(variant, {"us": 30, "germany": 10}).level == "Big Win"
    assert outcome(variant, {"us": 20, "germany": 10}).level == "Win"
    assert outcome(variant, {"us": 12, "germany": 10}).winner is None
    assert outcome(variant, {"us": 0, "germany": 4}).winner == "germany"


def test_a_unit_that_leaves_the_map_left_from_the_last_hex_of_its_path(metz):
    """exited_from is the hex on the map edge the unit stepped off from, not where its move began."""
    on_edges = set().union(*metz.map.edges.values())
    checked = 0
    for start in sorted(set(metz.map.hexes) - on_edges):
        state = at(metz, {"us_357": start, "de_1010": "0101"})
        for action in [a for a in state.moves_of("us_357") if a.kind == "exit"]:
            child = state.clone()
            child.apply_action(action)
            assert child.exited_from["us_357"] in metz.map.edges[action.edge], (start, action)
            checked += 1
        if checked >= 3:
            break
    assert checked >= 3
