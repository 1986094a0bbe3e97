"""Rules a game may declare that the engine does not play yet are named, never silently ignored."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from rulec.cli.main import main
from rulec.engine.support import unplayed
from rulec.pipeline import load_game

MARNE_FEATURES = Path(__file__).resolve().parent / "bad_games" / "ok_marne_features.rulec"


def test_the_shipped_map_game_uses_only_what_the_engine_plays(metz):
    assert unplayed(metz) == []


def test_each_unplayed_setting_is_named(metz):
    variant = replace(metz, movement=replace(metz.movement, leapfrog=True))
    assert unplayed(variant) == ["movement { leapfrog = true }"]


def test_rulec_check_warns_but_passes(capsys):
    assert main(["check", str(MARNE_FEATURES)]) == 0
    out = capsys.readouterr().out
    assert "warning: the engine does not play supply { ... } (supply lines and their effects) yet" in out
    assert out.count("[not-played-yet]") == len(unplayed(load_game(str(MARNE_FEATURES))))


def test_rulec_play_says_which_rules_it_ignores(tmp_path, capsys):
    save = tmp_path / "game.json"
    status = main(["play", str(MARNE_FEATURES), "--player", "germany=random", "--player", "allies=random",
                   "--turns", "1", "--seed", "1", "--no-color", "--save", str(save)])
    err = capsys.readouterr().err
    assert "warning: the engine does not play supply { ... } (supply lines and their effects) yet" in err, err
    assert status == 0
