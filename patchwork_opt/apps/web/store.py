"""Games in a database: one row per game, one row per move, every change in one transaction.

A move is appended only after the rules accepted it, inside a transaction that holds the game
(SQLite: ``BEGIN IMMEDIATE``; PostgreSQL: the game's row ``FOR UPDATE``) with the ply it was
computed for as part of the key, so a crash mid-request loses nothing that was answered and two
requests racing for the same ply cannot both land (the second gets ``StaleGameError``), even
from two ``serve`` processes sharing one PostgreSQL database. ``GameStore`` holds the logic; a
backend only says how to connect and lock. SQLite: WAL journal with ``synchronous=FULL``, so a
committed move survives a restart or a power cut.

The same database keeps the analysis cache (``analyses.py``): analyses keyed by the position's
notation and the seconds they were made with, at most ``max_analyses`` of them (the oldest written
are deleted), shared by every server on the database. It also keeps the puzzles made on demand
(those of the shipped bank are package data), each visitor's and each puzzle's Glicko-2 rating,
which puzzles each visitor answered (only a first answer moves the ratings), and each visitor's
playing habits: the puzzles they missed, served again once they gave ``RETRY_AFTER`` more answers
and until they answer them right, and their streak (correct first answers in a row, in streak mode)
with the best one they reached.

A teaching game (``teaching``, set when it is created) keeps with each of the person's moves the
verdict its answer gave (``moves.verdict``, the JSON of ``schemas.MoveVerdict``). Every undo keeps
the move it took back (``takebacks``: the ply, who played it and the move), whatever the game, so
the game's record and its review count them.
"""

from __future__ import annotations

import json
import re
import secrets
import sqlite3
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.formats.record import Record, TakeBack
from patchwork_opt.puzzles.glicko import Rating

