"""Visitors of the Puzzles page in the service's database (``puzzles.stores.VisitorStore``): each
visitor's and each puzzle's Glicko-2 rating, which puzzles each visitor answered (only a first
answer moves the ratings), and each visitor's habits: the puzzles they missed, served again once they
gave ``RETRY_AFTER`` more answers and until they answer them right, and their streak (correct first
answers in a row, in streak mode) with the best one they reached.

An answer is one transaction that holds the visitor's row, then the puzzle's (one order, so no two
answers deadlock; PostgreSQL reads both ``FOR UPDATE``, so two servers rating answers of one visitor
at once lose neither update); the habits change in the same transaction, under the same lock.
"""

from __future__ import annotations

import time

from patchwork_opt.apps.web.database import Connection, Database, Schema
from patchwork_opt.i18n import N_
from patchwork_opt.puzzles.glicko import Rating
from patchwork_opt.puzzles.stores import RETRY_AFTER, RatedAnswer, RateFn, VisitorNotFoundError, VisitorStats


def _tables(real: str) -> list[str]:
    """The visitors' tables, with ``real`` the dialect's floating-point type."""
    return [
        f"""CREATE TABLE IF NOT EXISTS puzzle_ratings (
            puzzle_id TEXT PRIMARY KEY,
            rating {real} NOT NULL,
            deviation {real} NOT NULL,
            volatility {real} NOT NULL,
            answers INTEGER NOT NULL DEFAULT 0,
            solved INTEGER NOT NULL DEFAULT 0
        )""",
        f"""CREATE TABLE IF NOT EXISTS visitors (
            id TEXT PRIMARY KEY,
            rating {real} NOT NULL,
            deviation {real} NOT NULL,
            volatility {real} NOT NULL,
            answers INTEGER NOT NULL DEFAULT 0,
            solved INTEGER NOT NULL DEFAULT 0,
            created {real} NOT NULL
        )""",
        f"""CREATE TABLE IF NOT EXISTS puzzle_answers (
            visitor_id TEXT NOT NULL REFERENCES visitors(id) ON DELETE CASCADE,
            puzzle_id TEXT NOT NULL,
            correct INTEGER NOT NULL CHECK (correct IN (0, 1)),
            created {real} NOT NULL,
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


VISITORS_SCHEMA: Schema = {"sqlite": _tables("REAL"), "postgres": _tables("DOUBLE PRECISION")}


class SqlVisitorStore:
    """``VisitorStore`` in a ``Database``, SQLite or PostgreSQL alike."""

    def __init__(self, db: Database) -> None:
        self.db = db
        db.create(VISITORS_SCHEMA)

    def new_visitor(self, visitor_id: str, start: Rating) -> Rating:
        with self.db.transaction() as conn:
            conn.execute(
                "INSERT INTO visitors (id, rating, deviation, volatility, created) VALUES (?,?,?,?,?)",
                (visitor_id, start.rating, start.deviation, start.volatility, time.time()),
            )
        return start

    def visitor_rating(self, visitor_id: str) -> Rating:
        with self.db.connect() as conn:
            row = conn.execute(
                "SELECT rating, deviation, volatility FROM visitors WHERE id = ?", (visitor_id,)
            ).fetchone()
        if row is None:
            raise VisitorNotFoundError(N_("no puzzle solver with visitor id {visitor!r}"), visitor=visitor_id)
        return Rating(*row)

    def puzzle_rating(self, puzzle_id: str, start: Rating) -> Rating:
        with self.db.connect() as conn:
            row = conn.execute(
                "SELECT rating, deviation, volatility FROM puzzle_ratings WHERE puzzle_id = ?", (puzzle_id,)
            ).fetchone()
        return start if row is None else Rating(*row)

    def answered(self, visitor_id: str) -> set[str]:
        with self.db.connect() as conn:
            rows = conn.execute("SELECT puzzle_id FROM puzzle_answers WHERE visitor_id = ?", (visitor_id,)).fetchall()
        return {str(r[0]) for r in rows}

    def visitor_stats(self, visitor_id: str) -> VisitorStats:
        with self.db.connect() as conn:
            row = conn.execute(
                "SELECT v.rating, v.deviation, v.volatility, v.answers, COALESCE(p.streak, 0), "
                "COALESCE(p.best_streak, 0) FROM visitors v LEFT JOIN visitor_progress p ON p.visitor_id = v.id "
                "WHERE v.id = ?", (visitor_id,)
            ).fetchone()
        if row is None:
            raise VisitorNotFoundError(N_("no puzzle solver with visitor id {visitor!r}"), visitor=visitor_id)
        return VisitorStats(Rating(*row[:3]), int(row[3]), int(row[4]), int(row[5]))

    def due_retries(self, visitor_id: str) -> list[str]:
        with self.db.connect() as conn:
            rows = conn.execute(
                "SELECT r.puzzle_id FROM puzzle_retries r JOIN visitor_progress p ON p.visitor_id = r.visitor_id "
                "WHERE r.visitor_id = ? AND r.due <= p.replies ORDER BY r.due, r.puzzle_id", (visitor_id,)
            ).fetchall()
        return [str(r[0]) for r in rows]

    def rate_answer(self, visitor_id: str, puzzle_id: str, correct: bool, start: Rating, rate: RateFn, *,
                    streak: bool = False, rated: bool = True) -> RatedAnswer:
        """Record the visitor's answer and, for a first answer that is ``rated``, move both ratings by
        ``rate``, in one transaction that holds both rows (visitor first, then puzzle); a second answer
        to the same puzzle changes no rating (``rated`` False). In the same transaction: a wrong answer
        puts the puzzle in the visitor's retry queue (due ``RETRY_AFTER`` answers later), a right one
        takes it out; with ``streak``, a right first answer lengthens the visitor's streak and a wrong
        answer ends it."""
        with self.db.transaction() as conn:
            row = conn.execute(
                f"SELECT rating, deviation, volatility FROM visitors WHERE id = ?{self.db.row_lock}", (visitor_id,)
            ).fetchone()
            if row is None:
                raise VisitorNotFoundError(N_("no puzzle solver with visitor id {visitor!r}"), visitor=visitor_id)
            outcome = self._rated(conn, visitor_id, Rating(*row), puzzle_id, correct, start, rate if rated else None)
            return self._habits(conn, visitor_id, puzzle_id, correct, streak, outcome)

    def _rated(self, conn: Connection, visitor_id: str, visitor: Rating, puzzle_id: str, correct: bool,
               start: Rating, rate: RateFn | None) -> tuple[RatedAnswer, bool]:
        """The ratings part of ``rate_answer``, inside its transaction (the visitor's row held): the
        ratings after the answer, and whether it was the visitor's first answer to the puzzle (an
        answer to an unrated kind is recorded and moves no rating: ``rate`` None)."""
        conn.execute(
            "INSERT INTO puzzle_ratings (puzzle_id, rating, deviation, volatility) VALUES (?,?,?,?) "
            "ON CONFLICT (puzzle_id) DO NOTHING",
            (puzzle_id, start.rating, start.deviation, start.volatility),
        )
        puzzle = Rating(*conn.execute(
            f"SELECT rating, deviation, volatility FROM puzzle_ratings WHERE puzzle_id = ?{self.db.row_lock}",
            (puzzle_id,),
        ).fetchone())
        first = conn.execute(
            "INSERT INTO puzzle_answers (visitor_id, puzzle_id, correct, created) VALUES (?,?,?,?) "
            "ON CONFLICT (visitor_id, puzzle_id) DO NOTHING",
            (visitor_id, puzzle_id, int(correct), time.time()),
        ).rowcount
        if not first or rate is None:
            return RatedAnswer(visitor, puzzle, rated=False), bool(first)
        visitor, puzzle = rate(visitor, puzzle, correct)
        solved = int(correct)
        conn.execute(
            "UPDATE visitors SET rating = ?, deviation = ?, volatility = ?, answers = answers + 1, "
            "solved = solved + ? WHERE id = ?",
            (visitor.rating, visitor.deviation, visitor.volatility, solved, visitor_id),
        )
        conn.execute(
            "UPDATE puzzle_ratings SET rating = ?, deviation = ?, volatility = ?, answers = answers + 1, "
            "solved = solved + ? WHERE puzzle_id = ?",
            (puzzle.rating, puzzle.deviation, puzzle.volatility, 1 - solved, puzzle_id),
        )
        return RatedAnswer(visitor, puzzle, rated=True), True

    @staticmethod
    def _habits(conn: Connection, visitor_id: str, puzzle_id: str, correct: bool, streak: bool,
                outcome: tuple[RatedAnswer, bool]) -> RatedAnswer:
        """The habits part of ``rate_answer``, inside its transaction (the visitor's row held): one
        more answer given, the retry queue, the streak (a right answer lengthens it when it is the
        first to the puzzle)."""
        rated, first = outcome
        conn.execute("INSERT INTO visitor_progress (visitor_id) VALUES (?) ON CONFLICT (visitor_id) DO NOTHING",
                     (visitor_id,))
        conn.execute("UPDATE visitor_progress SET replies = replies + 1 WHERE visitor_id = ?", (visitor_id,))
        if correct:
            conn.execute("DELETE FROM puzzle_retries WHERE visitor_id = ? AND puzzle_id = ?", (visitor_id, puzzle_id))
        else:
            conn.execute(
                "INSERT INTO puzzle_retries (visitor_id, puzzle_id, due) "
                "SELECT visitor_id, ?, replies + ? FROM visitor_progress WHERE visitor_id = ? "
                "ON CONFLICT (visitor_id, puzzle_id) DO UPDATE SET due = excluded.due",
                (puzzle_id, RETRY_AFTER, visitor_id),
            )
        if streak and not correct:
            conn.execute("UPDATE visitor_progress SET streak = 0 WHERE visitor_id = ?", (visitor_id,))
        elif streak and first:
            conn.execute(
                "UPDATE visitor_progress SET streak = streak + 1, best_streak = "
                "CASE WHEN streak + 1 > best_streak THEN streak + 1 ELSE best_streak END WHERE visitor_id = ?",
                (visitor_id,),
            )
        now, best = conn.execute(
            "SELECT streak, best_streak FROM visitor_progress WHERE visitor_id = ?", (visitor_id,)
        ).fetchone()
        return RatedAnswer(rated.visitor, rated.puzzle, rated.rated, again=not correct, streak=int(now),
                           best_streak=int(best))
