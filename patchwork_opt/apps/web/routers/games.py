"""Games against the AI: set up, read, move, let the AI move, undo, export, and past positions.

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
    LimitsDep,
    PurgeDep,
    ServicesDep,
    StoreDep,
    WholeNumbersRoute,
    WorkerDep,
    in_thread,
    strict_body,
)
from patchwork_opt.apps.web.errors import AiFaultError, PlyNotFoundError, ServiceMissingError, UnknownAiError, answers
from patchwork_opt.apps.web.game_store import Game, StaleGameError
from patchwork_opt.apps.web.schemas import (
    AiInfo,
    AiMoveRequest,
    CreateGameRequest,
    GameView,
    PlayMoveRequest,
    UndoRequest,
    game_view,
    move_verdict,
)
from patchwork_opt.apps.web.services import PAGE_REVIEW_SECONDS
from patchwork_opt.core.errors import GameOverError, PatchworkError
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.formats.models import RecordModel, move_from_model

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


@router.get("/ais")
async def list_ais(services: ServicesDep) -> list[AiInfo]:
    """The AIs a game may be played against (``ai`` of a new game); one is the default."""
    return [AiInfo(name=name, default=name == services.default_ai) for name in services.ai_names]


@router.post("/games", status_code=201, responses=answers(413, 422, 429, 503),
             dependencies=[Depends(strict_body(CreateGameRequest))])
async def create_game(
    body: CreateGameRequest, store: StoreDep, services: ServicesDep, creations: CreationsDep, purge: PurgeDep,
    client: ClientDep,
) -> GameView:
    """Set up a new game (random circle from ``seed``) against the named AI; a client may
    create ``client_games`` games per ``game_window_seconds`` (else 429 with Retry-After)."""
    creations.check(client)
    ai = body.ai or services.default_ai
    if services.make_bot is None:
        raise ServiceMissingError("this server runs without an AI")
    if body.teaching and services.analyse is None:
        raise ServiceMissingError("this server runs without the AI's analysis, which a teaching game needs")
    if ai not in services.ai_names:
        raise UnknownAiError(f"unknown AI {ai!r} (expected one of {', '.join(services.ai_names)})")
    state = State.new(seed=body.seed, leather=body.printing)

    def create() -> Game:
        purge()
        return store.create(state, seed=body.seed, ai=ai, level=body.level, seat=body.seat, teaching=body.teaching)

    return view(await in_thread(create))


@router.get("/games/{game_id}", responses=answers(404, 422))
async def read_game(game_id: GameId, store: StoreDep) -> GameView:
    """The game now: set-up, position, quilts, offers and the moves so far."""
    return view(await in_thread(lambda: store.get(game_id)))


def playable(game: Game, ply: int, move: Move) -> State:
    """The position ``move`` is played in, when the person may play it there (409: the game is over,
    it is the AI's turn, or the game is no longer at ``ply``; 422: the rules refuse the move)."""
    state = game.state()
    if state.is_terminal():
        raise GameOverError("the game is over")
    if state.to_move() != game.seat:
        raise StaleGameError("it is the AI's turn, not yours")
    if len(game.moves) != ply:
        raise StaleGameError(f"game {game.id} is at ply {len(game.moves)}, the move was made for ply {ply}; reload it")
    state.check(move)
    return state


@router.post("/games/{game_id}/moves", responses=answers(404, 409, 413, 422, 429, 503),
             dependencies=[Depends(strict_body(PlayMoveRequest))])
async def play_move(game_id: GameId, body: PlayMoveRequest, store: StoreDep, limits: LimitsDep,
                    analyses: AnalysesDep, worker: WorkerDep) -> GameView:
    """The human's move; 422 names why the rules refuse it, 409 when the game is over, it is not
    their turn or the game moved on since ``ply``. In a teaching game the move is first judged as the
    review would judge it (in the job queue: 429 or 503 when it is full), and the answer's last move
    carries the verdict (``moves[-1].verdict``: label, best move, win chances; ``flagged`` for a
    mistake or a blunder, which ``POST .../undo`` takes back)."""
    move = move_from_model(body.move)
    game = await in_thread(lambda: store.get(game_id))
    state = playable(game, body.ply, move)
    verdict = None
    if game.teaching:
        seconds = min(TEACHING_SECONDS, limits.max_ai_seconds)

        def judge(stop: StopSignal) -> dict[str, Any]:
            analysis_of = analyses.bound_to(stop)

            def analyse(position: State, extra: Sequence[Move]) -> SearchedPosition:
                return analysis_of(position, seconds, extra)

            return move_verdict(review_move(state, move, analyse, ply=body.ply)).model_dump(mode="json")

        verdict = await worker.run(judge)
    return view(await in_thread(lambda: store.append(game_id, body.ply, move, actor="human", verdict=verdict)))


@router.post("/games/{game_id}/ai-move", responses=answers(404, 409, 413, 422, 429, 503),
             dependencies=[Depends(strict_body(AiMoveRequest))])
async def ai_move(
    game_id: GameId, body: AiMoveRequest, store: StoreDep, services: ServicesDep, limits: LimitsDep,
    analyses: AnalysesDep, worker: WorkerDep,
) -> GameView:
    """Let the AI choose and play its move (in the job queue, its time capped by the server; the
    solver AI plays from the shared analysis cache)."""
    make_bot = services.make_bot
    if make_bot is None:
        raise ServiceMissingError("this server runs without an AI")
    game = await in_thread(lambda: store.get(game_id))
    state = game.state()
    if len(game.moves) != body.ply:
        raise StaleGameError(f"game {game_id} is at ply {len(game.moves)}, not {body.ply}; reload it")
    if state.is_terminal():
        raise GameOverError("the game is over")
    if state.to_move() != game.ai_seat:
        raise StaleGameError("it is your turn, not the AI's")
    seed = bot_seed(game, body.ply)

    def decide(stop: StopSignal) -> Decision:
        bot = make_bot(game.ai, game.level, seed, limits.max_ai_seconds, analyses.bound_to(stop))
        return bot.decide(state.clone(), stop=stop)

    decision = await worker.run(decide)
    try:
        state.check(decision.move)
    except PatchworkError as exc:
        raise AiFaultError(f"the AI chose an illegal move {decision.move}: {exc}") from None
    return view(await in_thread(
        lambda: store.append(game_id, body.ply, decision.move, actor="ai", reason=decision.reason)
    ))


@router.post("/games/{game_id}/undo", responses=answers(404, 409, 413, 422),
             dependencies=[Depends(strict_body(UndoRequest))])
async def undo(game_id: GameId, body: UndoRequest, store: StoreDep) -> GameView:
    """Take back the human's last move and the AI moves after it (409 when there is none, or the
    game moved on since ``ply``); the move is kept as taken back (``takebacks``, which the review counts)."""

    def take_back() -> Game:
        game = store.get(game_id)
        human = [row.ply for row in game.moves if row.actor == "human"]
        if not human:
            raise StaleGameError("nothing to undo: you have not moved yet")
        return store.truncate(game_id, human[-1], expected_ply=body.ply)

    return view(await in_thread(take_back))


@router.get("/games/{game_id}/record", response_model=RecordModel, response_model_exclude_none=True,
            responses=answers(404, 422))
async def export_record(game_id: GameId, store: StoreDep, response: Response, download: bool = False) -> Any:
    """The game record of RULES.md (``patchwork replay`` reads it); ``download`` names a file."""
    game = await in_thread(lambda: store.get(game_id))
    if download:
        response.headers["Content-Disposition"] = f'attachment; filename="patchwork-{game_id[:8]}.json"'
    return game.record.to_json()


@router.get("/games/{game_id}/plies/{ply}", responses=answers(404, 422))
async def read_game_at(game_id: GameId, ply: Ply, store: StoreDep) -> GameView:
    """The game as it was before move ``ply`` (0: the start; the game's ply: now), for a review
    to show a position of the past: its ``moves`` are the moves before it."""
    game = await in_thread(lambda: store.get(game_id))
    if ply > len(game.moves):
        raise PlyNotFoundError(f"game {game_id} has {len(game.moves)} moves: no ply {ply}")
    return view(replace(game, moves=game.moves[:ply]))
