"""A game that passes `rulec check` plays without a traceback: a failing expression is a game error at its file:line."""

from __future__ import annotations

import io
import pickle
import re
from pathlib import Path

import pytest

from rulec.cli.main import main
from rulec.pipeline import check_file
from rulec.runtime.errors import ExpressionFailed

TINY = (Path(__file__).resolve().parent / "bad_games" / "ok_designer_tiny.rulec").read_text(encoding="utf-8")


@pytest.fixture
def dividing_game(tmp_path, monkeypatch):
    """The tiny game whose awards divide by zero, with a battle on turn 1."""
    monkeypatch.chdir(tmp_path)
    text = TINY.replace("amount = 8 - turn", "amount = 8 / (turn - turn)")
    text = text.replace("award red_kills { side = red  when = eliminated(blue)  amount = strength }",
                        "award red_kills { side = red  when = eliminated(blue)  amount = strength / (turn - turn) }")
    text = text.replace("strength = 3  move = 3  setup = 0101", "strength = 3  move = 3  setup = 0302")
    (tmp_path / "div.rulec").write_text(text, encoding="utf-8")
    assert check_file(str(tmp_path / "div.rulec")).ok  # the checker cannot know the turn
    return tmp_path / "div.rulec", text


def test_a_division_by_zero_in_play_is_a_game_error_at_its_line_and_the_game_is_kept(dividing_game, capsys, monkeypatch):
    path, text = dividing_game
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    status = main(["play", str(path), "--player", "red=greedy", "--player", "blue=random"])
    captured = capsys.readouterr()
    assert status == 1 and "Traceback" not in captured.err
    match = re.search(r"div\.rulec:(\d+):\d+: error: game error: the expression '([^']+)' failed: division by zero "
                      r"\[expression-failed\]", captured.err)
    assert match, captured.err
    assert match[2].replace(" ", "") in text.splitlines()[int(match[1]) - 1].replace(" ", "")
    assert "game saved to rulec-autosave-div-1.json" in captured.out


def test_a_division_by_zero_in_a_simulation_is_one_line(dividing_game, capsys):
    path, _ = dividing_game
    status = main(["simulate", str(path), "-n", "2", "--jobs", "1"])
    err = capsys.readouterr().err
    assert status == 1 and err.startswith("rulec: game error: the expression") and len(err.splitlines()) == 1


def test_the_error_crosses_processes():
    error = pickle.loads(pickle.dumps(ExpressionFailed("1 / 0", ZeroDivisionError("division by zero"))))
    assert error.source == "1 / 0" and "division by zero" in str(error)


@pytest.mark.parametrize("expression", ["count(3)", '"a" < 1', "strength_of(3)", 'min("a", 1)', '-"x"', 'abs("x")',
                                        '"a" + 1'])
def test_expressions_of_the_wrong_kind_are_caught_by_the_checker(expression, tmp_path):
    """Once game errors in play, these are now refused by the typed checker at their line."""
    text = TINY.replace("amount = 8 - turn", f"amount = {expression}")
    (tmp_path / "e.rulec").write_text(text, encoding="utf-8")
    line = next(number for number, row in enumerate(text.splitlines(), 1) if f"amount = {expression}" in row)
    result = check_file(str(tmp_path / "e.rulec"))
    assert not result.ok
    assert [(d.code, d.span.line) for d in result.diagnostics if d.is_error] in (
        [("wrong-kind", line)], [("wrong-kind-argument", line)])


@pytest.mark.parametrize("expression", ["turn % (turn - turn)", "8 / (turn - turn)"])
def test_expressions_that_check_but_fail_are_game_errors_at_their_line(expression, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    text = TINY.replace("amount = 8 - turn", f"amount = {expression}").replace("setup = 0101", "setup = 0302")
    (tmp_path / "e.rulec").write_text(text, encoding="utf-8")
    line = next(number for number, row in enumerate(text.splitlines(), 1) if f"amount = {expression}" in row)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    status = main(["play", "e.rulec", "--player", "red=greedy", "--player", "blue=random", "--turns", "2"])
    err = capsys.readouterr().err
    assert status == 1 and "Traceback" not in err
    assert f"e.rulec:{line}:12: error: game error: the expression '{expression}' failed" in err
