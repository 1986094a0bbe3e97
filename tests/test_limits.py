"""Hostile game files are read in bounded time and memory, and each limit is a diagnostic with its place.

The small limits have bad games in tests/bad_games/limit-*.rulec; the ones only a big file crosses are here.
"""

from __future__ import annotations

import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from rulec.diagnostics import Diagnostic, DiagnosticError, SourceFile, Span, render
from rulec.language import limits
from rulec.language.parse import parse_text
from rulec.pipeline import check_file

ROOT = Path(__file__).resolve().parent.parent


def codes_of(text: str) -> list[tuple[str, int, int]]:
    with pytest.raises(DiagnosticError) as caught:
        parse_text(text, "t.rulec")
    return [(d.code, d.span.line, d.span.column) for d in caught.value.diagnostics if d.span]


def test_a_file_too_large_is_refused_before_it_is_read():
    text = "# " + "x" * limits.MAX_FILE_CHARACTERS
    assert codes_of(text) == [("limit-file-size", 1, 1)]


def test_a_line_too_long_is_named_by_its_line():
    text = "game g { title = \"G\" }\n" + "x = \"" + "a" * limits.MAX_LINE_LENGTH + "\"\n"
    assert codes_of(text) == [("limit-line-length", 2, limits.MAX_LINE_LENGTH + 1)]


def test_a_list_too_long_is_named_where_it_opens():
    items = ",\n".join("1" for _ in range(limits.MAX_LIST_ITEMS + 1))
    assert codes_of(f"x = [\n{items}\n]\n") == [("limit-list-size", 1, 5)]


def test_too_many_units_is_a_diagnostic():
    units = "\n".join(f"unit u{i} {{ side = a }}" for i in range(limits.MAX_UNITS + 1))
    assert [code for code, *_ in codes_of(units)] == ["limit-units"]


def test_a_number_of_five_thousand_digits_is_a_diagnostic_not_a_value_error():
    assert codes_of("x = " + "9" * 5000) == [("limit-number", 1, 5)]


def test_a_long_chain_of_operators_is_an_expression_too_deep():
    assert codes_of("x = " + " + ".join(["turn"] * 100)) == [("limit-expression", 1, 5)]


def test_nesting_as_deep_as_the_limit_is_read():
    depth = limits.MAX_NESTING
    with pytest.raises(DiagnosticError) as caught:  # parsed; the schema is not asked here, so use a bad number
        parse_text("x = " + "[" * depth + "12345678901" + "]" * depth, "t.rulec")
    assert [d.code for d in caught.value.diagnostics] == ["limit-number"]


def test_control_characters_in_texts_are_refused():
    assert codes_of('game g { title = "\\x1b]0;pwned\\x07" }') == [("syntax-bad-text", 1, 18)]


def test_many_errors_on_one_long_line_print_in_linear_size():
    """A 9,000-character line with an error every 10 characters: each diagnostic shows a bounded window."""
    line = "x" * 9000
    source = {"f": SourceFile("f", line)}
    out = [render(Diagnostic("c", "m", Span("f", 1, column)), source) for column in range(1, 9000, 10)]
    assert max(len(text) for text in out) < 400


def test_escape_sequences_never_reach_the_terminal_from_a_diagnostic():
    source = {"f": SourceFile("f", "x = \x1b[2J\x1b]0;title\x07")}
    text = render(Diagnostic("c", "bad \x1b[31m", Span("f", 1, 5), hint="\x9b"), source)
    assert "\x1b" not in text and "\x07" not in text and "\x9b" not in text
    assert "\\x1b[2J" in text


def test_checking_a_hostile_megabyte_stays_within_bounds(tmp_path):
    """One megabyte of errors: finished quickly, a few hundred MB at most, output bounded, no traceback."""
    path = tmp_path / "junk.rulec"
    path.write_text(("x = @ @ @ @ @ " * 60 + "\n") * 1150, encoding="utf-8")
    assert path.stat().st_size < limits.MAX_FILE_CHARACTERS
    tracemalloc.start()
    try:
        result = check_file(str(path))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    rendered = "\n".join(result.rendered())
    assert [d.code for d in result.diagnostics if d.is_error] and "Traceback" not in rendered
    assert len(rendered) < 100_000
    assert peak < 400 * 2**20


def test_the_command_reports_a_deep_file_in_one_diagnostic_and_exit_1(tmp_path):
    path = tmp_path / "deep.rulec"
    path.write_text("x = " + "(" * 100_000 + "1" + ")" * 100_000, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "rulec", "check", str(path)], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert done.returncode == 1
    assert "[limit-line-length]" in done.stdout and "Traceback" not in done.stdout + done.stderr


def test_past_a_thousand_diagnostics_a_note_counts_the_rest(tmp_path):
    path = tmp_path / "many.rulec"
    path.write_text("\n".join(f'k{i} = "{i}"' for i in range(1500)), encoding="utf-8")
    result = check_file(str(path))
    shown = result.rendered()
    assert len(result.diagnostics) > limits.MAX_DIAGNOSTICS_SHOWN and len(shown) == limits.MAX_DIAGNOSTICS_SHOWN + 1
    assert "more diagnostics not shown [limit-diagnostics]" in shown[-1]


def test_the_longest_retreat_a_file_may_ask_has_a_few_thousand_paths_on_an_open_map(tmp_path):
    """Each legal path of a retreat is an order: they multiply with each hex (twice or so on an open map), so a
    retreat of limits.MAX_RETREAT_HEXES hexes is the most a game file may ask (limit-retreat, the bad game)."""
    from rulec.engine import combat, new_game
    from rulec.pipeline import load_game
    text = (ROOT / "tests" / "bad_games" / "limit-retreat.rulec").read_text(encoding="utf-8")
    text = text.replace("columns = 1..3", "columns = 1..30").replace("rows = 1..3", "rows = 1..30")
    path = tmp_path / "open.rulec"
    path.write_text(text.replace("retreat(defender, 12)", f"retreat(defender, {limits.MAX_RETREAT_HEXES})")
                    + "combat { table = main  retreat { direction = away } }\n", encoding="utf-8")
    state = new_game(load_game(str(path)))
    paths = combat.retreat_paths(state.tables, "1515", limits.MAX_RETREAT_HEXES, ("1415",), set(), set(),
                                 state.game.combat.retreat)
    assert len(paths) == 5_115 and all(len(p) == limits.MAX_RETREAT_HEXES for p in paths)
    path.write_text(path.read_text(encoding="utf-8").replace(f"retreat(defender, {limits.MAX_RETREAT_HEXES})",
                                                             f"retreat(defender, {limits.MAX_RETREAT_HEXES + 1})"))
    assert [d.code for d in check_file(str(path)).diagnostics if d.is_error] == ["limit-retreat"]
