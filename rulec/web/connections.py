"""How `rulec serve` runs uvicorn so that idle or slow clients cannot take the board away from its player.

uvicorn's own settings do most of it (see `server_config`): keep-alive connections close after
KEEP_ALIVE seconds, a request head is at most MAX_HEAD bytes, and past MAX_CONNECTIONS connections
new requests are answered 503. Two things uvicorn does not do are added here, in a subclass of its
HTTP protocol: a connection must deliver a whole request within REQUEST_SECONDS of opening (or of its
last answer), or it is closed (a client that connects and sends nothing, or a byte at a time, is
otherwise kept forever); and when more than MAX_WAITING connections are waiting for their request,
the one that has waited longest is closed, so a flood of idle connections never holds every slot.
The log says each kind of warning a few times a minute at most (`QuietLog`).
"""

from __future__ import annotations

import logging
import resource
import time
from collections import OrderedDict
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

KEEP_ALIVE = 5  # seconds an idle keep-alive connection stays open
REQUEST_SECONDS = 10.0  # to send a whole request (head and body)
MAX_HEAD = 16 * 1024  # bytes in a request head
MAX_CONNECTIONS = 2048  # past this, 503
MAX_WAITING = 256  # connections that have not yet sent their request

_waiting: OrderedDict[int, "GuardedH11Protocol"] = OrderedDict()  # the event loop's thread only


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline on each request and a bound on connections waiting for one."""

    def connection_made(self, transport: Any) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._deadline: Any = None
        self._await_request()

    def _await_request(self) -> None:
        self._cancel_deadline()
        self._deadline = self.loop.call_later(REQUEST_SECONDS, self._too_slow)
        _waiting[id(self)] = self
        while len(_waiting) > MAX_WAITING:
            _, oldest = _waiting.popitem(last=False)
            oldest._close()

    def _cancel_deadline(self) -> None:
        if getattr(self, "_deadline", None) is not None:
            self._deadline.cancel()
            self._deadline = None
        _waiting.pop(id(self), None)

    def _too_slow(self) -> None:
        self._deadline = None
        _waiting.pop(id(self), None)
        # Still sending its request (or none at all): an answer being worked on is never cut off.
        if self.conn.their_state in (h11.IDLE, h11.SEND_BODY) and (self.cycle is None or self.cycle.response_complete
                                                                   or not self.cycle.response_started):
            self._close()

    def _close(self) -> None:
        self._cancel_deadline()
        if not self.transport.is_closing():
            self.transport.close()

    def handle_events(self) -> None:
        super().handle_events()
        if self.conn.their_state is h11.DONE or self.conn.their_state is h11.MUST_CLOSE:
            self._cancel_deadline()  # the whole request is in: the answer takes the time it takes

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._await_request()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_deadline()
        super().connection_lost(exc)


class QuietLog(logging.Filter):
    """Lets each message (by its format string) through at most `per_minute` times a minute, then
    says once how many were left out: a flood of bad clients cannot fill the disk with the log."""

    def __init__(self, per_minute: int = 5):
        super().__init__()
        self.per_minute = per_minute
        self._seen: dict[tuple[str, str], tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, str(record.msg))
        now = time.monotonic()
        start, count = self._seen.get(key, (now, 0))
        if now - start >= 60:
            if count > self.per_minute:
                record.msg = f"{record.msg} ({count - self.per_minute} more like it in the last minute not shown)"
            start, count = now, 0
        self._seen[key] = (start, count + 1)
        if len(self._seen) > 1000:  # messages with varying text: forget the oldest
            self._seen.pop(next(iter(self._seen)))
        return count < self.per_minute


def quiet_logs() -> None:
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "asyncio"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, QuietLog) for f in logger.filters):
            logger.addFilter(QuietLog())


def raise_file_limit() -> None:
    """As many open files as the system allows this user: each connection is one."""
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
        if soft != resource.RLIM_INFINITY and soft < wanted:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    except (ValueError, OSError):
        pass


def server_settings(host: str, port: int) -> dict[str, Any]:
    """uvicorn.run's keyword arguments for `rulec serve`."""
    return dict(host=host, port=port, log_level="warning", access_log=False, http=GuardedH11Protocol,
                timeout_keep_alive=KEEP_ALIVE, limit_concurrency=MAX_CONNECTIONS, h11_max_incomplete_event_size=MAX_HEAD,
                ws="none", lifespan="off")
