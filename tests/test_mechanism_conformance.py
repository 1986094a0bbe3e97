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


@pytest.mark.parametrize("name", MECHANISM_GAMES)
def test_the_compiled_module_plays_the_same_game(name, tmp_path):
    from rulec.engine import new_game
    from rulec.pipeline import generate, load_compiled

    source = load_game(str(GAMES / f"{name}.rulec"))
    module = tmp_path / f"{name}.py"
    module.write_text(generate(source), encoding="utf-8")
    compiled = load_compiled(module)
    assert compiled == source  # every field, the new ones (variables, tiers, spared, may_exit...) included
    assert check_game(compiled, n_games=3, seed=11) == []
    played = new_game(source, options=tuple(source.options), seed=2)
    again = new_game(compiled, options=tuple(source.options), seed=2)
    for _ in range(40):
        if played.is_terminal():
            break
        action = played.legal_actions()[-1]
        played.apply_action(action)
        again.apply_action(action)
    assert again.history() == played.history() and again.vp == played.vp and again.variables == played.variables
