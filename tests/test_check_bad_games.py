"""Every diagnostic code has a small bad game in tests/bad_games/ proving it.

Each file `tests/bad_games/<code>.rulec` carries its expected diagnostics as
comments (the way mypy's test files carry `# E:` comments):

    unit r1 { side = redd ... }  # E:18 [unknown-side] unknown side 'redd'
    # E@20:76 [syntax-unclosed] ...     (a line that cannot carry a comment)

`E` is an error, `W` a warning; the number is the column (and line). The test
checks the exact set of (line, column, severity, code, message) that
`rulec check` reports.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulec.check.codes import CODES
from rulec.pipeline import check_file

BAD_GAMES = Path(__file__).resolve().parent / "bad_games"
EXPECTATION = re.compile(r"#\s*([EWN])(?::(\d+)|@(\d+):(\d+))\s+\[([a-z0-9-]+)\]\s+(.*?)\s*(?=#\s*[EWN][:@]\d|$)")
SEVERITY = {"E": "error", "W": "warning", "N": "note"}

# Codes proved elsewhere: file-level problems (tests/test_check_files.py) and guards a game file cannot reach.
PROVED_ELSEWHERE = {
    "no-such-game", "no-such-file", "unreadable-file", "not-a-game-file", "not-a-compiled-game",
    "syntax-too-deep", "syntax-too-many",
    # limits that only a big file crosses (tests/test_limits.py)
    "limit-file-size", "limit-line-length", "limit-list-size", "limit-units", "limit-diagnostics",
}
UNREACHABLE_GUARDS = {"internal-error", "schema"}  # a bug in rulec; a schema keyword not worded yet

CODE_FILES = sorted(p for p in BAD_GAMES.glob("*.rulec") if p.stem in CODES)


def expectations(path: Path) -> set[tuple[int, int, str, str, str]]:
    expected = set()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        for match in EXPECTATION.finditer(line):
            tag, column, at_line, at_column, code, message = match.groups()
            where = (int(at_line), int(at_column)) if at_line else (number, int(column))
            expected.add((*where, SEVERITY[tag], code, message))
    return expected


def reported(path: Path) -> set[tuple[int, int, str, str, str]]:
    result = check_file(str(path))
    return {(d.span.line, d.span.column, d.severity, d.code, d.message) for d in result.diagnostics if d.span}


@pytest.mark.parametrize("path", CODE_FILES, ids=lambda p: p.stem)
def test_bad_game_reports_exactly_its_expectations(path: Path):
    expected = expectations(path)
    assert expected, f"{path.name} states no expectations"
    assert any(code == path.stem for *_, code, _ in expected), f"{path.name} does not expect its own code"
    assert reported(path) == expected


def test_the_minimal_game_is_clean():
    result = check_file(str(BAD_GAMES / "ok_minimal.rulec"))
    assert result.ok and result.diagnostics == []


def test_every_code_has_a_bad_game():
    covered = {p.stem for p in CODE_FILES}
    missing = sorted(set(CODES) - covered - PROVED_ELSEWHERE - UNREACHABLE_GUARDS)
    assert not missing, f"codes without a bad game in tests/bad_games/: {missing}"


def test_every_reported_code_is_registered():
    for path in CODE_FILES:
        for *_, code, _ in reported(path):
            assert code in CODES, f"{path.name} reports unregistered code {code}"


def test_the_language_reference_lists_every_code():
    reference = (Path(__file__).resolve().parent.parent / "docs" / "language.md").read_text(encoding="utf-8")
    table = reference.split("### Diagnostic codes", 1)[1].split("\n\n|", 1)[1].split("\n\n", 1)[0]
    listed = dict(re.findall(r"^\| `([a-z0-9-]+)` \| (.*) \|$", "|" + table, re.M))
    assert listed == CODES
