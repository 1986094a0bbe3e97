"""`rulec simulate --backend ray` plays the same games as the local back end: same seeds, same results.

Ray runs in a `rulec` subprocess, never in the test process: Ray leaves threads behind (gRPC's, its
own) that would stay in the suite's process for every later test (see tests/test_simulate_workers.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulec.cli.main import main

ROOT = Path(__file__).resolve().parent.parent


def _rulec(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rulec", *argv], capture_output=True, text=True, timeout=600,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})


def _simulate(capsys, *extra: str) -> dict:
    assert main(["simulate", "drive_on_metz", "-n", "3", "--seed", "5", "--jobs", "1", "--json", *extra]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_json_lists_every_game_with_its_seed_winner_vp_and_turns(capsys):
    local = _simulate(capsys)
    assert [game["seed"] for game in local["games"]] == [5, 6, 7]
    for game in local["games"]:
        assert set(game) >= {"seed", "winner", "vp", "turns"}
        assert game["winner"] in (None, "us", "germany") and set(game["vp"]) == {"us", "germany"}
        assert 1 <= game["turns"] <= 7
    assert sum(local["wins_total"].values()) + local["draws"] == local["played"] == 3


def test_ray_on_a_local_instance_gives_the_local_back_ends_games(capsys):
    pytest.importorskip("ray", reason="Ray is not installed (pip install -e '.[ray]')")
    local = _simulate(capsys, "--backend", "local")
    run = _rulec("simulate", "drive_on_metz", "-n", "3", "--seed", "5", "--jobs", "1", "--json", "--backend", "ray")
    assert run.returncode == 0, run.stderr
    on_ray = json.loads(run.stdout)
    assert on_ray["games"] == local["games"]
    assert on_ray == local  # and so the whole summary


def test_the_ray_back_end_without_ray_installed_says_how_to_install_it(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now raises ImportError
    assert main(["simulate", "drive_on_metz", "-n", "1", "--backend", "ray"]) == 1
    err = capsys.readouterr().err
    assert "[missing-extra]" in err and ".[ray]" in err


def test_an_address_nothing_listens_on_is_a_diagnostic_at_once(capsys):
    pytest.importorskip("ray", reason="Ray is not installed (pip install -e '.[ray]')")
    import socket

    with socket.socket() as probe:  # a loopback port that was free a moment ago: nothing listens on it
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    run = _rulec("simulate", "drive_on_metz", "-n", "1", "--backend", "ray", "--address", f"127.0.0.1:{port}")
    assert run.returncode == 1
    err = run.stderr
    assert "[ray-unreachable]" in err and f"127.0.0.1:{port}" in err


def test_an_address_without_the_ray_back_end_is_a_usage_error(capsys):
    assert main(["simulate", "drive_on_metz", "-n", "1", "--address", "auto"]) == 2
    assert "--address is for --backend ray" in capsys.readouterr().err
