"""The service's database in PostgreSQL, shared by every ``serve`` process that names it.

The same transactions as SQLite (``database.py``); connections come from a small pool per process.
A store that reads a row and then writes it reads it ``FOR UPDATE`` (``row_lock``): of two servers
racing for the same game ply one stores its move and the other, once the lock is free, reads the new
ply; two servers rating answers of one visitor at once lose neither update. Tables are created under
an advisory lock, so servers starting at once do not race on ``CREATE ... IF NOT EXISTS``.

A request waits for a pooled connection in slices of ``UNREACHABLE_WAIT_SECONDS``, up to
``POOL_WAIT_SECONDS`` in all. Every connection the pool opens says whether the server answered
(``_Reach``): while its latest attempt failed (the server refuses connections, is gone or does not
answer within ``CONNECT_TIMEOUT_SECONDS``), a request gives up after its slice (503 with
``Retry-After`` within seconds), where a pool that is merely busy (every connection out, the server
answering) keeps it waiting its turn. The pool stops retrying a connection after
``RECONNECT_SECONDS``; a request that waits then makes it try afresh, so the service answers again
within a slice of the server coming back, however long it was away.

What one server changes reaches the others by ``NOTIFY`` (``notify``, on a pooled connection, after
the change is committed) and ``LISTEN`` (``listen``): one connection per process, outside the pool,
read by a thread of its own; when it drops, it is opened again and ``reopened`` says that something
may have been missed meanwhile.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Self

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict
from psycopg_pool import ConnectionPool, PoolTimeout

from patchwork_opt.apps.web.database import (
    Database,
    Dialect,
    Schema,
    StoreError,
    StoreUnavailableError,
    Upgrade,
    first_line,
    redacted_url,
)
from patchwork_opt.i18n import N_

#: serializes schema creation between servers starting at once (CREATE IF NOT EXISTS can race)
_SCHEMA_LOCK = 0x70617463  # "patc"
#: seconds the listening thread waits for a notification before it looks whether to stop
LISTEN_POLL_SECONDS = 0.5
#: seconds before a dropped listening connection is opened again (doubling, at most ``RELISTEN_MAX``)
RELISTEN_SECONDS = 0.1
RELISTEN_MAX = 5.0
#: seconds a request waits at most for a pooled connection while the server answers: every connection
#: out (a request holds one for a transaction of milliseconds, so this is load far past the pool's)
POOL_WAIT_SECONDS = 30.0
#: seconds a request waits for a pooled connection before it looks whether the pool's latest attempt
#: to open one failed, and gives up if so (the 503 then): long enough for an attempt the wait itself
#: starts to succeed when the server is back
UNREACHABLE_WAIT_SECONDS = 2.0
#: seconds the pool keeps retrying a connection it could not open (its attempts back off from 1 s)
#: before it leaves the next attempt to a request that waits
RECONNECT_SECONDS = 5.0
#: seconds libpq waits for a server that does not answer at all (a URL's own ``connect_timeout`` wins)
CONNECT_TIMEOUT_SECONDS = 5


class _Reach:
    """Whether the pool's latest attempt to open a connection failed: the server refused it, is gone,
    or did not answer in time. Written by the pool's workers as each attempt ends, read by requests."""

    def __init__(self) -> None:
        self.failing = False


class _Reporting(psycopg.Connection[Any]):
    """The pool's connections: opening one tells the ``_Reach`` the pool passes it (``reach``, one of
    the pool's connection arguments) whether the server answered."""

    @classmethod
    def connect(cls, conninfo: str = "", **kwargs: Any) -> Self:
        reach: _Reach = kwargs.pop("reach")
        try:
            conn = super().connect(conninfo, **kwargs)
        except psycopg.Error:
            reach.failing = True
            raise
        reach.failing = False
        return conn


class _Qmark:
    """A psycopg connection that takes ``?`` placeholders, as the shared SQL is written."""

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self.conn = conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> psycopg.Cursor[Any]:
        return self.conn.execute(sql.replace("?", "%s"), params)


