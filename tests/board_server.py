"""A real board server (uvicorn) on a free localhost port, in a thread, for the tests that need HTTP."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from typing import Iterator

import uvicorn

from rulec.web.app import create_app


@contextlib.contextmanager
def running_server(games: dict) -> Iterator[str]:
    """The base URL of a board server offering `games`, stopped on leaving the block."""
    # The server is handed the socket this test bound: a port probed and then released could be taken by another
    # test running at the same time (make test runs the suite in several processes) before uvicorn bound it again.
    listening = socket.socket()
    listening.bind(("127.0.0.1", 0))
    port = listening.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(games), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the board server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        listening.close()
