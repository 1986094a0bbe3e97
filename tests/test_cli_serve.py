"""`rulec serve`: the command starts the board server on the port asked for and says where to open it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent


def test_rulec_serve_prints_the_address_and_serves_the_games_page():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "rulec", "serve", "drive_on_metz", "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                page = httpx.get(f"http://127.0.0.1:{port}/", timeout=5)
                break
            except httpx.TransportError:
                assert server.poll() is None and time.monotonic() < deadline, server.stderr.read()
                time.sleep(0.2)
        assert page.status_code == 200 and "The Drive on Metz" in page.text
        assert "engle" not in page.text  # only the games named
    finally:
        server.terminate()
        out, _ = server.communicate(timeout=30)
    assert f"the board is at http://127.0.0.1:{port}/" in out


def test_an_unknown_game_is_refused_before_serving(capsys):
    from rulec.cli.main import main
    assert main(["serve", "drive_on_mets"]) == 1
    assert "did you mean 'drive_on_metz'?" in capsys.readouterr().err


def test_a_port_out_of_range_is_a_one_line_usage_error(capsys):
    from rulec.cli.main import main
    for port in ("-1", "70000", "http"):
        try:
            status = main(["serve", "drive_on_metz", "--port", port])
        except SystemExit as stopped:  # argparse's way out
            status = stopped.code
        assert status == 2
        err = capsys.readouterr().err
        assert "--port" in err and "Traceback" not in err and len(err.strip().splitlines()) <= 2


def test_a_port_in_use_is_said_without_a_traceback():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = subprocess.run([sys.executable, "-m", "rulec", "serve", "drive_on_metz", "--port", str(port)],
                             capture_output=True, text=True, timeout=120, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode != 0 and "address already in use" in run.stderr and "Traceback" not in run.stderr
