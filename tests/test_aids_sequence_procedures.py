"""The sequence-of-play aid names what each procedure does: a phase for some units only, a phase
that comes up only sometimes, automatic phases by their hooks, and placement phases
(tests/games/procedures.rulec, tests/games/free_setup.rulec); Drive on Metz's rows keep their words."""

from __future__ import annotations

from pathlib import Path

from rulec.aids.sheets import sequence_rows
from rulec.pipeline import load_game

GAMES = Path(__file__).parent / "games"


def activities(game_file: str) -> dict[str, str]:
    return {row.phase.id: row.activity for row in sequence_rows(load_game(game_file))}


def test_procedures_are_named_by_what_they_do():
    rows = activities(str(GAMES / "procedures.rulec"))
    assert rows["weather"] == "Score victory points (only when the turn is at least 2)"
    assert rows["red_panzers"] == "Move units: only Red panzer units"
    assert rows["red_fight"] == "Attack adjacent enemy units: only Red panzer units attack"
    assert rows["red_move"] == "Move units"
    assert activities(str(GAMES / "free_setup.rulec"))["red_setup"] == "Place units (only when the turn is 1)"


def test_the_older_kinds_read_as_automatic_keep_their_words():
    rows = activities("drive_on_metz")
    assert rows["us_moselle_vp"] == "Score victory points"
    assert rows["game_turn"] == "Advance the Game Turn marker"
