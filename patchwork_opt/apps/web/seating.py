"""Who may act for which seat of a game between people, and how such a game and its secrets are set up.

A seat's action (a move, a takeback offered or answered, resigning, a rematch) sends the seat's secret
as ``Authorization: Bearer <secret>``; the id alone only shows the game. ``seats_held`` turns the
secret into the seats it holds (401 with none, 403 with a wrong one or a spectator's), compared in
constant time against the stored hashes (``people_store.py``); a secret never appears in a view, an
error or a log line. At one device (``here``) one secret holds both seats, and the request names the
seat that acts where the rules cannot tell. An answer that gives a secret is never cached (``uncached``).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from patchwork_opt.apps.web.errors import SeatRefusedError, SecretMissingError
from patchwork_opt.apps.web.game_store import Game, GameStore
from patchwork_opt.apps.web.people_store import Opponent, People, PeopleStore, new_secret, secret_hash
from patchwork_opt.core.state import State
from patchwork_opt.i18n import N_

#: longest secret read (ours are 43 characters): anything longer is wrong without hashing it
MAX_SECRET_CHARS = 128

_BEARER = HTTPBearer(auto_error=False, scheme_name="seat secret", description=(
    "the seat's secret of a game between people, as POST /api/games, /join or /rematch gave it"))


def _secret_of(credentials: HTTPAuthorizationCredentials | None) -> str | None:
    """The secret sent, None for none; one over ``MAX_SECRET_CHARS`` becomes one that holds no seat."""
    if credentials is None or not credentials.credentials:
        return None
    return credentials.credentials if len(credentials.credentials) <= MAX_SECRET_CHARS else "-"


async def declared_secret(credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_BEARER)]) -> str:
    """The secret of a route that only seats use (declared in the OpenAPI schema as its security): 401
    without one, before anything else about the request is looked at."""
    secret = _secret_of(credentials)
    if secret is None:
        raise SecretMissingError(
            N_("this is a seat's action: send your seat's secret (Authorization: Bearer <secret>)"))
    return secret


async def sent_secret(request: Request) -> str | None:
    """The secret of a route that games against the AI use without one (a move): read, not declared."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer":
        return None
    return _secret_of(HTTPAuthorizationCredentials(scheme=scheme, credentials=token.strip()))


SeatSecretDep = Annotated[str, Depends(declared_secret)]
#: a route's first dependency, so that a missing secret is 401 before its body is read (422) or its game (404)
SEAT_FIRST = Depends(declared_secret)
SentSecretDep = Annotated[str | None, Depends(sent_secret)]


def seats_held(people: People, secret: str | None) -> frozenset[int]:
    """The seats ``secret`` holds in the game: 401 without one, 403 when it holds none."""
    if secret is None:
        raise SecretMissingError(
            N_("game {game} is between people: send your seat's secret (Authorization: Bearer <secret>)"),
            game=people.game_id)
    held = people.seats_of(secret)
    if not held:
        raise SeatRefusedError(N_("that secret holds no seat of game {game}: spectators watch, seats act"),
                               game=people.game_id)
    return held


def acting_seat(held: frozenset[int], asked: int | None, usual: int) -> int:
    """The seat that acts: the one asked for (403 when the secret does not hold it), the one the secret
    holds, or, when it holds both (one device), ``usual``."""
    if asked is not None:
        if asked not in held:
            # Translators: {seat} is a seat's number in the API, 0 or 1
            raise SeatRefusedError(N_("your secret does not hold seat {seat}"), seat=asked)
        return asked
    return next(iter(held)) if len(held) == 1 else usual


def uncached(response: Response) -> None:
    """An answer that carries a secret: no cache, the browser's or a proxy's, may keep it."""
    response.headers["Cache-Control"] = "no-store"


def invite_path(game_id: str) -> str:
    """The invite link's path on this server (``routers/pages.py`` serves the game page there)."""
    return f"/play/{game_id}"


@dataclass(frozen=True, slots=True)
class Seated:
    """A game between people as made: its game, its people, the creator's seat and its secret."""

    game: Game
    people: People
    seat: int
    secret: str


def draw_seat(seat: int | str) -> int:
    return secrets.randbelow(2) if seat == "random" else int(seat)


def open_people_game(store: GameStore, people: PeopleStore, state: State, *, seed: int | None, opponent: Opponent,
                     hints: bool, seat: int, rematch_of: str | None = None) -> Seated:
    """A new game between people, the creator at ``seat`` with a new secret; at one device the one
    secret holds both seats; a rematch's other seat is held for the old game's other player."""
    secret = new_secret()
    hashed = secret_hash(secret)
    hashes: tuple[str | None, str | None] = (hashed, hashed) if opponent == "here" else (
        (hashed, None) if seat == 0 else (None, hashed))
    held = (False, False) if opponent == "here" or rematch_of is None else (seat == 1, seat == 0)
    game = store.create(state, seed=seed, ai="", level=0, seat=seat)
    try:
        made = people.create(game.id, opponent, hints, hashes, held=held, rematch_of=rematch_of)
    except BaseException:
        store.delete(game.id)
        raise
    return Seated(game, made, seat, secret)
