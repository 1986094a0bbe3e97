"""The golden playthrough: one seeded AI game of Drive on Metz, every order, battle and VP.

The game's orders are saved in tests/golden/drive_on_metz_seed1.save.json (recorded once
with `rulec play drive_on_metz --player us=greedy --player germany=random --seed 1 --save`);
the test replays them through the engine and compares what `rulec replay` prints with
tests/golden/drive_on_metz_seed1.txt. A change to the AI players or to the shape of the
actions does not touch it; a change to what the rules do with the same orders does. When
a rule change alters the game on purpose, rewrite the file and review the diff:

    UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_cli_play_golden.py

A save carries the hash of the compiled game it was played in and `rulec replay` refuses it
once the game changes. The golden's question is the opposite one (do the same orders still
play the same way after the game file or the engine changed?), so the test replays a copy
stamped with the hash of the game as it is now.
"""

from __future__ import annotations

import difflib
import io
import os
import re
from pathlib import Path

from rulec.cli.main import main
from rulec.pipeline import load_game
from rulec.players.saves import SavedGame, game_hash, read_save, write_save

GOLDEN = Path(__file__).parent / "golden" / "drive_on_metz_seed1.txt"
SAVED = Path(__file__).parent / "golden" / "drive_on_metz_seed1.save.json"
ARGS = ["replay", str(SAVED.relative_to(Path(__file__).parent.parent)), "--map-every", "turn", "--no-color"]


def test_golden_playthrough(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(Path(__file__).parent.parent)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    saved, _ = read_save(SAVED)
    stamped = tmp_path / SAVED.name
    write_save(stamped, SavedGame(saved.game, saved.options, saved.seed, saved.players, saved.history,
                                  game_hash(load_game(saved.game)), saved.scenario))
    assert main([ARGS[0], str(stamped), *ARGS[2:]]) == 0
    # The transcript names the recorded file, as the command in the first line does.
    text = "$ rulec " + " ".join(ARGS) + "\n" + capsys.readouterr().out.replace(str(stamped), ARGS[1])
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.write_text(text, encoding="utf-8")
    expected = GOLDEN.read_text(encoding="utf-8")
    if text != expected:
        diff = "".join(list(difflib.unified_diff(expected.splitlines(True), text.splitlines(True),
                                                 "golden", "now", n=2))[:60])
        raise AssertionError("the playthrough changed (UPDATE_GOLDEN=1 rewrites it):\n" + diff)
    assert text.splitlines()[-1].startswith("game over: ")
    # Battles are told whole: who must retreat, retreats the rules made alone, the chance to advance.
    # The end says where the VP came from, side by side, before the verdict.
    assert re.search(r"^VP United States:\n( +\+\d+  .+\n)+VP Germany:\n( +\+\d+  .+\n)+game over: ", text, re.M)
    assert "must retreat" in text and "(the only way)" in text and "may advance into" in text


def test_live_ai_game_finishes_with_a_verdict(capsys, monkeypatch):
    """The AI players themselves still play a whole game to its end (what they choose may change)."""
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "drive_on_metz", "--player", "us=greedy", "--player", "germany=random",
                 "--seed", "1", "--no-color"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert re.match(r"game over: (.+ wins, .+|.+) \(VP .+; margin -?\d+\)$", last), last
