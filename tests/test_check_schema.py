"""The schema and the model agree, and schema problems read as designer messages."""

from __future__ import annotations

import dataclasses
import json

import pytest

from rulec.check.schema import SCHEMA_DIR, check_schema, validator
from rulec.language.parse import parse_text
from rulec.runtime import model as m

SCHEMA = json.loads((SCHEMA_DIR / "game.schema.json").read_text(encoding="utf-8"))

# Blocks whose fields are the model's fields one for one (id and name come from the label when left out).
ONE_FOR_ONE = {
    "terrain": m.TerrainType, "hexside": m.HexsideType, "unit_type": m.UnitType, "result": m.ResultCode,
    "movement": m.MovementRules, "stacking": m.StackingRules, "combat": m.CombatRules,
}


# Model fields the checker works out from others, which a game file does not write
WORKED_OUT = {"movement": {"may_end_sets"}}  # may_end_move as set algebra (rulec/check/end_sets.py)


@pytest.mark.parametrize("section", sorted(ONE_FOR_ONE))
def test_schema_fields_are_the_model_fields(section):
    written = set(SCHEMA["$defs"][section]["properties"])
    model = {f.name for f in dataclasses.fields(ONE_FOR_ONE[section])} - {"id"} - WORKED_OUT.get(section, set())
    assert written == model, f"schema only: {sorted(written - model)}; model only: {sorted(model - written)}"


def problems(text: str) -> list[tuple[int, int, str, str, str | None]]:
    document = parse_text(text, "t.rulec")
    return [(d.span.line, d.span.column, d.code, d.message, d.hint) for d in check_schema(document)]


GAME = 'game g { title = "G" }\nside a { name = "A" }\n'


def test_a_misspelt_section_gets_a_suggestion():
    assert problems(GAME + "terain clear { move = 1 }\n") == [
        (3, 1, "unknown-field", "'terain' is not a section of a game file", "did you mean 'terrain'?")]


def test_wrong_type_names_what_was_expected():
    assert problems(GAME + "terrain clear { move = fast }\n") == [
        (3, 24, "wrong-type", "'terrain clear move': expected a whole number of MP, as_other or an expression, found 'fast'", None)]


def test_values_of_the_wrong_kind_inside_lists_point_at_the_item():
    assert problems(GAME + "unit u { side = a  type = t  strength = 1  move = 1  flags = [ok, 3] }\n") == [
        (3, 67, "wrong-type", "'unit u flags item 2': expected a name (letters, digits and '_'), found 3", None)]


def test_every_problem_is_reported_in_file_order():
    found = problems(GAME + "stacking { limit = 0  checked = later  extra = 1 }\n")
    assert [(line, column, code) for line, column, code, _, _ in found] == [
        (3, 20, "out-of-range"), (3, 33, "bad-value"), (3, 40, "unknown-field")]


def test_the_battle_section_is_validated_by_its_own_schema():
    battle = validator().schema["properties"]["battle"]
    assert battle == {"$ref": "battle.schema.json"}
    assert (SCHEMA_DIR / "battle.schema.json").is_file()
    assert problems(GAME + "battle { categories = 3 }\n") != []
