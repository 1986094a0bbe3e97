"""A rigid zone of control that costs MP to enter (tests/games/rigid_zoc.rulec, a made-up game).

`zoc = stop_on_entry` with `zoc_extra_cost = 1`: entering an enemy-controlled hex costs 1 MP more
and ends the move, so no unit moves through a ZOC; `extra_cost` alone charges the MP and lets it
go on; `zoc = none` leaves `zoc_extra_cost` nothing to do (field-alone).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from rulec.engine import Action, IllegalAction, new_game
from rulec.pipeline import check_file, load_game

GAME = Path(__file__).resolve().parent / "games" / "rigid_zoc.rulec"


@pytest.fixture(scope="module")
def game():
    return load_game(str(GAME))


def costs(state, uid="r_scout"):
    return {a.hex: state.move_cost(uid, a.hex) for a in state.moves_of(uid) if a.kind == "move"}


def with_movement(game, **changes):
    return replace(game, movement=replace(game.movement, **changes))


def test_entering_an_enemy_zoc_costs_the_extra_mp_and_ends_the_move(game):
    state = new_game(game)
    assert {"0301", "0302"} <= state.enemy_zoc("red")  # b_guard in 0401 bars the way east
    assert costs(state) == {"0102": 1, "0201": 1, "0202": 2, "0301": 3, "0302": 3}  # 2 hexes + 1 MP, then stop
    with pytest.raises(IllegalAction):
        state.apply_action(Action.move("r_scout", "0601"))  # 8 MP would pay for it, through the ZOC
    state.apply_action(Action.move("r_scout", "0301"))
    assert state.positions["r_scout"] == "0301"


def test_the_same_cost_without_stopping_lets_a_unit_through(game):
    through = costs(new_game(with_movement(game, zoc="extra_cost")))
    assert through["0301"] == 3 and through["0601"] == 8  # 0301, 0402, 0502 (each 1 + 1), then 0601


def test_without_the_extra_cost_the_unit_only_stops(game):
    assert costs(new_game(with_movement(game, zoc_extra_cost=0)))["0301"] == 2


def test_zoc_extra_cost_with_zoc_none_does_nothing(tmp_path):
    path = tmp_path / "rigid_zoc.rulec"
    path.write_text(GAME.read_text(encoding="utf-8").replace("zoc = stop_on_entry", "zoc = none"), encoding="utf-8")
    found = check_file(str(path)).diagnostics
    assert [d.code for d in found] == ["field-alone"]
    assert "'zoc = extra_cost' or 'zoc = stop_on_entry'" in found[0].message
