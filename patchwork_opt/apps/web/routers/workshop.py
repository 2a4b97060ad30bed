"""The workshop's API: a player's own quilt and patches, the best placements of a patch, the
optimal fill and the 7x7 question, and the answers' exports.

- Start from something you have: a pasted text quilt, a position in the notation, or a stored
  game at any ply, either player's quilt (with the patches on offer there).
- The patches, filtered by their facts (``patchwork patches --json``).
- The best placements of a patch, each with its reasons in words: quick, so answered at once
  (through the bounded job queue, as every solver call).
- The optimal fill and the 7x7 question may take seconds: each is a job, submitted (202), then
  polled for its progress and answer (``?wait=`` holds the poll until the job ends, at most a few
  seconds) or cancelled (its worker freed as soon as the solver returns the best it has). A job
  whose time ran out before its answer was settled says how long the server would give it when
  asked again (``more_seconds``: its cap). An answer exports as SVG, PNG and the CLI's JSON.

Routes parse, call the services (``Services.workshop``, wired in ``web/solver_services.py``) and render.
A solver request's time becomes a ``ThinkBudget`` as the request comes in, and its ``Deadline`` only as
its work starts: waiting in the job queue spends none of it (``core.clock``).
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Response
from fastapi import Path as PathParam
from fastapi.responses import JSONResponse
from pydantic import AfterValidator, BaseModel

from patchwork_opt.apps.patches import catalogue_json
from patchwork_opt.apps.solutions import bonus_verdict, fill_phase_words, fill_progress_words, fill_verdict
from patchwork_opt.apps.web.deps import (
    BoardDep,
    ClientDep,
    LimitsDep,
    ServicesDep,
    StoreDep,
    WholeNumbersRoute,
    WorkerDep,
    in_thread,
    strict_body,
)
from patchwork_opt.apps.web.errors import PlyNotFoundError, ServiceMissingError, answers, json_answers
from patchwork_opt.apps.web.jobboard import Job, NoAnswerError
from patchwork_opt.apps.web.routers.games import GameId, Ply
from patchwork_opt.apps.web.schemas import (
    BonusRequest,
    FillRequest,
    JobKind,
    JobProgressView,
    JobView,
    PatchListView,
    PlacementsRequest,
    PlacementsView,
    PositionQuiltRequest,
    QuiltSource,
    QuiltTextRequest,
    bonus_answer,
    fill_answer,
    quilt_source,
)
from patchwork_opt.apps.web.services import JobProgress as JobProgressFn
from patchwork_opt.apps.web.services import Limits, Workshop
from patchwork_opt.core.lookup import RANGE_PATTERN, FactRange
from patchwork_opt.core.quilt import Quilt
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.formats.notation import from_notation
from patchwork_opt.formats.picture import quilt_picture, to_svg
from patchwork_opt.formats.png import png_bytes
from patchwork_opt.formats.shapes import Picture
from patchwork_opt.i18n import N_, _
from solvers.bonus import BonusResult
from solvers.fill import FillResult
from solvers.model import SolveStatus

router = APIRouter(prefix="/api/workshop", tags=["workshop"], route_class=WholeNumbersRoute)

JobId = Annotated[str, PathParam(pattern=r"^[A-Za-z0-9_-]{16,64}$", description="the job's id")]
#: How long a poll may wait for its job to end, at most.
MAX_WAIT_SECONDS = 5.0
Wait = Annotated[float, Query(ge=0, le=MAX_WAIT_SECONDS, description=(
    "seconds to wait for the job to end before answering (0: answer at once)"))]
Player = Annotated[int | None, Query(ge=0, le=1, description="whose quilt: 0 (Player 1) or 1 (Player 2); "
                                     "the player to move when left out")]


def _fact_range(text: str | None) -> str | None:
    """A fact's filter as the schema's pattern says (Python's ``re``, as Schemathesis reads it)."""
    if text is not None and not re.search(RANGE_PATTERN, text):
        raise ValueError(_("expected a number or a range like 2-4"))
    return text


def _fact(description: str) -> object:
    return Query(description=f"{description}: a number or a range like 2-4",
                 json_schema_extra={"pattern": RANGE_PATTERN})


Fact = Annotated[str | None, AfterValidator(_fact_range)]


def _workshop(services: ServicesDep) -> Workshop:
    if services.workshop is None:
        raise ServiceMissingError(N_("this server runs without the workshop's solvers"))
    return services.workshop


WorkshopDep = Annotated[Workshop, Depends(_workshop)]


# --- the patches, and something to start from -------------------------------------------------


@router.get("/patches", responses=answers(422), summary="The patches by their facts (as patchwork patches --json)")
async def list_patches(
    cells: Annotated[Fact, _fact("cells it covers")] = None,
    cost: Annotated[Fact, _fact("its cost in buttons")] = None,
    time: Annotated[Fact, _fact("its time")] = None,
    income: Annotated[Fact, _fact("its income (buttons on it)")] = None,
) -> PatchListView:
    """The patches whose facts lie in the ranges given (every patch without one), each with the
    fewest facts that name it; when none matches, the closest ones and that in words."""
    given = {"cells": cells, "cost": cost, "time": time, "income": income}
    wanted = {name: FactRange.parse(value, name) for name, value in given.items() if value is not None}
    return PatchListView.model_validate(catalogue_json(wanted))


@router.post("/quilt", responses=answers(413, 422), dependencies=[Depends(strict_body(QuiltTextRequest))],
             summary="A quilt from its text (9 lines of 9 characters)")
async def quilt_from_text(body: QuiltTextRequest) -> QuiltSource:
    """The covered cells of a pasted quilt; 422 names what is wrong with a text that is not 9x9."""
    return quilt_source(None, None, Quilt.from_text(body.text))


@router.post("/position", responses=answers(413, 422), dependencies=[Depends(strict_body(PositionQuiltRequest))],
             summary="A player's quilt and the patches on offer in a position")
async def quilt_of_position(body: PositionQuiltRequest) -> QuiltSource:
    """A player's quilt in a position of the notation (the player to move's by default), with the
    patches on offer, the circle after them, the player's buttons and income marks ahead; 422 naming
    what is wrong with a position that cannot occur."""
    state = from_notation(body.position)
    player = body.player if body.player is not None else (0 if state.is_terminal() else state.to_move())
    return quilt_source(state, player, Quilt(state.quilts[player]))


@router.get("/games/{game_id}/plies/{ply}", responses=answers(404, 422, 503),
            summary="A player's quilt at a ply of a stored game")
async def quilt_of_game(game_id: GameId, ply: Ply, store: StoreDep, player: Player = None) -> QuiltSource:
    """A player's quilt before move ``ply`` of a stored game (0: the start; the game's ply: now),
    with the patches on offer then; the player to move's by default."""
    game = await in_thread(lambda: store.get(game_id))
    if ply > len(game.moves):
        raise PlyNotFoundError(N_("game {game} has {count} moves: no ply {ply}"), game=game_id, count=len(game.moves),
                               ply=ply)
    state = game.record.replay(ply)
    whose = player if player is not None else (0 if state.is_terminal() else state.to_move())
    return quilt_source(state, whose, Quilt(state.quilts[whose]))


# --- the best placements: answered at once ------------------------------------------------------


@router.post("/placements", responses=answers(413, 422, 429, 503),
             dependencies=[Depends(strict_body(PlacementsRequest))], summary="The best placements of a patch")
async def best_placements(
    body: PlacementsRequest, workshop: WorkshopDep, limits: LimitsDep, worker: WorkerDep
) -> PlacementsView:
    """The best placements of ``patch`` on the quilt, best first, each with its cells, buttons, score
    and reasons in words: what it touches, what it keeps open, whether the next patches still fit,
    the 7x7 square, how the score adds up (as ``patchwork hint QUILT --patch ID --next IDS`` says
    them). 422: a patch that fits nowhere, or next patches that repeat the patch."""

    budget = limits.solver_budget(limits.placements_seconds)

    def place(stop: StopSignal) -> BaseModel:
        return workshop.placements(body, budget.deadline(), stop)  # the request's one clock, made as its work starts

    return PlacementsView.model_validate(await worker.run(place))


# --- the optimal fill and the 7x7 question: jobs ----------------------------------------------

#: What a submitted job's id leads to (OpenAPI links: the job, its cancel, its exports).
_JOB_LINKS = {
    name: {"operationId": operation, "parameters": {"job_id": "$response.body#/id"}}
    for name, operation in (("ReadJob", "read_workshop_job"), ("CancelJob", "cancel_workshop_job"),
                            ("AnswerSvg", "workshop_answer_svg"), ("AnswerPng", "workshop_answer_png"),
                            ("AnswerJson", "workshop_answer_json"))
}
_JOB_ANSWERS: dict[int | str, dict[str, Any]] = {
    202: {"description": "the job, queued or running: poll it (Location)", "links": _JOB_LINKS},
    **answers(413, 422, 429, 503),
}


def _submitted(job: Job, response: Response, limits: Limits) -> JobView:
    response.headers["Location"] = f"/api/workshop/jobs/{job.id}"
    return job_view(job, limits)


@router.post("/fills", status_code=202, responses=_JOB_ANSWERS, dependencies=[Depends(strict_body(FillRequest))],
             summary="Submit an optimal fill (a job: poll it)")
async def submit_fill(body: FillRequest, workshop: WorkshopDep, limits: LimitsDep, board: BoardDep,
                      client: ClientDep, response: Response) -> JobView:
    """The patches (each at most once) and placements that cover the most, or score the most points,
    within a budget, the 7x7 square complete if asked: ``POST /api/fill``'s request, run as a job.
    Answers at once (202, ``Location`` the job) with the job queued or running; poll it for its
    progress and answer, which is ``patchwork fill --json``'s object with its verdict in words."""
    budget = limits.solver_budget(body.time_limit)

    def fill(stop: StopSignal, progress: JobProgressFn) -> BaseModel:
        return workshop.fill(body, budget.deadline(), stop, progress)  # the job's one clock, made as it starts

    return _submitted(board.submit(client, "fill", body, budget.seconds, fill), response, limits)


@router.post("/bonus", status_code=202, responses=_JOB_ANSWERS, dependencies=[Depends(strict_body(BonusRequest))],
             summary="Submit the 7x7 question (a job: poll it)")
async def submit_bonus(body: BonusRequest, workshop: WorkshopDep, limits: LimitsDep, board: BoardDep,
                       client: ClientDep, response: Response) -> JobView:
    """Can a 7x7 square still be completed with these patches, and how: ``POST /api/bonus``'s request,
    run as a job (202, ``Location`` the job); its answer is ``patchwork bonus --json``'s object with
    its verdict in words."""
    budget = limits.solver_budget(body.time_limit)

    def bonus(stop: StopSignal, progress: JobProgressFn) -> BaseModel:
        return workshop.bonus(body, budget.deadline(), stop, progress)  # the job's one clock, made as it starts

    return _submitted(board.submit(client, "bonus", body, budget.seconds, bonus), response, limits)


@router.get("/jobs/{job_id}", responses=answers(404, 422), summary="A job's state, progress and answer",
            operation_id="read_workshop_job")
async def read_job(job_id: JobId, board: BoardDep, limits: LimitsDep, wait: Wait = 0.0) -> JobView:
    """The job now: queued, running (with its progress), done, cancelled or failed, and its answer
    once it has one. With ``wait``, the answer comes as soon as the job ends, or after ``wait``
    seconds at most."""
    job = board.get(job_id)
    await board.wait(job, wait)
    return job_view(job, limits)


@router.post("/jobs/{job_id}/cancel", responses=answers(404, 422), summary="Cancel a job, keeping its best answer",
             operation_id="cancel_workshop_job")
async def cancel_job(job_id: JobId, board: BoardDep, limits: LimitsDep) -> JobView:
    """Stop the job: it answers once its worker is free (a running solve returns the best it has
    found, kept as the job's answer with state ``cancelled``; a job waiting in line leaves it). A
    job that has ended is left as it is."""
    return job_view(await board.cancel(job_id), limits)




# --- a job's view and its answer's exports --------------------------------------------------------


def job_view(job: Job, limits: Limits) -> JobView:
    """The job as the page shows it: its state in words, its progress, its answer once it has one, and
    how long it may search when asked again (``more_time``)."""
    result = job.result
    fill = fill_answer(result) if isinstance(result, FillResult) else None
    bonus = bonus_answer(result) if isinstance(result, BonusResult) else None
    base = f"/api/workshop/jobs/{job.id}"
    links = {"self": base, "cancel": f"{base}/cancel"}
    if result is not None:
        links.update({fmt: f"{base}/answer.{fmt}" for fmt in ("svg", "png", "json")})
    verdict = fill.verdict if fill is not None else bonus.verdict if bonus is not None else ""
    kind: JobKind = "fill" if job.kind == "fill" else "bonus"
    figures = kind == "fill" and job.progress.phase != ""
    unit = "points" if isinstance(job.request, FillRequest) and job.request.objective == "points" else "cells"
    progress = JobProgressView(
        elapsed=round(job.elapsed, 3), time_limit=job.time_limit, phase=fill_phase_words(job.progress.phase),
        best=job.progress.best if figures else None, bound=job.progress.bound if figures else None,
    )
    return JobView(id=job.id, kind=kind, state=job.state, words=job_words(job, verdict, progress, unit),
                   progress=progress, fill=fill, bonus=bonus, error=job.error, links=links,
                   more_seconds=more_time(job, limits),
                   freed_after=None if job.freed_after is None else round(job.freed_after, 4),
                   stopped_after=None if job.stopped_after is None else round(job.stopped_after, 4))


def more_time(job: Job, limits: Limits) -> float | None:
    """The seconds a job asked again may search (the server's cap) when it ended because its time ran
    out with its answer still open (a fill not proven optimal nor impossible, a 7x7 question not
    settled) and it had less than that; None otherwise (settled, cancelled, or given the most already)."""
    result, longest = job.result, limits.max_solver_seconds
    if job.state != "done" or job.time_limit >= longest:
        return None
    if isinstance(result, FillResult):
        settled = result.optimal or result.status == SolveStatus.INFEASIBLE
    elif isinstance(result, BonusResult):
        settled = result.feasible is not None
    else:
        return None
    return None if settled else longest


def job_words(job: Job, verdict: str, progress: JobProgressView, unit: str) -> str:
    """The job's state in words: waiting, what the solver is doing (with the figures so far), the
    verdict, or why it has none."""
    if job.state == "queued":
        # Translators: a workshop job's state: waiting in line for a solver
        return _("waiting for a free solver")
    if job.state == "running" and progress.phase:
        # Translators: a workshop job's state while a solver runs ({progress}: "23 cells so far, at most 25 (...)")
        return _("searching: {progress}", progress=fill_progress_words(progress.best, progress.bound, progress.phase,
                                                                       unit))
    if job.state == "running":
        return _("searching")
    if job.state == "done":
        return verdict
    if job.state == "cancelled":
        if verdict:
            # Translators: a workshop job's state: cancelled, with the verdict of what it had found
            return _("cancelled; {verdict}", verdict=verdict)
        # a solver stopped while building its model returns after its slot was handed on (an orphan)
        if job.started is None:
            return _("cancelled before it started")
        return _("cancelled; the best found so far is on its way")
    # Translators: a workshop job's state: it failed, with the error
    return _("failed: {error}", error=job.error)


def _answer_picture(job: Job) -> Picture:
    """The answer drawn as the page draws it: the quilt, the placed patches with their buttons, the verdict."""
    result = job.result
    if not isinstance(result, FillResult | BonusResult):
        raise NoAnswerError(N_("job {job} has no answer to export ({state})"), job=job.id, state=job.state)
    assert isinstance(job.request, FillRequest | BonusRequest)
    placed = [(p.patch, p.mask) for p in result.placements]
    quilt = job.request.quilt_mask()
    for _patch, mask in placed:
        quilt |= mask
    verdict = fill_verdict(result) if isinstance(result, FillResult) else bonus_verdict(result)
    return quilt_picture(quilt, placed, caption=verdict)


class SvgResponse(Response):
    media_type = "image/svg+xml"


class PngResponse(Response):
    media_type = "image/png"


def _download(job: Job, fmt: str) -> dict[str, str]:
    return {"Content-Disposition": f'attachment; filename="patchwork-{job.kind}-{job.id[:8]}.{fmt}"'}


@router.get("/jobs/{job_id}/answer.svg", response_class=SvgResponse, responses=json_answers(404, 409, 422),
            summary="A job's answer drawn as SVG", operation_id="workshop_answer_svg")
async def export_svg(job_id: JobId, board: BoardDep) -> Response:
    """The quilt with the answer's patches and its verdict, as ``patchwork show --svg`` draws a quilt
    (409 while the job has no answer)."""
    job = board.get(job_id)
    return SvgResponse(to_svg(_answer_picture(job)), headers=_download(job, "svg"))


@router.get("/jobs/{job_id}/answer.png", response_class=PngResponse, responses=json_answers(404, 409, 422),
            summary="A job's answer drawn as PNG", operation_id="workshop_answer_png")
async def export_png(job_id: JobId, board: BoardDep) -> Response:
    """The SVG's picture as PNG (409 while the job has no answer)."""
    job = board.get(job_id)
    picture = _answer_picture(job)
    return PngResponse(await in_thread(lambda: png_bytes(picture)), headers=_download(job, "png"))


@router.get("/jobs/{job_id}/answer.json", responses=answers(404, 409, 422),
            summary="A job's answer as the CLI's JSON", operation_id="workshop_answer_json")
async def export_json(job_id: JobId, board: BoardDep) -> JSONResponse:
    """What ``patchwork fill --json`` (or ``bonus --json``) prints for the same request (409 while the
    job has no answer)."""
    job = board.get(job_id)
    if not isinstance(job.result, FillResult | BonusResult):
        raise NoAnswerError(N_("job {job} has no answer to export ({state})"), job=job.id, state=job.state)
    return JSONResponse(job.result.to_json(), headers=_download(job, "json"))
