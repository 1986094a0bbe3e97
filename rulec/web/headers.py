"""Security headers on every response of the board server: a strict Content-Security-Policy and its companions.

The pages run only the server's own script files (no inline script, no inline event handler,
no eval), load nothing from elsewhere and may not be framed, so a game file's text that
reached the page as markup still could not run. Written as plain ASGI (not BaseHTTPMiddleware):
it only adds headers to the response's start and never buffers a body.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])

HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
]

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


class SecurityHeaders:
    """ASGI middleware: every HTTP response gets HEADERS (replacing any of the same name)."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]]):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                names = {name for name, _ in HEADERS}
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in names]
                message = {**message, "headers": kept + HEADERS}
            await send(message)

        await self.app(scope, receive, send_with_headers)
