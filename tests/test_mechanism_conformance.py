"""The made-up games of the mechanisms of issue 20 (options in expressions, game variables, sets combined, steps
both ways, sparing units a result, edges by side, phases of some modes, battle amounts, displacement) keep the
engine's promises through random play: every invariant of rulec/engine/conformance.py, replays, clones, options
drawn at random."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.engine.conformance import check_game
from rulec.pipeline import load_game

GAMES = Path(__file__).parent / "games"
MECHANISM_GAMES = ["option_rules", "game_variables", "combined_pools", "steps_both_ways", "ranged_exemption",
                   "edge_rules", "rail_phase", "battle_amounts", "displacement"]


@pytest.mark.parametrize("name", MECHANISM_GAMES)
def test_random_games_break_no_promise(name):
    assert check_game(load_game(str(GAMES / f"{name}.rulec")), n_games=20, seed=7) == []
