"""Bad command lines get one line and exit 2; interrupts and end of input leave no traceback and no partial file."""

from __future__ import annotations

import contextlib
import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from terminal import ctrl_c_answered

from rulec.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
LONG_NAME = "a" * 300
DIGITS = "9" * 5000
BATTLE = ["--side", "Germany: infantry", "--side", "Soviet: infantry"]


@pytest.fixture(autouse=True)
def _in_a_temporary_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    (tmp_path / "a_file").write_text("x")


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    try:
        status = main(argv)
    except SystemExit as stop:  # argparse's own errors
        status = stop.code
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize("argv", [
    ["play", "drive_on_metz", "--seed", "-1"],
    ["play", "drive_on_metz", "--seed", DIGITS],
    ["play", "drive_on_metz", "--turns", "0"],
    ["play", "drive_on_metz", "--turns", "-5"],
    ["play", "drive_on_metz", "--turns", "1e3"],
    ["play", "drive_on_metz", "--player", "usa=human"],
    ["play", "drive_on_metz", "--player", "us=wizard"],
    ["play", "drive_on_metz", "--player", "us"],
    ["play", "drive_on_metz", "--option", "no_such_option"],
    ["play", "drive_on_metz", "--save", "a_file/below.json"],
    ["play", "drive_on_metz", "--save", "."],
    ["play", "no_such_game"],
    ["play", LONG_NAME],
    ["play", "drive_on_metz", "--player", LONG_NAME + "=human"],
    ["simulate", "drive_on_metz", "-n", "-3"],
    ["simulate", "drive_on_metz", "-n", "0"],
    ["simulate", "drive_on_metz", "-n", DIGITS],
    ["simulate", "drive_on_metz", "--jobs", "-1"],
    ["simulate", "drive_on_metz", "--jobs", DIGITS],
    ["simulate", "drive_on_metz", "--seed", "x"],
    ["simulate", "drive_on_metz", "--player", "us=human"],
    ["simulate", LONG_NAME],
    ["battle", "engle_ww2_battle", *BATTLE, "--seed", "-2"],
    ["battle", "engle_ww2_battle", *BATTLE, "--samples", "0"],
    ["battle", "engle_ww2_battle", *BATTLE, "--samples", DIGITS],
    ["battle", LONG_NAME, *BATTLE],
    ["battle", "engle_ww2_battle", "--side", LONG_NAME + ": infantry", "--side", "Soviet: infantry"],
    ["compile", "drive_on_metz", "--out", "a_file"],
    ["compile", "drive_on_metz", "--out", "a_file/below"],
    ["check"],
    ["nonsense"],
])
def test_a_bad_command_line_is_one_line_and_exit_2(argv, capsys, tmp_path):
    status, out, err = run(argv, capsys)
    assert status == 2, err
    assert out == "" and "Traceback" not in err
    assert len(err.strip().splitlines()) <= 2 and len(err) < 500  # the error, and at most a hint
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a_file"]  # nothing written


def test_a_huge_jobs_is_capped_at_the_cores(capsys, monkeypatch):
    from rulec.cli import simulate_command

    asked = {}

    def fake_simulate(game_name, game, options, kinds, seeds, jobs, progress=None, records=None, *rest, **named):
        asked["jobs"] = jobs
        return records

    monkeypatch.setattr(simulate_command, "simulate", fake_simulate)
    main(["simulate", "drive_on_metz", "-n", "50", "--jobs", "100"])
    assert asked["jobs"] == min(os.cpu_count() or 1, 50)


def _start(argv: list[str], cwd: Path, stdin=subprocess.PIPE) -> subprocess.Popen:
    """rulec in a process group of its own (with any workers it starts), which the test can stop whole."""
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "rulec", *argv], cwd=cwd, stdin=stdin, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=environment, start_new_session=True,
                            preexec_fn=ctrl_c_answered)


def test_ctrl_c_during_a_game_saves_it_whole_without_a_traceback(tmp_path):
    process = _start(["play", "drive_on_metz", "--player", "germany=random"], tmp_path)
    time.sleep(3)  # at the first prompt, waiting for an order
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert "Traceback" not in err + out
    assert "game saved to rulec-autosave-drive_on_metz-1.json" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a_file", "rulec-autosave-drive_on_metz-1.json"]


def _children(pid: int) -> list[str]:
    found: list[str] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            found += (task / "children").read_text().split()
    return found


def test_ctrl_c_during_a_simulation_stops_without_a_traceback(tmp_path):
    process = _start(["simulate", "drive_on_metz", "-n", "100000", "--jobs", "2"], tmp_path, stdin=subprocess.DEVNULL)
    try:
        # While the workers play (a Ctrl-C while they start is held back until they have: tests/test_simulate_workers.py)
        deadline = time.monotonic() + 30
        while len(_children(process.pid)) < 2 and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.2)
        time.sleep(3)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:  # a run that does not stop must not play on through the rest of the suite, nor its workers
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
    assert process.returncode == 130 and "Traceback" not in err + out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a_file"]


def test_ctrl_c_while_the_command_starts_up_leaves_no_traceback(capsys, monkeypatch):
    """Ctrl-C while the sub-command's modules are imported (before Python runs rulec, only Python can answer)."""
    from rulec.cli import main as cli

    def interrupted(only=None):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "build_parser", interrupted)
    assert cli.main(["check", "drive_on_metz"]) == 130
    assert capsys.readouterr().err.strip() == "interrupted"


@pytest.mark.parametrize("command", ["check", "compile"])
def test_a_game_that_is_no_file_is_a_usage_error_for_check_and_compile(command, capsys, tmp_path):
    status, out, err = run([command, "no_such_game", *(["--out", "out"] if command == "compile" else [])], capsys)
    assert status == 2 and "no game named 'no_such_game'" in out + err and "Traceback" not in out + err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a_file"]


def test_a_game_whose_award_multiplies_past_any_number_stops_with_a_game_error_at_its_place(capsys, tmp_path):
    """Each number of a game file is bounded, but an amount may multiply them past what a float holds: `rulec play`
    ends with the game error of that award's expression at its file:line, not an internal error (the AIs only guess
    at such an amount outside play; the result line could not print it)."""
    made_up = (ROOT / "tests" / "games" / "final_towns.rulec").read_text()
    product = " * ".join(["1000000000"] * 36)  # 10^324: past a float (the file may nest 40 operators deep)
    hostile = made_up.replace("amount = if(controls(blue, 0102), 3, 0)", f"amount = {product} + if(controls(blue, 0102), 3, 0)")
    assert hostile != made_up
    (tmp_path / "huge.rulec").write_text(hostile)
    status, out, err = run(["play", "huge.rulec", "--player", "blue=greedy", "--player", "red=random", "--seed", "1"],
                           capsys)
    assert status == 1 and "internal error" not in err
    assert "huge.rulec:" in err and "game error" in err and "the most an award gives" in err
