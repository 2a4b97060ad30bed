"""The analysis cache's table: analyses keyed by the position's notation and the seconds they were
made with, at most ``max_analyses`` of them (the oldest written are deleted), shared by every server
on the database. What an entry holds and when it is reused: ``analyses.py``."""

from __future__ import annotations

import time
from typing import Protocol

from patchwork_opt.apps.web.database import Database, Schema

#: analyses kept by default (about 4 kB each)
MAX_ANALYSES = 10_000

def _table(real: str, key: str) -> str:
    """The analyses' table, with the dialect's floating-point type and self-numbering key."""
    return f"""CREATE TABLE IF NOT EXISTS analyses (
        seq {key},
        position TEXT NOT NULL,
        seconds {real} NOT NULL,
        exact INTEGER NOT NULL CHECK (exact IN (0, 1)),
        data TEXT NOT NULL,
        created {real} NOT NULL,
        UNIQUE (position, seconds)
    )"""


ANALYSES_SCHEMA: Schema = {"sqlite": [_table("REAL", "INTEGER PRIMARY KEY AUTOINCREMENT")],
                           "postgres": [_table("DOUBLE PRECISION", "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY")]}


class AnalysisStore(Protocol):
    """Analyses as text, by position and budget."""

    def cached_analysis(self, position: str, seconds: float) -> str | None:
        """The stored analysis of ``position`` made with at least ``seconds`` (the deepest such),
        or an exact one; None when there is none."""

    def keep_analysis(self, position: str, seconds: float, exact: bool, data: str) -> None:
        """Store an analysis (one per position and budget: the first kept stays)."""

    def analysis_count(self) -> int:
        """How many analyses are kept."""


class SqlAnalysisStore:
    """``AnalysisStore`` in a ``Database``, SQLite or PostgreSQL alike; 0 ``max_analyses`` keeps none."""

    def __init__(self, db: Database, max_analyses: int = MAX_ANALYSES) -> None:
        self.db = db
        self.max_analyses = max_analyses
        db.create(ANALYSES_SCHEMA)

    def cached_analysis(self, position: str, seconds: float) -> str | None:
        if self.max_analyses <= 0:
            return None
        with self.db.connect() as conn:
            row = conn.execute(
                "SELECT data FROM analyses WHERE position = ? AND (exact = 1 OR seconds >= ?) "
                "ORDER BY exact DESC, seconds DESC LIMIT 1",
                (position, seconds),
            ).fetchone()
        return None if row is None else str(row[0])

    def keep_analysis(self, position: str, seconds: float, exact: bool, data: str) -> None:
        """Store an analysis, then delete the oldest written beyond ``max_analyses``."""
        if self.max_analyses <= 0:
            return
        with self.db.transaction() as conn:
            conn.execute(
                "INSERT INTO analyses (position, seconds, exact, data, created) VALUES (?,?,?,?,?) "
                "ON CONFLICT (position, seconds) DO NOTHING",
                (position, seconds, int(exact), data, time.time()),
            )
            conn.execute(
                "DELETE FROM analyses WHERE seq <= "
                "(SELECT seq FROM analyses ORDER BY seq DESC LIMIT 1 OFFSET ?)",
                (self.max_analyses,),
            )

    def analysis_count(self) -> int:
        with self.db.connect() as conn:
            (n,) = conn.execute("SELECT COUNT(*) FROM analyses").fetchone()
        return int(n)
