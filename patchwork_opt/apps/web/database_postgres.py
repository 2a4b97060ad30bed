"""The service's database in PostgreSQL, shared by every ``serve`` process that names it.

The same transactions as SQLite (``database.py``); connections come from a small pool per process.
A store that reads a row and then writes it reads it ``FOR UPDATE`` (``row_lock``): of two servers
racing for the same game ply one stores its move and the other, once the lock is free, reads the new
ply; two servers rating answers of one visitor at once lose neither update. Tables are created under
an advisory lock, so servers starting at once do not race on ``CREATE ... IF NOT EXISTS``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool, PoolTimeout

from patchwork_opt.apps.web.database import Database, Dialect, Schema, StoreError, Upgrade, redacted_url

#: serializes schema creation between servers starting at once (CREATE IF NOT EXISTS can race)
_SCHEMA_LOCK = 0x70617463  # "patc"


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
        try:
            self.pool: ConnectionPool[psycopg.Connection[Any]] = ConnectionPool(
                url, min_size=1, max_size=max_connections, kwargs={"autocommit": True}, open=False, timeout=30.0
            )
            self.pool.open(wait=True, timeout=10.0)
        except (psycopg.Error, PoolTimeout) as exc:
            self.pool.close()
            raise StoreError(f"{self.where}: cannot connect to PostgreSQL ({_first_line(exc)})") from None

    def close(self) -> None:
        self.pool.close()

    @contextmanager
    def connect(self) -> Iterator[_Qmark]:
        with self.pool.connection() as conn:
            yield _Qmark(conn)

    @contextmanager
    def transaction(self) -> Iterator[_Qmark]:
        with self.pool.connection() as conn, conn.transaction():
            yield _Qmark(conn)

    def create(self, schema: Schema, upgrade: Upgrade | None = None) -> None:
        try:
            with self.transaction() as conn:
                conn.execute("SELECT pg_advisory_xact_lock(?)", (_SCHEMA_LOCK,))
                for statement in schema["postgres"]:
                    conn.execute(statement)
                if upgrade is not None:
                    upgrade(conn, self.dialect)
        except psycopg.Error as exc:
            self.pool.close()
            raise self.failed(exc) from None


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]
