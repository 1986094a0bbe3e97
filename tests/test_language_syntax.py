"""Syntax errors: designer words, one per line, several per file, never a Lark exception."""

from __future__ import annotations

import re

import pytest

from rulec.diagnostics import DiagnosticError
from rulec.language.parse import parse_text, parse_tree
from rulec.language.syntax_errors import EXAMPLES, expected_words

EXAMPLE_CASES = [(example, snippet) for example in EXAMPLES for snippet in example.snippets]


@pytest.mark.parametrize("example,snippet", EXAMPLE_CASES, ids=[f"{e.code}:{s!r}" for e, s in EXAMPLE_CASES])
def test_each_example_mistake_gets_its_message(example, snippet):
    _, diagnostics = parse_tree(snippet, "t.rulec")
    assert diagnostics, f"{snippet!r} should not parse"
    first = diagnostics[0]
    assert first.code == example.code
    before, _, after = example.message.partition("{found}")
    if example.code == "syntax-missing-equals" and "the name" not in first.message:
        # The name is known: `{ y 5 }` gets "between 'y' and its value" and the hint "write 'y = 5'".
        assert re.fullmatch(r"expected '=' between '\w+' and its value,? .+", first.message), first.message
        assert re.fullmatch(r"write '\w+ = .+'", first.hint), first.hint
        return
    assert first.message.startswith(before) and first.message.endswith(after)
    assert first.hint == example.hint


def test_the_same_mistake_is_recognised_at_any_depth():
    # Lark's match_examples compares stack depth too; ours keys on the parser state alone.
    for text in ("x = [1 2]", "a { x = [1 2] }", "a { b { c { x = [1 2] } } }"):
        _, diagnostics = parse_tree(text, "t.rulec")
        assert [d.code for d in diagnostics] == ["syntax-missing-comma"], text


def test_several_errors_are_reported_one_per_line():
    text = "game g {\n  title = = \"x\"\n  turns = 3 ]\n}\nside a { name = \"A\" }\nunit u = 3\nside b { name = 2 + }\n"
    _, diagnostics = parse_tree(text, "t.rulec")
    assert [(d.span.line, d.code) for d in diagnostics] == [
        (2, "syntax-double-equals"), (3, "syntax-unmatched-bracket"), (6, "syntax-missing-brace"), (7, "syntax-missing-operand")]


def test_recovery_keeps_the_closing_brace_on_the_bad_line():
    # The '}' after the mistake closes the block: no cascade of "block not closed" at the end.
    text = "map {\n  zones { home 0101..0103 }\n  rows = 1..3\n}\nside a { name = \"A\" }\n"
    _, diagnostics = parse_tree(text, "t.rulec")
    assert [(d.span.line, d.span.column, d.code) for d in diagnostics] == [(2, 20, "syntax-missing-equals")]


@pytest.mark.parametrize("text,line,column,message", [
    ("game g {\n  turns 4\n}\n", 2, 9, "expected '=' between 'turns' and its value '4'"),
    ("unit r1 { side = red  strength 3  move = 3 }\n", 1, 32, "expected '=' between 'strength' and its value '3'"),
    ('game g { title "Foo"\n  turns = 3\n}\n', 1, 16, "expected '=' between 'title' and its value \"Foo\""),
    ("movement { zoc stop_on_entry }\n", 1, 16, "expected '=' between 'zoc' and its value 'stop_on_entry'"),
])
def test_an_equals_sign_left_out_is_named_at_the_value(text, line, column, message):
    # Read literally, `turns 4` is the header of a block 'turns 4' missing its '{'; a designer left out '='.
    _, diagnostics = parse_tree(text, "t.rulec")
    assert [(d.span.line, d.span.column, d.code, d.message) for d in diagnostics] == [
        (line, column, "syntax-missing-equals", message)]


def test_a_block_header_without_its_brace_is_one_error_at_the_end_of_its_line():
    # The block is opened where the '{' was left out, so its body and its '}' read as usual.
    _, diagnostics = parse_tree("unit r1\n  side = red\n  move = 3\n}\nunit r2 { side = red }\n", "t.rulec")
    assert [(d.span.line, d.span.column, d.code, d.message) for d in diagnostics] == [
        (1, 8, "syntax-missing-brace", "expected '{' after 'unit r1' to open the block")]


