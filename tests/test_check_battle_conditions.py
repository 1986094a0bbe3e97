"""The schema's list of battle conditions is the engine's list: a designer may name only what the engine can test."""

import json
from pathlib import Path

from rulec.engine.combat import BATTLE_CONDITIONS
from rulec.pipeline import check, parse

SCHEMA = Path(__file__).resolve().parent.parent / "schemas" / "game.schema.json"
METZ = Path(__file__).resolve().parent.parent / "games" / "drive_on_metz.rulec"


def test_schema_names_every_engine_battle_condition():
    schema = json.loads(SCHEMA.read_text())
    assert set(schema["$defs"]["option"]["properties"]["when"]["enum"]) == set(BATTLE_CONDITIONS)


def test_misspelt_battle_condition_is_reported_with_a_hint(tmp_path):
    bad = tmp_path / "bad.rulec"
    bad.write_text(METZ.read_text().replace("when = attackers_share_division", "when = attackers_share_divison"))
    game, diagnostics = check(parse(bad))
    assert game is None
    [error] = [d for d in diagnostics if d.is_error]
    assert error.code == "bad-value"
    assert error.hint == "did you mean 'attackers_share_division'?"
    assert error.span.line == next(i for i, line in enumerate(bad.read_text().splitlines(), 1) if "divison" in line)
