"""Edges by side and by use, movement { may_exit }, on a made-up game (tests/games/edge_rules.rulec): red arrives
by the west edge, which nobody may leave by; only red may leave by the east edge, only blue by the north one."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.engine import Action, IllegalAction, new_game
from rulec.pipeline import check_file, load_game

GAMES = Path(__file__).parent / "games"


@pytest.fixture(scope="module")
def game():
    return load_game(str(GAMES / "edge_rules.rulec"))


def exits(state, uid: str) -> set[str]:
    return {a.edge for a in state.moves_of(uid) if a.kind == "exit"}


def test_red_leaves_only_by_its_edge_and_scores(game):
    state = new_game(game)
    assert exits(state, "r_east") == {"east"}
    state.apply_action(Action.exit("r_east", "east"))
    assert state.status("r_east") == "exited" and state.vp["red"] == 1


def test_an_arrival_edge_no_unit_may_leave_by(game):
    state = new_game(game)
    state.apply_action(Action.move("r_in", "0101"))  # red's reinforcement arrives by the west edge
    assert state.positions["r_in"] == "0101"
    state = state.arrange({"r_in": "0101", "r_east": "0302", "b_east": "0303"}, phase="red_move")
    assert exits(state, "r_in") == set()  # 0101 is on the west edge, and still no exit there (east is too far)
    with pytest.raises(IllegalAction, match="may not leave the map by the west edge"):
        state.apply_action(Action.exit("r_in", "west"))


def test_blue_leaves_only_by_the_north_edge(game):
    state = new_game(game).arrange({"b_east": "0303", "r_east": "0302"}, phase="blue_move")
    assert exits(state, "b_east") == {"north"}
    with pytest.raises(IllegalAction, match="may not leave the map by the east edge"):
        state.apply_action(Action.exit("b_east", "east"))
    state.apply_action(Action.exit("b_east", "north"))
    assert state.status("b_east") == "exited"


def bad(tmp_path, old: str, new: str):
    text = (GAMES / "edge_rules.rulec").read_text()
    assert old in text
    text = text.replace(old, new)
    path = tmp_path / "bad.rulec"
    path.write_text(text)
    return check_file(str(path)).diagnostics, text


def test_may_exit_without_exits_is_a_field_alone(tmp_path):
    problems, text = bad(tmp_path, "  exit_map = true\n", "")
    assert [p.code for p in problems] == ["field-alone"] and problems[0].hint == "add exit_map = true"
    assert problems[0].span.line == next(n for n, l in enumerate(text.split("\n"), 1) if "  may_exit =" in l)


def test_a_misspelt_edge_has_a_did_you_mean(tmp_path):
    problems, _ = bad(tmp_path, "edge == east and", "edge == eats and")
    assert [p.code for p in problems] == ["unknown-name"] and "did you mean 'east'" in (problems[0].hint or "")


def test_edge_exists_only_in_may_exit(tmp_path):
    problems, _ = bad(tmp_path, "award out { side = red  when = exits(east)  amount = 1 }",
                      "award out { side = red  when = exits(east)  amount = if(edge == east, 1, 0) }")
    assert [p.code for p in problems] == ["unknown-name"] and "may_exit" in problems[0].message


def test_a_may_exit_that_reads_the_position_is_asked_in_the_position_the_exit_is_made_in(tmp_path):
    # Only one red unit may leave: once r_east has left, r_in (next to the east edge too) may not, in the same phase.
    text = (GAMES / "edge_rules.rulec").read_text(encoding="utf-8").replace(
        "may_exit = (edge == east and side == red)",
        "may_exit = (edge == east and side == red and count(u in units(side = red, status = exited)) == 0)")
    path = tmp_path / "one_exit.rulec"
    path.write_text(text, encoding="utf-8")
    state = new_game(load_game(str(path))).arrange({"r_in": "0402", "r_east": "0401", "b_east": "0303"},
                                                   phase="red_move")
    assert exits(state, "r_in") == {"east"} and exits(state, "r_east") == {"east"}  # (asked: kept for the phase)
    state.apply_action(Action.exit("r_east", "east"))
    assert exits(state, "r_in") == set()
    assert Action.exit("r_in", "east") not in state.legal_orders()
    with pytest.raises(IllegalAction):
        state.apply_action(Action.exit("r_in", "east"))
