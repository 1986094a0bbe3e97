"""`rulec battle` as issue 10 asks: the army states named as the odds name them, a draw stated as the
rulebook decides it (no loser), y/n accepted by --interactive, and `--json | head` ending quietly."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from rulec.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
SIDES = ["--side", "Germany: panther/good, panzergrenadier/good, infantry", "--side", "Soviet: infantry x3, mortar, at-gun"]


def test_a_drawn_battle_has_no_loser_and_states_use_the_odds_words(capsys):
    assert main(["battle", "engle_ww2_battle", *SIDES, "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "Winner: none; no loser: both armies have 2 casualty point(s) (a drawn battle)" in out
    assert "  Germany (drawn, 2 casualty points, " in out and "): shaken (No units routed, but some beaten). " in out
    assert main(["battle", "engle_ww2_battle", *SIDES, "--odds"]) == 0
    odds = capsys.readouterr().out
    assert "    shaken " in odds and "    steady " in odds


def test_interactive_accepts_y_and_n(capsys, monkeypatch):
    skirmish = ["--side", "Germany: infantry, infantry", "--side", "Soviet: infantry, infantry", "--skirmish"]
    monkeypatch.setattr("sys.stdin", io.StringIO("y\n" * 10))
    assert main(["battle", "engle_ww2_battle", *skirmish, "--interactive", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "[y/n, or 1]" in out and "Please answer" not in out
    assert "reserve infantry" in out.split("Commit which reserve unit", 1)[1]  # y committed it


def test_json_into_a_closed_pipe_ends_quietly():
    process = subprocess.Popen([sys.executable, "-m", "rulec", "battle", "engle_ww2_battle", *SIDES, "--json"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                               env={**os.environ, "PYTHONPATH": str(ROOT)})
    process.stdout.close()  # like `| head -0`: the reader is gone before the first line
    _, err = process.communicate(timeout=120)
    assert process.returncode == 0 and b"Traceback" not in err and b"BrokenPipe" not in err, err
