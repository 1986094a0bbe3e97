"""The expression language's kinds, checked when a game is compiled: each mistake is a diagnostic at
the expression, with a did-you-mean where a name is close; each accepted form compiles and evaluates."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.check.hexgrid import all_hexes, neighbours, on_map
from rulec.compile.expressions import ExpressionCompiler, ExpressionError, compiler_for, to_function
from rulec.compile.functions import FUNCTIONS, NAMES, UNIT_ATTRIBUTES
from rulec.language.parse import parse_text, unparse
from rulec.pipeline import check
from rulec.runtime.context import StandInContext
from rulec.runtime.hexes import grid_distance
from rulec.runtime.model import HexGrid

ROOT = Path(__file__).resolve().parent.parent
MINIMAL = (ROOT / "tests" / "bad_games" / "ok_minimal.rulec").read_text(encoding="utf-8")


def tree_of(text: str) -> list:
    value = parse_text(f"x = {text}\n").data["x"]
    return value["tree"] if isinstance(value, dict) else (["name", value] if isinstance(value, str) else ["const", value])


def problems(amount: str, when: str = "selected") -> list[tuple[str, str, str | None]]:
    text = MINIMAL + f"award a {{ side = blue  when = {when}  amount = {amount} }}\n"
    _, found = check(parse_text(text, "t.rulec"))
    return [(d.code, d.message, d.hint) for d in found if d.is_error]


@pytest.mark.parametrize("amount,code,message", [
    ("vp(blue) > 2", "wrong-kind", "expected a number here, found a condition (vp(blue) > 2)"),
    ("turn + blue", "wrong-kind", "'+' needs a number, found a side (blue)"),
    ("if(turn, 1, 0)", "wrong-kind", "the condition of 'if' needs a condition, found a number (turn)"),
    ("if(turn > 1, 1, blue)", "wrong-kind", "both values of 'if' must be of one kind, not a number and a side (blue)"),
    ("count(u in units() where u.strength)", "wrong-kind", "the condition of 'count' needs a condition, found a number (u.strength)"),
    ("count(u in units() where u.hex == red)", "wrong-kind", "'==' compares values of one kind, not a hex and a side (u.hex == red)"),
    ("count(u in units() where u.strenght > 1)", "unknown-name", "a unit has no attribute 'strenght'"),
    ("count(u in 3 where true)", "wrong-kind", "a variable ranges over units or hexes, not a number (3)"),
    ("count(blue in units() where true)", "wrong-kind", "the variable 'blue' hides a name of the game"),
    ("all(u in units())", "argument-count", "'all' needs a condition: all(u in S where CONDITION)"),
    ("sum(units())", "argument-count", "'sum' takes a variable bound to a set, such as sum(u.strength for u in units())"),
    ("max(u.strength for u in units() where u.side)", "wrong-kind", "the condition of 'max' needs a condition, found a side (u.side)"),
    ("distance(0101)", "argument-count", "'distance' takes 2 argument(s), not 1"),
    ("distance(0101, blue)", "wrong-kind-argument", "argument 2 of 'distance' must name a hex, not 'blue'"),
    ("vp(home)", "wrong-kind-argument", "argument 1 of 'vp' must name a side, not 'home'"),
    ("count(units(zone = hoem))", "wrong-kind-argument", "'zone' of 'units' must name a zone, not 'hoem'"),
    ("count(units(status = gone))", "wrong-kind-argument", "'status' of 'units' must name a status, not 'gone'"),
    ("min(1, blue)", "wrong-kind", "argument 2 of 'min' must be a number, not a side (blue)"),
    ("count(turn where true)", "wrong-kind", "'count' takes no 'where' argument"),
    ("turn.strength", "wrong-kind", "'.strength' reads an attribute of a unit, not of a number (turn)"),
    ("has_flag(elite)", "no-unit-here", "'has_flag(FLAG)' is about the unit an award is about, and this expression is about no unit"),
    ("unit.strength", "no-unit-here", "'unit' is the unit an award is about, and this expression is about no unit"),
])
def test_kind_mistakes_are_reported_at_the_expression(amount, code, message):
    found = problems(amount)
    assert [(c, m) for c, m, _ in found] == [(code, message)]


def test_a_misspelt_name_gets_a_did_you_mean():
    assert problems("count(units(side = blue)) + tunr")[0][2] == "did you mean 'turn'?"
    assert problems("count(u in units() where u.strenght > 1)")[0][2] == "did you mean 'strength'?"
    assert problems("count(units(zone = hoem))")[0][2] == "did you mean 'home'?"
    assert problems("adjacnet(0101, 0102)")[0][:2] == ("unknown-function", "unknown function 'adjacnet'")
    assert problems("adjacnet(0101, 0102)")[0][2] == "did you mean 'adjacent'?"


def test_awards_about_a_unit_may_read_it():
    assert problems("unit.strength * 2 + strength", when="eliminated(red)") == []
    assert problems("if(has_flag(elite) or has_flag(unit, elite), 2, 1)", when="exits(west)") == [
        ("wrong-kind-argument", "argument 1 of 'has_flag' must name a flag, not 'elite'", None)]  # no unit carries it


@pytest.mark.parametrize("text,expected", [
    ("count(u in units(side = red) where u.strength >= 3)", 1),
    ("count(units(side = red))", 2),
    ("sum(u.strength for u in units())", 7),
    ("sum(u.strength for u in units() where u.side == blue)", 2),
    ("max(u.strength for u in units())", 3),
    ("min(u.strength for u in units() where u.side == green)", 0),  # nothing to take the least of
    ("any(u in units(side = blue) where u.hex in home)", True),
    ("all(u in units() where u.hex in home)", False),
    ("all(h in home where not occupied_by(red, h))", True),
    ("count(h in home where occupied(h))", 1),
    ("count(hexes()) + count(hexes(terrain = clear, zone = home)) + count(hexes(zone = west))", 9 + 3 + 3),
    ("count(h in hexes(terrain = clear) where occupied_by(red, h))", 2),
    ("enemy_occupied(red, 0101) and not enemy_occupied(blue, 0101) and not enemy_occupied(red, 0102)", True),
    ("count(h in west where any(u in units_at(h) where u.side == blue))", 1),
    ("any(units(side = red, zone = home))", False),
    ("distance(0101, 0303) == 3 and adjacent(0101, 0102) and not adjacent(0101, 0303)", True),
    ("terrain(0202) == clear and has_terrain(0202, clear)", True),
    ("count(u in units() where u.type == infantry and u.move == 3)", 3),
    ("if(0101 == r1.hex, 1, 2)", 2),
    ("b1.hex == 0101 and b1 in units_at(0101) and b1 == b1 and b1 != r1", True),
    ("distance(r1.hex, b1.hex) + distance(r1.hex, r2.hex)", 4),
    ("abs(-turn) + turns", 2),
])
def test_accepted_forms_evaluate(text, expected):
    game_text = MINIMAL.replace("unit r1 { side = red  type = infantry  strength = 2  move = 3  setup = 0303 }",
                                "unit r1 { side = red  type = infantry  strength = 3  move = 3  setup = 0303 }\n"
                                "unit r2 { side = red  type = infantry  strength = 2  move = 3  setup = 0302 }\n"
                                "side green { name = \"Green\" }")
    built, found = check(parse_text(game_text, "t.rulec"))
    assert built is not None, found
    python = compiler_for(built).source(tree_of(text))
    placed = [(built.units[uid], built.units[uid].setup) for uid in built.units]
    context = StandInContext(placed=placed, game=built)
    assert to_function(python)(context) == expected


def test_every_form_round_trips_through_its_text():
    for text in ("count(u in units(side = us) where u.strength >= 3)", "sum(u.strength for u in units() where moved(u))",
                 "max(distance(u.hex, 0303) for u in units())", "a.b == c"):
        assert unparse(tree_of(unparse(tree_of(text)))) == unparse(tree_of(text)) == text


def test_the_reference_documents_every_name_attribute_and_function():
    reference = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    for name in [*NAMES, *FUNCTIONS, "count", "any", "all", "sum", "min", "max", "if"]:
        assert f"`{name}" in reference, name
    for attribute in UNIT_ATTRIBUTES:
        assert f"`u.{attribute}`" in reference, attribute


@pytest.mark.parametrize("orientation,offset", [("flat_top", "even_columns_down"), ("flat_top", "odd_columns_down"),
                                                ("pointy_top", "even_rows_right"), ("pointy_top", "odd_rows_right")])
def test_grid_distance_is_the_number_of_steps_between_hexes(orientation, offset):
    grid = HexGrid(orientation, offset, "CCRR", (1, 7), (1, 6))
    for start in all_hexes(grid):
        steps, frontier = {start: 0}, [start]
        while frontier:  # a full rectangle: the shortest path is the distance
            following = []
            for here in frontier:
                for there in neighbours(grid, *here).values():
                    if on_map(grid, *there) and there not in steps:
                        steps[there] = steps[here] + 1
                        following.append(there)
            frontier = following
        assert {h: grid_distance(grid, start, h) for h in steps} == steps


def test_an_unknown_expression_error_is_raised_by_the_compiler_directly():
    with pytest.raises(ExpressionError) as caught:
        ExpressionCompiler(frozenset(), {}).source(tree_of("turn + nowhere"))
    assert caught.value.code == "unknown-name"


def test_controls_asks_only_about_hexes_whose_holder_the_engine_tracks():
    holds = "award h { side = red  when = holds(0202)  amount = 0 }\n"
    text = MINIMAL + holds + "award a { side = blue  when = selected  amount = if(controls(red, 0303), 1, 0) }\n"
    _, found = check(parse_text(text, "t.rulec"))
    assert [(d.code, d.message) for d in found] == [
        ("wrong-kind-argument", "argument 2 of 'controls' must be an objective hex, not 0303")]
    assert "holds(0303)" in found[0].hint
    text = MINIMAL + holds + "award a { side = blue  when = game_end  amount = if(controls(red, 0202), 1, 0) }\n"
    assert check(parse_text(text, "t.rulec"))[1] == []


def test_each_expression_knows_what_it_depends_on():
    from rulec.compile.expressions import depth

    compiler = ExpressionCompiler(frozenset(), {"hex": frozenset({"0101", "0102"})})
    assert depth(compiler.typed(tree_of("distance(0101, 0102) + 1"))) == "static"
    assert depth(compiler.typed(tree_of("count(u in units() where adjacent(u.hex, 0101))"))) == "position"
    assert depth(compiler.typed(tree_of("strength * turn"))) == "unit"


def test_a_hex_number_off_the_map_is_reported_where_a_hex_belongs():
    assert [(c, m) for c, m, _ in problems("count(u in units() where u.hex == 0909)")] == [
        ("hex-off-map", "hex 0909 is not on the map")]
    assert [(c, m) for c, m, _ in problems("count(u in units() where 909 == u.hex)")] == [
        ("hex-off-map", "hex 909 is not on the map")]
    assert [c for c, _, _ in problems("if(0404 in home, 1, 0)")] == ["hex-off-map"]
    assert problems("count(u in units() where u.hex == 0102 or u.hex == 102)") == []  # 102 is hex 0102


def test_an_expression_too_deep_for_python_is_a_diagnostic_not_a_crash():
    from rulec.diagnostics import DiagnosticError

    deep = "(" * 250 + "1" + " + 1)" * 250
    with pytest.raises(DiagnosticError) as raised:  # the parser's limit comes first (docs/language.md, Limits)
        problems(deep)
    assert [d.code for d in raised.value.diagnostics] == ["limit-expression"]


def test_a_mistake_is_placed_at_its_sub_expression():
    line = "award a { side = blue  when = selected  amount = 1 + count(u in units() where adjacent(u.hex, blue)) }"
    _, found = check(parse_text(MINIMAL + line + "\n", "t.rulec"))
    (problem,) = found
    assert problem.code == "wrong-kind-argument"
    assert (problem.span.line, problem.span.column) == (MINIMAL.count("\n") + 1, line.index("blue))") + 1)
    assert (problem.span.end_line, problem.span.end_column) == (problem.span.line, problem.span.column + len("blue"))
