"""Mutated game files give diagnostics, never another exception.

Hypothesis takes the real game files in games/ and damages them the way
editing does: deleting lines, swapping tokens, inserting junk, truncating.
Whatever comes out, checking it must end in diagnostics (or a clean game),
never a traceback and never rulec's own `internal-error`.
"""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulec.check.codes import CODES
from rulec.diagnostics import DiagnosticError
from rulec.language.parse import parse_text
from rulec.pipeline import GAMES_DIR, check

SOURCES = {path.name: path.read_text(encoding="utf-8")
           for path in [*sorted(GAMES_DIR.glob("*.rulec")), Path(__file__).parent / "bad_games" / "ok_marne_features.rulec"]}
JUNK = ["{", "}", "[", "]", "(", ")", "=", ",", "..", "<<", ">>", '"', "#", "@", "-", "0", "0701/0801", "3:1", "\x00",
        "unit", "map", "zones", "x = ", "side", "é", "\t", "\n", "99999999999999999999", "-0", "1..", "..1"]


def tokens(text: str) -> list[str]:
    return re.findall(r"\s+|[A-Za-z_][A-Za-z0-9_]*|\d+|.", text, re.S)


@st.composite
def damaged_game(draw) -> str:
    text = SOURCES[draw(st.sampled_from(sorted(SOURCES)))]
    for _ in range(draw(st.integers(1, 4))):
        how = draw(st.sampled_from(["delete_lines", "swap_tokens", "insert_junk", "truncate", "replace_token", "duplicate_line"]))
        lines = text.split("\n")
        if how == "delete_lines":
            start = draw(st.integers(0, len(lines) - 1))
            del lines[start:start + draw(st.integers(1, 5))]
            text = "\n".join(lines)
        elif how == "duplicate_line":
            index = draw(st.integers(0, len(lines) - 1))
            lines.insert(index, lines[index])
            text = "\n".join(lines)
        elif how == "truncate":
            text = text[:draw(st.integers(0, len(text)))]
        else:
            parts = tokens(text)
            if not parts:
                continue
            i = draw(st.integers(0, len(parts) - 1))
            if how == "swap_tokens":
                j = draw(st.integers(0, len(parts) - 1))
                parts[i], parts[j] = parts[j], parts[i]
            elif how == "insert_junk":
                parts.insert(i, draw(st.sampled_from(JUNK)))
            else:  # replace a token with another token of the file
                parts[i] = parts[draw(st.integers(0, len(parts) - 1))]
            text = "".join(parts)
    return text


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(damaged_game())
def test_damaged_games_give_only_diagnostics(text):
    try:
        document = parse_text(text, "fuzz.rulec")
    except DiagnosticError as error:
        diagnostics = error.diagnostics
    else:
        _, diagnostics = check(document)
    for diagnostic in diagnostics:
        assert diagnostic.code != "internal-error", diagnostic.message
        assert diagnostic.code in CODES or diagnostic.code.startswith(("battle-", "unknown-")), diagnostic.code
        assert diagnostic.message


# What the checker accepts, the engine plays: the made-up games of tests/games, damaged the same way, and those that
# still check clean played through the engine's promises (engine/conformance.py), a short random game each. Playing
# check-clean mutants of every game file found two faults (a long move across many towns searched for ever; a game
# whose only sudden death needs an option, checked clean and never ended): tests/test_engine_many_routes.py and
# tests/test_check_completeness.py hold them.
MADE_UP = {path.name: path.read_text(encoding="utf-8") for path in sorted((Path(__file__).parent / "games").glob("*.rulec"))}
PLAYED_ACTIONS = 300  # of each mutant's random game (a made-up game ends in one or two hundred)


@st.composite
def damaged_made_up_game(draw) -> tuple[str, str]:
    name = draw(st.sampled_from(sorted(MADE_UP)))
    parts = tokens(MADE_UP[name])
    for _ in range(draw(st.integers(1, 2))):
        numbers = [i for i, part in enumerate(parts) if part.isdigit()]
        i = draw(st.sampled_from(numbers))
        if draw(st.booleans()):  # a number changed: a strength, an allowance, a limit, a turn, a die roll
            parts[i] = draw(st.sampled_from(["0", "1", "2", "3", "5", "9", "12"]))
        else:  # a name or word swapped for another of the file's
            words = [j for j, part in enumerate(parts) if part[:1].isalpha()]
            parts[draw(st.sampled_from(words))] = parts[draw(st.sampled_from(words))]
    return name, "".join(parts)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(damaged_made_up_game())
def test_damaged_made_up_games_that_check_clean_keep_every_promise_in_play(named):
    from rulec.engine.conformance import Report, random_game
    from rulec.runtime.errors import ExpressionFailed

    name, text = named
    try:
        game, diagnostics = check(parse_text(text, name))
    except DiagnosticError:
        return
    if game is None or any(d.is_error for d in diagnostics) or game.map is None:
        return
    report = Report()
    try:
        random_game(game, 1, report, max_actions=PLAYED_ACTIONS)
    except ExpressionFailed:  # an expression of the file that fails in play is the file's game error, told as such
        return
    broken = [p for p in report.problems if f"no end after {PLAYED_ACTIONS} actions" not in p]
    assert broken == [], (name, broken[:3])
