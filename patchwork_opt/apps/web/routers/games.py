"""Games: set up (against the AI, a friend by a link, or two people at one device), read, move, let
the AI move, undo, export, and past positions. A game between people's own actions (join, takeback,
resign, rematch, its live stream) are ``routers/people.py``'s; here a move in such a game needs the
seat's secret (``seating.py``), and the AI's move and undo are refused (a takeback is agreed instead).

Each route parses, calls the store (in a thread) or the AI (in the job queue) and renders a
``GameView``; refusals are domain errors whose status the error table gives (``errors.py``).

A teaching game (KaTrain's) judges each of the person's moves as it is played: the position before
it is analysed with the move compared alongside, and the position after it, through the analysis
cache at the review's default depth (``TEACHING_SECONDS``), and the review's own rule labels it
(``review.review_move``); the verdict is stored with the move and answered with it. A review of the
game then reads the same analyses from the cache, so it labels the move as the verdict did. Any undo
keeps the move it took back, and reviews count them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import replace
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Response
from fastapi import Path as PathParam

from patchwork_opt.ai.base import Decision, SearchedPosition
from patchwork_opt.apps.review import review_move
from patchwork_opt.apps.web.deps import (
    AnalysesDep,
    ClientDep,
    CreationsDep,
    FeedDep,
    LimitsDep,
    PeopleDep,
    PurgeDep,
    ServicesDep,
    StoreDep,
    WholeNumbersRoute,
    WorkerDep,
    in_thread,
    strict_body,
)
from patchwork_opt.apps.web.errors import (
    AiFaultError,
    NotBetweenPeopleError,
    PlyNotFoundError,
    ServiceMissingError,
    UnknownAiError,
    answers,
)
from patchwork_opt.apps.web.game_store import Game, GameStore, StaleGameError
from patchwork_opt.apps.web.people_store import People, PeopleStore, unresigned
from patchwork_opt.apps.web.schemas import (
    AiInfo,
    AiMoveRequest,
    CreatedGame,
    CreateGameRequest,
    GameView,
    PlayMoveRequest,
    UndoRequest,
    game_view,
    move_verdict,
)
from patchwork_opt.apps.web.seating import (
    SentSecretDep,
    draw_seat,
    invite_path,
    open_people_game,
    seats_held,
    uncached,
)
from patchwork_opt.apps.web.services import PAGE_REVIEW_SECONDS
from patchwork_opt.core.clock import ThinkBudget
from patchwork_opt.core.errors import GameOverError, PatchworkError
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.formats.models import RecordModel, move_from_model
from patchwork_opt.i18n import N_

GameId = Annotated[str, PathParam(pattern=r"^[A-Za-z0-9_-]{16,64}$", description="the game's id")]
Ply = Annotated[int, PathParam(ge=0, le=1000, description="the number of moves played before the position")]

router = APIRouter(prefix="/api", tags=["games"], route_class=WholeNumbersRoute)

#: Analysis time per position of a teaching game's verdict: the page's default review depth
#: (``services.PAGE_REVIEW_SECONDS``, as ``routers.reviews.REVIEW_SECONDS``; a test keeps them equal), so
#: the page's default review reuses the verdict's analyses from the cache and labels the move the same.
#: The server's ``max_ai_seconds`` caps it.
TEACHING_SECONDS = PAGE_REVIEW_SECONDS


def bot_seed(game: Game, ply: int) -> int:
    """Same game and ply, same seed: the AI's choice is repeatable across restarts."""
    digest = hashlib.sha256(f"{game.id}:{game.seed}:{ply}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def view(game: Game) -> GameView:
    return game_view(game, game.state())


def load(store: GameStore, people: PeopleStore, game_id: str) -> tuple[Game, People | None]:
    """The game and, between people, its people (blocking: call it in a thread)."""
    game = store.get(game_id)
    return game, people.find(game_id)


def seated_view(store: GameStore, people: PeopleStore, game_id: str) -> GameView:
    """The game's public view as it is now, its people included (blocking)."""
    game, who = load(store, people, game_id)
    return game_view(game, game.state(), who)


def people_of(people: People | None, game_id: str) -> People:
    """The people of a game between people; 409 for a game against the AI."""
    if people is None:
        raise NotBetweenPeopleError(N_("game {game} is against the AI: it has no seats for people"), game=game_id)
    return people


def no_people(people: People | None, refusal: str) -> None:
    """409 for the AI's actions (its move, undo) asked of a game between people: ``refusal`` is the
    whole message (marked with ``N_``), with the game as ``{game}``."""
    if people is not None:
        raise NotBetweenPeopleError(refusal, game=people.game_id)


@router.get("/ais")
async def list_ais(services: ServicesDep) -> list[AiInfo]:
    """The AIs a game may be played against (``ai`` of a new game); one is the default."""
    return [AiInfo(name=name, default=name == services.default_ai) for name in services.ai_names]


@router.post("/games", status_code=201, response_model=CreatedGame | GameView, responses=answers(413, 422, 429, 503),
             dependencies=[Depends(strict_body(CreateGameRequest))])
async def create_game(
    body: CreateGameRequest, store: StoreDep, people: PeopleDep, services: ServicesDep, creations: CreationsDep,
    purge: PurgeDep, client: ClientDep, response: Response,
) -> CreatedGame | GameView:
    """Set up a new game (random circle from ``seed``); a client may create ``client_games`` games per
    ``game_window_seconds`` (else 429 with Retry-After). Against the AI (``opponent`` ai, the default):
    the game's view. Between people (``friend``: by an invite link; ``here``: two players at one
    device): the game's view plus the creator's ``seat``, its ``secret`` (at one device both seats')
    and the ``invite`` path whose opener takes the free seat (``POST /api/games/{id}/join``)."""
    creations.check(client)
    seat = draw_seat(body.seat)
    state = State.new(seed=body.seed, leather=body.printing)
    if body.opponent != "ai":  # ai, level and teaching are the AI's: a game between people has none of them
        opponent = body.opponent

        def open_game() -> CreatedGame:
            purge()
            made = open_people_game(store, people, state, seed=body.seed, opponent=opponent, hints=body.hints,
                                    seat=seat)
            shown = game_view(made.game, state, made.people)
            return CreatedGame(**shown.model_dump(), secret=made.secret, invite=invite_path(made.game.id))

        created = await in_thread(open_game)
        uncached(response)
        return created
    ai = body.ai or services.default_ai
    if services.make_bot is None:
        raise ServiceMissingError(N_("this server runs without an AI"))
    if body.teaching and services.analyse is None:
        raise ServiceMissingError(N_("this server runs without the AI's analysis, which a teaching game needs"))
    if ai not in services.ai_names:
        raise UnknownAiError(N_("unknown AI {ai!r} (expected one of {names})"), ai=ai,
                             names=", ".join(services.ai_names))

    def create() -> Game:
        purge()
        return store.create(state, seed=body.seed, ai=ai, level=body.level, seat=seat, teaching=body.teaching)

    return view(await in_thread(create))


@router.get("/games/{game_id}", responses=answers(404, 422, 503))
async def read_game(game_id: GameId, store: StoreDep, people: PeopleDep) -> GameView:
    """The game now: set-up, position, quilts, offers and the moves so far; between people its seats
    and offers (``people``), never a secret: anyone with the id may watch."""
    return await in_thread(lambda: seated_view(store, people, game_id))


def playable(game: Game, ply: int, move: Move, people: People | None, secret: str | None) -> State:
    """The position ``move`` is played in, when the person may play it there (409: the game is over,
    it is the AI's or the other player's turn, or the game is no longer at ``ply``; 422: the rules
    refuse the move; between people 401/403 without the secret of a seat)."""
    state = game.state()
    held = None if people is None else seats_held(people, secret)
    if state.is_terminal() or (people is not None and people.resigned is not None):
        raise GameOverError(N_("the game is over"))
    if held is not None and state.to_move() not in held:
        raise StaleGameError(N_("it is the other player's turn, not yours"))
    if held is None and state.to_move() != game.seat:
        raise StaleGameError(N_("it is the AI's turn, not yours"))
    if len(game.moves) != ply:
        # Translators: a move sent for a ply the game has left behind (another tab moved): reload the game
        raise StaleGameError(N_("game {game} is at ply {at}, the move was made for ply {ply}; reload it"), game=game.id,
                             at=len(game.moves), ply=ply)
    state.check(move)
    return state


@router.post("/games/{game_id}/moves", responses=answers(401, 403, 404, 409, 413, 422, 429, 503),
             dependencies=[Depends(strict_body(PlayMoveRequest))])
async def play_move(game_id: GameId, body: PlayMoveRequest, store: StoreDep, people: PeopleDep, limits: LimitsDep,
                    analyses: AnalysesDep, worker: WorkerDep, feed: FeedDep, secret: SentSecretDep) -> GameView:
    """The human's move; 422 names why the rules refuse it, 409 when the game is over, it is not
    their turn or the game moved on since ``ply`` (of two moves racing for one ply exactly one lands).
    In a game between people the seat to move sends its secret (``Authorization: Bearer <secret>``:
    401 without it, 403 with one that holds no seat, 409 with the other seat's); the move then
    reaches the game's streams. In a teaching game the move is first judged as the
    review would judge it (in the job queue: 429 or 503 when it is full), and the answer's last move
    carries the verdict (``moves[-1].verdict``: label, best move, win chances; ``flagged`` for a
    mistake or a blunder, which ``POST .../undo`` takes back)."""
    move = move_from_model(body.move)
    game, who = await in_thread(lambda: load(store, people, game_id))
    state = playable(game, body.ply, move, who, secret)
    verdict = None
    if game.teaching:
        budget = ThinkBudget(min(TEACHING_SECONDS, limits.max_ai_seconds))

        def judge(stop: StopSignal) -> dict[str, Any]:
            analysis_of = analyses.bound_to(stop)

            def analyse(position: State, extra: Sequence[Move]) -> SearchedPosition:
                return analysis_of(position, budget, extra)

            return move_verdict(review_move(state, move, analyse, ply=body.ply)).model_dump(mode="json")

        verdict = await worker.run(judge)
    guard = None if who is None else unresigned(game_id)  # a resignation racing the move: it lands first or not at all
    played = await in_thread(lambda: store.append(game_id, body.ply, move, actor="human", verdict=verdict,
                                                  guard=guard))
    if who is None:
        return view(played)
    await feed.publish(game_id, len(played.moves))
    return game_view(played, played.state(), who)


@router.post("/games/{game_id}/ai-move", responses=answers(404, 409, 413, 422, 429, 503),
             dependencies=[Depends(strict_body(AiMoveRequest))])
async def ai_move(
    game_id: GameId, body: AiMoveRequest, store: StoreDep, people: PeopleDep, services: ServicesDep,
    limits: LimitsDep, analyses: AnalysesDep, worker: WorkerDep,
) -> GameView:
    """Let the AI choose and play its move (in the job queue, its time capped by the server; the
    solver AI plays from the shared analysis cache)."""
    game, who = await in_thread(lambda: load(store, people, game_id))
    no_people(who, N_("game {game} is between people: it has no AI to move"))
    make_bot = services.make_bot
    if make_bot is None:
        raise ServiceMissingError(N_("this server runs without an AI"))
    state = game.state()
    if len(game.moves) != body.ply:
        raise StaleGameError(N_("game {game} is at ply {at}, not {ply}; reload it"), game=game_id, at=len(game.moves),
                             ply=body.ply)
    if state.is_terminal():
        raise GameOverError(N_("the game is over"))
    if state.to_move() != game.ai_seat:
        raise StaleGameError(N_("it is your turn, not the AI's"))
    seed = bot_seed(game, body.ply)

    def decide(stop: StopSignal) -> Decision:
        bot = make_bot(game.ai, game.level, seed, limits.max_ai_seconds, analyses.bound_to(stop))
        return bot.decide(state.clone(), stop=stop)

    decision = await worker.run(decide)
    try:
        state.check(decision.move)
    except PatchworkError as exc:
        raise AiFaultError(N_("the AI chose an illegal move {move}: {error}"), move=decision.move, error=exc) from None
    return view(await in_thread(
        lambda: store.append(game_id, body.ply, decision.move, actor="ai", reason=decision.reason)
    ))


@router.post("/games/{game_id}/undo", responses=answers(404, 409, 413, 422, 503),
             dependencies=[Depends(strict_body(UndoRequest))])
async def undo(game_id: GameId, body: UndoRequest, store: StoreDep, people: PeopleDep) -> GameView:
    """Take back the human's last move and the AI moves after it (409 when there is none, or the
    game moved on since ``ply``, or the game is between people, where a takeback is agreed:
    ``POST .../takeback``); the move is kept as taken back (``takebacks``, which the review counts)."""

    def take_back() -> Game:
        game, who = load(store, people, game_id)
        # Translators: the address in parentheses is the API's (with the game id), kept as it is
        no_people(who, N_("game {game} is between people: it has no undo: a takeback is offered and agreed instead "
                          "(POST /api/games/{game}/takeback)"))
        human = [row.ply for row in game.moves if row.actor == "human"]
        if not human:
            raise StaleGameError(N_("nothing to undo: you have not moved yet"))
        return store.truncate(game_id, human[-1], expected_ply=body.ply)

    return view(await in_thread(take_back))


@router.get("/games/{game_id}/record", response_model=RecordModel, response_model_exclude_none=True,
            responses=answers(404, 422, 503))
async def export_record(game_id: GameId, store: StoreDep, response: Response, download: bool = False) -> Any:
    """The game record of RULES.md (``patchwork replay`` reads it); ``download`` names a file."""
    game = await in_thread(lambda: store.get(game_id))
    if download:
        response.headers["Content-Disposition"] = f'attachment; filename="patchwork-{game_id[:8]}.json"'
    return game.record.to_json()


@router.get("/games/{game_id}/plies/{ply}", responses=answers(404, 422, 503))
async def read_game_at(game_id: GameId, ply: Ply, store: StoreDep) -> GameView:
    """The game as it was before move ``ply`` (0: the start; the game's ply: now), for a review
    to show a position of the past: its ``moves`` are the moves before it."""
    game = await in_thread(lambda: store.get(game_id))
    if ply > len(game.moves):
        raise PlyNotFoundError(N_("game {game} has {count} moves: no ply {ply}"), game=game_id, count=len(game.moves),
                               ply=ply)
    return view(replace(game, moves=game.moves[:ply]))
