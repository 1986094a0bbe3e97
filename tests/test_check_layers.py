"""One run reports every error of every layer: schema errors no longer hide the others.

The schema runs first; the builder and the cross-reference checks then run on the
document without the values the schema found wrong. A mistake is still reported once:
what the schema said is not said again in other words.
"""

from __future__ import annotations

from rulec.language.parse import parse_text
from rulec.pipeline import check

GAME = """game g { title = "G"  turns = 3 }
side red { name = "Red" }
side blue { name = "Blue" }
map { columns = 1..3  rows = 1..3  default_terrain = clear  zones { home = [0101] } }
terrain clear { move = 1 }
unit_type infantry { name = "Infantry" }
unit r1 { side = red  type = infantry  strength = 2  move = 3  setup = 0101 }
unit b1 { side = blue  type = infantry  strength = 2  move = 3  setup = 0303 }
sequence { phase red_move { side = red  kind = movement }  phase blue_move { side = blue  kind = movement } }
"""


def codes(text: str) -> list[tuple[int, str]]:
    _, diagnostics = check(parse_text(text, "t.rulec"))
    return [(d.span.line, d.code) for d in diagnostics if d.is_error]


def test_a_schema_error_and_a_cross_reference_error_in_one_run():
    text = GAME.replace("strength = 2  move = 3  setup = 0101", "strength = two  move = 3  setup = 0101") \
               .replace("side = blue  type", "side = bleu  type")
    assert codes(text) == [(7, "wrong-type"), (8, "unknown-side")]


def test_an_unknown_field_beside_an_unknown_zone_and_an_arrival_after_the_game():
    text = GAME.replace("setup = 0303 }", "arrives = { turn = 5, area = hom } }") \
               .replace("terrain clear { move = 1 }", "terrain clear { move = 1  leapfrog = true }")
    assert codes(text) == [(5, "unknown-field"), (8, "arrival-after-game"), (8, "unknown-zone")]


def test_a_missing_field_is_reported_once_and_its_unit_is_still_known():
    # strength left out: the schema says so; the builder's own guard does not say it again, and
    # the unit's wrong side is still found.
    text = GAME.replace("unit r1 { side = red  type = infantry  strength = 2", "unit r1 { side = redd  type = infantry")
    assert codes(text) == [(7, "missing-field"), (7, "unknown-side")]


def test_a_wrong_value_does_not_come_back_as_its_consequence():
    # The CRT row written 'x' is one mistake: its die roll is not reported missing as well.
    text = GAME + """crt main { kind = differential  columns = [..0, 1..]
  rows { 1 = [NE, NE]  2 = [NE, NE]  3 = [NE, NE]  4 = [NE, NE]  5 = [NE, NE]  x = [NE, NE] } }
result NE { name = "No Effect" }
"""
    assert codes(text) == [(11, "wrong-type")]
