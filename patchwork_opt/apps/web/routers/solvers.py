"""The solver endpoints (``POST /api/<name>``, the CLI's ``--json`` objects) and a game's hint.

The endpoints come from ``Services.solvers`` when the app is built, so ``solvers_router`` makes
them; each runs in the job queue. Its request's time becomes a ``ThinkBudget`` as the request comes
in (the server's caps applied once: ``Limits.solver_budget``) and its deadline as the job starts, so
time waiting in line is not thinking time. A game's hint is the analysis of its position with the
hint's budget (``Limits.hint_budget``; from the cache when one at least as deep was made, by any
server on the database).
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Mapping

from fastapi import APIRouter, Depends
from pydantic import BaseModel

from patchwork_opt.ai.base import SearchedPosition
from patchwork_opt.apps.web.deps import (
    AnalysesDep,
    LimitsDep,
    PeopleDep,
    ServicesDep,
    StoreDep,
    WholeNumbersRoute,
    WorkerDep,
    in_thread,
    strict_body,
)
from patchwork_opt.apps.web.errors import SeatRefusedError, ServiceMissingError, answers
from patchwork_opt.apps.web.routers.games import GameId
from patchwork_opt.apps.web.services import Endpoint, Limits
from patchwork_opt.core.clock import ThinkBudget
from patchwork_opt.core.errors import GameOverError
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.i18n import N_


def solvers_router(solvers: Mapping[str, Endpoint]) -> APIRouter:
    """``POST /api/<name>`` for each solver, and ``GET /api/games/{game_id}/hint``."""
    router = APIRouter(prefix="/api", route_class=WholeNumbersRoute)
    for name, endpoint in solvers.items():
        router.add_api_route(
            f"/{name}", _solver_route(endpoint), methods=["POST"], response_model=endpoint.response,
            tags=["solvers"], summary=endpoint.summary, name=name, responses=answers(400, 413, 422, 429, 503),
            dependencies=[Depends(strict_body(endpoint.request))],
        )
    hint = solvers.get("hint")
    router.add_api_route(
        "/games/{game_id}/hint", game_hint, methods=["GET"], tags=["games", "solvers"],
        response_model=hint.response if hint is not None else None, responses=answers(403, 404, 409, 422, 429, 503),
        summary="Hint for the player to move (as patchwork hint --json)",
    )
    return router


def _solver_route(endpoint: Endpoint) -> Callable[..., Awaitable[BaseModel]]:
    """An endpoint whose body is ``endpoint.request`` (set on its signature, so OpenAPI shows it)."""

    async def route(body: BaseModel, limits: LimitsDep, analyses: AnalysesDep, worker: WorkerDep) -> BaseModel:
        budget = _budget_of(body, limits)

        def run(stop: StopSignal) -> BaseModel:
            deadline = budget.deadline()  # the request's one clock, started as its job starts
            analysis_of = analyses.bound_to(stop)

            def analysis(state: State) -> SearchedPosition:
                return analysis_of(state, budget)

            return endpoint.run(body, deadline, stop, analysis)

        return await worker.run(run)

    parameters = inspect.signature(route).parameters
    route.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [
            inspect.Parameter("body", inspect.Parameter.KEYWORD_ONLY, annotation=endpoint.request),
            *(parameters[name].replace(kind=inspect.Parameter.KEYWORD_ONLY)
              for name in ("limits", "analyses", "worker")),
        ],
        return_annotation=endpoint.response,
    )
    return route


def _budget_of(body: BaseModel, limits: Limits) -> ThinkBudget:
    """What a solver request asks for, as the server's caps allow (one that names no time: the cap)."""
    asked = getattr(body, "time_limit", None)
    return limits.solver_budget(asked if isinstance(asked, int | float) else limits.max_solver_seconds)


async def game_hint(
    game_id: GameId, store: StoreDep, people: PeopleDep, services: ServicesDep, limits: LimitsDep,
    analyses: AnalysesDep, worker: WorkerDep,
) -> BaseModel:
    """The ranked moves of the player to move, as ``patchwork hint POSITION --json`` prints them:
    the analysis of ``game_hint_seconds`` (409 when the game is over; 403 in a game between people
    that was set up without hints)."""
    game, who = await in_thread(lambda: (store.get(game_id), people.find(game_id)))
    if who is not None and not who.hints:
        raise SeatRefusedError(N_("game {game} was set up without hints: none during the game"), game=game_id)
    render = services.game_hint
    if render is None or services.analyse is None:
        raise ServiceMissingError(N_("this server runs without the hint solver"))
    state = game.state()
    if state.is_terminal() or (who is not None and who.resigned is not None):
        raise GameOverError(N_("the game is over"))
    budget = limits.hint_budget
    return await worker.run(lambda stop: render(state, analyses.analysis(state, budget, stop)))
