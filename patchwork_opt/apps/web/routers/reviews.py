"""The review of a stored game, as ``patchwork analyze --json`` prints it, plus the page's chart;
and the review's mistakes made into puzzles to practise.

Every position's analysis goes through the analysis cache: a position a hint or the solver AI
analysed at least as deep is not analysed again, and what the review analyses is kept for the next.

The page names the plies its review labelled mistake or blunder among the person's own moves; each
position before such a move becomes a puzzle when the exact search proves exactly one decision wins
there (``puzzles.mistakes``), in the bounded job queue, and the puzzles are kept in the store like
those made on demand, so the Puzzles page serves and judges them (``/puzzles?set=ID,...``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Annotated

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel, ConfigDict, Field

from patchwork_opt.ai.base import SearchedPosition
from patchwork_opt.apps.review import GameReview, review_game
from patchwork_opt.apps.web.deps import (
    AnalysesDep,
    LimitsDep,
    StoreDep,
    WholeNumbersRoute,
    WorkerDep,
    in_thread,
    strict_body,
)
from patchwork_opt.apps.web.errors import NothingToReviewError, ServiceMissingError, answers
from patchwork_opt.apps.web.routers.games import GameId
from patchwork_opt.apps.web.schemas import GameReviewView, review_view
from patchwork_opt.apps.web.services import PAGE_REVIEW_SECONDS
from patchwork_opt.apps.web.store import Game
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.puzzles.mistakes import mistake_puzzles
from patchwork_opt.puzzles.model import EndgamePuzzle

#: Analysis time per position a review asks for by default, the page's (the server may cut it, see
#: ``Limits``): game hints take as long, so the default review reads what they analysed.
REVIEW_SECONDS = PAGE_REVIEW_SECONDS
#: Mistakes one request makes puzzles of at most: each may take the exact search's whole budget, and
#: a job holds a slot of the queue (the page sends the latest: late positions are the ones proven).
MAX_PRACTISE_PLIES = 12

router = APIRouter(prefix="/api", tags=["games", "solvers"], route_class=WholeNumbersRoute)

TimePerMove = Annotated[float, Query(gt=0, le=60, description=(
    "seconds of analysis per position; the server cuts it so that the whole review takes at most "
    "its max_review_seconds (time_per_move <= max_review_seconds / positions)"))]


@router.get("/games/{game_id}/review", responses=answers(404, 409, 422, 429, 503),
            summary="Review of a stored game (as patchwork analyze --json)")
async def review_stored_game(
    game_id: GameId, store: StoreDep, limits: LimitsDep, analyses: AnalysesDep, worker: WorkerDep,
    time_per_move: TimePerMove = REVIEW_SECONDS,
) -> GameReviewView:
    """Every move of the game against the AI's best: win chances before and after, labels
    (best, good, inaccuracy, mistake, blunder), each player's accuracy and the win-chance chart.
    A game still running is reviewed up to its last move (``final_scores`` is then null); a game
    without moves is refused (409: nothing to review yet). The work runs in the bounded job queue."""
    if analyses.analyse is None:
        raise ServiceMissingError("this server runs without the game review")
    game = await in_thread(lambda: store.get(game_id))
    if not game.moves:
        raise NothingToReviewError(f"game {game_id} has no moves to review yet")
    record = game.record
    # the page speaks to the person: "you" and "the AI", never seat numbers
    names = {game.seat: "You", game.ai_seat: f"The AI ({game.ai})"}
    record.players = [names[0], names[1]]
    positions = len(record.moves) + (0 if game.state().is_terminal() else 1)
    seconds = min(time_per_move, limits.max_review_seconds / positions)

    def review(stop: StopSignal) -> GameReview:
        analysis_of = analyses.bound_to(stop)

        def analyse(state: State, extra: Sequence[Move]) -> SearchedPosition:
            return analysis_of(state, seconds, extra)

        return review_game(record, seconds=seconds, stop=stop, analyse=analyse)

    return review_view(await worker.run(review), game.seat, seconds)


class PlyChoiceError(PatchworkError):
    """A ply to practise that the game has not reached, or that is the AI's move: the game, not the
    request's form, is at fault (409, as for a move out of turn)."""

    exit_code = 1
    http_status = 409


class PractiseRequest(BaseModel):
    """The plies of the person's own moves to practise (the review's mistakes and blunders)."""

    model_config = ConfigDict(extra="forbid")

    plies: list[Annotated[int, Field(ge=0)]] = Field(
        min_length=1, max_length=MAX_PRACTISE_PLIES,
        description="indices into the game's moves: your moves the review labelled mistake or blunder")


class PractiseView(BaseModel):
    """The puzzles made, in ply order (ids for ``/api/puzzles/{id}`` and ``/puzzles?set=``)."""

    puzzles: list[str] = Field(description="the puzzles' ids, in ply order")
    plies: list[int] = Field(description="the ply each puzzle's position comes before")
    tried: int = Field(description="how many distinct plies were tried")


def _practised(game: Game, plies: Sequence[int]) -> list[int]:
    """The distinct plies, in order, each one of the person's own moves in the game."""
    for ply in plies:
        if ply >= len(game.moves):
            raise PlyChoiceError(f"plies: game {game.id} has {len(game.moves)} moves, so no ply {ply}")
        if game.moves[ply].player != game.seat:
            raise PlyChoiceError(f"plies: ply {ply} is the AI's move, not yours")
    return sorted(set(plies))


@router.post("/games/{game_id}/mistake-puzzles", responses=answers(404, 409, 413, 422, 429, 503),
             dependencies=[Depends(strict_body(PractiseRequest))], summary="Puzzles from a game's mistakes")
async def mistake_puzzles_of_game(game_id: GameId, body: PractiseRequest, store: StoreDep,
                                  worker: WorkerDep) -> PractiseView:
    """Each position before one of the named moves (your mistakes and blunders, as the review
    labelled them) becomes a puzzle when the exact search proves that exactly one decision wins
    there; the puzzles are kept and served like any other. None at all is an answer too (an empty
    list): the search could not prove those positions, or more than one move wins in each. 409: a
    ply the game has not reached, or one that is the AI's move. The work runs in the bounded job queue."""
    game = await in_thread(lambda: store.get(game_id))
    plies = _practised(game, body.plies)
    record = game.record

    def make(stop: StopSignal) -> list[EndgamePuzzle]:
        return mistake_puzzles(record, plies, stop=stop)

    made = await worker.run(make)

    def keep() -> None:
        for puzzle in made:
            store.keep_puzzle(puzzle.id, puzzle.kind, json.dumps(puzzle.to_json()))

    await in_thread(keep)
    return PractiseView(puzzles=[p.id for p in made], plies=[len(p.record.moves) for p in made], tried=len(plies))
