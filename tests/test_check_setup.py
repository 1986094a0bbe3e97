"""Set-up positions the engine could not give a meaning (rulec/check/references.py): units of two sides in one hex,
from the units' own set-up (tests/bad_games/setup-with-enemy.rulec) or from a scenario's or option's `setup`."""

from __future__ import annotations

from pathlib import Path

from rulec.language.parse import parse_text
from rulec.pipeline import check

MINIMAL = (Path(__file__).resolve().parent / "bad_games" / "ok_minimal.rulec").read_text(encoding="utf-8")
B2 = "stacking { limit = 2 }\nunit b2 { side = blue  type = infantry  strength = 2  move = 3  setup = 0102 }\n"


def found(extra: str) -> list[tuple[int, int, str]]:
    text = MINIMAL + extra
    return [(d.span.line, d.span.column, d.code) for d in check(parse_text(text, "t.rulec"))[1]]


def line_of(extra: str, words: str) -> int:
    return (MINIMAL + extra).split("\n").index(next(line for line in (MINIMAL + extra).split("\n") if words in line)) + 1


def test_a_scenario_or_option_that_sets_an_enemy_up_in_a_hex_is_told_where_it_does():
    scenario = 'scenario late { name = "Late"  setup = { r1 = 0101 } }\n'
    assert found(scenario) == [(line_of(scenario, "scenario late"), 42, "setup-with-enemy")]
    option = 'option o { name = "O"  setup = { r1 = 0102 } }\n' + B2
    assert found(option) == [(line_of(option, "option o"), 34, "setup-with-enemy")]


def test_units_the_scenario_moves_away_removes_or_leaves_out_share_no_hex():
    assert found('scenario late { name = "Late"  setup = { r1 = 0101, b1 = 0202 } }\n') == []
    assert found('scenario late { name = "Late"  setup = { r1 = 0101 }  remove = [b1] }\n') == []
    # An optional unit the scenario does not add is not on the map there; its own set-up is checked once, alone.
    optional = "unit r2 { side = red  type = infantry  strength = 2  move = 3  setup = 0202  optional = true }\n"
    assert found(optional + 'scenario late { name = "Late"  setup = { b1 = 0202 } }\n') == [
        (line_of(optional, "unit r2"), 6, "optional-unit-unused")]
    # Friends together are a matter of stacking, not this check.
    assert found(B2.replace("0102", "0101")) == []
