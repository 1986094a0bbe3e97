"""An award's `when` is one of a few trigger forms, each with the right arguments."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.pipeline import check, load_game
from rulec.language.parse import parse_text

MINIMAL = (Path(__file__).resolve().parent / "bad_games" / "ok_minimal.rulec").read_text(encoding="utf-8")


def diagnostics_for(when: str) -> list[tuple[str, str]]:
    text = MINIMAL + f"award a {{ side = blue  when = {when}  amount = 1 }}\n"
    _, found = check(parse_text(text, "t.rulec"))
    return [(d.code, d.message) for d in found]


@pytest.mark.parametrize("when,message", [
    ("holds()", "holds() takes at least one hex, found holds()"),
    ("exits()", "exits() takes at least one map edge, found exits()"),
    ("phase(a, b)", "phase() takes one phase, found phase(a, b)"),
    ("eliminated(red, blue)", "eliminated() takes one side, found eliminated(red, blue)"),
    ("exits(1 + 2)", "the arguments of exits() are names or hex numbers, found exits(1 + 2)"),
    ("eliminated(side = red)", "the arguments of eliminated() are names or hex numbers, found eliminated(side = red)"),
    ("holding(0101)", "'when' must be phase(P), holds(HEX...), exits(EDGE...), eliminated(SIDE), selected or game_end; "
                      "found holding(0101)"),
])
def test_malformed_triggers(when, message):
    assert diagnostics_for(when) == [("bad-trigger", message)]


def test_well_formed_triggers_build(tmp_path):
    for when in ("holds(0101, 0102)", "exits(west)", "eliminated(red)", "selected", "game_end"):
        assert diagnostics_for(when) == [], when
    path = tmp_path / "t.rulec"
    path.write_text(MINIMAL + "award a { side = blue  when = holds(0101, 102)  amount = 1 }\n")
    assert load_game(str(path)).awards[0].trigger.hexes == ("0101", "0102")
