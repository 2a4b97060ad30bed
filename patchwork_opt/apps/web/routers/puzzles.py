"""Puzzles: the Puzzles page, a puzzle without its answer, and the verdict on an answer with its proof.

The routes parse, call and render. Which puzzle a visitor gets next (the difficulty that follows
them, missed puzzles that come back, streaks, the daily puzzle, themes) is the selection policy of
``puzzles/selection.py``; what a puzzle of each kind shows and how an answer is judged, its kind's
(``puzzles/kinds``). A puzzle comes from the shipped bank (``puzzles/bank.py``), or is made in the
bounded job queue (``Services.make_puzzle``, the solvers' ``puzzle new``) when the bank has none left
for the visitor, or comes from a reviewed game (``reviews.py``); those are kept in the puzzle store.
An answer is judged (in the job queue when its kind searches: an endgame's proof), then the visitor's
habits and, for a rated kind, both Glicko-2 ratings move in one transaction of the visitor store;
only a visitor's first answer to a puzzle counts. A visitor is an id the server hands out with the
first answer (the page keeps it); an unknown one is 422.

The bodies, and how a puzzle and a verdict are shown (the fields all kinds share and the kind's own
``details``), are ``schemas/puzzles.py``'s.
"""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime
from typing import Annotated, Any, cast

from fastapi import APIRouter, Depends, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse

from patchwork_opt.apps.practice import grade
from patchwork_opt.apps.web.deps import (
    AnalysesDep,
    ClientDep,
    CreationsDep,
    PuzzleStoreDep,
    ServicesDep,
    VisitorStoreDep,
    WholeNumbersRoute,
    Worker,
    WorkerDep,
    in_thread,
    strict_body,
)
from patchwork_opt.apps.web.errors import answers
from patchwork_opt.apps.web.game_store import new_game_id
from patchwork_opt.apps.web.jobs import BusyError
from patchwork_opt.apps.web.routers.pages import page
from patchwork_opt.apps.web.schemas.puzzles import (
    AnswerRequest,
    AnswerView,
    NewPuzzleRequest,
    PuzzleView,
    ThemesView,
    answer_view,
    puzzle_view,
    stats_view,
    themes_view,
)
from patchwork_opt.apps.web.services import Services
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.formats.models import move_from_model
from patchwork_opt.i18n import N_, _
from patchwork_opt.puzzles.bank import Bank, shipped_bank
from patchwork_opt.puzzles.glicko import Rating, rate_answer
from patchwork_opt.puzzles.kinds import BANKED, ID_PATTERN, KINDS, Judging, Puzzle, kind_of
from patchwork_opt.puzzles.kinds.base import Answer, PuzzleKind, Verdict
from patchwork_opt.puzzles.kinds.fill import read_placements
from patchwork_opt.puzzles.selection import PuzzleRequest, daily_puzzle, find_puzzle, pick, repeated, start_rating
from patchwork_opt.puzzles.stores import PuzzleStore

PuzzleId = Annotated[str, PathParam(pattern=ID_PATTERN, description="the puzzle's id")]

router = APIRouter(tags=["puzzles"], route_class=WholeNumbersRoute)


class TooManyVisitorsError(BusyError):
    """A client that started its share of new visitors (as of new games) for now (429)."""

    http_status = 429


class AnswerError(PatchworkError):
    """An answer of the other form: a move for a fill, placements for a puzzle answered by a move (422)."""

    http_status = 422


async def _bank(request: Request) -> Bank:
    """The bank on ``app.state.puzzle_bank`` (tests put their own there), else the shipped one (read
    and validated once, off the event loop)."""
    given = getattr(request.app.state, "puzzle_bank", None)
    return cast(Bank, given) if given is not None else await in_thread(shipped_bank)


BankDep = Annotated[Bank, Depends(_bank)]


@router.get("/puzzles", include_in_schema=False)
async def puzzles_page() -> HTMLResponse:
    """The puzzles page in the request's language."""
    return page("puzzles.html")


@router.post("/api/puzzles", responses=answers(404, 413, 422, 429, 503),
             dependencies=[Depends(strict_body(NewPuzzleRequest))])
async def new_puzzle(body: NewPuzzleRequest, puzzles: PuzzleStoreDep, visitors: VisitorStoreDep, bank: BankDep,
                     services: ServicesDep, worker: WorkerDep) -> PuzzleView:
    """A puzzle without its answer: one the visitor missed that is due again (``retry``), else one from
    the shipped bank they have not answered, else one made now in the job queue (422: an unknown
    visitor; 404: no puzzle of the theme at all). Without a difficulty (and in streak mode) the
    difficulty follows the visitor's rating (their streak)."""
    request = PuzzleRequest(kind=body.kind, difficulty=body.difficulty, theme=body.theme, streak=body.streak,
                            visitor=body.visitor, instead_of=body.instead_of)
    picked = await in_thread(lambda: pick(request, bank, puzzles, visitors))
    puzzle = picked.puzzle
    if puzzle is None:
        puzzle = await _made_or_repeated(body.kind, picked.difficulty, puzzles, bank, services, worker)
    found = puzzle
    rating = await in_thread(lambda: visitors.puzzle_rating(found.id, start_rating(found)))
    return puzzle_view(puzzle, rating, stats_view(body.visitor, picked.stats), retry=picked.retry)