def test_an_unclosed_text_of_several_words_is_one_error():
    text = 'game g {\n  title = "The Battle of Tiny\n  turns = 3\n}\nside a { name = "A }\nside b { name = "B" }\n'
    _, diagnostics = parse_tree(text, "t.rulec")
    assert [(d.span.line, d.span.column, d.code) for d in diagnostics] == [
        (2, 11, "syntax-unclosed-text"), (5, 17, "syntax-unclosed-text")]


@pytest.mark.parametrize("quoted", ["'Ostburg'", "\u201cOstburg\u201d", "\u2018Ostburg\u2019", "'Bridge at Ostburg'"])
def test_a_text_in_the_wrong_quotes_is_one_error(quoted):
    text = f"game g {{\n  title = {quoted}\n  turns = 3\n}}\nside a {{ name = {quoted} }}\n"
    _, diagnostics = parse_tree(text, "t.rulec")
    assert [(d.span.line, d.span.column, d.code) for d in diagnostics] == [(2, 11, "syntax-character"), (5, 17, "syntax-character")]
    assert "double quotes" in diagnostics[0].hint


@pytest.mark.parametrize("text", ["a {\n  x = 8 -\n  y = 3\n}\n", "a {\n  x = 8 -\n}\n", 'a {\n  x = 8 -\n  text = "t"\n}\n'])
def test_an_operand_left_out_at_the_end_of_a_line_points_at_its_operator(text):
    _, diagnostics = parse_tree(text, "t.rulec")
    assert [(d.span.line, d.span.column, d.code, d.message) for d in diagnostics] == [
        (2, 9, "syntax-missing-operand", "expected a value after '-' at the end of the line")]


def test_an_expression_may_still_go_on_over_several_lines():
    tree, diagnostics = parse_tree("a {\n  x = 8 -\n    turn\n}\n", "t.rulec")
    assert diagnostics == [] and tree is not None


@pytest.mark.parametrize("bad_item", ["}0102/0202", "01=02/0202", '0102/0"202', "0102/0202 0103"])
def test_a_mistake_in_a_long_list_is_one_error(bad_item):
    # Recovery stays inside a list begun on an earlier line: its next lines are items, not statements.
    text = ("map {\n  hexsides roads {\n    sides = [\n      0101/0201, 0101/0102,\n"
            f"      0102/0201, {bad_item}, 0103/0202,\n      0103/0203, 0104/0203,\n      0104/0204,\n    ]\n  }}\n}}\n")
    _, diagnostics = parse_tree(text, "t.rulec")
    assert [d.span.line for d in diagnostics] == [5], [(d.span.line, d.message) for d in diagnostics]


def test_a_stray_brace_mid_line_does_not_close_the_block_early():
    # Only the last '}' of a bad line is taken as closing its block.
    text = "option o {\n  vp = { g}ermany = 5 }\n  name = \"O\"\n}\nside a { name = \"A\" }\n"
    _, diagnostics = parse_tree(text, "t.rulec")
    assert [d.span.line for d in diagnostics] == [2]


def test_a_value_left_out_points_at_its_equals_sign():
    _, diagnostics = parse_tree("a {\n  x =\n  y = 3\n}\n", "t.rulec")
    assert [(d.span.line, d.span.column, d.code, d.message) for d in diagnostics] == [
        (2, 5, "syntax-missing-value", "expected a value after '=' at the end of the line")]


def test_an_unclosed_block_is_named_with_the_line_it_began():
    text = "game g {\n  title = \"x\"\n}\nunit u1 {\n  side = a\n  arrives = { turn = 1 }\n"
    _, diagnostics = parse_tree(text, "t.rulec")
    assert [(d.span.line, d.code, d.message) for d in diagnostics] == [
        (6, "syntax-unclosed", "the block 'unit u1' opened at line 4 is not closed: expected '}' before the end of the file")]


def test_an_unclosed_list_and_object_value_are_named():
    _, diagnostics = parse_tree("x = [1, 2,\n", "t.rulec")
    assert diagnostics[0].message == "the list of 'x' opened at line 1 is not closed: expected ']' before the end of the file"
    _, diagnostics = parse_tree("x = { a = 1\n", "t.rulec")
    assert diagnostics[0].message == "the value of 'x' opened at line 1 is not closed: expected '}' before the end of the file"


def test_messages_never_show_lark_terminal_names():
    texts = ["x = ", "x = 1 +", "a b c", "x = [1 2", "x = f(1 2", "}", "x = 1..2..3", "a { b = 1 } c"]
    for text in texts:
        _, diagnostics = parse_tree(text, "t.rulec")
        for diagnostic in diagnostics:
            assert not any(word in diagnostic.message for word in ("RBRACE", "LSQB", "__ANON", "$END", "NAME", "Token(")), diagnostic.message


