"""The one database the service keeps everything in, SQLite or PostgreSQL: how to connect, how to
hold a transaction, how to create a concern's tables. The stores of each concern (games, the
analysis cache, puzzles, visitors: ``game_store.py``, ``analysis_store.py``, ``puzzle_store.py``,
``visitor_store.py``) write their SQL once, with ``?`` placeholders, against a ``Database``;
``storage.py`` opens it and them.

A change one process makes reaches the others through ``notify``/``listen`` (PostgreSQL's
``NOTIFY``/``LISTEN``; SQLite, one process, has no others to tell).

SQLite: one file; each call opens its own short-lived connection; a transaction is ``BEGIN
IMMEDIATE`` (the whole file is held) ... ``COMMIT``; WAL journal with ``synchronous=FULL``, so a
committed change survives a restart or a power cut. PostgreSQL (``database_postgres.py``, imported
only when asked for): a small pool of connections per process, shared by every ``serve`` process
that names the same database; a read that a write of the same row follows appends ``row_lock``
(``FOR UPDATE``).

A database that stops answering mid-request (a file that cannot be opened or stays locked, a server
gone, a connection cut) is ``StoreUnavailableError`` whatever the driver: the transaction rolled
back, and the service answers 503 with ``Retry-After`` (``errors.py``).
"""

from __future__ import annotations

import re
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any, ClassVar, Literal, Protocol

from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.i18n import N_

Dialect = Literal["sqlite", "postgres"]
#: A concern's tables: the statements that create them (``IF NOT EXISTS``) in each dialect.
Schema = dict[Dialect, Sequence[str]]


class StoreError(PatchworkError):
    """The database cannot be opened or is not a games database (the service answers 503)."""

    http_status = 503


#: seconds a client is told to wait (``Retry-After``) when the database stopped answering
STORE_RETRY_SECONDS = 5


class StoreUnavailableError(StoreError):
    """The database stopped answering mid-request: a SQLite file locked past the wait or that cannot
    be opened, a PostgreSQL server gone, a connection of the pool cut or none free in time. The
    transaction rolled back (nothing half-written); the client may try again shortly (503 with
    ``Retry-After``). ``where`` and ``reason`` (the driver's first line) are for the log alone."""

    headers: ClassVar[dict[str, str]] = {"Retry-After": str(STORE_RETRY_SECONDS)}

    def __init__(self, where: str = "", reason: str = "") -> None:
        super().__init__(N_("the game store is unavailable; try again shortly"))
        self.where, self.reason = where, reason


class Cursor(Protocol):
    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...
    @property
    def rowcount(self) -> int: ...


class Connection(Protocol):
    def execute(self, sql: str, params: Sequence[Any] = ()) -> Cursor: ...


#: ``upgrade(conn, dialect)``: bring a concern's tables made by an older version up to date.
Upgrade = Callable[[Connection, Dialect], None]


class Database(ABC):
    """Where the service keeps its data; thread-safe (each call takes its own connection)."""

    #: where the data is, for messages (never a password)
    where: str
    dialect: Dialect
    #: what a read that is followed by a write of the same row appends (PostgreSQL: ``FOR UPDATE``;
    #: a SQLite transaction holds the whole file already)
    row_lock: str = ""
    #: the errors a write that breaks a unique key raises (a ply stored twice)
    duplicate: tuple[type[Exception], ...] = ()

    @abstractmethod
    def connect(self) -> AbstractContextManager[Connection]:
        """A connection for reads (one consistent statement each)."""

    @abstractmethod
    def transaction(self) -> AbstractContextManager[Connection]:
        """One transaction; any exception rolls the whole change back."""

    @abstractmethod
    def create(self, schema: Schema, upgrade: Upgrade | None = None) -> None:
        """Create a concern's tables where they are missing, then ``upgrade(conn, dialect)`` a database
        an older version made, in one transaction (servers starting at once take turns);
        ``StoreError`` when the database cannot hold them."""

    @abstractmethod
    def close(self) -> None:
        """Let go of pooled connections (the database is not used afterwards)."""

    def notify(self, channel: str, payload: str) -> None:  # noqa: B027  (SQLite: nothing to do)
        """Tell the other ``serve`` processes on this database (PostgreSQL's ``NOTIFY``; ``StoreError``
        when the database cannot be reached); a SQLite file has one process, which tells its own
        streams in memory: nothing to do."""

    def listen(self, channel: str, heard: Callable[[str], None],
               reopened: Callable[[], None]) -> Callable[[], None] | None:
        """Hear what any process ``notify``-s on ``channel`` (``heard(payload)``, from a thread of its
        own; ``reopened()`` after a dropped connection is back, when something may have been missed);
        the function that stops listening. None: the database has one process (SQLite)."""
        return None

    def failed(self, exc: BaseException) -> StoreError:
        """The one-line error for a database that cannot be used."""
        first = exc.reason if isinstance(exc, StoreUnavailableError) else first_line(exc)
        # Translators: {where} is the database's file or address; {reason} what went wrong (in English)
        return StoreError(N_("{where}: cannot use it as the games database ({reason})"), where=self.where, reason=first)

    def unavailable(self, exc: BaseException) -> StoreUnavailableError:
        """The error for a database that stopped answering mid-request (``exc``: the driver's)."""
        return StoreUnavailableError(self.where, first_line(exc))


def first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


class SqliteDatabase(Database):
    """One SQLite file; each call opens its own short-lived connection."""

    dialect: Dialect = "sqlite"
    duplicate = (sqlite3.IntegrityError,)

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self.where = self.path
        try:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise self.failed(exc) from None

    def close(self) -> None:
        """Nothing held: every call opened and closed its own connection."""

    @contextmanager
    def connect(self) -> Iterator[sqlite3.Connection]:
        """A connection; a file that cannot be opened, or is locked past the wait, is
        ``StoreUnavailableError`` (SQLite's ``OperationalError``, however deep in the work it comes)."""
        try:
            conn = sqlite3.connect(self.path, timeout=30.0, isolation_level=None, check_same_thread=False)
        except sqlite3.OperationalError as exc:
            raise self.unavailable(exc) from None
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            yield conn
        except sqlite3.OperationalError as exc:
            raise self.unavailable(exc) from None
        finally:
            conn.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` (the whole file is held) ... ``COMMIT``."""
        with self.connect() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                if conn.in_transaction:  # SQLite rolled some failures back already
                    conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def create(self, schema: Schema, upgrade: Upgrade | None = None) -> None:
        try:
            with self.transaction() as conn:
                for statement in schema["sqlite"]:
                    conn.execute(statement)
                if upgrade is not None:
                    upgrade(conn, self.dialect)
        except (OSError, sqlite3.Error, StoreUnavailableError) as exc:
            raise self.failed(exc) from None


def is_postgres_url(db: str) -> bool:
    return db.startswith(("postgresql://", "postgres://"))


def redacted_url(url: str) -> str:
    """A database URL without its password, for messages."""
    return re.sub(r"(://[^:/@]*):[^@/]*@", r"\1:***@", url)
