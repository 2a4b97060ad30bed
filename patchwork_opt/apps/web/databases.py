"""Which store keeps the games: a PostgreSQL server shared by several ``serve`` processes, or a
SQLite file (the default, no set-up). The PostgreSQL driver is imported only when it is asked for."""

from __future__ import annotations

from pathlib import Path

from patchwork_opt.apps.web.store import MAX_ANALYSES, GameStore, SqliteGameStore, StoreError, is_postgres_url


def open_store(db: str | Path, max_analyses: int = MAX_ANALYSES) -> GameStore:
    """``postgresql://USER@HOST:PORT/DB`` (shared by several servers), else a SQLite file path;
    either keeps at most ``max_analyses`` analyses for reuse."""
    if isinstance(db, str) and is_postgres_url(db):
        try:
            from patchwork_opt.apps.web.store_postgres import PostgresGameStore
        except ImportError as exc:
            raise StoreError(f"PostgreSQL needs the psycopg driver: pip install 'patchwork-opt[web]' ({exc})") from None
        return PostgresGameStore(db, max_analyses=max_analyses)
    return SqliteGameStore(db, max_analyses=max_analyses)
