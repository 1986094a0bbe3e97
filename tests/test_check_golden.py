"""Golden test: the exact text `rulec check` prints for a file with several mistakes.

If the output changes on purpose, regenerate the golden file with
    .venv/bin/python -m rulec check tests/bad_games/golden_several_mistakes.rulec > tests/bad_games/golden_several_mistakes.txt
and read the diff before committing it.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rulec.cli import check_command

BAD_GAMES = Path(__file__).resolve().parent / "bad_games"


def test_check_output_matches_the_golden_file(capsys):
    parser = argparse.ArgumentParser(prog="rulec")
    check_command.register(parser.add_subparsers())
    args = parser.parse_args(["check", "tests/bad_games/golden_several_mistakes.rulec"])
    assert args.func(args) == 1
    expected = (BAD_GAMES / "golden_several_mistakes.txt").read_text(encoding="utf-8")
    assert capsys.readouterr().out == expected
