"""Games in the service's database: one row per game, one row per move, every change in one transaction.

A game is against the AI or between people; the people's side (seats, secrets, offers) is
``people_store.py``'s, beside it in the same database.

A move is appended only after the rules accepted it, inside a transaction that holds the game
(SQLite: ``BEGIN IMMEDIATE``; PostgreSQL: the game's row ``FOR UPDATE``) with the ply it was
computed for as part of the key, so a crash mid-request loses nothing that was answered and two
requests racing for the same ply cannot both land (the second gets ``StaleGameError``), even
from two ``serve`` processes sharing one PostgreSQL database. ``GameStore`` is what the routes
use; ``SqlGameStore`` keeps it in a ``Database`` (``database.py``: SQLite or PostgreSQL), the one
that also holds the analysis cache, the puzzles and the visitors (``storage.open_stores``).

A teaching game (``teaching``, set when it is created) keeps with each of the person's moves the
verdict its answer gave (``moves.verdict``, the JSON of ``schemas.MoveVerdict``). Every undo keeps
the move it took back (``takebacks``: the ply, who played it and the move), whatever the game, so
the game's record and its review count them.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from patchwork_opt.apps.web.database import Connection, Database, Dialect, Schema, SqliteDatabase, StoreError
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.formats.record import Record, TakeBack
from patchwork_opt.i18n import N_

__all__ = ["Game", "GameNotFoundError", "GameStore", "Guard", "IdlePurge", "MoveRow", "SqlGameStore",
           "SqliteGameStore", "StaleGameError", "StoreError", "new_game_id"]

Actor = Literal["human", "ai"]
#: what else must hold for a change to land, checked inside the transaction that holds the game (a
#: game between people: nobody resigned, ``people_store.unresigned``); it raises a domain error if not
Guard = Callable[[Connection], None]

def _tables(real: str, integer: str, without_rowid: str) -> list[str]:
    """The games' tables, with the dialect's floating-point and 64-bit integer types (and SQLite's
    ``WITHOUT ROWID`` for the moves, keyed by game and ply)."""
    return [
        f"""CREATE TABLE IF NOT EXISTS games (
            id TEXT PRIMARY KEY,
            created {real} NOT NULL,
            touched {real},
            seed {integer},
            circle TEXT NOT NULL,
            leather TEXT NOT NULL,
            ai TEXT NOT NULL,
            level INTEGER NOT NULL,
            seat INTEGER NOT NULL CHECK (seat IN (0, 1)),
            teaching INTEGER NOT NULL DEFAULT 0 CHECK (teaching IN (0, 1))
        )""",
        f"""CREATE TABLE IF NOT EXISTS moves (
            game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            ply INTEGER NOT NULL CHECK (ply >= 0),
            player INTEGER NOT NULL CHECK (player IN (0, 1)),
            actor TEXT NOT NULL CHECK (actor IN ('human', 'ai')),
            move TEXT NOT NULL,
            reason TEXT NOT NULL DEFAULT '',
            created {real} NOT NULL,
            verdict TEXT,
            PRIMARY KEY (game_id, ply)
        ){without_rowid}""",
        f"""CREATE TABLE IF NOT EXISTS takebacks (
            game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL CHECK (seq >= 0),
            ply INTEGER NOT NULL CHECK (ply >= 0),
            player INTEGER NOT NULL CHECK (player IN (0, 1)),
            move TEXT NOT NULL,
            created {real} NOT NULL,
            PRIMARY KEY (game_id, seq)
        ){without_rowid}""",
    ]


GAMES_SCHEMA: Schema = {"sqlite": _tables("REAL", "INTEGER", " WITHOUT ROWID"),
                        "postgres": _tables("DOUBLE PRECISION", "BIGINT", "")}
_GAME_COLUMNS = "id, created, seed, circle, leather, ai, level, seat, teaching"


def _upgrade(conn: Connection, dialect: Dialect) -> None:
    """A database from before games expired gets its ``touched`` column, one from before teaching
    games ``games.teaching`` and ``moves.verdict`` (the ``takebacks`` table is created where missing);
    then the index, and a read of every column (a table of another shape is refused here, not
    mid-request)."""
    if dialect == "sqlite":
        columns = {row[1] for row in conn.execute("PRAGMA table_info(games)").fetchall()}
        if "touched" not in columns:
            conn.execute("ALTER TABLE games ADD COLUMN touched REAL")
        if "teaching" not in columns:
            conn.execute("ALTER TABLE games ADD COLUMN teaching INTEGER NOT NULL DEFAULT 0")
        if "verdict" not in {row[1] for row in conn.execute("PRAGMA table_info(moves)").fetchall()}:
            conn.execute("ALTER TABLE moves ADD COLUMN verdict TEXT")
        conn.execute("UPDATE games SET touched = created WHERE touched IS NULL")
    else:
        conn.execute("ALTER TABLE games ADD COLUMN IF NOT EXISTS teaching INTEGER NOT NULL DEFAULT 0")
        conn.execute("ALTER TABLE moves ADD COLUMN IF NOT EXISTS verdict TEXT")
    conn.execute("CREATE INDEX IF NOT EXISTS games_touched ON games (touched)")
    conn.execute(f"SELECT {_GAME_COLUMNS}, touched FROM games LIMIT 1")


class GameNotFoundError(PatchworkError):
    """No game with that id (the service answers 404)."""

    http_status = 404


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
    #: when it was stored (Unix seconds): a game between people shows when each side last moved
    created: float = 0.0


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

    def last_moved(self, seat: int) -> float | None:
        """When ``seat`` last moved (Unix seconds), None before its first move."""
        return max((row.created for row in self.moves if row.player == seat), default=None)


def new_game_id() -> str:
    """128 random bits, URL-safe: ids cannot be guessed or enumerated."""
    return secrets.token_urlsafe(16)


class GameStore(Protocol):
    """The games, against the AI or between people (whose seats ``people_store.py`` keeps): made,
    read, played on, taken back, and deleted once idle."""

    def create(self, state: State, *, seed: int | None, ai: str, level: int, seat: int,
               teaching: bool = False) -> Game:
        """A new game from ``state`` (no moves), the person at ``seat``."""

    def get(self, game_id: str) -> Game:
        """The game with its moves (``GameNotFoundError``: no such game)."""

    def count(self) -> int:
        """How many games there are."""

    def purge_idle(self, idle_seconds: float, now: float | None = None) -> int:
        """Delete the games with no move nor undo for ``idle_seconds``; how many."""

    def append(self, game_id: str, ply: int, move: Move, *, actor: Actor, reason: str = "",
               verdict: dict[str, Any] | None = None, guard: Guard | None = None) -> Game:
        """Play ``move`` as ply ``ply`` and store it, with a teaching game's ``verdict`` on it
        (``StaleGameError``: the game is elsewhere now; ``guard``'s error: it does not hold)."""

    def truncate(self, game_id: str, keep: int, *, expected_ply: int, guard: Guard | None = None) -> Game:
        """Delete the moves from ply ``keep`` on, if the game is still at ``expected_ply`` (and
        ``guard`` holds); the move at ``keep`` is kept as taken back."""

    def delete(self, game_id: str) -> None:
        """Delete the game and its moves (a game whose set-up could not be completed)."""


class SqlGameStore:
    """``GameStore`` in a ``Database``, SQLite or PostgreSQL alike; thread-safe (each call takes its
    own connection)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        db.create(GAMES_SCHEMA, _upgrade)

    @property
    def where(self) -> str:
        return self.db.where

    @contextmanager
    def _holding(self, game_id: str) -> Iterator[Connection]:
        """One transaction that holds ``game_id`` against other writers until it ends (PostgreSQL:
        its row ``FOR UPDATE``; a SQLite transaction holds the whole file); a ply stored meanwhile by
        another server is ``StaleGameError``."""
        with self.db.transaction() as conn:
            if self.db.row_lock:
                held = conn.execute(f"SELECT id FROM games WHERE id = ?{self.db.row_lock}", (game_id,)).fetchone()
                if held is None:
                    raise GameNotFoundError(N_("no game with id {game!r}"), game=game_id)
            try:
                yield conn
            except self.db.duplicate:
                raise StaleGameError(N_("game {game} changed meanwhile; reload it"), game=game_id) from None

    @contextmanager
    def _holding_at(self, game_id: str, ply: int, stale: str,
                    guard: Guard | None) -> Iterator[tuple[Connection, Game]]:
        """``_holding`` the game, read, if it is still at ``ply`` (the number of moves the caller saw)
        and ``guard`` holds; else ``StaleGameError`` says ``stale``, a whole sentence with ``{game}``,
        ``{now}`` and ``{ply}`` (the id, the stored game's ply, the one asked for)."""
        with self._holding(game_id) as conn:
            game = self._read(conn, game_id)
            if len(game.moves) != ply:
                raise StaleGameError(stale.format(game=game_id, now=len(game.moves), ply=ply))
            if guard is not None:
                guard(conn)
            yield conn, game

    def create(self, state: State, *, seed: int | None, ai: str, level: int, seat: int,
               teaching: bool = False) -> Game:
        game = Game(id=new_game_id(), created=time.time(), seed=seed, circle=state.circle[:],
                    leather=tuple(state.printing), ai=ai, level=level, seat=seat, teaching=teaching)
        with self.db.transaction() as conn:
            conn.execute(
                f"INSERT INTO games ({_GAME_COLUMNS}, touched) VALUES (?,?,?,?,?,?,?,?,?,?)",
                (game.id, game.created, seed, json.dumps(game.circle), json.dumps(list(game.leather)), ai, level,
                 seat, int(teaching), game.created),
            )
        return game

    def get(self, game_id: str) -> Game:
        with self.db.connect() as conn:
            return self._read(conn, game_id)

    def count(self) -> int:
        with self.db.connect() as conn:
            (n,) = conn.execute("SELECT COUNT(*) FROM games").fetchone()
        return int(n)

    def purge_idle(self, idle_seconds: float, now: float | None = None) -> int:
        """Delete the games with no move nor undo for ``idle_seconds`` (their moves go with them)."""
        cutoff = (time.time() if now is None else now) - idle_seconds
        with self.db.transaction() as conn:
            for table in ("moves", "takebacks"):
                conn.execute(f"DELETE FROM {table} WHERE game_id IN (SELECT id FROM games WHERE touched < ?)",
                             (cutoff,))
            return int(conn.execute("DELETE FROM games WHERE touched < ?", (cutoff,)).rowcount)

    @staticmethod
    def _read(conn: Connection, game_id: str) -> Game:
        row = conn.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise GameNotFoundError(N_("no game with id {game!r}"), game=game_id)
        game = Game(id=row[0], created=row[1], seed=row[2], circle=json.loads(row[3]),
                    leather=tuple(json.loads(row[4])), ai=row[5], level=row[6], seat=row[7], teaching=bool(row[8]))
        for ply, player, actor, move, reason, verdict, created in conn.execute(
            "SELECT ply, player, actor, move, reason, verdict, created FROM moves WHERE game_id = ? ORDER BY ply",
            (game_id,)
        ).fetchall():
            game.moves.append(MoveRow(ply, player, actor, Move.from_json(json.loads(move)), reason,
                                      None if verdict is None else json.loads(verdict), created))
        for ply, move in conn.execute(
            "SELECT ply, move FROM takebacks WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall():
            game.takebacks.append(TakeBack(ply, Move.from_json(json.loads(move))))
        return game

    def append(self, game_id: str, ply: int, move: Move, *, actor: Actor, reason: str = "",
               verdict: dict[str, Any] | None = None, guard: Guard | None = None) -> Game:
        """Play ``move`` as ply ``ply`` (the number of moves the caller saw) and store it, with a
        teaching game's ``verdict`` on it.

        The move is checked against the rules on the stored game inside the transaction; it is
        stored only if legal, only if no other move landed at that ply meanwhile and only if
        ``guard`` holds.
        """
        stale = "game {game} is at ply {now}, the move was made for ply {ply}; reload it"
        with self._holding_at(game_id, ply, stale, guard) as (conn, game):
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
            game.moves.append(MoveRow(ply, player, actor, move, reason, verdict, now))
        return game

    def delete(self, game_id: str) -> None:
        with self.db.transaction() as conn:
            for table in ("moves", "takebacks", "games"):
                conn.execute(f"DELETE FROM {table} WHERE {'id' if table == 'games' else 'game_id'} = ?", (game_id,))

    def truncate(self, game_id: str, keep: int, *, expected_ply: int, guard: Guard | None = None) -> Game:
        """Delete the moves from ply ``keep`` on (undo), if the game is still at ``expected_ply``
        (and ``guard`` holds); the move at ``keep`` is kept as taken back (``takebacks``)."""
        stale = "game {game} is at ply {now}, the undo was asked at ply {ply}; reload it"
        with self._holding_at(game_id, expected_ply, stale, guard) as (conn, game):
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


class SqliteGameStore(SqlGameStore):
    """The games in a SQLite file of their own (a script's or a test's; the service opens one
    database for all its stores: ``storage.open_stores``)."""

    def __init__(self, path: str | Path) -> None:
        super().__init__(SqliteDatabase(path))
        self.path = str(path)

    def close(self) -> None:
        """Nothing held: every call opened and closed its own connection."""


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
