"""Sets combined in expressions, on a made-up game (tests/games/combined_pools.rulec): `A + B` (a placement pool
of units of two statuses), `A - B` (allowed hexes less a zone), and a pool written as a list of sets placed in
that order."""

from __future__ import annotations

from pathlib import Path

import pytest
from game_expressions import evaluate as evaluate_in

from rulec.engine import Action, IllegalAction, new_game
from rulec.engine.context import EngineContext
from rulec.pipeline import check_file, load_game

GAMES = Path(__file__).parent / "games"


@pytest.fixture(scope="module")
def game():
    return load_game(str(GAMES / "combined_pools.rulec"))


def evaluate(game, state, source: str):
    return evaluate_in(game, EngineContext(state), source)


def ids(values) -> list[str]:
    return [getattr(v, "id", v) for v in values]


def placeable(state) -> list[str]:
    return [a.unit for a in state.legal_actions() if a.kind == "place"]


def test_union_keeps_the_left_order_and_no_member_twice(game):
    state = new_game(game)
    assert ids(evaluate(game, state, "units(side = blue) + units(side = red)")) == ["b1", "r_home"]
    assert ids(evaluate(game, state, "units(side = red, status = eliminated) + units(side = red, status = pending)")) \
        == ["r_old", "r_new1", "r_new2"]
    assert evaluate(game, state, "count(units() + units())") == 2
    assert ids(evaluate(game, state, "hexes(zone = home) - hexes(zone = front)")) == ["0101", "0102", "0103"]
    apart = set(evaluate(game, state, "neighbours(0101)")) | set(evaluate(game, state, "neighbours(0102)"))
    assert "0201" in apart and evaluate(game, state, "count(neighbours(0101) + neighbours(0102))") == len(apart)


def test_a_pool_in_order_places_the_eliminated_unit_first(game):
    state = new_game(game)
    assert state.phase.id == "red_reinforce" and state.status("r_old") == "eliminated"
    assert placeable(state) == ["r_old"]  # the new units wait for the first set to be placed
    with pytest.raises(IllegalAction, match="once no unit placed before it can be: first r_old"):
        state.apply_action(Action.place("r_new1", "0102"))
    hexes = {a.hex for a in (state.apply_action(Action.place("r_old")) or state.legal_actions()) if a.kind == "place"}
    assert hexes == {"0102", "0103"}  # home less the front line (0101 holds r_home)
    state.apply_action(Action.place("r_old", "0102"))
    assert placeable(state) == ["r_new1", "r_new2"]


def test_one_pool_made_by_union_places_in_any_order(game):
    state = new_game(game, options=["any_order"])
    assert state.phase.id == "red_any_order"
    assert placeable(state) == ["r_old", "r_new1", "r_new2"]
    state.apply_action(Action.place("r_new1", "0202"))  # the front is allowed here
    assert state.status("r_new1") == "map"


def test_sets_of_two_kinds_do_not_combine(tmp_path):
    text = (GAMES / "combined_pools.rulec").read_text().replace("hexes = home - front", "hexes = home - units()")
    path = tmp_path / "bad.rulec"
    path.write_text(text)
    problems = check_file(str(path)).diagnostics
    assert [p.code for p in problems] == ["wrong-kind"]
    assert "two sets of one kind" in problems[0].message and "do not mix" in problems[0].hint
    assert problems[0].span.line == next(n for n, l in enumerate(text.split("\n"), 1) if "home - units()" in l)


def test_a_pool_list_item_of_the_wrong_kind_is_reported_at_the_item(tmp_path):
    text = (GAMES / "combined_pools.rulec").read_text().replace(
        "pool = [units(side = red, status = eliminated), units(side = red, status = pending)]",
        "pool = [units(side = red, status = eliminated), hexes(zone = home)]")
    path = tmp_path / "bad.rulec"
    path.write_text(text)
    problems = check_file(str(path)).diagnostics
    assert [p.code for p in problems] == ["wrong-kind"]
    line = text.split("\n")[problems[0].span.line - 1]
    assert line.index("hexes(zone = home)") + 1 == problems[0].span.column
