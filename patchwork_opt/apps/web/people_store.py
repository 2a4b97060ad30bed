"""Games between people in the service's database: who holds each seat (by its secret's hash), a
takeback offered, a resignation and a rematch; the moves themselves are the game store's.

One row per game between people (``people``, beside the ``games`` row it belongs to, deleted with
it). A seat's secret is never stored, only its SHA-256 (``secret_hash``): a stolen database lets
nobody move, and a secret is compared with ``hmac.compare_digest``. A seat is free (no hash), taken
(a hash) or held (``held``: kept for the other player of a rematch, whom the old game's secret
proves; ``join`` never gives it). At one table (``here``) one secret holds both seats.

Every change that two requests could race for is one conditional ``UPDATE`` (the seat still free,
no takeback open at that position yet, nobody resigned, no rematch yet): of two, exactly one lands,
on SQLite and on PostgreSQL shared by several servers alike. An offer lapses once a move or another
takeback lands (its ply and ``takeback_seq`` no longer match the game), and the next offer replaces it.
A resignation holds the game as a move does, and a move or an accepted takeback checks inside its
transaction that nobody resigned (``unresigned``, the game store's guard): of a move and a
resignation racing, the move lands before it or not at all.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Literal, Protocol

from patchwork_opt.apps.web.database import Connection, Database, Dialect, Schema
from patchwork_opt.apps.web.game_store import Guard
from patchwork_opt.core.errors import GameOverError
from patchwork_opt.i18n import N_

Opponent = Literal["friend", "here"]

PEOPLE_SCHEMA: Schema = {dialect: [
    """CREATE TABLE IF NOT EXISTS people (
        game_id TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        opponent TEXT NOT NULL CHECK (opponent IN ('friend', 'here')),
        hints INTEGER NOT NULL CHECK (hints IN (0, 1)),
        secret0 TEXT,
        secret1 TEXT,
        held0 INTEGER NOT NULL DEFAULT 0 CHECK (held0 IN (0, 1)),
        held1 INTEGER NOT NULL DEFAULT 0 CHECK (held1 IN (0, 1)),
        takeback_seat INTEGER CHECK (takeback_seat IN (0, 1)),
        takeback_ply INTEGER,
        takeback_seq INTEGER,
        resigned INTEGER CHECK (resigned IN (0, 1)),
        rematch TEXT,
        rematch_of TEXT
    )"""] for dialect in ("sqlite", "postgres")}
_COLUMNS = ("opponent, hints, secret0, secret1, held0, held1, takeback_seat, takeback_ply, takeback_seq, "
            "resigned, rematch, rematch_of")


def new_secret() -> str:
    """A seat's secret: 256 random bits, URL-safe (43 characters)."""
    return secrets.token_urlsafe(32)


def secret_hash(secret: str) -> str:
    """What the database keeps of a secret: its SHA-256, hex."""
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Takeback:
    """A takeback ``seat`` offered at ``ply``, while ``seq`` moves were taken back before it (so an
    offer made before another takeback never matches a later position at the same ply)."""

    seat: int
    ply: int
    seq: int


@dataclass(frozen=True, slots=True)
class People:
    """A game's people: its kind, whether hints are allowed, its seats and what is offered."""

    game_id: str
    opponent: Opponent
    hints: bool
    hashes: tuple[str | None, str | None]
    held: tuple[bool, bool]
    takeback: Takeback | None
    resigned: int | None
    rematch: str | None
    rematch_of: str | None

    def seats_of(self, secret: str | None) -> frozenset[int]:
        """The seats ``secret`` holds (none for no secret or a wrong one), compared in constant time."""
        if not secret:
            return frozenset()
        presented = secret_hash(secret)
        return frozenset(seat for seat, stored in enumerate(self.hashes)
                         if stored is not None and hmac.compare_digest(presented, stored))

    def taken(self, seat: int) -> bool:
        return self.hashes[seat] is not None


class PeopleStore(Protocol):
    """The people side of games between people (see the module)."""

    def create(self, game_id: str, opponent: Opponent, hints: bool, hashes: tuple[str | None, str | None], *,
               held: tuple[bool, bool] = (False, False), rematch_of: str | None = None) -> People: ...

    def find(self, game_id: str) -> People | None:
        """The game's people, or None for a game against the AI."""

    def join(self, game_id: str, seat: int, hashed: str, *, held: bool = False) -> bool:
        """Take the free seat (``held``: the seat kept for a rematch's player); False if it is not."""

    def offer_takeback(self, game_id: str, offer: Takeback) -> bool:
        """Record the offer if none is open at its position (one made at another ply or before
        another takeback lapsed and is replaced); False if one is."""

    def clear_takeback(self, game_id: str, offer: Takeback) -> bool:
        """Close the offer (accepted or declined); False if it is no longer open."""

    def resign(self, game_id: str, seat: int) -> bool:
        """``seat`` resigns; False if somebody already did."""

    def set_rematch(self, game_id: str, rematch: str) -> bool:
        """Name the game's rematch; False if it has one."""


