"""Mistakes in a battle section get diagnostics with stable codes, positions and hints.

Each tests/bad_games/battle_*.rulec file marks the diagnostics it expects with
`# E: CODE` (optionally followed by a quoted piece of the hint) on the line
the diagnostic points at; the test demands exactly those (line, code) pairs.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest

from rulec.pipeline import check, find_game, parse

BAD_GAMES = Path(__file__).resolve().parent / "bad_games"
SCHEMA = Path(__file__).resolve().parent.parent / "schemas" / "battle.schema.json"
EXPECTATION = re.compile(r'E: ([a-z][a-z-]*)(?: "([^"]*)")?')


def expectations(path: Path) -> list[tuple[int, str, str | None]]:
    found = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        _, hash_, comment = line.partition("# ")
        if hash_ and number > 1:
            found += [(number, code, hint or None) for code, hint in EXPECTATION.findall(comment)]
    return found


BAD_FILES = sorted(p for p in BAD_GAMES.glob("battle_*.rulec") if p.stem != "battle_valid_control")


@pytest.mark.parametrize("path", BAD_FILES, ids=lambda p: p.stem)
def test_bad_battle_file(path):
    expected = expectations(path)
    assert expected, f"{path.name} marks no expected diagnostic"
    game, diagnostics = check(parse(path))
    assert game is None
    got = sorted((d.span.line, d.code) for d in diagnostics if d.is_error)
    assert got == sorted((line, code) for line, code, _ in expected)
    for line, code, hint in expected:
        if hint:
            assert any(d.span.line == line and d.code == code and d.hint and hint in d.hint for d in diagnostics), (code, hint)


def test_the_control_file_is_clean():
    game, diagnostics = check(parse(BAD_GAMES / "battle_valid_control.rulec"))
    assert diagnostics == [] and game is not None and game.battle is not None
    assert set(game.battle.kinds) == {"tank", "infantry"}


def test_engle_game_checks_clean():
    game, diagnostics = check(parse(find_game("engle_ww2_battle")))
    assert diagnostics == []
    assert game.map is None and len(game.battle.kinds) >= 8


def test_engle_battle_section_matches_the_schema():
    schema = json.loads(SCHEMA.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    document = parse(find_game("engle_ww2_battle"))
    jsonschema.Draft202012Validator(schema).validate(document.data["battle"])
    broken = dict(document.data["battle"], outcome={"even": {"even": "yes", "casualty_points": 0}})
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(broken))


def test_rulec_check_reports_nothing_for_engle(capsys):
    from rulec.cli.main import main

    assert main(["check", "engle_ww2_battle"]) == 0
    captured = capsys.readouterr()
    assert "error" not in captured.out + captured.err and "warning" not in captured.out + captured.err


def test_the_compiled_module_holds_the_same_battle_system(tmp_path):
    from rulec.battle.army import ArmyCounts
    from rulec.pipeline import generate, load_compiled, load_game

    game = load_game("engle_ww2_battle")
    module = tmp_path / "engle_ww2_battle.py"
    module.write_text(generate(game), encoding="utf-8")
    compiled = load_compiled(module)
    assert compiled.battle == game.battle
    counts = ArmyCounts(4, {"routed": 3})
    assert [s.when(counts) for s in compiled.battle.army_states] == [s.when(counts) for s in game.battle.army_states]
