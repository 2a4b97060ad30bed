"""Opens the service's one database and its stores, one per concern: a PostgreSQL server shared by several
``serve`` processes, or a SQLite file (the default, no set-up).

* games, against the AI or between people (``game_store.py``), and the people's seats
  (``people_store.py``);
* the analysis cache (``analysis_store.py``);
* the puzzles made on demand (``puzzle_store.py``);
* the visitors of the Puzzles page, their ratings and habits (``visitor_store.py``).

Each store creates its own tables where they are missing (``CREATE ... IF NOT EXISTS``) and brings
those an older version made up to date without losing a row, so an existing database keeps working.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from patchwork_opt.apps.web.analysis_store import MAX_ANALYSES, AnalysisStore, SqlAnalysisStore
from patchwork_opt.apps.web.database import Database, SqliteDatabase, StoreError, is_postgres_url
from patchwork_opt.apps.web.game_store import GameStore, SqlGameStore
from patchwork_opt.apps.web.people_store import PeopleStore, SqlPeopleStore
from patchwork_opt.apps.web.puzzle_store import SqlPuzzleStore
from patchwork_opt.apps.web.visitor_store import SqlVisitorStore
from patchwork_opt.i18n import N_
from patchwork_opt.puzzles.stores import PuzzleStore, VisitorStore


def open_database(db: str | Path, max_connections: int = 8) -> Database:
    """``postgresql://USER@HOST:PORT/DB`` (shared by several servers), else a SQLite file path. The
    PostgreSQL driver is imported only when it is asked for."""
    if isinstance(db, str) and is_postgres_url(db):
        try:
            from patchwork_opt.apps.web.database_postgres import PostgresDatabase
        except ImportError as exc:
            raise StoreError(N_("PostgreSQL needs the psycopg driver: pip install 'patchwork-opt[web]' ({reason})"),
                             reason=exc) from None
        return PostgresDatabase(db, max_connections=max_connections)
    return SqliteDatabase(db)


@dataclass(frozen=True, slots=True)
class Stores:
    """The stores over one ``database``; ``close`` lets its connections go."""

    database: Database
    games: GameStore
    people: PeopleStore
    analyses: AnalysisStore
    puzzles: PuzzleStore
    visitors: VisitorStore

    def close(self) -> None:
        self.database.close()


def open_stores(db: str | Path, max_analyses: int = MAX_ANALYSES) -> Stores:
    """The stores in ``db``, ``postgresql://USER@HOST:PORT/DB`` or a SQLite file path; the analysis
    cache keeps at most ``max_analyses`` analyses for reuse."""
    database = open_database(db)
    try:
        games = SqlGameStore(database)
        return Stores(database, games, SqlPeopleStore(database), SqlAnalysisStore(database, max_analyses),
                      SqlPuzzleStore(database), SqlVisitorStore(database))
    except BaseException:
        database.close()
        raise
