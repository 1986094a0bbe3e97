"""`--save` writes only a new file or over a rulec save; a save is read only from a regular file; every
loader applies the same checks (rulec.players.saves.checked_save)."""

from __future__ import annotations

import io
import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from rulec.cli.main import main
from rulec.diagnostics import DiagnosticError
from rulec.players.saves import SavedGame, checked_save, game_hash, read_save, write_save

ROOT = Path(__file__).resolve().parent.parent
AI_TURN = ["--player", "us=random", "--player", "germany=random", "--seed", "1", "--turns", "1"]


@pytest.fixture(autouse=True)
def _in_a_temporary_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))


def _play_saving_to(target: str, capsys, *more: str) -> tuple[int, str]:
    status = main(["play", "drive_on_metz", *AI_TURN, "--save", target, *more])
    captured = capsys.readouterr()
    return status, captured.out + captured.err


def test_save_onto_a_device_is_refused(capsys):
    before = os.stat("/dev/null")
    status, said = _play_saving_to("/dev/null", capsys)
    assert status == 2 and "not a regular file" in said
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino


def test_save_onto_a_fifo_is_refused(tmp_path, capsys):
    os.mkfifo(tmp_path / "pipe")
    status, said = _play_saving_to("pipe", capsys)
    assert status == 2 and "not a regular file" in said and stat.S_ISFIFO(os.lstat(tmp_path / "pipe").st_mode)


def test_save_onto_a_symbolic_link_is_refused_even_with_force(tmp_path, capsys):
    (tmp_path / "target.json").write_text("kept")
    os.symlink("target.json", tmp_path / "link.json")
    for force in ([], ["--force"]):
        status, said = _play_saving_to("link.json", capsys, *force)
        assert status == 2 and "symbolic link" in said
    assert os.path.islink(tmp_path / "link.json") and (tmp_path / "target.json").read_text() == "kept"


def test_save_onto_a_folder_is_refused(tmp_path, capsys):
    (tmp_path / "folder").mkdir()
    status, said = _play_saving_to("folder", capsys, "--force")
    assert status == 2 and "folder" in said and (tmp_path / "folder").is_dir()


def test_save_onto_a_game_file_is_refused_unless_forced(tmp_path, capsys):
    game_file = tmp_path / "good.rulec"
    shutil.copy(ROOT / "games" / "drive_on_metz.rulec", game_file)
    text = game_file.read_text()
    status, said = _play_saving_to("good.rulec", capsys)
    assert status == 2 and "is not a rulec saved game" in said and "--force" in said
    assert game_file.read_text() == text
    status, _ = _play_saving_to("good.rulec", capsys, "--force")
    assert status == 0 and json.loads(game_file.read_text())["format"] == "rulec-save"


def test_save_over_an_earlier_save_and_to_a_new_file_still_work(tmp_path, capsys):
    assert _play_saving_to("game.json", capsys)[0] == 0
    first = (tmp_path / "game.json").read_text()
    assert main(["play", "drive_on_metz", *AI_TURN, "--seed", "2", "--save", "game.json"]) == 0
    assert (tmp_path / "game.json").read_text() != first and read_save(tmp_path / "game.json")[0].seed == 2


def test_the_in_game_save_command_does_not_replace_a_game_file(tmp_path, metz):
    game_file = tmp_path / "mine.rulec"
    game_file.write_text("game \"mine\"\n")
    with pytest.raises(DiagnosticError, match="not a rulec saved game"):
        write_save(game_file, SavedGame("drive_on_metz", game_hash=game_hash(metz)))
    assert game_file.read_text() == "game \"mine\"\n"


@pytest.mark.parametrize("source", ["fifo", "/dev/zero", "folder"])
def test_replay_of_something_not_a_regular_file_is_refused_at_once(tmp_path, source):
    if source == "fifo":
        os.mkfifo(tmp_path / "fifo")
    if source == "folder":
        (tmp_path / "folder").mkdir()
    run = subprocess.run([sys.executable, "-m", "rulec", "replay", source], cwd=tmp_path, capture_output=True,
                         text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 1 and "cannot read saved game" in run.stderr and "Traceback" not in run.stderr


def _good_save(metz) -> dict:
    return SavedGame("drive_on_metz", [], 1, {"us": "human", "germany": "human"}, ["end"], game_hash(metz)).to_json()


def test_every_loader_checks_alike_the_board_upload_included(metz):
    good = _good_save(metz)
    assert checked_save(good).history == ["end"]
    tampered = {**good, "seed": 2}
    with pytest.raises(DiagnosticError, match="checksum does not match"):
        checked_save(tampered)
    with pytest.raises(DiagnosticError, match="version 1; this rulec reads version 2"):
        checked_save({**good, "version": 1})
    with pytest.raises(DiagnosticError, match="not a JSON object"):
        checked_save([good])


def test_a_file_with_a_bad_checksum_is_refused_by_play_and_replay(tmp_path, metz, capsys):
    (tmp_path / "save.json").write_text(json.dumps({**_good_save(metz), "seed": 2}))
    for argv in (["play", "--load", "save.json"], ["replay", "save.json"]):
        assert main(argv) == 1
        assert "checksum does not match" in capsys.readouterr().err


def test_a_save_with_its_keys_in_another_order_is_still_a_save(tmp_path, metz, capsys):
    (tmp_path / "sorted.json").write_text(json.dumps(_good_save(metz), sort_keys=True, indent=1))
    assert _play_saving_to("sorted.json", capsys)[0] == 0
    assert read_save(tmp_path / "sorted.json")[0].seed == 1
