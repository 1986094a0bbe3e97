"""Where a move may end (tests/games/supply_leash.rulec, a made-up game).

`movement { may_end_move }`: no unit may end its move out of supply (a trace from the west edge,
4 hexes long), and a unit marked isolated may only move toward the west edge (`distance_to`).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from rulec.engine import Action, IllegalAction, new_game
from rulec.engine.context import EngineContext
from rulec.pipeline import check_file, load_game

GAME = Path(__file__).resolve().parent / "games" / "supply_leash.rulec"


@pytest.fixture(scope="module")
def game():
    return load_game(str(GAME))


def destinations(state, uid):
    return {a.hex for a in state.moves_of(uid) if a.kind == "move"}


def supplied_hexes(state):
    context = EngineContext(state)
    return {h for h in state.tables.hexes if context.traced_hex("supply", "blue", h)}


def test_a_unit_may_end_its_move_only_in_supply(game):
    state = new_game(game)
    free = new_game(replace(game, movement=replace(game.movement, may_end_move=None)))
    reach = destinations(free, "b_scout")
    assert {"0601", "0602", "0603", "0702"} <= reach  # four MP east, beyond the supply trace's 4 hexes
    assert destinations(state, "b_scout") == reach & supplied_hexes(state)
    assert max(int(h[:2]) for h in destinations(state, "b_scout")) == 5


def test_a_refused_move_cites_the_rule(game):
    state = new_game(game)
    with pytest.raises(IllegalAction) as error:
        state.apply_action(Action.move("b_scout", "0602"))
    assert error.value.rule == "9.2" and "may not end its move in 0602" in error.value.message
    assert state.positions["b_scout"] == "0302"  # nothing changed


def test_an_isolated_unit_may_only_move_toward_its_supply_source(game):
    state = new_game(game)
    state.mark("b_lost", "isolated")
    ends = destinations(state, "b_lost")
    assert ends and all(int(h[:2]) < 7 for h in ends)  # every end nearer the west edge than column 7
    assert "0601" in ends and "0802" not in ends and "0701" not in ends
    # Unmarked, the same unit ends only in supply (columns 1 to 5).
    state.unmark("b_lost", "isolated")
    assert max(int(h[:2]) for h in destinations(state, "b_lost")) == 5


def test_the_condition_follows_the_position(game):
    # Red in 0503: its zone of control (0402, 0403, 0502 ...) blocks the trace, so the scout may no longer end there.
    state = new_game(game).arrange({"b_scout": "0302", "b_lost": "0702", "r_guard": "0503"}, turn=1, phase="blue_move")
    assert {"0402", "0403", "0502"} <= state.enemy_zoc("blue")
    assert destinations(state, "b_scout") == {"0101", "0102", "0103", "0201", "0202", "0203", "0301", "0303", "0401", "0501"}
    assert not state.is_legal(Action.move("b_scout", "0402"))


def test_distance_to_counts_from_the_nearest_hex_of_the_set(game):
    context = EngineContext(new_game(game))
    assert context.distance_to(context.zone("west"), "0101") == 0
    assert context.distance_to(context.zone("west"), "0702") == 6
    assert context.distance_to(("0501", "0903"), "0702") == 2
    assert context.distance_to((), "0702") > 1000


def test_hex_in_may_end_move_is_the_destination_and_elsewhere_unknown(tmp_path):
    text = GAME.read_text(encoding="utf-8")
    path = tmp_path / "leash.rulec"
    path.write_text(text.replace("marker isolated { name = \"Isolated\" }",
                                 "marker isolated { name = \"Isolated\"  expires = hex == 0101 }"), encoding="utf-8")
    found = check_file(str(path)).diagnostics
    assert [d.code for d in found] == ["unknown-name"]
    assert "in a trace's 'through'" in found[0].message