Actor = Literal["human", "ai"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    touched REAL,
    seed INTEGER,
    circle TEXT NOT NULL,
    leather TEXT NOT NULL,
    ai TEXT NOT NULL,
    level INTEGER NOT NULL,
    seat INTEGER NOT NULL CHECK (seat IN (0, 1)),
    teaching INTEGER NOT NULL DEFAULT 0 CHECK (teaching IN (0, 1))
);
CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply INTEGER NOT NULL CHECK (ply >= 0),
    player INTEGER NOT NULL CHECK (player IN (0, 1)),
    actor TEXT NOT NULL CHECK (actor IN ('human', 'ai')),
    move TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    created REAL NOT NULL,
    verdict TEXT,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS takebacks (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL CHECK (seq >= 0),
    ply INTEGER NOT NULL CHECK (ply >= 0),
    player INTEGER NOT NULL CHECK (player IN (0, 1)),
    move TEXT NOT NULL,
    created REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS analyses (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    position TEXT NOT NULL,
    seconds REAL NOT NULL,
    exact INTEGER NOT NULL CHECK (exact IN (0, 1)),
    data TEXT NOT NULL,
    created REAL NOT NULL,
    UNIQUE (position, seconds)
);
CREATE TABLE IF NOT EXISTS puzzles (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('endgame', 'fill')),
    data TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS puzzle_ratings (
    puzzle_id TEXT PRIMARY KEY,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    answers INTEGER NOT NULL DEFAULT 0,
    solved INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS visitors (
    id TEXT PRIMARY KEY,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    answers INTEGER NOT NULL DEFAULT 0,
    solved INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS puzzle_answers (
    visitor_id TEXT NOT NULL REFERENCES visitors(id) ON DELETE CASCADE,
    puzzle_id TEXT NOT NULL,
    correct INTEGER NOT NULL CHECK (correct IN (0, 1)),
    created REAL NOT NULL,
    PRIMARY KEY (visitor_id, puzzle_id)
);
CREATE TABLE IF NOT EXISTS visitor_progress (
    visitor_id TEXT PRIMARY KEY REFERENCES visitors(id) ON DELETE CASCADE,
    replies INTEGER NOT NULL DEFAULT 0,
    streak INTEGER NOT NULL DEFAULT 0,
    best_streak INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS puzzle_retries (
    visitor_id TEXT NOT NULL REFERENCES visitors(id) ON DELETE CASCADE,
    puzzle_id TEXT NOT NULL,
    due INTEGER NOT NULL,
    PRIMARY KEY (visitor_id, puzzle_id)
);
"""
#: A puzzle answered wrong comes back once the visitor gave this many more answers (to other
#: puzzles, or to it): soon enough to remember the lesson, late enough not to recall the answer.
RETRY_AFTER = 3
#: analyses kept by default (about 4 kB each)
MAX_ANALYSES = 10_000
_GAME_COLUMNS = "id, created, seed, circle, leather, ai, level, seat, teaching"


class StoreError(PatchworkError):
    """The database cannot be opened or is not a games database (the service answers 503)."""

    http_status = 503


class GameNotFoundError(PatchworkError):
    """No game with that id (the service answers 404)."""

    http_status = 404


class VisitorNotFoundError(PatchworkError):
    """No puzzle solver with that visitor id: a request names a visitor the server never handed out
    (the service answers 422: the request's body is at fault, not the resource its path names)."""

    http_status = 422


@dataclass(frozen=True, slots=True)
class RatedAnswer:
    """The ratings after an answer; ``rated`` is False for a visitor's second answer to a puzzle.
    ``again``: the puzzle comes back (answered wrong); ``streak``, ``best_streak``: the visitor's."""

    visitor: Rating
    puzzle: Rating
    rated: bool
    again: bool = False
    streak: int = 0
    best_streak: int = 0


@dataclass(frozen=True, slots=True)
class VisitorStats:
    """A visitor's rating, how many first answers moved it, their streak now and their best one."""

    rating: Rating
    answers: int
    streak: int
    best_streak: int


#: ``rate(visitor, puzzle, correct)``: both ratings after one answer (``puzzles.glicko.rate_answer``).
RateFn = Callable[[Rating, Rating, bool], tuple[Rating, Rating]]


class StaleGameError(PatchworkError):
    """The game changed since the request read it, or the request is out of turn (409)."""

    exit_code = 1
    http_status = 409


@dataclass(frozen=True, slots=True)
class MoveRow:
    ply: int
    player: int
    actor: Actor
    move: Move
    reason: str
    #: a teaching game's verdict on the person's move (``schemas.MoveVerdict`` as JSON), else None
    verdict: dict[str, Any] | None = None


@dataclass(slots=True)
class Game:
    """A stored game: how it was set up, and its moves in order."""

    id: str
    created: float
    seed: int | None
    circle: list[int]
    leather: tuple[int, ...]
    ai: str
    level: int
    seat: int
    moves: list[MoveRow] = field(default_factory=list)
    #: a teaching game: each of the person's moves is judged as the review would, right after it
    teaching: bool = False
    #: the moves taken back (undone), in the order they were
    takebacks: list[TakeBack] = field(default_factory=list)

    @property
    def record(self) -> Record:
        return Record(circle=self.circle[:], moves=[row.move for row in self.moves], leather=self.leather,
                      takebacks=list(self.takebacks))

    def state(self) -> State:
        """The current position (replayed; every stored move was legal when stored)."""
        return self.record.replay()

    @property
    def ai_seat(self) -> int:
        return 1 - self.seat


def new_game_id() -> str:
    """128 random bits, URL-safe: ids cannot be guessed or enumerated."""
    return secrets.token_urlsafe(16)


class Cursor(Protocol):
    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...
    @property
    def rowcount(self) -> int: ...


class Connection(Protocol):
    def execute(self, sql: str, params: Sequence[Any] = ()) -> Cursor: ...


class GameStore(ABC):
    """The games, whatever the database; thread-safe (each call takes its own connection)."""

    #: where the games are, for messages (never a password)
    where: str
    #: analyses kept at most; 0 keeps none
    max_analyses: int = MAX_ANALYSES
    #: what a read that is followed by a write of the same row appends (PostgreSQL: ``FOR UPDATE``;
    #: a SQLite transaction holds the whole file already)
    _row_lock: str = ""

    @abstractmethod
    def _connect(self) -> AbstractContextManager[Connection]:
        """A connection for reads (one consistent statement each)."""

    @abstractmethod
    def _transaction(self, game_id: str | None = None) -> AbstractContextManager[Connection]:
        """One transaction that holds ``game_id`` against other writers until it ends; any
        exception rolls the whole change back. SQL uses ``?`` placeholders in every backend."""

    @abstractmethod
    def close(self) -> None:
        """Let go of pooled connections (the store is not used afterwards)."""

    # --- games ------------------------------------------------------------------------------
    def create(self, state: State, *, seed: int | None, ai: str, level: int, seat: int,
               teaching: bool = False) -> Game:
        game = Game(
            id=new_game_id(),
            created=time.time(),
            seed=seed,
            circle=state.circle[:],
            leather=tuple(state.printing),
            ai=ai,
            level=level,
            seat=seat,
            teaching=teaching,
        )
        with self._transaction() as conn:
            conn.execute(
                f"INSERT INTO games ({_GAME_COLUMNS}, touched) VALUES (?,?,?,?,?,?,?,?,?,?)",
                (
                    game.id,
                    game.created,
                    seed,
                    json.dumps(game.circle),
                    json.dumps(list(game.leather)),
                    ai,
                    level,
                    seat,
                    int(teaching),
                    game.created,
                ),
            )
        return game

    def get(self, game_id: str) -> Game:
        with self._connect() as conn:
            return self._read(conn, game_id)

    def count(self) -> int:
        with self._connect() as conn:
            (n,) = conn.execute("SELECT COUNT(*) FROM games").fetchone()
        return int(n)

    def purge_idle(self, idle_seconds: float, now: float | None = None) -> int:
        """Delete the games with no move nor undo for ``idle_seconds`` (their moves go with them)."""
        cutoff = (time.time() if now is None else now) - idle_seconds
        with self._transaction() as conn:
            for table in ("moves", "takebacks"):
                conn.execute(f"DELETE FROM {table} WHERE game_id IN (SELECT id FROM games WHERE touched < ?)",
                             (cutoff,))
            return int(conn.execute("DELETE FROM games WHERE touched < ?", (cutoff,)).rowcount)

    @staticmethod
    def _read(conn: Connection, game_id: str) -> Game:
        row = conn.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise GameNotFoundError(f"no game with id {game_id!r}")
        game = Game(
            id=row[0],
            created=row[1],
            seed=row[2],
            circle=json.loads(row[3]),
            leather=tuple(json.loads(row[4])),
            ai=row[5],
            level=row[6],
            seat=row[7],
            teaching=bool(row[8]),
        )
        for ply, player, actor, move, reason, verdict in conn.execute(
            "SELECT ply, player, actor, move, reason, verdict FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
        ).fetchall():
            game.moves.append(MoveRow(ply, player, actor, Move.from_json(json.loads(move)), reason,
                                      None if verdict is None else json.loads(verdict)))
        for ply, move in conn.execute(
            "SELECT ply, move FROM takebacks WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall():
            game.takebacks.append(TakeBack(ply, Move.from_json(json.loads(move))))
        return game

    # --- the analysis cache -------------------------------------------------------------------
    def cached_analysis(self, position: str, seconds: float) -> str | None:
        """The stored analysis of ``position`` made with at least ``seconds`` (the deepest such),
        or an exact one; None when there is none."""
        if self.max_analyses <= 0:
            return None
        with self._connect() as conn:
            row = conn.execute(
                "SELECT data FROM analyses WHERE position = ? AND (exact = 1 OR seconds >= ?) "
                "ORDER BY exact DESC, seconds DESC LIMIT 1",
                (position, seconds),
            ).fetchone()
        return None if row is None else str(row[0])

    def keep_analysis(self, position: str, seconds: float, exact: bool, data: str) -> None:
        """Store an analysis (one per position and budget: the first kept stays), then delete the
        oldest written beyond ``max_analyses``."""
        if self.max_analyses <= 0:
            return
        with self._transaction() as conn:
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
        with self._connect() as conn:
            (n,) = conn.execute("SELECT COUNT(*) FROM analyses").fetchone()
        return int(n)

    # --- puzzles and their ratings ------------------------------------------------------------
    def keep_puzzle(self, puzzle_id: str, kind: str, data: str) -> None:
        """Store a puzzle made on demand (its JSON); the first one kept under an id stays."""
        with self._transaction() as conn:
            conn.execute(
                "INSERT INTO puzzles (id, kind, data, created) VALUES (?,?,?,?) ON CONFLICT (id) DO NOTHING",
                (puzzle_id, kind, data, time.time()),
            )

    def stored_puzzle(self, puzzle_id: str) -> str | None:
        """The JSON of a puzzle made on demand, or None."""
        with self._connect() as conn:
            row = conn.execute("SELECT data FROM puzzles WHERE id = ?", (puzzle_id,)).fetchone()
        return None if row is None else str(row[0])

    def new_visitor(self, visitor_id: str, start: Rating) -> Rating:
        """A new puzzle solver with the rating ``start``."""
        with self._transaction() as conn:
            conn.execute(
                "INSERT INTO visitors (id, rating, deviation, volatility, created) VALUES (?,?,?,?,?)",
                (visitor_id, start.rating, start.deviation, start.volatility, time.time()),
            )
        return start

    def visitor_rating(self, visitor_id: str) -> Rating:
        with self._connect() as conn:
            row = conn.execute(
                "SELECT rating, deviation, volatility FROM visitors WHERE id = ?", (visitor_id,)
            ).fetchone()
        if row is None:
            raise VisitorNotFoundError(f"no puzzle solver with visitor id {visitor_id!r}")
        return Rating(*row)

    def puzzle_rating(self, puzzle_id: str, start: Rating) -> Rating:
        """The puzzle's rating (``start`` until someone answers it)."""
        with self._connect() as conn:
            row = conn.execute(
                "SELECT rating, deviation, volatility FROM puzzle_ratings WHERE puzzle_id = ?", (puzzle_id,)
            ).fetchone()
        return start if row is None else Rating(*row)

    def answered(self, visitor_id: str) -> set[str]:
        """The ids of the puzzles the visitor has answered."""
        with self._connect() as conn:
            rows = conn.execute("SELECT puzzle_id FROM puzzle_answers WHERE visitor_id = ?", (visitor_id,)).fetchall()
        return {str(r[0]) for r in rows}

    def visitor_stats(self, visitor_id: str) -> VisitorStats:
        """The visitor's rating, rated answers and streaks (``VisitorNotFoundError``: no such visitor)."""
        with self._connect() as conn:
            row = conn.execute(
                "SELECT v.rating, v.deviation, v.volatility, v.answers, COALESCE(p.streak, 0), "
                "COALESCE(p.best_streak, 0) FROM visitors v LEFT JOIN visitor_progress p ON p.visitor_id = v.id "
                "WHERE v.id = ?", (visitor_id,)
            ).fetchone()
        if row is None:
            raise VisitorNotFoundError(f"no puzzle solver with visitor id {visitor_id!r}")
        return VisitorStats(Rating(*row[:3]), int(row[3]), int(row[4]), int(row[5]))

    def due_retries(self, visitor_id: str) -> list[str]:
        """The puzzles the visitor missed that are due again (``RETRY_AFTER`` answers later), the
        longest due first."""
        with self._connect() as conn:
            rows = conn.execute(
                "SELECT r.puzzle_id FROM puzzle_retries r JOIN visitor_progress p ON p.visitor_id = r.visitor_id "
                "WHERE r.visitor_id = ? AND r.due <= p.replies ORDER BY r.due, r.puzzle_id", (visitor_id,)
            ).fetchall()
        return [str(r[0]) for r in rows]

    def rate_answer(self, visitor_id: str, puzzle_id: str, correct: bool, start: Rating, rate: RateFn, *,
                    streak: bool = False) -> RatedAnswer:
        """Record the visitor's answer and move both ratings by ``rate``, in one transaction that holds
        both rows (visitor first, then puzzle: one order, so no two answers deadlock); a second answer
        to the same puzzle changes no rating (``rated`` False). In the same transaction: a wrong answer
        puts the puzzle in the visitor's retry queue (due ``RETRY_AFTER`` answers later), a right one
        takes it out; with ``streak``, a right first answer lengthens the visitor's streak and a wrong
        answer ends it."""
        with self._transaction() as conn:
            row = conn.execute(
                f"SELECT rating, deviation, volatility FROM visitors WHERE id = ?{self._row_lock}", (visitor_id,)
            ).fetchone()
            if row is None:
                raise VisitorNotFoundError(f"no puzzle solver with visitor id {visitor_id!r}")
            rated = self._rated(conn, visitor_id, Rating(*row), puzzle_id, correct, start, rate)
            return self._habits(conn, visitor_id, puzzle_id, correct, streak, rated)

    def _rated(self, conn: Connection, visitor_id: str, visitor: Rating, puzzle_id: str, correct: bool,
               start: Rating, rate: RateFn) -> RatedAnswer:
        """The ratings part of ``rate_answer``, inside its transaction (the visitor's row held)."""
        conn.execute(
            "INSERT INTO puzzle_ratings (puzzle_id, rating, deviation, volatility) VALUES (?,?,?,?) "
            "ON CONFLICT (puzzle_id) DO NOTHING",
            (puzzle_id, start.rating, start.deviation, start.volatility),
        )
        puzzle = Rating(*conn.execute(
            f"SELECT rating, deviation, volatility FROM puzzle_ratings WHERE puzzle_id = ?{self._row_lock}",
            (puzzle_id,),
        ).fetchone())
        first = conn.execute(
            "INSERT INTO puzzle_answers (visitor_id, puzzle_id, correct, created) VALUES (?,?,?,?) "
            "ON CONFLICT (visitor_id, puzzle_id) DO NOTHING",
            (visitor_id, puzzle_id, int(correct), time.time()),
        ).rowcount
        if not first:
            return RatedAnswer(visitor, puzzle, rated=False)
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
        return RatedAnswer(visitor, puzzle, rated=True)

    @staticmethod
    def _habits(conn: Connection, visitor_id: str, puzzle_id: str, correct: bool, streak: bool,
                rated: RatedAnswer) -> RatedAnswer:
        """The habits part of ``rate_answer``, inside its transaction (the visitor's row held): one
        more answer given, the retry queue, the streak."""
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
        elif streak and rated.rated:
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

    # --- moves ------------------------------------------------------------------------------
    def append(self, game_id: str, ply: int, move: Move, *, actor: Actor, reason: str = "",
               verdict: dict[str, Any] | None = None) -> Game:
        """Play ``move`` as ply ``ply`` (the number of moves the caller saw) and store it, with a
        teaching game's ``verdict`` on it.

        The move is checked against the rules on the stored game inside the transaction; it is
        stored only if legal and only if no other move landed at that ply meanwhile.
        """
        with self._transaction(game_id) as conn:
            game = self._read(conn, game_id)
            if len(game.moves) != ply:
                raise StaleGameError(
                    f"game {game_id} is at ply {len(game.moves)}, the move was made for ply {ply}; reload it"
                )
            state = game.state()
            player = state.to_move()
            state.apply(move)  # IllegalMoveError rolls back
            now = time.time()
            conn.execute(
                "INSERT INTO moves (game_id, ply, player, actor, move, reason, created, verdict) "
                "VALUES (?,?,?,?,?,?,?,?)",
                (game_id, ply, player, actor, json.dumps(move.to_json()), reason, now,
                 None if verdict is None else json.dumps(verdict)),
            )
            conn.execute("UPDATE games SET touched = ? WHERE id = ?", (now, game_id))
            game.moves.append(MoveRow(ply, player, actor, move, reason, verdict))
        return game

    def truncate(self, game_id: str, keep: int, *, expected_ply: int) -> Game:
        """Delete the moves from ply ``keep`` on (undo), if the game is still at ``expected_ply``;
        the move at ``keep`` is kept as taken back (``takebacks``)."""
        with self._transaction(game_id) as conn:
            game = self._read(conn, game_id)
            if len(game.moves) != expected_ply:
                raise StaleGameError(
                    f"game {game_id} is at ply {len(game.moves)}, the undo was asked at ply {expected_ply}; reload it"
                )
            now = time.time()
            if keep < len(game.moves):
                taken = game.moves[keep]
                conn.execute(
                    "INSERT INTO takebacks (game_id, seq, ply, player, move, created) VALUES (?,?,?,?,?,?)",
                    (game_id, len(game.takebacks), keep, taken.player, json.dumps(taken.move.to_json()), now),
                )
                game.takebacks.append(TakeBack(keep, taken.move))
            conn.execute("DELETE FROM moves WHERE game_id = ? AND ply >= ?", (game_id, keep))
            conn.execute("UPDATE games SET touched = ? WHERE id = ?", (now, game_id))
            del game.moves[keep:]
        return game


class IdlePurge:
    """Deletes the games idle for ``idle_seconds`` (0: never), at most once per ``every`` seconds:
    called when the app starts and whenever a game is created."""

    def __init__(self, store: GameStore, idle_seconds: float, every: float = 600.0) -> None:
        self.store = store
        self.idle_seconds = idle_seconds
        self.every = every
        self._at = float("-inf")

    def __call__(self) -> None:
        if self.idle_seconds > 0 and time.monotonic() - self._at >= self.every:
            self._at = time.monotonic()
            self.store.purge_idle(self.idle_seconds)


class SqliteGameStore(GameStore):
    """One SQLite file; each call opens its own short-lived connection."""

    def __init__(self, path: str | Path, max_analyses: int = MAX_ANALYSES) -> None:
        self.path = str(path)
        self.where = self.path
        self.max_analyses = max_analyses
        try:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            with self._connect() as conn:
                conn.executescript(_SCHEMA)
                columns = {row[1] for row in conn.execute("PRAGMA table_info(games)")}
                if "touched" not in columns:  # a database from before games expired
                    conn.execute("ALTER TABLE games ADD COLUMN touched REAL")
                if "teaching" not in columns:  # a database from before teaching games
                    conn.execute("ALTER TABLE games ADD COLUMN teaching INTEGER NOT NULL DEFAULT 0")
                if "verdict" not in {row[1] for row in conn.execute("PRAGMA table_info(moves)")}:
                    conn.execute("ALTER TABLE moves ADD COLUMN verdict TEXT")
                conn.execute("UPDATE games SET touched = created WHERE touched IS NULL")
                conn.execute("CREATE INDEX IF NOT EXISTS games_touched ON games (touched)")
                conn.execute(f"SELECT {_GAME_COLUMNS}, touched FROM games LIMIT 1")
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"{self.path}: cannot use it as the games database ({exc})") from None

    def close(self) -> None:
        """Nothing held: every call opened and closed its own connection."""

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        conn = sqlite3.connect(self.path, timeout=30.0, isolation_level=None, check_same_thread=False)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            yield conn
        finally:
            conn.close()

    @contextmanager
    def _transaction(self, game_id: str | None = None) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` (the whole file is held) ... ``COMMIT``."""
        with self._connect() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")


def is_postgres_url(db: str) -> bool:
    return db.startswith(("postgresql://", "postgres://"))


def redacted_url(url: str) -> str:
    """A database URL without its password, for messages."""
    return re.sub(r"(://[^:/@]*):[^@/]*@", r"\1:***@", url)
