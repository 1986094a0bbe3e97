"""Every name the checker accepts means something in play: unknown names and unplayed settings are errors.

Names in lists and single-name fields are checked against what the game declares (or what
the engine knows), with did-you-mean; a setting the engine does not play is an unknown
field like any other.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.aids.counters_svg import SYMBOLS
from rulec.check.schema import validator
from rulec.language.parse import parse_text
from rulec.pipeline import check

BASE = (Path(__file__).resolve().parent / "bad_games" / "ok_minimal.rulec").read_text(encoding="utf-8")
WITHOUT_SEQUENCE = BASE.split("\nsequence {")[0] + "\n"  # for a test that writes a sequence of its own


def problems(text: str) -> list[tuple[str, str, str | None]]:
    _, diagnostics = check(parse_text(text, "t.rulec"))
    return [(d.code, d.message, d.hint) for d in diagnostics if d.is_error]


def test_the_base_game_is_clean():
    assert problems(BASE) == []


def test_an_unknown_default_terrain():
    assert problems(BASE.replace("default_terrain = clear", "default_terrain = cleer")) == [
        ("unknown-terrain", "unknown terrain 'cleer'", "did you mean 'clear'?")]


def test_an_unknown_arrival_terrain_whatever_the_placement():
    text = BASE.replace("setup = 0303 }", "arrives = { turn = 2, placement = anywhere, terrain = [clear, cleer] } }")
    assert problems(text) == [("unknown-terrain", "unknown terrain 'cleer'", "did you mean 'clear'?")]


def test_an_unknown_counter_symbol():
    text = BASE.replace('unit_type infantry { name = "Infantry" }', 'unit_type infantry { name = "Infantry"  symbol = infantri }')
    [(code, _, hint)] = problems(text)
    assert (code, hint) == ("bad-value", "did you mean 'infantry'?")


def test_the_symbols_are_those_the_counter_sheet_draws():
    assert tuple(validator().schema["$defs"]["unit_type"]["properties"]["symbol"]["enum"]) == SYMBOLS


def test_an_unknown_mechanic_in_rule_refs():
    assert problems(BASE + 'rule_refs { enemy_ocupied = "7.31" }\n') == [
        ("unknown-field", "'enemy_ocupied' is not a field of 'rule_refs'", "did you mean 'enemy_occupied'?")]


@pytest.mark.parametrize("setting, message", [
    ("supply { range = 4  sources = { blue = west } }", "'supply' is not a section of a game file"),
    ("movement { leapfrog = true }", "'leapfrog' is not a field of 'movement'"),
    ("movement { blocked_entry_by_side = { blue = delay } }", "'blocked_entry_by_side' is not a field of 'movement'"),
    ("terrain swamp { move = 2  defense_multiplier = 2 }", "'defense_multiplier' is not a field of 'terrain swamp'"),
    ("hexside creek { no_attack_after_move = true }", "'no_attack_after_move' is not a field of 'hexside creek'"),
    ("unit_type fort { name = \"Fort\"  fixed = true }", "'fixed' is not a field of 'unit_type fort'"),
    ("sequence { phase p { kind = movement  side = blue  recover = true } }", "'recover' is not a field of 'sequence phase p'"),
    ("option o { name = \"O\"  start_turn = 2 }", "'start_turn' is not a field of 'option o'"),
])
def test_a_setting_the_engine_does_not_play_is_an_unknown_field(setting, message):
    base = WITHOUT_SEQUENCE if setting.startswith("sequence") else BASE
    assert [(code, text) for code, text, _ in problems(base + setting + "\n")] == [("unknown-field", message)]


def test_an_unplayed_setting_close_to_a_played_one_gets_a_suggestion():
    [(_, _, hint)] = problems(BASE + "movement { zoc_acros_rivers = false }\n")
    assert hint == "did you mean 'zoc_across_rivers'?"


def test_phase_kinds_the_engine_does_not_play_are_refused():
    [(code, message, _)] = problems(WITHOUT_SEQUENCE + "sequence { phase p { kind = recovery } }\n")
    assert code == "bad-value" and "movement, combat, placement, automatic, victory_points or end_of_turn" in message
