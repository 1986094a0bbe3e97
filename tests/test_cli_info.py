"""`rulec info GAME`: sides, options and scenarios, unit kinds, for a map game and a battle system."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.cli.main import main


def test_a_map_game_lists_its_sides_options_and_unit_kinds(capsys, metz):
    assert main(["info", "drive_on_metz"]) == 0
    out = capsys.readouterr().out
    assert "sides: us (United States), germany (Germany)\n" in out
    for option in metz.options.values():
        assert f"  {option.id}: {option.name}\n" in out
    assert "unit kinds: infantry (Infantry), armor (Armored)" in out
    assert f"; {metz.info.turns} turns (" in out and "rulec serve drive_on_metz" in out


def test_a_battle_system_lists_its_unit_kinds_and_qualities(capsys):
    assert main(["info", "engle_ww2_battle"]) == 0
    out = capsys.readouterr().out
    assert "battle system, no map; unit kinds: tank (Tank)," in out and "qualities: good (+1)" in out
    assert "rulec battle engle_ww2_battle --side" in out


def test_a_game_with_neither_map_nor_battle_says_there_is_nothing_to_play_yet(capsys):
    stage2 = Path(__file__).resolve().parent / "games" / "tutorial" / "stage2.rulec"  # sides only
    assert main(["info", str(stage2)]) == 0
    out = capsys.readouterr().out
    assert "nothing to play yet" in out and "rulec battle" not in out and "rulec play" not in out


def test_an_unknown_game_gets_did_you_mean_and_help_points_to_info(capsys):
    assert main(["info", "drive_on_mets"]) == 1
    assert "did you mean 'drive_on_metz'?" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "rulec info GAME" in capsys.readouterr().out
