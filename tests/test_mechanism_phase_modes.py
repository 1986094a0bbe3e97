"""Phases that allow only some ways of moving, on a made-up game (tests/games/rail_phase.rulec): a rail-only phase
(phase { modes = [rail] }: along rail hexsides, no ordinary move), a phase of armor only (movers) with ordinary
moves only; refusals name the rule that forbids the move."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.engine import Action, IllegalAction, new_game
from rulec.pipeline import check_file, load_game

GAMES = Path(__file__).parent / "games"


@pytest.fixture(scope="module")
def game():
    return load_game(str(GAMES / "rail_phase.rulec"))


def ends(state, uid: str) -> set[str]:
    return {a.hex for a in state.moves_of(uid) if a.kind == "move"}


def test_the_rail_phase_moves_only_along_the_railway(game):
    state = new_game(game)
    assert state.phase.id == "red_rail"
    assert ends(state, "r_inf") == {"0202", "0302", "0402", "0502", "0602"}  # six hexes at 1/4 MP each: all in reach
    assert ends(state, "r_tanks") == set()  # next to the line, but off it: no ordinary move in this phase
    assert {a.unit for a in state.legal_actions() if a.kind == "move"} == {"r_inf"}
    with pytest.raises(IllegalAction, match="move only by Rail movement in the red_rail"):
        state.apply_action(Action.move("r_inf", "0101"))  # one ordinary step: refused, and the refusal says why
    state.apply_action(Action.move("r_inf", "0602"))
    assert state.positions["r_inf"] == "0602"


def test_an_ordinary_phase_of_one_unit_type_uses_no_mode(game):
    state = new_game(game)
    state.apply_action(Action.end())
    assert state.phase.id == "red_armor"
    assert ends(state, "r_tanks") >= {"0101", "0403"} and "0602" not in ends(state, "r_tanks")
    with pytest.raises(IllegalAction, match=r"only units\(side = red, type = armor\) move in it"):
        state.apply_action(Action.move("r_inf", "0202"))


def test_a_phase_with_every_way_open_combines_them(game):
    state = new_game(game)
    state.apply_action(Action.end())
    state.apply_action(Action.end())
    assert state.phase.id == "red_move"
    assert {"0101", "0602"} <= ends(state, "r_inf")  # an ordinary step and the whole line by rail


def bad(tmp_path, old: str, new: str):
    text = (GAMES / "rail_phase.rulec").read_text()
    assert old in text
    text = text.replace(old, new)
    path = tmp_path / "bad.rulec"
    path.write_text(text)
    return check_file(str(path)).diagnostics, text


def test_an_unknown_mode_has_a_did_you_mean(tmp_path):
    problems, text = bad(tmp_path, "modes = [rail] }", "modes = [rial] }")
    assert [p.code for p in problems] == ["unknown-mode"] and "did you mean 'rail'" in (problems[0].hint or "")
    line = text.split("\n")[problems[0].span.line - 1]
    assert line.index("rial") + 1 == problems[0].span.column


def test_modes_belong_to_a_movement_phase(tmp_path):
    problems, _ = bad(tmp_path, "phase blue_move  { side = blue  kind = movement }",
                      "phase blue_move  { side = blue  kind = movement }\n  phase blue_fight { side = blue  kind = combat  "
                      "modes = [rail] }")
    assert "phase-field-kind" in [p.code for p in problems]


def test_the_sequence_aid_says_how_units_move(game):
    from rulec.aids.sheets import _what_happens

    words = {p.id: _what_happens(game, p, (), False) for p in game.sequence}
    assert words["red_rail"] == "Move units by Rail movement only"
    assert words["red_armor"] == "Move units by ordinary movement: only Red armor units"
    assert words["red_move"] == "Move units"


def test_a_phase_with_no_way_of_moving_is_refused(tmp_path):
    problems, _ = bad(tmp_path, "kind = movement  modes = [rail] }", "kind = movement  modes = [] }")
    assert [p.code for p in problems] == ["empty"]
