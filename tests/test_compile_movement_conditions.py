"""The movement conditions (may_end_move, entry_blocked, leave_zoc's into_zoc, reinforcement_delay, stacking counts)
survive code generation: the made-up games that use them compile to modules that pass a strict type check
and play as the games read from their files do; and random games of them keep the engine's promises
(rulec/engine/conformance.py: legal actions apply, illegal ones are refused and change nothing, no hex
over the stacking limit when a phase starts ...)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from rulec.compile.codegen import generate_module
from rulec.engine import PENDING, new_game
from rulec.engine.conformance import check_game
from rulec.pipeline import load_compiled, load_game

GAMES = Path(__file__).resolve().parent / "games"
NAMES = ("river_screen", "supply_leash", "leapfrog")
# A position of each game where the conditions decide the legal actions.
POSITIONS = {
    "river_screen": ({"r_line": "0503", "b_fort": "0402", "b_guard": "0404", "b_picket": "0501", "b_reserve": PENDING},
                     2, "blue_move"),
    "supply_leash": ({"b_scout": "0302", "b_lost": "0702", "r_guard": "0503"}, 1, "blue_move"),
    "leapfrog": ({"r_mover": "0402", "r_anchor": "0503", "b_line": "0502"}, 1, "red_move"),
}


@pytest.fixture(scope="module")
def compiled(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("movement_conditions")
    for name in NAMES:
        (out / f"{name}.py").write_text(generate_module(load_game(str(GAMES / f"{name}.rulec"))), encoding="utf-8")
    return out


@pytest.mark.parametrize("name", NAMES)
def test_the_compiled_game_plays_as_the_file_does(name, compiled):
    units, turn, phase = POSITIONS[name]
    read = new_game(load_game(str(GAMES / f"{name}.rulec"))).arrange(units, turn=turn, phase=phase)
    built = new_game(load_compiled(str(compiled / f"{name}.py"))).arrange(units, turn=turn, phase=phase)
    assert read.legal_actions() == built.legal_actions() and read.legal_actions()


def test_the_compiled_modules_pass_a_strict_type_check(compiled):
    api = pytest.importorskip("mypy.api")
    limit = sys.getrecursionlimit()
    try:
        out, err, status = api.run(["--strict", "--follow-imports=silent", "--no-incremental", "--no-error-summary",
                                    *(str(compiled / f"{name}.py") for name in NAMES)])
    finally:
        sys.setrecursionlimit(limit)  # mypy raises it for the whole process; other tests rely on the default
    assert status == 0, out + err


@pytest.mark.parametrize("name", NAMES)
def test_random_games_keep_the_engines_promises(name):
    assert check_game(load_game(str(GAMES / f"{name}.rulec")), n_games=40, seed=3) == []
