"""The analysis board's API: open a position (from its notation, a stored game's ply, a record or a
physical set-up), list its legal moves, play one for either side, and analyse it live.

``GET /api/analysis/stream`` answers server-sent events, each the snapshot of the live analysis
(``ai/analysis/live.py``) as one JSON object; it runs in the service's analysis workers
(``streams.py``), apart from the job queue the hints use, and stops when the client goes away. The
rest are quick and run on the event loop or a thread. Refusals are domain errors whose status the
error table gives, or 422s naming the field (``board.py``).
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator
from typing import Annotated

from fastapi import APIRouter, Depends, Query
from fastapi.sse import EventSourceResponse, ServerSentEvent

from patchwork_opt.ai.seeding import require_running
from patchwork_opt.apps.web.board import (
    MAX_LINES,
    AfterMove,
    BoardPosition,
    LegalMoves,
    PlayedMove,
    PlayRequest,
    RecordSteps,
    StreamEvent,
    board_move,
    board_position,
    position_query,
    seat,
)
from patchwork_opt.apps.web.deps import (
    ClientDep,
    LimitsDep,
    StoreDep,
    StreamsDep,
    WholeNumbersRoute,
    in_thread,
    strict_body,
)
from patchwork_opt.apps.web.errors import PlyNotFoundError, ServiceMissingError, answers, json_answers
from patchwork_opt.apps.web.routers.games import GameId, Ply
from patchwork_opt.apps.web.schemas import read_position
from patchwork_opt.apps.web.streams import AnalysisFailedError, LiveStream
from patchwork_opt.core.state import State
from patchwork_opt.formats.models import RecordModel, move_from_model
from patchwork_opt.formats.notation import to_notation
from patchwork_opt.formats.record import Record
from patchwork_opt.formats.setup import PhysicalSetup, setup_state
from patchwork_opt.i18n import N_


async def _start_workers(streams: StreamsDep) -> None:
    """The analysis workers start loading when the board is first used (``AnalysisPool.start``)."""
    if streams is not None:
        streams.start()


router = APIRouter(prefix="/api", tags=["analysis"], route_class=WholeNumbersRoute,
                   dependencies=[Depends(_start_workers)])
PositionDep = Annotated[State, Depends(position_query)]


@router.get("/analysis/position", responses=answers(422))
async def open_position(state: PositionDep) -> BoardPosition:
    """A position given in the notation, as the board draws it (422 naming what the notation's
    reader refuses)."""
    return board_position(state)


@router.get("/games/{game_id}/plies/{ply}/position", responses=answers(404, 422, 503))
async def game_position(game_id: GameId, ply: Ply, store: StoreDep) -> BoardPosition:
    """A stored game's position before move ``ply`` (0: the start; the game's ply: now), with its
    notation, to open on the board."""
    game = await in_thread(lambda: store.get(game_id))
    if ply > len(game.moves):
        # Translators: {moves} is the game's number of moves so far; {ply} the one asked for
        raise PlyNotFoundError(N_("game {game} has {moves} moves: no ply {ply}"), game=game_id, moves=len(game.moves),
                               ply=ply)
    return board_position(game.record.replay(ply), game=game_id, ply=ply)


@router.get("/analysis/moves", responses=answers(422))
async def legal_moves(state: PositionDep) -> LegalMoves:
    """Every legal move of the player to move, each with its text and its words (a leather patch's
    cells while one waits; none once the game is over)."""

    def listed() -> LegalMoves:
        player = None if state.is_terminal() else seat(state.to_move())
        return LegalMoves(position=to_notation(state), player=player,
                          moves=[board_move(state, m) for m in state.legal_moves()])

    return await in_thread(listed)


@router.post("/analysis/play", responses=answers(409, 413, 422), dependencies=[Depends(strict_body(PlayRequest))])
async def play(body: PlayRequest) -> AfterMove:
    """The position after a move of the player to move (either side: a variation); 422 naming why the
    rules refuse the move, 409 when the game is over."""
    state = read_position(body.position)
    move = move_from_model(body.move)
    player = seat(state.to_move())
    said = board_move(state, move) if not state.is_terminal() else None
    state.apply(move)
    assert said is not None  # ``apply`` refused a finished game
    return AfterMove(played=PlayedMove(**said.model_dump(), player=player), position=board_position(state))


@router.post("/analysis/record", responses=answers(400, 413, 422), dependencies=[Depends(strict_body(RecordModel))])
async def record_steps(body: RecordModel) -> RecordSteps:
    """A pasted or uploaded game record, to step through: the position at each ply and each move in
    words (422 naming the first move the rules refuse)."""
    record = Record.from_json(body.model_dump(exclude_none=True))
    record.replay()  # the error names the first ply the rules refuse, before anything is listed
    state = record.initial_state()
    positions, moves = [to_notation(state)], []
    for move in record.moves:
        said = board_move(state, move)
        moves.append(PlayedMove(**said.model_dump(), player=seat(state.to_move())))
        state.apply(move)
        positions.append(to_notation(state))
    return RecordSteps(players=record.players, positions=positions, moves=moves)


@router.post("/analysis/setup", responses=answers(413, 422), dependencies=[Depends(strict_body(PhysicalSetup))])
async def setup(body: PhysicalSetup) -> BoardPosition:
    """A position read off a physical game, as the board draws it with its notation; a set-up that
    cannot occur is refused (422) with one line naming what is wrong."""
    return board_position(setup_state(body))


async def live_stream(
    state: PositionDep, client: ClientDep, limits: LimitsDep, streams: StreamsDep,
    lines: Annotated[int, Query(ge=1, le=MAX_LINES, description="lines a snapshot reports")] = MAX_LINES,
    seconds: Annotated[float | None, Query(gt=0, le=3600, description="seconds to think at most (capped by "
                                           "the server's limit, which is the default)")] = None,
) -> AsyncIterator[LiveStream]:
    """The live analysis a stream reads (a dependency, so that a refusal is an error answer before
    the stream starts), stopped when the request ends."""
    if streams is None:
        raise ServiceMissingError(N_("this server runs without live analysis"))
    require_running(state)
    stream = await streams.open(client, to_notation(state), limits.max_analysis_seconds if seconds is None
                                else seconds, lines)
    try:
        yield stream
    finally:
        stream.stop()


LiveDep = Annotated[LiveStream, Depends(live_stream)]


@router.get("/analysis/stream", response_class=EventSourceResponse, responses=json_answers(409, 422, 429, 503))
async def analysis_stream(live: LiveDep) -> AsyncIterable[StreamEvent]:
    """The engine thinking about a position, live (server-sent events): each event's ``data`` is one
    snapshot (``StreamEvent``). The loop makes the first about 0.15 s after it starts, then one every
    0.4 s (the stream's targets: 0.3 s and 0.5 s), until the analysis has solved the position,
    reached its time limit (the server's ``max_analysis_seconds``, or ``seconds`` when less) or the
    client goes away; the last has ``done`` true (close the EventSource then: it would reconnect). A
    failure mid-way is one ``error`` event with ``{"detail": ...}``. Refused before it starts: 422 (a
    position the notation's reader refuses), 409 (the game is over), 429 (this client's analyses at
    once), 503 with Retry-After (every analysis this server runs at once is taken)."""
    # the annotation publishes each event's data schema; the worker's JSON text is sent as it is
    try:
        async for text in live.events():
            yield ServerSentEvent(raw_data=text)  # type: ignore[misc]
    except AnalysisFailedError as exc:
        yield ServerSentEvent(event="error", data={"detail": str(exc)})  # type: ignore[misc]
    finally:
        live.stop()
