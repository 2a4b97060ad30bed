"""Games in SQLite: one row per game, one row per move, every change in one transaction.

A move is appended only after the rules accepted it, inside ``BEGIN IMMEDIATE`` with the ply it
was computed for as part of the key, so a crash mid-request loses nothing that was answered and
two requests racing for the same ply cannot both land (the second gets ``StaleGameError``).
WAL journal with ``synchronous=FULL``: a committed move survives a restart or a power cut.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.formats.record import Record

Actor = Literal["human", "ai"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    seed INTEGER,
    circle TEXT NOT NULL,
    leather TEXT NOT NULL,
    ai TEXT NOT NULL,
    level INTEGER NOT NULL,
    seat INTEGER NOT NULL CHECK (seat IN (0, 1))
);
CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply INTEGER NOT NULL CHECK (ply >= 0),
    player INTEGER NOT NULL CHECK (player IN (0, 1)),
    actor TEXT NOT NULL CHECK (actor IN ('human', 'ai')),
    move TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    created REAL NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
"""


class StoreError(PatchworkError):
    """The database file cannot be opened or is not a games database."""


class GameNotFoundError(PatchworkError):
    """No game with that id (the service answers 404)."""


class StaleGameError(PatchworkError):
    """The game changed since the request read it, or the request is out of turn (409)."""

    exit_code = 1


@dataclass(frozen=True, slots=True)
class MoveRow:
    ply: int
    player: int
    actor: Actor
    move: Move
    reason: str


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

    @property
    def record(self) -> Record:
        return Record(circle=self.circle[:], moves=[row.move for row in self.moves], leather=self.leather)

    def state(self) -> State:
        """The current position (replayed; every stored move was legal when stored)."""
        return self.record.replay()

    @property
    def ai_seat(self) -> int:
        return 1 - self.seat


def new_game_id() -> str:
    """128 random bits, URL-safe: ids cannot be guessed or enumerated."""
    return secrets.token_urlsafe(16)


class GameStore:
    """Thread-safe access to one SQLite file; each call opens its own short-lived connection."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        try:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            with self._connect() as conn:
                conn.executescript(_SCHEMA)
                conn.execute("SELECT id, created, seed, circle, leather, ai, level, seat FROM games LIMIT 1")
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"{self.path}: cannot use it as the games database ({exc})") from None

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
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``; any exception rolls the whole change back."""
        with self._connect() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    # --- games ------------------------------------------------------------------------------
    def create(self, state: State, *, seed: int | None, ai: str, level: int, seat: int) -> Game:
        game = Game(
            id=new_game_id(),
            created=time.time(),
            seed=seed,
            circle=state.circle[:],
            leather=tuple(state.printing),
            ai=ai,
            level=level,
            seat=seat,
        )
        with self._transaction() as conn:
            conn.execute(
                "INSERT INTO games (id, created, seed, circle, leather, ai, level, seat) VALUES (?,?,?,?,?,?,?,?)",
                (
                    game.id,
                    game.created,
                    seed,
                    json.dumps(game.circle),
                    json.dumps(list(game.leather)),
                    ai,
                    level,
                    seat,
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

    @staticmethod
    def _read(conn: sqlite3.Connection, game_id: str) -> Game:
        row = conn.execute(
            "SELECT id, created, seed, circle, leather, ai, level, seat FROM games WHERE id = ?", (game_id,)
        ).fetchone()
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
        )
        for ply, player, actor, move, reason in conn.execute(
            "SELECT ply, player, actor, move, reason FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
        ):
            game.moves.append(MoveRow(ply, player, actor, Move.from_json(json.loads(move)), reason))
        return game

    # --- moves ------------------------------------------------------------------------------
    def append(self, game_id: str, ply: int, move: Move, *, actor: Actor, reason: str = "") -> Game:
        """Play ``move`` as ply ``ply`` (the number of moves the caller saw) and store it.

        The move is checked against the rules on the stored game inside the transaction; it is
        stored only if legal and only if no other move landed at that ply meanwhile.
        """
        with self._transaction() as conn:
            game = self._read(conn, game_id)
            if len(game.moves) != ply:
                raise StaleGameError(
                    f"game {game_id} is at ply {len(game.moves)}, the move was made for ply {ply}; reload it"
                )
            state = game.state()
            player = state.to_move()
            state.apply(move)  # IllegalMoveError rolls back
            conn.execute(
                "INSERT INTO moves (game_id, ply, player, actor, move, reason, created) VALUES (?,?,?,?,?,?,?)",
                (game_id, ply, player, actor, json.dumps(move.to_json()), reason, time.time()),
            )
            game.moves.append(MoveRow(ply, player, actor, move, reason))
        return game

    def truncate(self, game_id: str, keep: int, *, expected_ply: int) -> Game:
        """Delete the moves from ply ``keep`` on (undo), if the game is still at ``expected_ply``."""
        with self._transaction() as conn:
            game = self._read(conn, game_id)
            if len(game.moves) != expected_ply:
                raise StaleGameError(
                    f"game {game_id} is at ply {len(game.moves)}, the undo was asked at ply {expected_ply}; reload it"
                )
            conn.execute("DELETE FROM moves WHERE game_id = ? AND ply >= ?", (game_id, keep))
            del game.moves[keep:]
        return game
