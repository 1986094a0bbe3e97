"""The Marne end to end through the command line: `rulec simulate`, `rulec play` (AI against AI) and
`rulec aids` run on it and say what the game is (its sides, its scenarios, its turns)."""

from __future__ import annotations

import io
import json

import pytest

from rulec.cli.main import main

GAME = "the_marne"


@pytest.fixture(autouse=True)
def _in_a_temporary_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))


def test_simulate_plays_whole_games_of_a_scenario_to_their_end(capsys):
    # The free set-up is the shortest scenario (turns 8-17, every unit placed by the players).
    status = main(["simulate", GAME, "--scenario", "counterattack_free", "-n", "1", "--jobs", "1", "--json",
                   "--player", "germany=random", "--player", "allies=random"])
    summary = json.loads(capsys.readouterr().out)
    assert status == 0 and len(summary["games"]) == 1
    for played in summary["games"]:
        assert played["turns"] == 17  # the game ran to its last turn
        assert set(played["vp"]) == {"germany", "allies"}


def test_play_ai_against_ai_starts_on_6_september_and_saves_a_game_that_replays(capsys, tmp_path):
    status = main(["play", GAME, "--player", "germany=random", "--player", "allies=random", "--seed", "2",
                   "--turns", "1", "--save", "game.json", "--no-color"])
    out = capsys.readouterr().out
    assert status == 0
    assert "(turn 8" in out and "(turn 1)" not in out  # the default scenario: the counterattack, from turn 8
    saved = json.loads((tmp_path / "game.json").read_text())
    assert saved["scenario"] in (None, "counterattack") and len(saved["history"]) > 10
    assert main(["replay", "game.json"]) == 0


def test_aids_print_the_card_the_map_and_the_counters(capsys, tmp_path):
    assert main(["aids", GAME, "--out", str(tmp_path / "aids"), "--format", "html,svg"]) == 0
    page = (tmp_path / "aids" / "aids.html").read_text(encoding="utf-8")
    assert "Marne" in page and "Germany" in page
    assert (tmp_path / "aids" / "map.svg").stat().st_size > 100_000  # 780 hexes
    assert "<svg" in (tmp_path / "aids" / "counters.svg").read_text(encoding="utf-8")
