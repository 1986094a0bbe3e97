"""Requests another website (or a DNS name rebound to this machine) cannot make on a player's behalf.

The board server holds games in memory and changes them on POST. A browser lets any page it shows
send a POST to 127.0.0.1, so every request passes three checks before it reaches a route:

- Host: the name the browser asked for must be one this server is served as (a rebound DNS name
  reaches 127.0.0.1 with its own name in Host, and is refused);
- a write (any method but GET/HEAD/OPTIONS) must come from the board's own pages: a `Sec-Fetch-Site`
  other than same-origin/none, or an `Origin` that is not this server, is refused;
- a write with a body must say `Content-Type: application/json`: the forms and `text/plain` bodies a
  page on another origin may send without asking first (no CORS preflight) are refused.

A refused request gets a JSON error and changes nothing.
"""

from __future__ import annotations

import ipaddress
import json
from typing import Any, Awaitable, Callable, Iterable
from urllib.parse import urlsplit

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
ANY_ADDRESS = ("0.0.0.0", "::", "")


def served_names(host: str) -> frozenset[str] | None:
    """The Host names a server listening on `host` answers to; None: any name that is an IP address
    (a server on every interface is reached by the machine's addresses, whichever they are)."""
    host = host.strip("[]").lower()
    if host in ANY_ADDRESS:
        return None
    if host in LOOPBACK_NAMES or host.startswith("127."):
        return frozenset({host, *LOOPBACK_NAMES})
    return frozenset({host})


def split_host(value: str) -> tuple[str, int | None] | None:
    """("name", port) of a Host header value, None if it is not one."""
    try:
        parts = urlsplit("//" + value)
        name, port = parts.hostname, parts.port
    except ValueError:
        return None
    if not name or parts.username is not None or parts.path or parts.query or parts.fragment:
        return None
    return name.lower(), port


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class RequestGuard:
    """ASGI middleware: refuses foreign Host names, cross-origin writes and non-JSON write bodies.

    `host`/`port`: where the server is served (`rulec serve --host --port`); with `host=None` the
    Host header is not checked (an application mounted by its caller, who knows its names).
    `extra_hosts`: more names the server may be reached as (a reverse proxy's)."""

    def __init__(self, app: Any, host: str | None = None, port: int | None = None, extra_hosts: Iterable[str] = ()):
        self.app = app
        self.port = port
        self.check_host = host is not None
        names = served_names(host) if host is not None else None
        self.names = None if names is None else names | {n.lower().strip("[]") for n in extra_hosts}

    async def __call__(self, scope: dict, receive: Callable[[], Awaitable[dict]], send: Callable[[dict], Awaitable[None]]) -> None:
        if scope["type"] == "http":
            refusal = self.refusal(scope)
            if refusal is not None:
                status, message = refusal
                await _send_json(send, status, {"error": message})
                return
        await self.app(scope, receive, send)

    def refusal(self, scope: dict) -> tuple[int, str] | None:
        """(status, message) if the request is refused, None if it may go on."""
        headers: dict[str, str] = {}
        for key, value in scope.get("headers", []):
            headers.setdefault(key.decode("latin-1").lower(), value.decode("latin-1"))
        host = split_host(headers.get("host", ""))
        if self.check_host and not self._host_allowed(host):
            return 421, "this server does not answer to that host name (open it by the address `rulec serve` printed)"
        if scope["method"] in SAFE_METHODS:
            return None
        fetch_site = headers.get("sec-fetch-site")
        if fetch_site is not None and fetch_site not in ("same-origin", "none"):
            return 403, "a request from another website is refused"
        origin = headers.get("origin")
        if origin is not None and (host is None or not self._same_origin(origin, host, scope)):
            return 403, "a request from another website is refused"
        has_body = headers.get("content-length", "0") != "0" or "transfer-encoding" in headers
        media_type = headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if has_body and media_type != "application/json":
            return 415, "the request body must be JSON (Content-Type: application/json)"
        return None

    def _host_allowed(self, host: tuple[str, int | None] | None) -> bool:
        if host is None:
            return False
        name, port = host
        name = name.strip("[]")
        if self.port is not None and (port or 80) != self.port:
            return False
        if self.names is None:
            return _is_ip(name) or name == "localhost"
        return name in self.names

    @staticmethod
    def _same_origin(origin: str, host: tuple[str, int | None], scope: dict) -> bool:
        try:
            parts = urlsplit(origin)
            port = parts.port
        except ValueError:
            return False
        scheme = scope.get("scheme", "http")
        default = 443 if scheme == "https" else 80
        return (parts.scheme == scheme and (parts.hostname or "").lower() == host[0].strip("[]")
                and (port or default) == (host[1] or default))


async def _send_json(send: Callable[[dict], Awaitable[None]], status: int, body: dict) -> None:
    payload = json.dumps(body).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode())]})
    await send({"type": "http.response.body", "body": payload})
