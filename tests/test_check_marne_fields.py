"""Less common settings a larger game uses are read into the model.

tests/bad_games/ok_marne_features.rulec is a small valid game written with
settings neither shipped game uses (an odds table, cumulative terrain, ratio
victory, stacking checked at the end of movement); each test reads them back
from the built model. Every setting the checker accepts is one the engine
plays (tests/test_schema_coverage.py); these carry no `rule` marker.
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
    assert game.movement.blocked_entry == "delay"


def test_odds_table_from_1_5_to_10_1(game):
    table = game.tables["main"]
    assert table.kind == "odds"
    assert (table.columns[0].low, table.columns[0].high) == (None, (1, 5))
    assert (table.columns[-1].low, table.columns[-1].high) == ((6, 1), (10, 1))
    assert table.die_range == (0, 7)  # modified rolls below and above the die


def test_retreat_and_advance_policies(game):
    assert game.combat.retreat.chosen_by == "victor"
    assert game.combat.advance.into == ("defender_hex", "retreat_path")


def test_exit_vp_by_strength(game):
    award = game.awards[0]
    assert award.trigger.edges == ("south",) and award.amount.source == "strength * 5"


def test_victory_by_ratio_levels(game):
    assert game.victory.measure == "ratio"
    assert [level.at_least for level in game.victory.levels] == [4.0, 1.5]


