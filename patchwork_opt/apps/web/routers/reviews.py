"""The review of a stored game, as ``patchwork analyze --json`` prints it, plus the page's chart;
and the review's mistakes made into exercises to practise.

Every position's analysis goes through the analysis cache: a position a hint or the solver AI
analysed at least as deep is not analysed again, and what the review analyses is kept for the next.

The page names the plies its review labelled mistake or blunder among the person's own moves, and
the time per position the review was made with; each such move becomes an exercise, "find a better
move" from the position before it (``apps/practice.py``), made in the bounded job queue of the same
analyses as the review (the cache's), and kept in the puzzle store like the puzzles made on demand,
so the Puzzles page serves and judges them (``/puzzles?set=ID,...``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Annotated

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic.json_schema import SkipJsonSchema

from patchwork_opt.ai.base import SearchedPosition
from patchwork_opt.apps.practice import exercises_at
from patchwork_opt.apps.review import GameReview, review_game
from patchwork_opt.apps.seated import numbered, the_ai, you
from patchwork_opt.apps.web.deps import (
    AnalysesDep,
    LimitsDep,
    PeopleDep,
    PuzzleStoreDep,
    StoreDep,
    WholeNumbersRoute,
    WorkerDep,
    in_thread,
    strict_body,
)
from patchwork_opt.apps.web.errors import NothingToReviewError, ReviewClosedError, ServiceMissingError, answers
from patchwork_opt.apps.web.game_store import Game
from patchwork_opt.apps.web.people_store import People
from patchwork_opt.apps.web.routers.games import GameId
from patchwork_opt.apps.web.schemas import GameReviewView, optional_field, refuse_nulls, review_view
from patchwork_opt.apps.web.services import PAGE_REVIEW_SECONDS, Limits
from patchwork_opt.core.clock import ThinkBudget
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.formats.models import MoveModel, move_model
from patchwork_opt.i18n import N_
from patchwork_opt.puzzles.kinds.exercise import Exercise

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


def review_seconds(game: Game, time_per_move: float, limits: Limits) -> float:
    """The analysis per position a review of ``game`` gets: what was asked, cut so that the whole
    review takes at most ``limits.max_review_seconds`` (``Limits.review_seconds``, the one cap)."""
    return limits.review_seconds(time_per_move, len(game.moves) + (0 if game.state().is_terminal() else 1))


def review_open(game: Game, who: People | None) -> None:
    """403 for the review or exercises of a game between people with hints off while it runs: the
    engine's verdicts would be hints the players agreed to go without (games against the AI, and
    games with hints on, are reviewed at any time)."""
    if who is not None and not who.hints and who.resigned is None and not game.state().is_terminal():
        raise ReviewClosedError(N_("the review opens when the game is over: hints are off in this game"))


@router.get("/games/{game_id}/review", responses=answers(403, 404, 409, 422, 429, 503),
            summary="Review of a stored game (as patchwork analyze --json)")
async def review_stored_game(
    game_id: GameId, store: StoreDep, people: PeopleDep, limits: LimitsDep, analyses: AnalysesDep,
    worker: WorkerDep, time_per_move: TimePerMove = REVIEW_SECONDS,
) -> GameReviewView:
    """Every move of the game against the AI's best: win chances before and after, labels
    (best, good, inaccuracy, mistake, blunder), each player's accuracy and the win-chance chart.
    A game still running is reviewed up to its last move (``final_scores`` is then null), except a
    game between people with hints off (403 until it is over); a game without moves is refused (409:
    nothing to review yet). The work runs in the bounded job queue."""
    if analyses.analyse is None:
        raise ServiceMissingError(N_("this server runs without the game review"))
    game, who = await in_thread(lambda: (store.get(game_id), people.find(game_id)))
    review_open(game, who)
    if not game.moves:
        raise NothingToReviewError(N_("game {game} has no moves to review yet"), game=game_id)
    record = game.record
    # the page speaks to the person: "you" and "the AI", never seat numbers; between people, both
    # players read the one review: each by their seat (each sentence about them is said per kind)
    by_seat = {game.seat: you(), game.ai_seat: the_ai(game.ai)}
    seats = [by_seat[0], by_seat[1]] if who is None else numbered()
    seconds = review_seconds(game, time_per_move, limits)
    budget = ThinkBudget(seconds)  # each position's, started as its analysis starts

    def review(stop: StopSignal) -> GameReview:
        analysis_of = analyses.bound_to(stop)

        def analyse(state: State, extra: Sequence[Move]) -> SearchedPosition:
            return analysis_of(state, budget, extra)

        return review_game(record, seconds=seconds, stop=stop, analyse=analyse, seats=seats)

    return review_view(await worker.run(review), game.seat, seconds)


class PlyChoiceError(PatchworkError):
    """A ply to practise that the game has not reached, or that is the AI's move: the game, not the
    request's form, is at fault (409, as for a move out of turn)."""

    exit_code = 1
    http_status = 409


