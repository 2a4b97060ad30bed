"""Running the app: the listening socket, uvicorn with a request-read timeout, the default database.

uvicorn alone lets a client that sends half a request header hold its connection for ever, and
its ``limit_concurrency`` counts such connections, so 200 of them lock everyone out. Here a
connection must deliver a whole request within ``read_timeout`` seconds of opening (or of its
first byte after an answer) or it is closed, idle connections count for nothing but a file
descriptor up to ``max_connections``, and the work in flight is bounded by the app's own queue.

``serve`` says it is ready ("serving on ...") only once the app has started: with the compiled
searches cached, they are loaded by then in the server and in its analysis workers (``create_app``'s
``preload``); a connection made before waits in the socket's backlog until then.
"""

from __future__ import annotations

import asyncio
import errno
import os
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import h11
import uvicorn
from fastapi import FastAPI
from uvicorn.protocols.http.h11_impl import H11Protocol

from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.i18n import N_, _, ngettext, number

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
#: seconds the answers in flight get to finish once the server is told to stop
SHUTDOWN_GRACE_SECONDS = 5


class ServeError(PatchworkError):
    """The server cannot start (address in use, no permission, bad address)."""

    exit_code = 2


def default_db_path() -> Path:
    """``$XDG_DATA_HOME/patchwork-opt/games.sqlite3`` (``~/.local/share`` by default): a per-user
    place, not whatever directory ``serve`` was started in."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "patchwork-opt" / "games.sqlite3"


def _read_timeout_protocol(read_timeout: float, max_connections: int) -> type[H11Protocol]:
    class ReadTimeoutProtocol(H11Protocol):
        """uvicorn's HTTP/1.1 protocol, closing a connection that is slow to send its request."""

        _read_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if len(self.connections) > max_connections:
                transport.close()
                return
            self._arm()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state not in (h11.IDLE, h11.SEND_BODY):
                self._disarm()  # the request is in: how long the answer takes is the app's business
            elif self._read_timer is None and not self.transport.is_closing():
                self._arm()  # the first bytes of the next request on a kept-alive connection

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            self._disarm()
            self._read_timer = self.loop.call_later(read_timeout, self._too_slow)

        def _disarm(self) -> None:
            if self._read_timer is not None:
                self._read_timer.cancel()
                self._read_timer = None

        def _too_slow(self) -> None:
            self._read_timer = None
            if self.conn.their_state in (h11.IDLE, h11.SEND_BODY) and not self.transport.is_closing():
                self.transport.close()

    return ReadTimeoutProtocol


def bind(host: str, port: int) -> socket.socket:
    """The listening socket, or ``ServeError`` naming why not (before anything says "serving")."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        # Translators: {reason} is the system's reason, in English
        raise ServeError(N_("--host {host}: cannot resolve it ({reason})"), host=host, reason=exc.strerror) from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise ServeError(N_("port {port} on {host} is already in use (choose another with --port)"), port=port,
                             host=host) from None
        # Translators: {reason} is the system's reason, in English
        raise ServeError(N_("cannot listen on {host}:{port}: {reason}"), host=host, port=port,
                         reason=exc.strerror or str(exc)) from None
    sock.set_inheritable(True)
    return sock


class _Server(uvicorn.Server):
    """uvicorn's server, calling ``on_ready`` once it has started: after the app's start-up (which
    loads the compiled searches under ``serve``), as it takes connections."""

    def __init__(self, config: uvicorn.Config, on_ready: Callable[[], Any] | None) -> None:
        super().__init__(config)
        self._on_ready = on_ready

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        if self.started and not self.should_exit and self._on_ready is not None:
            self._on_ready()


def make_server(app: FastAPI, *, read_timeout: float = 10.0, max_connections: int = 4096,
                on_ready: Callable[[], Any] | None = None) -> uvicorn.Server:
    """uvicorn for ``app`` with the read timeout; in-flight work is bounded by the app's queue;
    ``on_ready`` is called once the app has started and the server takes connections."""
    config = uvicorn.Config(
        app,
        log_level="warning",
        http=_read_timeout_protocol(read_timeout, max_connections),
        timeout_keep_alive=5,
        limit_concurrency=None,
        lifespan="on",
        # answers still running when the server is told to stop get this long (the longest AI job is
        # capped at a few seconds), then are cancelled: a live analysis stream would run its whole time
        timeout_graceful_shutdown=SHUTDOWN_GRACE_SECONDS,
    )
    return _Server(config, on_ready)


def serve(
    app: FastAPI,
    sock: socket.socket,
    *,
    read_timeout: float = 10.0,
    on_listening: Callable[[], Any] | None = None,
) -> None:
    """Serve ``app`` on the bound ``sock`` until interrupted; ``on_listening`` is called once the app
    has started (its compiled searches loaded, under ``serve``) and connections are taken."""
    make_server(app, read_timeout=read_timeout, on_ready=on_listening).run(sockets=[sock])


def run_server(
    services: Any,
    limits: Any,
    *,
    host: str,
    port: int,
    db: str | None,
    say: Callable[[str], None],
    read_timeout: float = 10.0,
) -> None:
    """``patchwork serve``: bind first (a busy port is one ``ServeError``), open the games, load the
    compiled searches when they are cached (here and in the analysis workers: ``create_app``'s
    ``preload``), then say where everything is (the readiness line: nothing is answered before it)
    and serve until interrupted."""
    from dataclasses import replace

    from patchwork_opt.apps.web.app import create_app
    from patchwork_opt.apps.web.database import is_postgres_url, redacted_url

    where = db if db else str(default_db_path())
    if host not in LOOPBACK_NAMES:
        say(f"warning: binding {host}: the games and solvers are open to other machines")
        if host not in ("0.0.0.0", "::") and "*" not in limits.allowed_hosts:
            limits = replace(limits, allowed_hosts=(*limits.allowed_hosts, host))
    sock = bind(host, port)
    try:
        app = create_app(where, services, limits, preload=True)
    except BaseException:
        sock.close()
        raise
    shown = redacted_url(where) if is_postgres_url(where) else where
    url_host = f"[{host}]" if ":" in host else host
    address = f"http://{url_host}:{port}/"

    def listening() -> None:
        if app.state.preloaded is not None:
            seconds = number(app.state.preloaded, 1)
            if app.state.streams is None:
                # Translators: serve's first line once it is ready: how long loading the compiled code took
                say(_("compiled searches loaded in {seconds} s (this process)", seconds=seconds))
            else:
                # Translators: as above, with the worker processes of the live analysis ({count} of them)
                say(ngettext("compiled searches loaded in {seconds} s (this process and {count} analysis worker)",
                             "compiled searches loaded in {seconds} s (this process and {count} analysis workers)",
                             app.state.streams.ready_workers, seconds=seconds))
        # Translators: serve's ready line: its address, where the games are stored (a file or a database), and the
        # API's documentation page (keep /docs as it is)
        say(_("serving on {url} (games in {where}; API docs at /docs)", url=address, where=shown))

    serve(app, sock, read_timeout=read_timeout, on_listening=listening)
