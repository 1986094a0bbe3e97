"""`rulec check` on whatever it is given: exit statuses, and never a traceback."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from rulec.cli import check_command
from rulec.pipeline import check_file

BAD_GAMES = Path(__file__).resolve().parent / "bad_games"


def run_check(*arguments: str) -> int:
    """The check command alone (the other sub-commands are not needed to test it)."""
    parser = argparse.ArgumentParser(prog="rulec", exit_on_error=False)
    check_command.register(parser.add_subparsers())
    args = parser.parse_args(["check", *arguments])
    return args.func(args)


def codes(name: str) -> list[str]:
    return [d.code for d in check_file(name).diagnostics]


def test_clean_games_exit_0(capsys):
    assert run_check("drive_on_metz", str(BAD_GAMES / "ok_minimal.rulec")) == 0
    assert capsys.readouterr().out.splitlines() == ["games/drive_on_metz.rulec: ok", "tests/bad_games/ok_minimal.rulec: ok"]


def test_warnings_alone_exit_0(capsys):
    assert run_check(str(BAD_GAMES / "unused-result-code.rulec")) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "tests/bad_games/unused-result-code.rulec: ok, 1 warning"


def test_errors_exit_1_and_every_game_is_checked(capsys):
    assert run_check(str(BAD_GAMES / "unknown-side.rulec"), "drive_on_metz") == 1
    out = capsys.readouterr().out
    assert "tests/bad_games/unknown-side.rulec: 1 error" in out and "games/drive_on_metz.rulec: ok" in out


def test_no_game_given_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as caught:
        run_check()
    assert caught.value.code == 2


def test_unknown_game_name_suggests_one():
    result = check_file("drive_on_mets")
    assert [(d.code, d.message, d.hint) for d in result.diagnostics] == [
        ("no-such-game", "no game named 'drive_on_mets'", "did you mean 'drive_on_metz'?")]


def test_missing_file_and_directory(tmp_path):
    assert codes(str(tmp_path / "nothing.rulec")) == ["no-such-file"]
    assert codes(str(tmp_path)) == ["no-such-file"]
    assert check_file(str(tmp_path)).diagnostics[0].message.endswith("is a directory, not a game file")


def test_binary_and_non_utf8_files(tmp_path):
    binary = tmp_path / "binary.rulec"
    binary.write_bytes(bytes(range(256)) * 4)
    assert codes(str(binary)) == ["not-a-game-file"]
    latin = tmp_path / "latin.rulec"
    latin.write_bytes("game g { title = \"Café\" }".encode("latin-1"))
    assert codes(str(latin)) == ["not-a-game-file"]
    nul = tmp_path / "nul.rulec"
    nul.write_text("game g {\x00}")
    assert codes(str(nul)) == ["not-a-game-file"]


@pytest.mark.parametrize("text", ["", "# The Battle of Nowhere\n# to be written\n", "\ufeff\r\n"])
def test_an_empty_file_is_one_error_naming_what_a_game_needs(tmp_path, text):
    empty = tmp_path / "empty.rulec"
    empty.write_text(text, encoding="utf-8", newline="")
    diagnostics = check_file(str(empty)).diagnostics
    assert [(d.code, d.message) for d in diagnostics] == [
        ("missing-field", "this file holds no game: it is empty or only comments")]
    assert "'game NAME" in diagnostics[0].hint and "'side NAME" in diagnostics[0].hint


def test_a_file_with_a_game_but_no_side_names_what_is_missing(tmp_path):
    game = tmp_path / "g.rulec"
    game.write_text('game g { title = "G" }\n')
    assert ("missing-field", "a game file needs a 'side' block") in [(d.code, d.message) for d in check_file(str(game)).diagnostics]


def test_unreadable_file(tmp_path, monkeypatch):
    target = tmp_path / "locked.rulec"
    target.write_text("game g { title = \"x\" }")

    def refuse(self):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "read_bytes", refuse)
    result = check_file(str(target))
    assert [(d.code, d.message) for d in result.diagnostics] == [
        ("unreadable-file", f"cannot read '{target}': Permission denied")]


def test_a_byte_order_mark_is_accepted(tmp_path):
    marked = tmp_path / "marked.rulec"
    marked.write_bytes(b"\xef\xbb\xbf" + (BAD_GAMES / "ok_minimal.rulec").read_bytes())
    assert check_file(str(marked)).ok


def test_the_rulec_command_itself_reports_without_traceback(tmp_path):
    import subprocess
    import sys

    junk = tmp_path / "junk.rulec"
    junk.write_bytes(b"game {{{ \xff\xfe ]]] @@@")
    command = [sys.executable, "-m", "rulec", "check", str(junk), str(tmp_path), "drive_on_metz", str(BAD_GAMES / "syntax.rulec")]
    finished = subprocess.run(command, cwd=BAD_GAMES.parent.parent, capture_output=True, text=True, timeout=60)
    assert finished.returncode == 1
    assert "Traceback" not in finished.stdout + finished.stderr
    assert "games/drive_on_metz.rulec: ok" in finished.stdout
    assert "[not-a-game-file]" in finished.stdout and "[no-such-file]" in finished.stdout and "[syntax]" in finished.stdout
