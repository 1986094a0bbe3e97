"""`rulec play GAME --scenario NAME` on a made-up game with a scenario block (tests/games/free_setup.rulec):
the game starts where the scenario says, a saved game keeps its scenario, and options that exclude
each other are refused with the reason."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from rulec.cli.main import main

GAME = str(Path(__file__).resolve().parent / "games" / "free_setup.rulec")
AI = ["--player", "red=random", "--player", "blue=random", "--seed", "3"]


@pytest.fixture(autouse=True)
def _in_a_temporary_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))


def test_a_scenario_is_played_from_its_start_and_saved_with_the_game(capsys, tmp_path):
    status = main(["play", GAME, "--scenario", "counterattack", *AI, "--save", "game.json"])
    out = capsys.readouterr().out
    assert status == 0
    assert "Blue Setup" in out or "blue_setup" in out  # its deployment, blue first
    assert "(turn 1" not in out  # it starts on turn 2
    assert "scenario: Counterattack. Blue deploys first, then red;" in out
    saved = json.loads((tmp_path / "game.json").read_text())
    assert saved["scenario"] == "counterattack"
    assert main(["replay", "game.json"]) == 0  # the saved game replays from the scenario's start
    assert "Blue" in capsys.readouterr().out


def test_options_that_exclude_each_other_are_refused(capsys):
    status = main(["play", GAME, "--option", "air_support", "--option", "night", *AI])
    assert status == 1 and "'air_support' and 'night' exclude each other" in capsys.readouterr().err


def test_an_option_the_scenario_does_not_allow_is_refused(capsys):
    status = main(["play", GAME, "--scenario", "counterattack", "--option", "fog", *AI])
    assert status == 1 and "not played with scenario 'counterattack'" in capsys.readouterr().err


def test_simulate_plays_a_scenario(capsys):
    status = main(["simulate", GAME, "--scenario", "counterattack", "-n", "2", "--jobs", "1", "--json"])
    summary = json.loads(capsys.readouterr().out)
    assert status == 0
    # The scenario ends after turn 3 (the game lasts 4 turns) and gives blue 4 VP as it starts.
    assert all(g["turns"] == 3 for g in summary["games"])
    assert all(g["vp"]["blue"] >= 4 for g in summary["games"])


def test_info_lists_the_scenarios_and_the_options_that_exclude_each_other(capsys):
    assert main(["info", GAME]) == 0
    out = capsys.readouterr().out
    assert "  air_support: Air Support (not with night)" in out
    assert "scenario blocks (--scenario ID):\n  counterattack: Counterattack, from turn 2 (red_move) to turn 3; " \
           "options: air_support, night" in out