class PractiseRequest(BaseModel):
    """The plies of the person's own moves to practise (the review's mistakes and blunders), and the
    time per position the review was made with."""

    model_config = ConfigDict(extra="forbid")

    plies: list[Annotated[int, Field(ge=0)]] = Field(
        min_length=1, max_length=MAX_PRACTISE_PLIES,
        description="indices into the game's moves: your moves the review labelled mistake or blunder")
    time_per_move: Annotated[float, Field(gt=0, le=60)] | SkipJsonSchema[None] = optional_field(
        f"the review's time_per_move (default {REVIEW_SECONDS}): the exercises are made of the same analyses, "
        "from the analysis cache")

    @model_validator(mode="after")
    def _no_nulls(self) -> PractiseRequest:
        refuse_nulls(self, ("time_per_move",))
        return self


class ExerciseMade(BaseModel):
    """One exercise made of a mistake."""

    id: str = Field(description="the exercise's id (GET /api/puzzles/{id})")
    ply: int = Field(description="the index of the mistake among the game's moves")
    label: str = Field(description="the review's label of the move: mistake or blunder")
    played: MoveModel = Field(description="the move played, which the exercise asks to better")
    difficulty: int = Field(description="1-5, a guide (exercises are not rated)")


class PractiseView(BaseModel):
    """The exercises made, in ply order (ids for ``/api/puzzles/{id}`` and ``/puzzles?set=``)."""

    puzzles: list[str] = Field(description="the exercises' ids, in ply order")
    plies: list[int] = Field(description="the ply each exercise's position comes before")
    tried: int = Field(description="how many distinct plies were tried")
    exercises: list[ExerciseMade] = Field(description="each exercise made, in ply order")


def _practised(game: Game, plies: Sequence[int], people: bool) -> list[int]:
    """The distinct plies, in order, each one of the person's own moves in the game (between
    ``people``, every move is a person's: each seat practises its own)."""
    for ply in plies:
        if ply >= len(game.moves):
            raise PlyChoiceError(N_("plies: game {game} has {count} moves, so no ply {ply}"), game=game.id,
                                 count=len(game.moves), ply=ply)
        if not people and game.moves[ply].player != game.seat:
            raise PlyChoiceError(N_("plies: ply {ply} is the AI's move, not yours"), ply=ply)
    return sorted(set(plies))


@router.post("/games/{game_id}/mistake-puzzles", responses=answers(403, 404, 409, 413, 422, 429, 503),
             dependencies=[Depends(strict_body(PractiseRequest))], summary="Exercises from a game's mistakes")
async def mistake_puzzles_of_game(game_id: GameId, body: PractiseRequest, store: StoreDep, people: PeopleDep,
                                  puzzles: PuzzleStoreDep, limits: LimitsDep, analyses: AnalysesDep,
                                  worker: WorkerDep) -> PractiseView:
    """Each of the named moves (your mistakes and blunders, as the review labelled them) becomes an
    exercise, "find a better move" from the position before it, made of the review's analyses (the
    analysis cache's, at the review's ``time_per_move``); the exercises are kept and served like any
    puzzle. A move the analyses no longer call a mistake makes none (``tried`` counts it). 403: a game
    between people with hints off, still running; 409: a ply the game has not reached, or one that
    is the AI's move. The work runs in the bounded job queue."""
    if analyses.analyse is None:
        raise ServiceMissingError(N_("this server runs without the game review"))
    game, who = await in_thread(lambda: (store.get(game_id), people.find(game_id)))
    review_open(game, who)
    plies = _practised(game, body.plies, who is not None)
    record = game.record
    seconds = review_seconds(game, body.time_per_move or REVIEW_SECONDS, limits)
    budget = ThinkBudget(seconds)

    def make(stop: StopSignal) -> list[Exercise]:
        analysis_of = analyses.bound_to(stop)

        def analyse(state: State, extra: Sequence[Move]) -> SearchedPosition:
            return analysis_of(state, budget, extra)

        return exercises_at(record, plies, analyse, seconds, stop=stop)

    made = await worker.run(make)

    def keep() -> None:
        for exercise in made:
            puzzles.keep_puzzle(exercise.id, exercise.kind, json.dumps(exercise.to_json()))

    await in_thread(keep)
    return PractiseView(puzzles=[e.id for e in made], plies=[e.ply for e in made], tried=len(plies),
                        exercises=[ExerciseMade(id=e.id, ply=e.ply, label=e.label, played=move_model(e.played.move),
                                                difficulty=e.difficulty) for e in made])
