"""The service's database in PostgreSQL, shared by every ``serve`` process that names it.

The same transactions as SQLite (``database.py``); connections come from a small pool per process.
A store that reads a row and then writes it reads it ``FOR UPDATE`` (``row_lock``): of two servers
racing for the same game ply one stores its move and the other, once the lock is free, reads the new
ply; two servers rating answers of one visitor at once lose neither update. Tables are created under
an advisory lock, so servers starting at once do not race on ``CREATE ... IF NOT EXISTS``.

What one server changes reaches the others by ``NOTIFY`` (``notify``, on a pooled connection, after
the change is committed) and ``LISTEN`` (``listen``): one connection per process, outside the pool,
read by a thread of its own; when it drops, it is opened again and ``reopened`` says that something
may have been missed meanwhile.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg import sql
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
        try:
            self.pool: ConnectionPool[psycopg.Connection[Any]] = ConnectionPool(
                url, min_size=1, max_size=max_connections, kwargs={"autocommit": True}, open=False, timeout=30.0
            )
            self.pool.open(wait=True, timeout=10.0)
        except (psycopg.Error, PoolTimeout) as exc:
            self.pool.close()
            # Translators: {where} is the database's address; {reason} the driver's reason, in English
            raise StoreError(N_("{where}: cannot connect to PostgreSQL ({reason})"), where=self.where,
                             reason=first_line(exc)) from None

    def close(self) -> None:
        self.pool.close()

    @contextmanager
    def connect(self) -> Iterator[_Qmark]:
        """A pooled connection; a server gone, a connection cut or none free in time is
        ``StoreUnavailableError`` (the pool drops a broken connection as it comes back)."""
        try:
            with self.pool.connection() as conn:
                yield _Qmark(conn)
        except (psycopg.OperationalError, PoolTimeout) as exc:
            raise self.unavailable(exc) from None

    @contextmanager
    def transaction(self) -> Iterator[_Qmark]:
        """One transaction, rolled back by any exception (the server's own when the connection is cut)."""
        try:
            with self.pool.connection() as conn, conn.transaction():
                yield _Qmark(conn)
        except (psycopg.OperationalError, PoolTimeout) as exc:
            raise self.unavailable(exc) from None

    def notify(self, channel: str, payload: str) -> None:
        try:
            with self.pool.connection() as conn:
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