def test_expected_words_reads_like_a_sentence():
    assert expected_words({"RBRACE", "NAME", "STRING", "INT"}) == "'}', a name, a text in quotes or a whole number"
    assert expected_words({"EQUAL"}) == "'='"


def test_binary_junk_is_one_diagnostic():
    _, diagnostics = parse_tree("\x00\x01garbage", "t.rulec")
    assert [d.code for d in diagnostics] == ["not-a-game-file"]


def test_many_errors_stop_with_a_note():
    _, diagnostics = parse_tree("x = @\n" * 50, "t.rulec")
    assert len(diagnostics) == 21 and diagnostics[-1].code == "syntax-too-many" and diagnostics[-1].severity == "note"


def test_deep_nesting_is_a_diagnostic():
    with pytest.raises(DiagnosticError) as caught:
        parse_text("x = " + "[\n" * 5000 + "]" * 5000, "t.rulec")
    assert caught.value.diagnostics[0].code == "limit-nesting"


def test_a_bad_escape_in_a_text_is_a_diagnostic():
    with pytest.raises(DiagnosticError) as caught:
        parse_text('x = "\\N{no such name}"', "t.rulec")
    assert caught.value.diagnostics[0].code == "syntax-bad-text"


@pytest.mark.parametrize("text,hint_start", [
    ('game g { title: "x" }', "give a value with '='"),
    ('side a { name = "A"; }', "statements need no ';'"),
    ("side b { name = 'B' }", "texts go between double quotes"),
])
def test_habits_from_other_languages_get_a_hint(text, hint_start):
    _, diagnostics = parse_tree(text, "t.rulec")
    assert [d.code for d in diagnostics] == ["syntax-character"]
    assert diagnostics[0].hint.startswith(hint_start)


@pytest.mark.parametrize("text,message", [
    ("map {\n  legend = { C = clear, F = forest\n  terrain = <<\n   01\n 01 C\n  >>\n}\n",
     "the value of 'legend' opened at line 2 is not closed before line 3"),
    ("map {\n  hexsides roads {\n    sides = [\n      0101/0102,\n    exits { 0101 = n }\n  }\n}\n",
     "the list of 'sides' opened at line 3 is not closed before line 5"),
    ("map {\n  hexsides roads {\n    sides = [\n      0101/0102\n    name = \"Roads\"\n  }\n}\n",
     "the list of 'sides' opened at line 3 is not closed before line 5"),
])
def test_a_value_left_open_is_closed_before_the_next_statement(text, message):
    # One error at the next statement, and no follow-on errors for the lines after it.
    _, diagnostics = parse_tree(text, "t.rulec")
    assert [(d.code, d.message) for d in diagnostics] == [("syntax-unclosed", message)]


def _closing_braces_removed(text: str):
    """Every copy of `text` with one '}' left out: (copy, the line the '}' was on, the first line after it)."""
    lines = text.split("\n")
    for index, line in enumerate(lines):
        code = line.split("#")[0].rstrip()
        if code.strip() == "}":
            yield "\n".join(lines[:index] + lines[index + 1:]), index + 1, None
        elif code.endswith("}") and 0 < code.count("{") == code.count("}"):
            yield "\n".join(lines[:index] + [code[:-1]] + lines[index + 1:]), index + 1, index + 2


@pytest.mark.parametrize("game", ["drive_on_metz", "engle_ww2_battle"])
def test_a_brace_left_out_anywhere_in_the_shipped_games_is_placed_where_it_belongs(game):
    from rulec.pipeline import GAMES_DIR

    text = (GAMES_DIR / f"{game}.rulec").read_text(encoding="utf-8")
    placed = 0
    for copy, line, next_line in _closing_braces_removed(text):
        _, diagnostics = parse_tree(copy, "t.rulec")
        assert len(diagnostics) == 1 and diagnostics[0].code == "syntax-unclosed", (line, diagnostics)
        found = diagnostics[0]
        if "before the end of the file" in found.message:  # the last block: the end of the file is right
            continue
        placed += 1
        if next_line is not None:  # a one-line block: it is named by its own line, and ends before the next
            assert f"opened at line {line} " in found.message, (line, found.message)
        lines_between = copy.split("\n")[line - (1 if next_line is None else 0):found.span.line - 1]
        assert all(not between.strip() or between.strip().startswith("#") for between in lines_between), (line, found.message)
    assert placed > 20
