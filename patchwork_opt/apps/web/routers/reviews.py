"""The review of a stored game, as ``patchwork analyze --json`` prints it, plus the page's chart.

Every position's analysis goes through the analysis cache: a position a hint or the solver AI
analysed at least as deep is not analysed again, and what the review analyses is kept for the next.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

from fastapi import APIRouter, Query

from patchwork_opt.ai.base import SearchedPosition
from patchwork_opt.apps.review import GameReview, review_game
from patchwork_opt.apps.web.deps import AnalysesDep, LimitsDep, StoreDep, WorkerDep, in_thread
from patchwork_opt.apps.web.errors import NothingToReviewError, ServiceMissingError, answers
from patchwork_opt.apps.web.routers.games import GameId
from patchwork_opt.apps.web.schemas import GameReviewView, review_view
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal

#: Analysis time per position a review asks for by default (the server may cut it, see ``Limits``).
REVIEW_SECONDS = 0.5

router = APIRouter(prefix="/api", tags=["games", "solvers"])

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
