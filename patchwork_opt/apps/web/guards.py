"""What keeps other pages and greedy clients out: the Host allow-list, the security headers on
every response, the cap on request bodies, and the per-client limit on new games.

The Host check defeats DNS rebinding: a page on another site that resolves its own name to
127.0.0.1 still sends its own name as ``Host``, which the loopback service refuses (400).
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict, deque
from collections.abc import Iterable

from fastapi import HTTPException
from fastapi.responses import JSONResponse
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from patchwork_opt.apps.web.jobs import BusyError
from patchwork_opt.i18n import _

#: The page loads only its own script and style, and may be framed by nobody.
PAGE_CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
#: On every response; HTML also gets ``PAGE_CSP`` unless its route set a policy of its own.
COMMON_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


def host_name(header: str) -> str:
    """``Host`` without its port, lower case: ``[::1]:8000`` -> ``::1``, ``Example.com:80`` -> ``example.com``."""
    header = header.strip().lower()
    if header.startswith("["):
        end = header.find("]")
        return header[1:end] if end > 0 else ""
    if header.count(":") == 1:
        return header.split(":", 1)[0]
    return header


class HostAllowList:
    """Answers 400 to a request whose ``Host`` names none of ``allowed`` (``"*"`` allows any)."""

    def __init__(self, app: ASGIApp, allowed: Iterable[str]) -> None:
        self.app = app
        names = {name.strip().lower().strip("[]") for name in allowed if name.strip()}
        self.any = "*" in names
        self.allowed = frozenset(names - {"*"})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not self.any:
            raw = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
            if host_name(raw) not in self.allowed:
                shown = raw[:80] or "(none)"
                detail = f"Host {shown!r} is not served here (allowed: {', '.join(sorted(self.allowed))})"
                response = JSONResponse({"detail": detail, "words": detail}, status_code=400)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


class SecurityHeaders:
    """``COMMON_HEADERS`` on every response, ``PAGE_CSP`` on HTML that has no policy of its own."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in COMMON_HEADERS.items():
                    headers.setdefault(name, value)
                if headers.get("content-type", "").startswith("text/html"):
                    headers.setdefault("Content-Security-Policy", PAGE_CSP)
                    headers.setdefault("Cache-Control", "no-cache")
            await send(message)

        await self.app(scope, receive, with_headers)


class BodyLimit:
    """Answers 413 for a body over ``max_bytes``, declared or streamed, before anything reads it all."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            detail = f"request body over {self.max_bytes} bytes"
            response = JSONResponse({"detail": detail, "words": f"That is too much to send at once ({detail})."},
                                    status_code=413)
            await response(scope, receive, send)
            return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    # an HTTP error, not a domain one: FastAPI reads the body and passes only these on
                    raise HTTPException(413, f"request body over {self.max_bytes} bytes")
            return message

        await self.app(scope, limited, send)


class TooManyGamesError(BusyError):
    """A client that created its share of games for now (429, with when to retry)."""

    http_status = 429


class CreationLimit:
    """At most ``limit`` new games per client per ``window`` seconds (a sliding window in memory,
    per process; ``max_clients`` bounds the memory it takes)."""

    def __init__(self, limit: int, window: float, max_clients: int = 10_000) -> None:
        self.limit = limit
        self.window = window
        self.max_clients = max_clients
        self._seen: OrderedDict[str, deque[float]] = OrderedDict()

    def check(self, client: str) -> None:
        """Count a new game of ``client``, or raise ``TooManyGamesError`` saying when to retry."""
        wait = self.take(client)
        if wait:
            # Translators: {wait} is a number of seconds ("retry in 30s")
            raise TooManyGamesError(_("too many new games from you; retry in {wait}s", wait=wait), wait)

    def take(self, client: str, now: float | None = None) -> int:
        """0 if ``client`` may create a game now (and counts it), else the seconds to wait."""
        now = time.monotonic() if now is None else now
        times = self._seen.pop(client, None) or deque()
        while times and times[0] <= now - self.window:
            times.popleft()
        self._seen[client] = times
        if len(self._seen) > self.max_clients:
            self._seen.popitem(last=False)
        if len(times) >= self.limit:
            return max(1, math.ceil(times[0] + self.window - now))
        times.append(now)
        return 0
