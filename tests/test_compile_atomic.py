"""`rulec compile` writes atomically and never says "written" of a module that does not import."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from rulec.cli import compile_command
from rulec.files import write_atomically


def compile_to(out, capsys, games=("drive_on_metz",)):
    status = compile_command.run(argparse.Namespace(games=list(games), out=str(out)))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_a_module_that_does_not_import_is_not_written_and_the_good_one_stays(tmp_path, capsys, monkeypatch):
    status, out, _ = compile_to(tmp_path, capsys)
    assert status == 0 and "written" in out
    good = (tmp_path / "drive_on_metz.py").read_text(encoding="utf-8")
    monkeypatch.setattr(compile_command, "generate_module", lambda game: good.replace("GAME: Game = ", "GAME: Game = 1 / 0 or "))
    status, out, err = compile_to(tmp_path, capsys)
    assert status == 1 and "written" not in out and "does not import" in err
    assert (tmp_path / "drive_on_metz.py").read_text(encoding="utf-8") == good
    assert sorted(p.name for p in tmp_path.iterdir()) == ["drive_on_metz.json", "drive_on_metz.py"]


def test_a_module_that_imports_to_another_game_is_not_written(tmp_path, capsys, monkeypatch):
    _, _, _ = compile_to(tmp_path, capsys)
    good = (tmp_path / "drive_on_metz.py").read_text(encoding="utf-8")
    monkeypatch.setattr(compile_command, "generate_module", lambda game: good.replace("turns=", "turns=1 + "))
    status, out, err = compile_to(tmp_path, capsys)
    assert status == 1 and "does not give back the game" in err
    assert (tmp_path / "drive_on_metz.py").read_text(encoding="utf-8") == good


@pytest.mark.parametrize("make_out", [
    lambda tmp: tmp / "a_file",
    lambda tmp: tmp / "a_file" / "below",
])
def test_an_out_that_is_a_file_is_a_one_line_usage_error(tmp_path, capsys, make_out):
    (tmp_path / "a_file").write_text("x")
    status, out, err = compile_to(make_out(tmp_path), capsys)
    assert status == 2 and out == "" and len(err.strip().splitlines()) == 1 and "not a folder" in err


def test_an_interrupted_write_leaves_no_temporary_file_and_the_old_content(tmp_path, monkeypatch):
    target = tmp_path / "f.txt"
    target.write_text("old")

    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr("os.fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomically(target, "new")
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["f.txt"]


def test_a_temporary_file_of_a_killed_writer_is_swept_by_the_next_write(tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True).stdout.strip()
    (tmp_path / f".f.txt.rulec-{dead}.tmp").write_text("half")
    (tmp_path / ".other.txt.rulec-1.tmp").write_text("not ours to remove")
    write_atomically(tmp_path / "f.txt", "whole")
    assert sorted(p.name for p in tmp_path.iterdir()) == [".other.txt.rulec-1.tmp", "f.txt"]


def test_a_game_that_cannot_be_written_as_utf8_writes_neither_file(tmp_path, capsys, monkeypatch):
    """A lone surrogate that reached the compiler (the checker refuses one in a text: test_language_surrogates)
    leaves the old .py and .json side by side, neither replaced."""
    status, _, _ = compile_to(tmp_path, capsys)
    before = {p.name: p.read_text(encoding="utf-8") for p in tmp_path.iterdir()}
    monkeypatch.setattr(compile_command, "generate_json", lambda game: '{"title": "\ud800"}')
    monkeypatch.setattr(compile_command, "generate_module", lambda game: before["drive_on_metz.py"] + "# changed\n")
    status, out, err = compile_to(tmp_path, capsys)
    assert status == 1 and "written" not in out and "UnicodeEncodeError" in err
    assert {p.name: p.read_text(encoding="utf-8") for p in tmp_path.iterdir()} == before


def test_a_lone_surrogate_in_a_text_is_refused_by_check_and_nothing_is_compiled(tmp_path, capsys):
    game = (Path(__file__).parent / "games" / "cut_off.rulec").read_text(encoding="utf-8")
    start = game.index('"') + 1
    (tmp_path / "g.rulec").write_text(game[:start] + "\\ud800" + game[start:], encoding="utf-8")
    status, out, err = compile_to(tmp_path / "out", capsys, games=(str(tmp_path / "g.rulec"),))
    assert status == 1 and "lone surrogate" in err and "nothing written" in err
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())