class SqlPeopleStore:
    """``PeopleStore`` in a ``Database`` (after the game store, whose ``games`` it references)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        db.create(PEOPLE_SCHEMA, _check)

    def create(self, game_id: str, opponent: Opponent, hints: bool, hashes: tuple[str | None, str | None], *,
               held: tuple[bool, bool] = (False, False), rematch_of: str | None = None) -> People:
        with self.db.transaction() as conn:
            conn.execute(
                "INSERT INTO people (game_id, opponent, hints, secret0, secret1, held0, held1, rematch_of) "
                "VALUES (?,?,?,?,?,?,?,?)",
                (game_id, opponent, int(hints), hashes[0], hashes[1], int(held[0]), int(held[1]), rematch_of))
        return People(game_id, opponent, hints, hashes, held, None, None, None, rematch_of)

    def find(self, game_id: str) -> People | None:
        with self.db.connect() as conn:
            row = conn.execute(f"SELECT {_COLUMNS} FROM people WHERE game_id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        (opponent, hints, secret0, secret1, held0, held1, tb_seat, tb_ply, tb_seq, resigned, rematch,
         rematch_of) = row
        takeback = None if tb_seat is None else Takeback(tb_seat, tb_ply, tb_seq)
        return People(game_id, opponent, bool(hints), (secret0, secret1), (bool(held0), bool(held1)), takeback,
                      resigned, rematch, rematch_of)

    def _update(self, sql: str, params: tuple[object, ...]) -> bool:
        with self.db.transaction() as conn:
            return int(conn.execute(sql, params).rowcount) == 1

    def join(self, game_id: str, seat: int, hashed: str, *, held: bool = False) -> bool:
        return self._update(
            f"UPDATE people SET secret{seat} = ?, held{seat} = 0 WHERE game_id = ? AND secret{seat} IS NULL "
            f"AND held{seat} = ?", (hashed, game_id, int(held)))

    def offer_takeback(self, game_id: str, offer: Takeback) -> bool:
        return self._update(
            "UPDATE people SET takeback_seat = ?, takeback_ply = ?, takeback_seq = ? WHERE game_id = ? "
            "AND (takeback_seat IS NULL OR takeback_ply <> ? OR takeback_seq <> ?) AND resigned IS NULL",
            (offer.seat, offer.ply, offer.seq, game_id, offer.ply, offer.seq))

    def clear_takeback(self, game_id: str, offer: Takeback) -> bool:
        return self._update(
            "UPDATE people SET takeback_seat = NULL, takeback_ply = NULL, takeback_seq = NULL "
            "WHERE game_id = ? AND takeback_seat = ? AND takeback_ply = ? AND takeback_seq = ?",
            (game_id, offer.seat, offer.ply, offer.seq))

    def resign(self, game_id: str, seat: int) -> bool:
        """Holding the game's row as a move does (PostgreSQL; SQLite's transaction holds the file), so
        a move racing the resignation lands before it or not at all (``unresigned``)."""
        with self.db.transaction() as conn:
            conn.execute(f"SELECT id FROM games WHERE id = ?{self.db.row_lock}", (game_id,))
            return int(conn.execute(
                "UPDATE people SET resigned = ?, takeback_seat = NULL, takeback_ply = NULL, takeback_seq = NULL "
                "WHERE game_id = ? AND resigned IS NULL", (seat, game_id)).rowcount) == 1

    def set_rematch(self, game_id: str, rematch: str) -> bool:
        return self._update("UPDATE people SET rematch = ? WHERE game_id = ? AND rematch IS NULL", (rematch, game_id))


def unresigned(game_id: str) -> Guard:
    """The game store's guard of a move or a takeback between people, checked in the transaction that
    holds the game: ``GameOverError`` once a seat resigned."""

    def guard(conn: Connection) -> None:
        row = conn.execute("SELECT resigned FROM people WHERE game_id = ?", (game_id,)).fetchone()
        if row is not None and row[0] is not None:
            raise GameOverError(N_("the game is over: a player resigned"))

    return guard


def _check(conn: Connection, dialect: Dialect) -> None:
    """A read of every column: a table of another shape is refused when the server starts."""
    conn.execute(f"SELECT game_id, {_COLUMNS} FROM people LIMIT 1")