async def _made_or_repeated(kind: str, difficulty: int, puzzles: PuzzleStore, bank: Bank, services: Services,
                            worker: Worker) -> Puzzle:
    """A new puzzle made in the job queue and kept in the store; without a maker, a bank puzzle again."""
    make = services.make_puzzle
    if make is None:
        return repeated(bank, kind, difficulty)
    seed = random.randrange(1 << 31)
    made = cast(Puzzle, await worker.run(lambda stop: make(kind, difficulty, seed, stop)))
    await in_thread(lambda: puzzles.keep_puzzle(made.id, made.kind, json.dumps(made.to_json())))
    return made


@router.get("/api/puzzles/themes")
async def puzzle_themes(bank: BankDep) -> ThemesView:
    """The themes a new puzzle may ask for, by kind, each with its words and how many puzzles of this
    server's bank carry it."""
    return themes_view({name: {t: len(bank.of(name, theme=t)) for t in KINDS[name].themes} for name in BANKED})


@router.get("/api/puzzles/daily", responses=answers(503))
async def daily(visitors: VisitorStoreDep, bank: BankDep) -> PuzzleView:
    """Today's puzzle (the UTC date): the same for everyone on this server all day (503: no bank)."""
    today = datetime.now(UTC).date()
    puzzle = daily_puzzle(bank, today)
    rating = await in_thread(lambda: visitors.puzzle_rating(puzzle.id, start_rating(puzzle)))
    return puzzle_view(puzzle, rating, None, daily=today)


@router.get("/api/puzzles/{puzzle_id}", responses=answers(404, 422, 503))
async def read_puzzle(puzzle_id: PuzzleId, puzzles: PuzzleStoreDep, visitors: VisitorStoreDep,
                      bank: BankDep) -> PuzzleView:
    """A puzzle without its answer, by id (404: no such puzzle)."""
    puzzle = await in_thread(lambda: find_puzzle(bank, puzzles, puzzle_id))
    rating = await in_thread(lambda: visitors.puzzle_rating(puzzle.id, start_rating(puzzle)))
    return puzzle_view(puzzle, rating, None)


def _answer_of(kind: PuzzleKind[Any, Any], body: AnswerRequest) -> Answer:
    """The answer in the form the puzzle's kind takes: ``AnswerError`` (422) for the other form."""
    if kind.answer == "move":
        if body.move is None:
            # Translators: {kind} is a kind of puzzle (endgame, exercise): keep it as it is
            raise AnswerError(N_("this {kind} puzzle is answered with a move, not placements"), kind=kind.name)
        return move_from_model(body.move)
    if body.placements is None:
        raise AnswerError(N_("this {kind} puzzle is answered with placements, not a move"), kind=kind.name)
    return read_placements([p.model_dump() for p in body.placements])


@router.post("/api/puzzles/{puzzle_id}/answer", responses=answers(404, 413, 422, 429, 503),
             dependencies=[Depends(strict_body(AnswerRequest))])
async def answer_puzzle(puzzle_id: PuzzleId, body: AnswerRequest, puzzles: PuzzleStoreDep,
                        visitors: VisitorStoreDep, bank: BankDep, worker: WorkerDep, analyses: AnalysesDep,
                        creations: CreationsDep, client: ClientDep) -> AnswerView:
    """The verdict with its proof (a search, when the kind needs one, in the job queue) and the
    ratings after it. 422 names why a move or placement is illegal, or an unknown visitor; 404: no
    such puzzle."""
    puzzle = await in_thread(lambda: find_puzzle(bank, puzzles, puzzle_id))
    kind = kind_of(puzzle)
    answer = _answer_of(kind, body)
    kind.check(puzzle, answer)  # an illegal move is refused before it takes a slot in the queue
    if kind.queued:
        def judged(stop: StopSignal) -> Verdict:  # an exercise's analysis, its own budget, in the job queue
            judging = Judging(stop=stop.attach, analysis_of=analyses.bound_to(stop), grade=grade)
            verdict: Verdict = kind.judge(puzzle, answer, judging)
            return verdict

        verdict = await worker.run(judged)
    else:
        verdict = kind.judge(puzzle, answer, Judging())
    visitor = body.visitor
    if visitor is None:
        wait = creations.take(client)
        if wait:
            raise TooManyVisitorsError(_("too many new visitors from you; retry in {seconds} s", seconds=wait), wait)
        visitor = new_game_id()
        await in_thread(lambda: visitors.new_visitor(visitor, Rating()))
    known = visitor
    rated = await in_thread(lambda: visitors.rate_answer(known, puzzle.id, verdict.correct, start_rating(puzzle),
                                                         rate_answer, streak=body.streak, rated=kind.rated))
    return answer_view(puzzle, verdict, visitor, rated)
