"""The puzzles made on demand, kept in the service's database (``puzzles.stores.PuzzleStore``): a new
puzzle made when a visitor has answered every bank puzzle they asked for, the exercises of a
reviewed game. Each is its JSON, of any kind of the registry (``puzzles/kinds``), validated when it
is read back; those of the shipped bank are package data."""

from __future__ import annotations

import time

from patchwork_opt.apps.web.database import Connection, Database, Dialect, Schema


def _table(real: str, name: str = "puzzles") -> str:
    """The puzzles' table, with the dialect's floating-point type; any kind of the registry."""
    return f"""CREATE TABLE IF NOT EXISTS {name} (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        data TEXT NOT NULL,
        created {real} NOT NULL
    )"""


PUZZLES_SCHEMA: Schema = {"sqlite": [_table("REAL")], "postgres": [_table("DOUBLE PRECISION")]}


def _upgrade(conn: Connection, dialect: Dialect) -> None:
    """Before the kinds were a registry (issue 41) the table allowed only the kinds ``endgame`` and
    ``fill``: the check goes, the puzzles stay (SQLite cannot drop a check, so the table is copied)."""
    if dialect == "postgres":
        conn.execute("ALTER TABLE puzzles DROP CONSTRAINT IF EXISTS puzzles_kind_check")
        return
    (sql,) = conn.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'puzzles'").fetchone()
    if "CHECK" not in sql.upper():
        return
    conn.execute(_table("REAL", "puzzles_upgraded"))
    conn.execute("INSERT INTO puzzles_upgraded (id, kind, data, created) SELECT id, kind, data, created FROM puzzles")
    conn.execute("DROP TABLE puzzles")
    conn.execute("ALTER TABLE puzzles_upgraded RENAME TO puzzles")


class SqlPuzzleStore:
    """``PuzzleStore`` in a ``Database``, SQLite or PostgreSQL alike."""

    def __init__(self, db: Database) -> None:
        self.db = db
        db.create(PUZZLES_SCHEMA, _upgrade)

    def keep_puzzle(self, puzzle_id: str, kind: str, data: str) -> None:
        """Store a puzzle (its JSON); the first one kept under an id stays."""
        with self.db.transaction() as conn:
            conn.execute(
                "INSERT INTO puzzles (id, kind, data, created) VALUES (?,?,?,?) ON CONFLICT (id) DO NOTHING",
                (puzzle_id, kind, data, time.time()),
            )

    def stored_puzzle(self, puzzle_id: str) -> str | None:
        """The JSON of a puzzle made on demand, or None."""
        with self.db.connect() as conn:
            row = conn.execute("SELECT data FROM puzzles WHERE id = ?", (puzzle_id,)).fetchone()
        return None if row is None else str(row[0])
