"""`rulec serve` cannot be turned against its player: cross-origin and non-JSON writes, foreign Host names,
a full server that would have to drop a game in use, idle connections by the thousand, a flooded log."""

from __future__ import annotations

import logging
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from starlette.testclient import TestClient

from rulec.web.app import create_app
from rulec.web.capacity import GameTable
from rulec.web.connections import QuietLog
from rulec.web.session import SessionError, new_session

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
ROOT = Path(__file__).resolve().parent.parent
NEW_GAME = {"game": "drive_on_metz", "seed": 1}


@pytest.fixture
def served(metz):
    """A client of the app as `rulec serve --host 127.0.0.1 --port 8000` makes it."""
    app = create_app({"drive_on_metz": metz}, host="127.0.0.1", port=8000)
    return app, TestClient(app, base_url="http://127.0.0.1:8000")


def test_a_same_origin_json_write_is_served(served):
    app, client = served
    response = client.post("/api/games", json=NEW_GAME, headers={"origin": "http://127.0.0.1:8000",
                                                                 "sec-fetch-site": "same-origin"})
    assert response.status_code == 201 and len(app.state.registry) == 1
    game_id = response.json()["id"]
    assert client.post(f"/api/games/{game_id}/undo").status_code == 200  # no body: no content type needed


@pytest.mark.parametrize("headers", [
    {"origin": "http://evil.example"},
    {"origin": "http://127.0.0.1:8001"},  # another port is another origin
    {"origin": "null"},  # a sandboxed frame or a file:// page
    {"sec-fetch-site": "cross-site"},
    {"sec-fetch-site": "same-site"},
])
def test_a_write_from_another_website_is_refused_and_changes_nothing(served, headers):
    app, client = served
    game_id = client.post("/api/games", json=NEW_GAME).json()["id"]
    refused = client.post(f"/api/games/{game_id}/orders", json={"order": "end"}, headers=headers)
    assert refused.status_code == 403 and "another website" in refused.json()["error"]
    assert client.post("/api/games", json=NEW_GAME, headers=headers).status_code == 403
    assert len(app.state.registry) == 1 and client.get(f"/api/games/{game_id}").json()["steps"] == 0


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", None])
def test_a_write_body_that_is_not_declared_json_is_refused(served, content_type):
    """The bodies a page of another origin may send without a CORS preflight."""
    app, client = served
    headers = {"content-type": content_type} if content_type else {}
    refused = client.post("/api/games", content=b'{"game": "drive_on_metz"}', headers=headers)
    assert refused.status_code == 415 and "JSON" in refused.json()["error"]
    assert len(app.state.registry) == 0


@pytest.mark.parametrize("host", ["evil.example:8000", "127.0.0.1:8001", "localhost.evil.example:8000", "", "a b"])
def test_a_foreign_host_name_is_refused_dns_rebinding(served, host):
    app, client = served
    refused = client.get("/", headers={"host": host})
    assert refused.status_code == 421
    assert client.post("/api/games", json=NEW_GAME, headers={"host": host}).status_code == 421
    assert len(app.state.registry) == 0


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "[::1]:8000"])
def test_the_loopback_names_are_served(served, host):
    assert served[1].get("/", headers={"host": host}).status_code == 200


def test_a_server_on_every_interface_answers_its_addresses_not_names(metz):
    client = TestClient(create_app({"drive_on_metz": metz}, host="0.0.0.0", port=8000), base_url="http://10.1.2.3:8000")
    assert client.get("/").status_code == 200
    assert client.get("/", headers={"host": "rebound.example:8000"}).status_code == 421


def test_a_full_server_refuses_a_new_game_rather_than_drop_one_in_use(metz):
    now = [0.0]
    table = GameTable(limit=2, idle_seconds=600, clock=lambda: now[0])
    first, second = (table.add(new_session("drive_on_metz", metz, seed=n)) for n in (1, 2))
    now[0] = 599
    table.get(first)
    with pytest.raises(SessionError, match="the server is full") as refused:
        table.add(new_session("drive_on_metz", metz, seed=3))
    assert refused.value.status == 503 and len(table) == 2
    now[0] = 601  # the second game has been left for 601 s, the first for 2 s: only the second may go
    third = table.add(new_session("drive_on_metz", metz, seed=3))
    assert table.get(first) and table.get(third)
    with pytest.raises(SessionError, match="no game"):
        table.get(second)


def test_games_are_bounded_by_measured_memory(metz):
    session = new_session("drive_on_metz", metz, seed=1)
    size = GameTable().measure(session)
    assert 10_000 < size < 50 * 2**20  # a position of Drive on Metz, measured: not nothing, not the whole process
    table = GameTable(memory_budget=int(size * 2.5))
    table.add(session)
    table.add(new_session("drive_on_metz", metz, seed=2))
    with pytest.raises(SessionError, match="the server is full") as refused:
        table.add(new_session("drive_on_metz", metz, seed=3))
    assert refused.value.status == 503 and len(table) == 2 and table.bytes_in_use() <= table.memory_budget


def test_the_full_server_says_so_over_http(metz):
    client = TestClient(create_app({"drive_on_metz": metz}, memory_budget=1000))
    refused = client.post("/api/games", json=NEW_GAME)
    assert refused.status_code == 503 and "the server is full" in refused.json()["error"]


def test_the_log_says_a_repeated_warning_a_few_times_a_minute():
    logger = logging.getLogger("rulec.test.quiet")
    logger.propagate = False
    seen: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: seen.append(record.getMessage())
    logger.addHandler(handler)
    logger.addFilter(QuietLog(per_minute=5))
    for n in range(1000):
        logger.warning("Invalid HTTP request received from %s", n)
    logger.warning("another message")
    assert len(seen) == 6 and seen[-1] == "another message"


def test_a_thousand_idle_connections_do_not_stop_a_real_client():
    """A real `rulec serve` on 127.0.0.1: 1,000 connections that send nothing (or half a request head),
    then a real client is served at once, and the idle connections are closed by the server."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "rulec", "serve", "drive_on_metz", "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    idle: list[socket.socket] = []
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                assert httpx.get(f"http://127.0.0.1:{port}/", timeout=5).status_code == 200
                break
            except httpx.TransportError:
                assert server.poll() is None and time.monotonic() < deadline, server.stderr.read()
                time.sleep(0.2)
        for n in range(1000):
            connection = socket.create_connection(("127.0.0.1", port), timeout=5)
            if n % 2:
                connection.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # a head never finished (slowloris)
            idle.append(connection)
        started = time.monotonic()
        page = httpx.get(f"http://127.0.0.1:{port}/", timeout=10)
        assert page.status_code == 200 and "The Drive on Metz" in page.text
        game = httpx.post(f"http://127.0.0.1:{port}/api/games", json=NEW_GAME, timeout=10)
        assert game.status_code == 201 and time.monotonic() - started < 5
        # Every idle connection is closed by the server: the oldest at once (too many waiting), the rest in time.
        for connection in idle:
            connection.settimeout(max(0.1, started + 15 - time.monotonic()))
            try:
                assert connection.recv(100) == b""
            except ConnectionResetError:
                pass
    finally:
        for connection in idle:
            connection.close()
        server.terminate()
        _, errors = server.communicate(timeout=30)
    assert len(errors) < 5000, errors[:2000]  # the log stays quiet
