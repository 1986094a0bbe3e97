"""Kinds of the marker and history functions: what the checker refuses, with the designer's words."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.compile import kinds
from rulec.compile.expressions import ExpressionError, compiler_for
from rulec.language.parse import parse_text
from rulec.pipeline import load_game

GAMES = Path(__file__).resolve().parent / "games"


@pytest.fixture(scope="module")
def compiler():
    return compiler_for(load_game(str(GAMES / "disruption.rulec")))


def compile_text(compiler, text, want=kinds.BOOL):
    value = parse_text(f"x = {text}\n").data["x"]
    return compiler.source(value["tree"], want)


@pytest.mark.parametrize("text", [
    "marked(r1, disrupted)",
    "marked_hex(0304, shelled)",
    "count(u in units(side = red) where marked(u, disrupted)) > 0",
    "moved(r1, this_player_turn) or attacked(r1, previous(combat)) or defended(b1, previous(red_fight))",
    "retreated(b1) and entered(0303) and entered(0303, previous_turn) and last_to_enter(0303) == red",
    "moved(r1, this_phase) and attacked(r1, this_turn) and not retreated(b1, previous_player_turn)",
])
def test_accepted(compiler, text):
    assert compile_text(compiler, text)


@pytest.mark.parametrize("text, code, words", [
    ("marked(r1, disruptd)", "wrong-kind-argument", "must name a marker"),
    ("marked(r1, red)", "wrong-kind-argument", "must name a marker"),
    ("marked_hex(r1, shelled)", "wrong-kind-argument", "must name a hex"),
    ("moved(r1, turn)", "wrong-kind", "argument 2 of 'moved' must be a scope, not a number"),
    ("attacked(r1, previous(red))", "wrong-kind-argument", "must name a phase kind, not 'red'"),
    ("phases_since_marked(combat) >= 1", "no-marker-here", "no marker's 'expires'"),
])
def test_refused(compiler, text, code, words):
    with pytest.raises(ExpressionError) as error:
        compile_text(compiler, text)
    assert error.value.code == code and words in error.value.message


def test_phases_since_marked_is_allowed_in_an_expiry(compiler):
    assert "phases_since_marked('combat')" in compile_text(compiler.for_marker(), "phases_since_marked(combat) >= 1")
    assert "phases_since_marked('red_move2')" in compile_text(compiler.for_marker(), "phases_since_marked(red_move2) >= 1")


def test_a_did_you_mean_for_a_misspelt_marker(compiler):
    with pytest.raises(ExpressionError) as error:
        compile_text(compiler, "marked(r1, disruptd)")
    assert "disrupted" in (error.value.hint or "")
