"""Games between people: join the free seat, offer and answer a takeback, resign, ask for the rematch,
and follow a game live (``GET /api/games/{id}/events``, server-sent events).

A seat's action sends the seat's secret (``seating.py``: 401 without, 403 with a wrong one or a
spectator's); a change that lands is published to the game's streams (``game_feed.py``: in this
process at once, through PostgreSQL's ``NOTIFY`` to the other ``serve`` processes). Each stream
event's data is the game's public view and its id is the view's ply; a stream reopened with
``Last-Event-ID`` first gets the views of the plies it missed, then the game as it is now.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import AsyncIterable, AsyncIterator, Callable
from typing import Annotated

from fastapi import APIRouter, Depends, Header, Response
from fastapi.sse import EventSourceResponse, ServerSentEvent

from patchwork_opt.apps.web.database import StoreUnavailableError
from patchwork_opt.apps.web.deps import (
    ClientDep,
    CreationsDep,
    FeedDep,
    PeopleDep,
    StoreDep,
    WholeNumbersRoute,
    in_thread,
    strict_body,
)
from patchwork_opt.apps.web.errors import SeatRefusedError, SeatsTakenError, answers, json_answers
from patchwork_opt.apps.web.game_feed import GameFeed, Watch
from patchwork_opt.apps.web.game_store import Game, GameNotFoundError, GameStore, StaleGameError
from patchwork_opt.apps.web.people_store import People, PeopleStore, Takeback, new_secret, secret_hash, unresigned
from patchwork_opt.apps.web.routers.games import GameId, load, people_of, seated_view
from patchwork_opt.apps.web.schemas import (
    CreatedGame,
    GameView,
    ResignRequest,
    Seat,
    SeatSecret,
    TakebackAnswer,
    TakebackRequest,
    game_view,
)
from patchwork_opt.apps.web.seating import (
    SEAT_FIRST,
    SeatSecretDep,
    acting_seat,
    invite_path,
    open_people_game,
    seats_held,
    uncached,
)
from patchwork_opt.core.errors import GameOverError
from patchwork_opt.core.state import State
from patchwork_opt.i18n import N_

router = APIRouter(prefix="/api", tags=["people"], route_class=WholeNumbersRoute)
log = logging.getLogger(__name__)

#: seconds a stream waits for a change before it reads its game anyway (a safety net: a change is
#: pushed as it lands; this also ends the stream of a game that expired)
RECHECK_SECONDS = 20.0
#: plies a reopened stream is sent one by one at most; past this it gets the game as it is now
MAX_MISSED_PLIES = 100


def _over(game: Game, people: People) -> bool:
    return people.resigned is not None or game.state().is_terminal()


def _seated(store: GameStore, people: PeopleStore, game_id: str,
            secret: str) -> tuple[Game, People, frozenset[int]]:
    """Where a seat's action starts (blocking): the game (404), its people (409 for a game against the
    AI) and the seats ``secret`` holds (401, 403)."""
    game, found = load(store, people, game_id)
    who = people_of(found, game_id)
    return game, who, seats_held(who, secret)


async def _published(feed: GameFeed, game_id: str, act: Callable[[], GameView]) -> GameView:
    """Run a seat's action (blocking, in a thread), then tell the game's streams, here and on the other
    servers, of the view it answers."""
    view = await in_thread(act)
    await feed.publish(game_id, view.ply)
    return view


@router.post("/games/{game_id}/join", responses=answers(404, 409, 422, 503))
async def join_game(game_id: GameId, store: StoreDep, people: PeopleDep, feed: FeedDep,
                    response: Response) -> SeatSecret:
    """Take the free seat of a friend's game: its seat and secret, given once (keep it: every action of
    the seat sends it as ``Authorization: Bearer <secret>``). 409 when both seats are taken (watch the
    game instead) or the game is against the AI."""

    def join() -> SeatSecret:
        store.get(game_id)  # 404: no such game
        who = people_of(people.find(game_id), game_id)
        secret = new_secret()
        for seat in (0, 1):
            if not who.taken(seat) and not who.held[seat] and people.join(game_id, seat, secret_hash(secret)):
                return SeatSecret(seat=0 if seat == 0 else 1, secret=secret)
        raise SeatsTakenError(N_("both seats of game {game} are taken: you can watch it"), game=game_id)

    joined = await in_thread(join)
    uncached(response)
    await feed.publish(game_id, -1)
    return joined


@router.post("/games/{game_id}/takeback", responses=answers(401, 403, 404, 409, 413, 422, 503),
             dependencies=[SEAT_FIRST, Depends(strict_body(TakebackRequest))])
async def offer_takeback(game_id: GameId, body: TakebackRequest, secret: SeatSecretDep, store: StoreDep,
                         people: PeopleDep, feed: FeedDep) -> GameView:
    """Offer to take back your last move (and the other's moves after it); the other player accepts or
    declines (``POST .../takeback/answer``). 409: the game is over or moved on since ``ply``, you have
    no move to take back, or a takeback is already offered."""

    def offer() -> GameView:
        game, who, held = _seated(store, people, game_id, secret)
        if _over(game, who):
            raise GameOverError(N_("the game is over"))
        seat = acting_seat(held, body.seat, game.moves[-1].player if game.moves else next(iter(held)))
        if len(game.moves) != body.ply:
            # Translators: a take-back offer came late: the game moved on from ply {offered} to {ply}
            raise StaleGameError(N_("game {game} is at ply {ply}, the offer was made at {offered}"), game=game_id,
                                 ply=len(game.moves), offered=body.ply)
        if not any(row.player == seat for row in game.moves):
            # Translators: {seat} is a seat's number in the API, 0 or 1
            raise StaleGameError(N_("seat {seat} has no move to take back"), seat=seat)
        if not people.offer_takeback(game_id, Takeback(seat, body.ply, len(game.takebacks))):
            if people_of(people.find(game_id), game_id).resigned is not None:  # meanwhile
                raise GameOverError(N_("the game is over: a player resigned"))
            raise StaleGameError(N_("a takeback is already offered: it is answered first"))
        return seated_view(store, people, game_id)

    return await _published(feed, game_id, offer)


@router.post("/games/{game_id}/takeback/answer", responses=answers(401, 403, 404, 409, 413, 422, 503),
             dependencies=[SEAT_FIRST, Depends(strict_body(TakebackAnswer))])
async def answer_takeback(game_id: GameId, body: TakebackAnswer, secret: SeatSecretDep, store: StoreDep,
                          people: PeopleDep, feed: FeedDep) -> GameView:
    """The other player's answer to the takeback offered at ``ply``: accepted, the offering seat's last
    move and every move after it are taken back (kept as taken back, which the review counts);
    declined, the game goes on. 403: the offer is answered by the other player; 409: no such offer."""

    def answer() -> GameView:
        game, who, held = _seated(store, people, game_id, secret)
        offer = who.takeback
        if offer is None or offer.ply != len(game.moves) or offer.seq != len(game.takebacks) or offer.ply != body.ply:
            raise StaleGameError(N_("no takeback is offered at ply {ply} of game {game}"), ply=body.ply, game=game_id)
        if 1 - offer.seat not in held:
            raise SeatRefusedError(N_("a takeback is answered by the other player"))
        if not people.clear_takeback(game_id, offer):
            raise StaleGameError(N_("the takeback was answered meanwhile"))
        if body.accept:
            keep = max(row.ply for row in game.moves if row.player == offer.seat)
            store.truncate(game_id, keep, expected_ply=offer.ply, guard=unresigned(game_id))
        return seated_view(store, people, game_id)

    return await _published(feed, game_id, answer)


@router.post("/games/{game_id}/resign", responses=answers(401, 403, 404, 409, 413, 422, 503),
             dependencies=[SEAT_FIRST, Depends(strict_body(ResignRequest))])
async def resign(game_id: GameId, body: ResignRequest, secret: SeatSecretDep, store: StoreDep, people: PeopleDep,
                 feed: FeedDep) -> GameView:
    """Resign: the other player wins (``people.resigned``, ``people.winner``). 409: the game is over."""

    def give_up() -> GameView:
        game, who, held = _seated(store, people, game_id, secret)
        if _over(game, who):
            raise GameOverError(N_("the game is over"))
        seat = acting_seat(held, body.seat, game.state().to_move())
        if not people.resign(game_id, seat):
            raise GameOverError(N_("the game is over: a player resigned"))
        return seated_view(store, people, game_id)

    return await _published(feed, game_id, give_up)


def _rematch_asked(store: GameStore, people: PeopleStore, game_id: str, secret: str) -> tuple[Game, People, int]:
    """Who asks for the rematch (blocking): the finished game, its people and the asking seat (401,
    403 for a wrong secret; 409 while the game runs)."""
    game, who, held = _seated(store, people, game_id, secret)
    if not _over(game, who):
        raise StaleGameError(N_("the game is not over yet: a rematch follows it"))
    return game, who, next(iter(held))


def _rematch(store: GameStore, people: PeopleStore, game: Game, who: People, seat: int) -> CreatedGame:
    """The rematch with the seats swapped: made by the first player to ask (their seat's secret), its
    other seat then given to the other player when they ask (with the old game's secret)."""
    game_id = game.id
    swapped: Seat = 1 if seat == 0 else 0
    if who.rematch is None:
        made = open_people_game(store, people, State.new(leather=game.leather), seed=None, opponent=who.opponent,
                                hints=who.hints, seat=1 - seat, rematch_of=game_id)
        if people.set_rematch(game_id, made.game.id):
            return CreatedGame(**seated_view(store, people, made.game.id).model_dump(exclude={"seat"}),
                               seat=swapped, secret=made.secret, invite=invite_path(made.game.id))
        store.delete(made.game.id)  # the other player's rematch landed first: take its seat
        who = people_of(people.find(game_id), game_id)
    assert who.rematch is not None
    fresh = new_secret()
    if who.opponent == "here" or not people.join(who.rematch, 1 - seat, secret_hash(fresh), held=True):
        # Translators: {game} is the rematch's game id
        raise SeatsTakenError(N_("your seat of the rematch {game} is taken already"), game=who.rematch)
    return CreatedGame(**seated_view(store, people, who.rematch).model_dump(exclude={"seat"}),
                       seat=swapped, secret=fresh, invite=invite_path(who.rematch))


@router.post("/games/{game_id}/rematch", status_code=201, responses=answers(401, 403, 404, 409, 422, 429, 503),
             dependencies=[SEAT_FIRST])
async def rematch(game_id: GameId, secret: SeatSecretDep, store: StoreDep, people: PeopleDep, feed: FeedDep,
                  creations: CreationsDep, client: ClientDep, response: Response) -> CreatedGame:
    """After the game, a new one with the seats swapped and new secrets: the first player to ask makes
    it and gets their seat's secret; the other player, asking too (with their old secret), gets the
    other seat's. 409: the game is not over, or your seat of the rematch is taken already. The new
    game counts against its maker's new games (429) once their secret is accepted; taking its other
    seat does not."""
    game, who, seat = await in_thread(lambda: _rematch_asked(store, people, game_id, secret))
    if who.rematch is None:
        creations.check(client)
    made = await in_thread(lambda: _rematch(store, people, game, who, seat))
    uncached(response)
    await feed.publish(game_id, -1)
    await feed.publish(made.id, made.ply)
    return made


async def watch_game(game_id: GameId, client: ClientDep, feed: FeedDep, store: StoreDep) -> AsyncIterator[Watch]:
    """The stream's watch on the game (a dependency: 404 and the caps answer before the stream
    starts), freed when the request ends however it ends."""
    await in_thread(lambda: store.get(game_id))
    watch = feed.watch(client, game_id)
    try:
        yield watch
    finally:
        watch.close()


LastEventId = Annotated[str | None, Header(description=(
    "the id (ply) of the last event seen, sent by a reopened EventSource: the plies after it come first"))]


def _last_seen(header: str | None) -> int | None:
    """The ply a reopened stream saw last; None for no header or one that names no ply (``str.isdigit``
    alone takes "²", which ``int`` refuses)."""
    text = (header or "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) < 6 else None


def missed_views(game: Game, who: People | None, last_seen: int | None) -> list[GameView]:
    """What a stream sends first: after ``Last-Event-ID`` ``last_seen``, the view at each ply it
    missed (what was offered then is not kept: those carry only the moves), then the game now."""
    now = len(game.moves)
    first = now if last_seen is None or last_seen >= now or now - last_seen > MAX_MISSED_PLIES else last_seen + 1
    quiet = None if who is None else dataclasses.replace(who, takeback=None, resigned=None, rematch=None)
    past = [dataclasses.replace(game, moves=game.moves[:ply]) for ply in range(first, now)]
    return [*(game_view(g, g.state(), quiet) for g in past), game_view(game, game.state(), who)]


def _event(view: GameView) -> ServerSentEvent:
    return ServerSentEvent(raw_data=view.model_dump_json(), id=str(view.ply))


def _caught_up(store: GameStore, people: PeopleStore, game_id: str, last_seen: int | None) -> list[ServerSentEvent]:
    """A stream's first events (blocking, as the views replay the game: up to ``MAX_MISSED_PLIES``
    of them, which on the event loop would stall every other request)."""
    return [_event(view) for view in missed_views(*load(store, people, game_id), last_seen)]


def _store_down(game_id: str, exc: StoreUnavailableError) -> list[ServerSentEvent]:
    """A stream whose read found the database gone: one warning line, nothing sent; the stream stays
    open and reads again at the next change or recheck (the error boundary is behind it)."""
    log.warning("stream of game %s: the game store is unavailable: %s: %s", game_id, exc.where, exc.reason)
    return []


@router.get("/games/{game_id}/events", response_class=EventSourceResponse,
            responses=json_answers(404, 422, 429, 503))
async def game_events(
    game_id: GameId, watch: Annotated[Watch, Depends(watch_game)], store: StoreDep, people: PeopleDep,
    last_event_id: LastEventId = None,
) -> AsyncIterable[GameView]:
    """The game live (server-sent events): each event's data is the game's public view (``GameView``,
    with its ``ply``; never a secret), its id the ply. The game as it is comes first (after
    ``Last-Event-ID``, the views of the plies missed before it), then the view each time the game
    changes: a move, a takeback offered, answered or taken, a seat taken, a resignation, a rematch.
    Any game can be watched: spectators see what the players see. Refused before it starts: 404,
    429 (this client's streams at once), 503 with Retry-After (this server's)."""
    try:
        last_seen = _last_seen(last_event_id)
        try:
            first = await in_thread(lambda: _caught_up(store, people, game_id, last_seen))
        except GameNotFoundError:
            return  # deleted since the stream was let in
        except StoreUnavailableError as exc:
            first = _store_down(game_id, exc)
        sent: ServerSentEvent | None = None
        for sent in first:
            yield sent  # type: ignore[misc]
        while True:
            await watch.wait(RECHECK_SECONDS)
            try:
                now = await in_thread(lambda: _event(seated_view(store, people, game_id)))
            except GameNotFoundError:
                return  # the game expired
            except StoreUnavailableError as exc:
                _store_down(game_id, exc)
                continue
            if sent is None or now.raw_data != sent.raw_data:
                sent = now
                yield now  # type: ignore[misc]
    finally:
        watch.close()

