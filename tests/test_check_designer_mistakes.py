"""The mistakes game designers make, each in a copy of one small good game.

For each: the place (line:column), the code, the message and the hint that
`rulec check` gives, and that the mistake brings no follow-on errors. The
game itself (tests/bad_games/ok_designer_tiny.rulec) was written from
docs/language.md alone.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.diagnostics import Diagnostic, SourceFile, Span, render
from rulec.pipeline import check_file

GOOD = (Path(__file__).resolve().parent / "bad_games" / "ok_designer_tiny.rulec").read_text(encoding="utf-8")


def check_text(tmp_path: Path, text: str, raw: bytes | None = None) -> list[Diagnostic]:
    path = tmp_path / "mistake.rulec"
    path.write_bytes(raw if raw is not None else text.encode("utf-8"))
    return check_file(str(path)).diagnostics


def mistake(old: str, new: str) -> str:
    assert GOOD.count(old) == 1, old
    return GOOD.replace(old, new)


def line_of(text: str, fragment: str, last: bool = False) -> int:
    """The number of the first (or last) line holding `fragment`."""
    numbers = [number for number, line in enumerate(text.split("\n"), start=1) if fragment in line]
    return numbers[-1] if last else numbers[0]


def test_the_good_game_is_clean(tmp_path):
    assert check_text(tmp_path, GOOD) == []


# (what the designer did, old text, new text, code, message, start of the hint)
MISTAKES = [
    ("misspelt terrain in the legend", "F = forest", "F = forrest",
     "unknown-terrain", "unknown terrain 'forrest'", "did you mean 'forest'?"),
    ("misspelt side", "unit b1 { side = blue", "unit b1 { side = bleu",
     "unknown-side", "unknown side 'bleu'", "did you mean 'blue'?"),
    ("hex off the map", "setup = 0201", "setup = 0207",
     "hex-off-map", "hex 0207 is not on the map", "the map runs from 0101 to 0505"),
    ("hexside between hexes apart", "sides = [0301/0302]", "sides = [0301/0304]",
     "hexside-not-adjacent", "hexes 0301 and 0304 are not adjacent", "the neighbours of 0301 are 0201, 0302, 0401"),
    ("'=' left out", "  turns = 4", "  turns 4",
     "syntax-missing-equals", "expected '=' between 'turns' and its value '4'", "write 'turns = 4'"),
    ("'=' left out mid-line", "strength = 3  move = 3", "strength 3  move = 3",
     "syntax-missing-equals", "expected '=' between 'strength' and its value '3'", "write 'strength = 3'"),
    ("text not closed", 'title = "Bridge at Ostburg"', 'title = "Bridge at Ostburg',
     "syntax-unclosed-text", "this text in quotes is not closed on the same line", "end it with '\"'"),
    ("CRT row too short", "3 = [AR, AR, DR, DR]", "3 = [AR, AR, DR]",
     "crt-row-length", "die roll 3 has 3 results for 4 columns", "add 1 result: one per column"),
    ("award naming an unknown phase", "when = holds(0303)", "when = phase(red_mvoe)",
     "unknown-phase", "unknown phase 'red_mvoe'", "did you mean 'red_move'?"),
    ("map range backwards", "columns = 1..5", "columns = 5..1",
     "map-size", "map columns 5..1 run backwards", "write 1..5"),
    ("CRT range backwards", "columns = [..1:2, 1:1, 2:1, 3:1..]", "columns = [..1:2, 1:1, 2:1, 9:1..3:1]",
     "crt-column-order", "column 9:1..3:1 runs backwards", "write the lower end first"),
    ("a letter too many in the picture", "03  C  C  C  C  F", "03  C  C  C  C  F  C",
     "map-picture", "row 03 has 6 letters, the header has 5 columns", "remove the letters past the last column"),
    ("neither setup nor arrival", "  setup = 0201", "",
     "no-setup", "unit 'r2' has neither a set-up hex nor an arrival", "give it 'setup = HEX'"),
    ("two units with one id", "unit r2 {", "unit r1 {",
     "duplicate-key", "'unit r1' is defined twice (first defined at line", None),
    ("unknown name in an expression", "8 - turn", "8 - turm",
     "unknown-name", "unknown name 'turm' in expression", "did you mean 'turn'?"),
    ("a required field misspelt", "strength = 3  move = 3", "strenght = 3  move = 3",
     "unknown-field", "'strenght' is not a field of 'unit r1'", "did you mean 'strength'?"),
    ("'=' for '==' in a condition", "amount = 8 - turn", "amount = if(turn = 1, 2, 3)",
     "unknown-argument", "'if' takes no named arguments, found 'turn = ...'", "to compare, write 'turn == ...'"),
    ("a ratio where victory is a difference", "at_least = 5", "at_least = 3:1",
     "victory-level-kind", "victory level 'red_win' needs a lead of 3:1", "give the lead in VP"),
    ("a text in single quotes", 'title = "Bridge at Ostburg"', "title = 'Bridge at Ostburg'",
     "syntax-character", 'unexpected character "\'"', "texts go between double quotes"),
    ("an amount in quotes", "amount = 8 - turn", 'amount = "eight"',
     "wrong-type", 'expected a number or an expression, found the text "eight"', "write a number or an expression"),
    ("an operand left out at the end of a line", "amount = 8 - turn", "amount = 8 -",
     "syntax-missing-operand", "expected a value after '-' at the end of the line", "an operator needs a value"),
    ("a hexside from a hex to itself", "sides = [0301/0302]", "sides = [0301/0301]",
     "hexside-not-adjacent", "a hexside lies between two hexes, not 0301 and itself", "the neighbours of 0301"),
    ("a CRT row that is no die roll", "6 = [AE, NE, NE, DR]", "x = [AE, NE, NE, DR]",
     "wrong-type", "'crt main rows': expected a die roll such as 3, found 'x'", None),
    ("a block written twice", "stacking { limit = 2 }", "stacking { limit = 2 }\nstacking { limit = 2 }",
     "duplicate-key", "'stacking' is defined twice (first defined at line", None),
]


@pytest.mark.parametrize("old,new,code,message,hint", [m[1:] for m in MISTAKES], ids=[m[0] for m in MISTAKES])
def test_each_mistake_is_one_diagnostic_in_designer_words(tmp_path, old, new, code, message, hint):
    text = mistake(old, new)
    diagnostics = check_text(tmp_path, text)
    assert len(diagnostics) == 1, [render(d) for d in diagnostics]
    found = diagnostics[0]
    assert (found.code, found.message[:len(message)]) == (code, message)
    changed = (new.split("\n")[-1] if new else GOOD.split("\n")[line_of(GOOD, old) - 1].replace(old, "")).strip()
    assert found.span is not None and found.span.line == line_of(text, changed, last=True)
    assert (found.hint or "").startswith(hint or "") and (hint is not None or found.hint is None or "did you mean" not in found.hint)


def test_a_missing_closing_brace_is_placed_by_the_indentation(tmp_path):
    # The parser only notices at the end of the file; the layout tells where the '}' belongs.
    text = mistake('unit_type infantry { name = "Infantry" }', 'unit_type infantry { name = "Infantry"')
    [found] = check_text(tmp_path, text)
    opened, next_line = line_of(text, "unit_type"), line_of(text, "unit r1")
    assert (found.code, found.message) == (
        "syntax-unclosed", f"the block 'unit_type infantry' opened at line {opened} is not closed before line {next_line}")
    assert (found.span.line, found.span.column, found.span.end_column) == (next_line, 1, 5)


def test_a_missing_inner_brace_names_the_inner_block(tmp_path):
    # Read by the braces alone, 'map' is left open; the indentation shows 'hexsides rivers' lost its '}'.
    text = mistake("  hexsides rivers { feature = river  sides = [0301/0302] }",
                   "  hexsides rivers {\n    feature = river\n    sides = [0301/0302]\n  edges { north = 0101..0501  south = 0105..0505 }")
    text = text.replace("  edges { north = 0101..0501  south = 0105..0505 }\n  edges", "  edges", 1)
    [found] = check_text(tmp_path, text)
    assert found.message == (f"the block 'hexsides rivers' opened at line {line_of(text, 'hexsides rivers')} "
                             f"is not closed before line {line_of(text, '  edges')}")


def test_without_a_telling_layout_the_missing_brace_is_reported_at_the_end(tmp_path):
    text = 'game g {\ntitle = "G"\nturns = 3\n'
    [found] = check_text(tmp_path, text)
    assert found.message == "the block 'game g' opened at line 1 is not closed: expected '}' before the end of the file"


def test_windows_line_endings_and_a_byte_order_mark_change_nothing(tmp_path):
    assert check_text(tmp_path, "", raw=b"\xef\xbb\xbf" + GOOD.replace("\n", "\r\n").encode("utf-8")) == []
    text = mistake("unit b1 { side = blue", "unit b1 { side = bleu")
    diagnostics = check_text(tmp_path, "", raw=b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8"))
    [found] = diagnostics
    line = line_of(text, "side = bleu")
    assert (found.span.line, found.span.column) == (line, text.split("\n")[line - 1].index("bleu") + 1)


def test_tabs_in_the_map_picture_read_like_spaces(tmp_path):
    assert check_text(tmp_path, mistake("03  C  C  C  C  F", "03\tC\tC\tC\tC\tF")) == []


def test_the_caret_keeps_the_tabs_of_the_line_so_it_lines_up():
    source = SourceFile("m.rulec", "x = 1\n\tunit\tb1 { side = bleu }\n")
    shown = render(Diagnostic("unknown-side", "unknown side 'bleu'", Span("m.rulec", 2, 19, 2, 23)), {"m.rulec": source})
    text_line, caret_line = shown.split("\n")[1:3]
    assert caret_line == "    \t    \t" + " " * 12 + "^~~~"
    assert text_line[caret_line.index("^"):].startswith("bleu")


def test_a_form_feed_in_a_comment_does_not_shift_the_lines_shown():
    source = SourceFile("m.rulec", "# page one\x0c page two\nturns = x\n")
    assert source.line(2) == "turns = x"


def test_a_missing_field_is_still_reported_beside_a_known_field_of_a_close_name(tmp_path):
    # `size` is a field of its own: it is no misspelling of the missing `side`.
    text = mistake("unit r2 { side = red ", "unit r2 { size = III ")
    assert [(d.code, d.message) for d in check_text(tmp_path, text)] == [("missing-field", "'unit r2' needs 'side'")]


@pytest.mark.parametrize("rows,message", [(["05"], "row 05 is missing from the picture"),
                                          (["04", "05"], "rows 04, 05 are missing from the picture")])
def test_rows_left_out_of_the_picture_are_named(tmp_path, rows, message):
    text = GOOD
    for row in rows:
        line = next(line for line in GOOD.split("\n") if line.strip().startswith(row + " "))
        text = text.replace(line + "\n", "")
    [found] = check_text(tmp_path, text)
    assert (found.code, found.message) == ("map-picture", message)


METZ = (Path(__file__).resolve().parent.parent / "games" / "drive_on_metz.rulec").read_text(encoding="utf-8")


@pytest.mark.parametrize("old,new,code,message", [
    # The map cannot be built: its zones and edges are still known by name, so awards naming them add no errors.
    ("rows = 1..11", "rows = 11..1", "map-size", "map rows 11..1 run backwards"),
    ("count = 1..2", "count = 2..1", "option-improve-range",
     "option 'german_reorganization' chooses 2..1 units, a range that runs backwards"),
])
def test_a_range_written_backwards_in_a_real_game_is_one_error(tmp_path, old, new, code, message):
    assert METZ.count(old) == 1
    diagnostics = check_text(tmp_path, METZ.replace(old, new))
    assert [(d.code, d.message) for d in diagnostics] == [(code, message)]
    assert diagnostics[0].hint == f"write {'..'.join(reversed(new.split(' = ')[1].split('..')))}"


def test_a_misspelt_zone_is_still_found_when_the_map_has_an_error(tmp_path):
    text = METZ.replace("rows = 1..11", "rows = 11..1").replace("zone = east_bank))\n", "zone = east_bnak))\n", 1)
    assert [d.code for d in check_text(tmp_path, text)] == ["map-size", "wrong-kind-argument"]
