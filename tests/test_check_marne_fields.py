"""The language holds what the Marne's rules need (docs/language.md, section "The Marne").

tests/bad_games/ok_marne_features.rulec is a small valid game written with
every construct the Marne rule cases call for; each test reads one case's
facts back from the built model. These prove the front end carries the facts,
not that an engine plays them, so they carry no `rule` marker.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.pipeline import load_game

GAME = Path(__file__).resolve().parent / "bad_games" / "ok_marne_features.rulec"


@pytest.fixture(scope="module")
def game():
    return load_game(str(GAME))


def test_stacking_three_checked_at_end_of_movement(game):
    assert (game.stacking.limit, game.stacking.checked, game.stacking.overstack) == (3, "end_of_movement", "owner_removes")


def test_zoc_costs_one_extra_mp_no_zoc_to_zoc_not_across_rivers(game):
    assert (game.movement.zoc, game.movement.zoc_extra_cost, game.movement.zoc_to_zoc, game.movement.zoc_across_rivers) == (
        "extra_cost", 1, False, False)


def test_leapfrog_is_a_movement_rule(game):
    assert game.movement.leapfrog is True


def test_supply_path_of_forty_hexes_to_sources_by_side(game):
    supply = game.supply
    assert supply.range == 40
    assert supply.sources == {"germany": ("north",), "allies": ("south", "paris")}
    assert supply.source_lost_when_enemy_held


def test_out_of_supply_costs_one_mp_and_half_strength(game):
    assert (game.supply.move_penalty, game.supply.strength_multiplier) == (1, 0.5)
    assert game.supply.move_only_toward_supply and game.supply.attack_only_to_reopen_supply


def test_odds_table_from_1_5_to_10_1(game):
    table = game.tables["main"]
    assert table.kind == "odds"
    assert (table.columns[0].low, table.columns[0].high) == (None, (1, 5))
    assert (table.columns[-1].low, table.columns[-1].high) == ((6, 1), (10, 1))
    assert table.die_range == (0, 7)  # modified rolls below and above the die


def test_retreat_and_advance_policies(game):
    assert game.combat.retreat.chosen_by == "victor"
    assert game.combat.advance.into == ("defender_hex", "retreat_path")


def test_forts_are_fixed_units_destroyed_only_by_de(game):
    fort = game.unit_types["fort"]
    assert fort.fixed and fort.eliminated_only_by == ("DE",) and fort.adds_to_defense and fort.must_be_attacked


def test_towns_print_their_vp_on_the_map(game):
    assert game.map.hex_vp == {"0202": 3, "0303": 1}


def test_exit_vp_only_in_supply(game):
    award = game.awards[0]
    assert award.requires_supply and award.trigger.edges == ("south",) and award.amount.source == "strength * 5"


def test_victory_by_ratio_levels(game):
    assert game.victory.measure == "ratio"
    assert [level.at_least for level in game.victory.levels] == [4.0, 1.5]


def test_scenario_start_turn_and_first_side(game):
    scenario = game.options["counterattack"]
    assert (scenario.start_turn, scenario.turns, scenario.first_side) == (8, 10, "germany")
    assert scenario.free_setup == {"allies": "allied_area"}


def test_demoralization_halves_a_side_until_a_turn(game):
    pursuit = game.options["pursuit"]
    assert pursuit.strength_multiplier == {"allies": 0.5} and pursuit.strength_multiplier_until_turn == 6


def test_disruption_phases(game):
    phases = {phase.id: phase for phase in game.sequence}
    assert phases["g_fight1"].attackers_disrupted and phases["g_move2"].only_undisrupted and phases["g_fight2"].recover
