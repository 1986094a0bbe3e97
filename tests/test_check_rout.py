"""The checker on the retreat and advance fields of tests/games/rout.rulec: each mistake is one
diagnostic at its place, with a hint or a did-you-mean (docs/language.md, combat)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.pipeline import check_file

GOOD = (Path(__file__).resolve().parent / "games" / "rout.rulec").read_text(encoding="utf-8")


def check_text(tmp_path: Path, text: str):
    path = tmp_path / "mistake.rulec"
    path.write_text(text, encoding="utf-8")
    return check_file(str(path)).diagnostics


def test_the_game_is_clean(tmp_path):
    assert check_text(tmp_path, GOOD) == []


PREFER = "prefer = [not occupied(hex) and not enemy_zoc(unit.side, hex), count(units_at(hex))]"

# (what the designer did, old text, new text, code, words in the message, words in the hint)
MISTAKES = [
    ("a preference misspelt", PREFER, "prefer = [outside_enemy_zco]",
     "unknown-name", "unknown retreat preference 'outside_enemy_zco'", "did you mean 'outside_enemy_zoc'?"),
    ("a preference that is a unit", PREFER, "prefer = [unit]",
     "wrong-kind", "a retreat preference is a condition or a number, not a unit", "count(units_at(hex))"),
    ("a preference about an unknown name", PREFER, "prefer = [count(units_at(hexx))]",
     "wrong-kind-argument", "argument 1 of 'units_at' must name a hex, not 'hexx'", None),
    ("may_enter that is a number", "may_enter = not enemy_occupied(unit.side, hex) and (not enemy_zoc(unit.side, hex) "
     "or occupied_by(unit.side, hex))", "may_enter = count(units_at(hex))",
     "wrong-kind", "expected a condition", "compare it"),
    ("'hex' outside a retreat", "share_fate = retreated(unit) and", "share_fate = occupied(hex) and",
     "unknown-name", "'hex' exists only in a trace's 'through' and 'lost_when', a retreat's 'prefer', 'may_enter' and 'may_end'", None),
    ("may_end that is no condition", "may_end = count(units_at(hex)) < 3", "may_end = units_at(hex)",
     "wrong-kind", "expected a condition here, found units (units_at(hex))", None),
    ("an unknown retreat order", "order = strongest_first", "order = strongest",
     "bad-value", "strongest", "strongest_first"),
    ("advance for a side misspelt", "advance(defender, 3)] }\nresult AE", "advance(defnder, 3)] }\nresult AE",
     "effect-argument", "'advance' applies to attacker or defender, not defnder", "did you mean 'defender'?"),
    ("advance with three arguments", "advance(attacker, 3)", "advance(attacker, 3, 1)",
     "argument-count", "'advance' takes 1 argument(s), not 3", "advance([attacker|defender,] count)"),
    ("a hexside blocking a third side", "blocks_advance = defender", "blocks_advance = victor",
     None, "victor", None),
    ("share_fate about an unknown unit name", "f == unit or f in attackers", "f == unit or f in atackers",
     "unknown-name", "unknown name 'atackers'", "did you mean 'attackers'?"),
]


@pytest.mark.parametrize("old,new,code,message,hint", [m[1:] for m in MISTAKES], ids=[m[0] for m in MISTAKES])
def test_each_mistake_is_one_diagnostic(tmp_path, old, new, code, message, hint):
    assert GOOD.count(old) == 1, old
    text = GOOD.replace(old, new)
    found = check_text(tmp_path, text)
    assert len(found) == 1, [f"{d.code}: {d.message}" for d in found]
    diagnostic = found[0]
    assert code is None or diagnostic.code == code
    assert message in diagnostic.message
    assert hint is None or hint in (diagnostic.hint or "")
    line = next(number for number, text_line in enumerate(text.split("\n"), start=1) if new.split("\n")[0] in text_line)
    assert diagnostic.span is not None and diagnostic.span.line == line


def test_a_unit_modifier_may_multiply_strength_by_zero(tmp_path):
    from rulec.pipeline import load_game

    game = load_game(str(Path(__file__).resolve().parent / "games" / "rout.rulec"))
    (modifier,) = game.modifiers
    assert modifier.strength_times == 0 and modifier.when.source == "retreated(unit)"
