"""The golden playthrough: one seeded AI game of Drive on Metz, every order, battle and VP.

The text `rulec play` prints for the game is compared with
tests/golden/drive_on_metz_seed1.txt. When a rule change alters the game on
purpose, rewrite the file and review the diff:

    UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_cli_play_golden.py
"""

from __future__ import annotations

import difflib
import io
import os
import re
from pathlib import Path

from rulec.cli.main import main

GOLDEN = Path(__file__).parent / "golden" / "drive_on_metz_seed1.txt"
ARGS = ["play", "drive_on_metz", "--player", "us=greedy", "--player", "germany=random", "--seed", "1", "--no-color"]


def test_golden_playthrough(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(ARGS) == 0
    text = "$ rulec " + " ".join(ARGS) + "\n" + capsys.readouterr().out
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
