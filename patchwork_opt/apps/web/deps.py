"""What routes take through ``Depends``: the stores, services, limits, job queue, analysis cache, the
workshop's job board, the live games' feed and the live analyses that ``create_app`` put on ``app.state``; the client's
address; the reading of JSON bodies (whole numbers as integers, then strictly).

Blocking work runs off the event loop: database calls through ``in_thread``, solver and AI work
through ``Worker.run`` (the bounded job queue, told to stop when the client goes away).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar, cast

import anyio.to_thread
from fastapi import Depends, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from pydantic import BaseModel, ValidationError

from patchwork_opt.apps.web.analyses import AnalysisCache
from patchwork_opt.apps.web.game_feed import GameFeed
from patchwork_opt.apps.web.game_store import GameStore, IdlePurge
from patchwork_opt.apps.web.guards import CreationLimit
from patchwork_opt.apps.web.jobboard import JobBoard
from patchwork_opt.apps.web.jobs import JobQueue
from patchwork_opt.apps.web.people_store import PeopleStore
from patchwork_opt.apps.web.services import Limits, Services
from patchwork_opt.apps.web.storage import Stores
from patchwork_opt.apps.web.streams import AnalysisPool
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.puzzles.stores import PuzzleStore, VisitorStore

T = TypeVar("T")


def client_address(request: Request) -> str:
    """Who asks: the peer address (behind a proxy, run uvicorn with --forwarded-allow-ips)."""
    return request.client.host if request.client is not None else "unknown"


@dataclass(frozen=True, slots=True)
class Worker:
    """Solver and AI work for one request, through the bounded queue."""

    queue: JobQueue
    request: Request

    async def run(self, fn: Callable[[StopSignal], T]) -> T:
        """``fn(stop)`` in a worker thread once a slot is free; dropped, or told to stop, if the
        client goes away."""
        stop = StopSignal()
        return await self.queue.run(client_address(self.request), lambda: fn(stop), self.request.receive, stop)


async def in_thread(fn: Callable[[], T]) -> T:
    """Blocking I/O (the database) off the event loop."""
    return await anyio.to_thread.run_sync(fn)


def _store(request: Request) -> GameStore:
    return cast(GameStore, request.app.state.store)


def _people_store(request: Request) -> PeopleStore:
    return cast(Stores, request.app.state.stores).people


def _feed(request: Request) -> GameFeed:
    return cast(GameFeed, request.app.state.feed)


def _puzzle_store(request: Request) -> PuzzleStore:
    return cast(Stores, request.app.state.stores).puzzles


def _visitor_store(request: Request) -> VisitorStore:
    return cast(Stores, request.app.state.stores).visitors


def _services(request: Request) -> Services:
    return cast(Services, request.app.state.services)


def _limits(request: Request) -> Limits:
    return cast(Limits, request.app.state.limits)


def _analyses(request: Request) -> AnalysisCache:
    return cast(AnalysisCache, request.app.state.analyses)


def _creations(request: Request) -> CreationLimit:
    return cast(CreationLimit, request.app.state.creations)


def _purge(request: Request) -> IdlePurge:
    return cast(IdlePurge, request.app.state.purge)


def _board(request: Request) -> JobBoard:
    return cast(JobBoard, request.app.state.board)


def _streams(request: Request) -> AnalysisPool | None:
    return cast(AnalysisPool | None, request.app.state.streams)


def _worker(request: Request) -> Worker:
    return Worker(cast(JobQueue, request.app.state.jobs), request)


StoreDep = Annotated[GameStore, Depends(_store)]
PeopleDep = Annotated[PeopleStore, Depends(_people_store)]
FeedDep = Annotated[GameFeed, Depends(_feed)]
PuzzleStoreDep = Annotated[PuzzleStore, Depends(_puzzle_store)]
VisitorStoreDep = Annotated[VisitorStore, Depends(_visitor_store)]
ServicesDep = Annotated[Services, Depends(_services)]
LimitsDep = Annotated[Limits, Depends(_limits)]
AnalysesDep = Annotated[AnalysisCache, Depends(_analyses)]
CreationsDep = Annotated[CreationLimit, Depends(_creations)]
PurgeDep = Annotated[IdlePurge, Depends(_purge)]
WorkerDep = Annotated[Worker, Depends(_worker)]
BoardDep = Annotated[JobBoard, Depends(_board)]
StreamsDep = Annotated[AnalysisPool | None, Depends(_streams)]
ClientDep = Annotated[str, Depends(client_address)]


def _whole_number(text: str) -> float | int:
    """A JSON number as Python reads it, except that ``523.0`` is the integer 523: JSON Schema's
    ``integer`` is any number with no fractional part."""
    value = float(text)
    return int(value) if value.is_integer() and abs(value) < 2**63 else value


class WholeNumbersRequest(Request):
    """A request whose JSON body reads ``2.0`` as ``2`` (for every reader: the body parameter, the
    strict re-reading); a body that is no JSON is left as sent, for FastAPI to report."""

    async def body(self) -> bytes:
        if not hasattr(self, "_normalized"):
            raw = await super().body()
            try:
                data = json.loads(raw, parse_float=_whole_number)
                self._normalized = json.dumps(data).encode() if raw.strip() else raw
            except (ValueError, RecursionError):
                self._normalized = raw
        return self._normalized


class WholeNumbersRoute(APIRoute):
    """Routes whose requests are ``WholeNumbersRequest`` (``APIRouter(route_class=...)``)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def whole_numbers(request: Request) -> Response:
            return await handler(WholeNumbersRequest(request.scope, request.receive))

        return whole_numbers


def strict_body(model: type[BaseModel]) -> Callable[[Request], Awaitable[None]]:
    """A dependency that re-reads the body as strict JSON: ``"level": "2"`` or ``"seat": true`` is
    refused (422) instead of coerced; JSON arrays still stand for tuples. With a
    ``WholeNumbersRoute``, ``2.0`` is the integer 2. Malformed JSON is left to FastAPI's own reading."""

    async def check(request: Request) -> None:
        try:
            model.model_validate_json(await request.body(), strict=True)
        except ValidationError as exc:
            errors = [{**e, "loc": ("body", *e["loc"])} for e in exc.errors(include_url=False)]
            if any(e["type"] == "json_invalid" for e in errors):
                return
            raise RequestValidationError(errors) from None

    return check
