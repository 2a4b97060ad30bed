"""Games in PostgreSQL, shared by every ``serve`` process that names the same database.

The same transactions as SQLite: a move is written in a transaction that first locks its game's
row (``SELECT ... FOR UPDATE``), so of two servers racing for the same ply one stores its move
and the other, once the lock is free, reads the new ply and answers ``StaleGameError`` (409).
The primary key ``(game_id, ply)`` backs that up. Connections come from a small pool per process.
The analysis cache is one table every server reads and writes: a position analysed by one server
is answered from the cache by the others. Ratings are read ``FOR UPDATE`` before they are written,
so two servers rating answers of one visitor at once do not lose either update; the visitor's
habits (retry queue, streak) change in the same transaction, under the same lock.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool, PoolTimeout

from patchwork_opt.apps.web.store import (
    MAX_ANALYSES,
    GameNotFoundError,
    GameStore,
    StaleGameError,
    StoreError,
    redacted_url,
)

_SCHEMA = [
    """CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY,
        created DOUBLE PRECISION NOT NULL,
        touched DOUBLE PRECISION,
        seed BIGINT,
        circle TEXT NOT NULL,
        leather TEXT NOT NULL,
        ai TEXT NOT NULL,
        level INTEGER NOT NULL,
        seat INTEGER NOT NULL CHECK (seat IN (0, 1))
    )""",
    # a database from before teaching games gets the column (new ones too: one statement for both)
    "ALTER TABLE games ADD COLUMN IF NOT EXISTS teaching INTEGER NOT NULL DEFAULT 0",
    """CREATE TABLE IF NOT EXISTS moves (
        game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        ply INTEGER NOT NULL CHECK (ply >= 0),
        player INTEGER NOT NULL CHECK (player IN (0, 1)),
        actor TEXT NOT NULL CHECK (actor IN ('human', 'ai')),
        move TEXT NOT NULL,
        reason TEXT NOT NULL DEFAULT '',
        created DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, ply)
    )""",
    "ALTER TABLE moves ADD COLUMN IF NOT EXISTS verdict TEXT",
    """CREATE TABLE IF NOT EXISTS takebacks (
        game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL CHECK (seq >= 0),
        ply INTEGER NOT NULL CHECK (ply >= 0),
        player INTEGER NOT NULL CHECK (player IN (0, 1)),
        move TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, seq)
    )""",
    "CREATE INDEX IF NOT EXISTS games_touched ON games (touched)",
    """CREATE TABLE IF NOT EXISTS analyses (
        seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        position TEXT NOT NULL,
        seconds DOUBLE PRECISION NOT NULL,
        exact INTEGER NOT NULL CHECK (exact IN (0, 1)),
        data TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        UNIQUE (position, seconds)
    )""",
    """CREATE TABLE IF NOT EXISTS puzzles (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('endgame', 'fill')),
        data TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS puzzle_ratings (
        puzzle_id TEXT PRIMARY KEY,
        rating DOUBLE PRECISION NOT NULL,
        deviation DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        answers INTEGER NOT NULL DEFAULT 0,
        solved INTEGER NOT NULL DEFAULT 0
    )""",
    """CREATE TABLE IF NOT EXISTS visitors (
        id TEXT PRIMARY KEY,
        rating DOUBLE PRECISION NOT NULL,
        deviation DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        answers INTEGER NOT NULL DEFAULT 0,
        solved INTEGER NOT NULL DEFAULT 0,
        created DOUBLE PRECISION NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS puzzle_answers (
        visitor_id TEXT NOT NULL REFERENCES visitors(id) ON DELETE CASCADE,
        puzzle_id TEXT NOT NULL,
        correct INTEGER NOT NULL CHECK (correct IN (0, 1)),
        created DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (visitor_id, puzzle_id)
    )""",
    """CREATE TABLE IF NOT EXISTS visitor_progress (
        visitor_id TEXT PRIMARY KEY REFERENCES visitors(id) ON DELETE CASCADE,
        replies INTEGER NOT NULL DEFAULT 0,
        streak INTEGER NOT NULL DEFAULT 0,
        best_streak INTEGER NOT NULL DEFAULT 0
    )""",
    """CREATE TABLE IF NOT EXISTS puzzle_retries (
        visitor_id TEXT NOT NULL REFERENCES visitors(id) ON DELETE CASCADE,
        puzzle_id TEXT NOT NULL,
        due INTEGER NOT NULL,
        PRIMARY KEY (visitor_id, puzzle_id)
    )""",
]
#: serializes schema creation between servers starting at once (CREATE IF NOT EXISTS can race)
_SCHEMA_LOCK = 0x70617463  # "patc"


class _Qmark:
    """A psycopg connection that takes ``?`` placeholders, as the shared SQL is written."""

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self.conn = conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> psycopg.Cursor[Any]:
        return self.conn.execute(sql.replace("?", "%s"), params)


class PostgresGameStore(GameStore):
    """``postgresql://USER[:PASSWORD]@HOST:PORT/DB`` (libpq's URL and its ``?options``)."""

    _row_lock = " FOR UPDATE"

    def __init__(self, url: str, max_connections: int = 8, max_analyses: int = MAX_ANALYSES) -> None:
        self.where = redacted_url(url)
        self.max_analyses = max_analyses
        try:
            self.pool: ConnectionPool[psycopg.Connection[Any]] = ConnectionPool(
                url, min_size=1, max_size=max_connections, kwargs={"autocommit": True}, open=False, timeout=30.0
            )
            self.pool.open(wait=True, timeout=10.0)
        except (psycopg.Error, PoolTimeout) as exc:
            self.pool.close()
            raise StoreError(f"{self.where}: cannot connect to PostgreSQL ({_first_line(exc)})") from None
        try:
            with self._transaction() as conn:
                conn.execute("SELECT pg_advisory_xact_lock(?)", (_SCHEMA_LOCK,))
                for statement in _SCHEMA:
                    conn.execute(statement)
                conn.execute("SELECT id, created, touched, seed, circle, leather, ai, level, seat, teaching FROM games "
                             "LIMIT 1")
        except psycopg.Error as exc:
            self.pool.close()
            raise StoreError(f"{self.where}: cannot use it as the games database ({_first_line(exc)})") from None

    def close(self) -> None:
        self.pool.close()

    @contextmanager
    def _connect(self) -> Iterator[_Qmark]:
        with self.pool.connection() as conn:
            yield _Qmark(conn)

    @contextmanager
    def _transaction(self, game_id: str | None = None) -> Iterator[_Qmark]:
        with self.pool.connection() as conn, conn.transaction():
            qmark = _Qmark(conn)
            if game_id is not None:
                held = qmark.execute("SELECT id FROM games WHERE id = ? FOR UPDATE", (game_id,)).fetchone()
                if held is None:
                    raise GameNotFoundError(f"no game with id {game_id!r}")
            try:
                yield qmark
            except psycopg.errors.UniqueViolation:
                raise StaleGameError(f"game {game_id} changed meanwhile; reload it") from None


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]