class PostgresDatabase(Database):
    """``postgresql://USER[:PASSWORD]@HOST:PORT/DB`` (libpq's URL and its ``?options``)."""

    dialect: Dialect = "postgres"
    row_lock = " FOR UPDATE"
    duplicate = (psycopg.errors.UniqueViolation,)

    def __init__(self, url: str, max_connections: int = 8) -> None:
        self.where = redacted_url(url)
        self._url = url
        self.reach = _Reach()
        arguments: dict[str, Any] = {"autocommit": True, "reach": self.reach}
        try:
            if "connect_timeout" not in conninfo_to_dict(url):
                arguments["connect_timeout"] = CONNECT_TIMEOUT_SECONDS
            self.pool: ConnectionPool[_Reporting] = ConnectionPool(
                url, connection_class=_Reporting, min_size=1, max_size=max_connections, kwargs=arguments,
                open=False, timeout=POOL_WAIT_SECONDS, reconnect_timeout=RECONNECT_SECONDS)
            self.pool.open(wait=True, timeout=10.0)
        except (psycopg.Error, PoolTimeout) as exc:
            self.pool.close()
            # Translators: {where} is the database's address; {reason} the driver's reason, in English
            raise StoreError(N_("{where}: cannot connect to PostgreSQL ({reason})"), where=self.where,
                             reason=first_line(exc)) from None

    def close(self) -> None:
        self.pool.close()

    def _checkout(self) -> _Reporting:
        """A connection of the pool, waiting in slices of ``UNREACHABLE_WAIT_SECONDS`` while the server
        answers, up to ``POOL_WAIT_SECONDS`` in all; ``PoolTimeout`` after the first slice that ends
        with the pool's latest attempt to connect failed."""
        waited = 0.0
        while True:
            wait = min(UNREACHABLE_WAIT_SECONDS, POOL_WAIT_SECONDS - waited)
            try:
                return self.pool.getconn(timeout=wait)
            except PoolTimeout:
                waited += wait
                if self.reach.failing or waited >= POOL_WAIT_SECONDS:
                    raise

    @contextmanager
    def _pooled(self) -> Iterator[_Reporting]:
        """``pool.connection()`` taken by ``_checkout``: given back however the work ends (the pool
        drops a broken connection and opens another)."""
        conn = self._checkout()
        try:
            with conn:
                yield conn
        finally:
            self.pool.putconn(conn)

    @contextmanager
    def connect(self) -> Iterator[_Qmark]:
        """A pooled connection; a server gone, a connection cut or none free in time is
        ``StoreUnavailableError`` (the pool drops a broken connection as it comes back)."""
        try:
            with self._pooled() as conn:
                yield _Qmark(conn)
        except (psycopg.OperationalError, PoolTimeout) as exc:
            raise self.unavailable(exc) from None

    @contextmanager
    def transaction(self) -> Iterator[_Qmark]:
        """One transaction, rolled back by any exception (the server's own when the connection is cut)."""
        try:
            with self._pooled() as conn, conn.transaction():
                yield _Qmark(conn)
        except (psycopg.OperationalError, PoolTimeout) as exc:
            raise self.unavailable(exc) from None

    def notify(self, channel: str, payload: str) -> None:
        try:
            with self._pooled() as conn:
                conn.execute("SELECT pg_notify(%s, %s)", (channel, payload))
        except (psycopg.Error, PoolTimeout) as exc:
            # Translators: the servers sharing the database are told of a change; {reason} is in English
            raise StoreError(N_("{where}: cannot tell the other servers ({reason})"), where=self.where,
                             reason=first_line(exc)) from None

    def listen(self, channel: str, heard: Callable[[str], None],
               reopened: Callable[[], None]) -> Callable[[], None]:
        listener = _Listener(self._url, channel, heard, reopened)
        return listener.stop

    def create(self, schema: Schema, upgrade: Upgrade | None = None) -> None:
        try:
            with self.transaction() as conn:
                conn.execute("SELECT pg_advisory_xact_lock(?)", (_SCHEMA_LOCK,))
                for statement in schema["postgres"]:
                    conn.execute(statement)
                if upgrade is not None:
                    upgrade(conn, self.dialect)
        except (psycopg.Error, StoreUnavailableError) as exc:
            self.pool.close()
            raise self.failed(exc) from None


class _Listener:
    """One ``LISTEN`` connection of this process, outside the pool, read by a thread of its own."""

    def __init__(self, url: str, channel: str, heard: Callable[[str], None], reopened: Callable[[], None]) -> None:
        self.url, self.channel, self.heard, self.reopened = url, channel, heard, reopened
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, name=f"listen-{channel}", daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.stopped.set()
        self.thread.join(LISTEN_POLL_SECONDS * 4)

    def _run(self) -> None:
        wait, dropped = RELISTEN_SECONDS, False
        while not self.stopped.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True, application_name="patchwork-listen") as conn:
                    conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
                    if dropped:
                        self.reopened()
                    wait, dropped = RELISTEN_SECONDS, False
                    while not self.stopped.is_set():
                        for note in conn.notifies(timeout=LISTEN_POLL_SECONDS):
                            self.heard(note.payload)
            except psycopg.Error:
                dropped = True
                self.stopped.wait(wait)
                wait = min(wait * 2, RELISTEN_MAX)
