"""The FastAPI app: games against the AI or between people (SQLite or PostgreSQL), solver endpoints, and the pages.

``create_app(db, services, limits)`` takes the solver-backed functions from its caller (``cli.py``
builds them from ``solvers/``), so this package never calls the solvers itself (it names their
result models, which its answers carry). It puts the stores (``storage.py``), the services, the
limits, the job queue, the workshop's job board, the analysis cache, the live games' feed
(``game_feed.py``) and the live analyses (``streams.py``) on ``app.state`` and includes one router
per part (``routers/``: pages, games, people, solvers, reviews, puzzles, workshop, analysis), whose
routes take them through ``Depends`` (``deps.py``). Blocking work (the database, solvers, the AI)
runs in worker threads; solver and AI jobs go through a bounded queue (``jobs.py``) that drops a job
whose client went away, so the event loop keeps answering while the AI thinks; live analyses run in
worker processes of their own (``streams.py``). Domain errors become answers in one handler
(``errors.py``). Under ``serve`` the compiled searches, when cached, are loaded here and in the
analysis workers before the first request is taken (``preload``), so that the first hint or stream
is as fast as any later one.
"""

from __future__ import annotations

import threading
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio.to_thread
import httpx
from fastapi import FastAPI

from patchwork_opt.apps.web.analyses import AnalysisCache
from patchwork_opt.apps.web.errors import COMMON_ANSWERS, install_error_handlers
from patchwork_opt.apps.web.game_feed import GameFeed
from patchwork_opt.apps.web.game_store import IdlePurge
from patchwork_opt.apps.web.guards import BodyLimit, CreationLimit, HostAllowList, SecurityHeaders
from patchwork_opt.apps.web.jobboard import JobBoard
from patchwork_opt.apps.web.jobs import JobQueue
from patchwork_opt.apps.web.language import Language
from patchwork_opt.apps.web.routers import analysis, games, pages, people, puzzles, reviews, workshop
from patchwork_opt.apps.web.routers.solvers import solvers_router
from patchwork_opt.apps.web.services import Limits, Services
from patchwork_opt.apps.web.storage import open_stores
from patchwork_opt.apps.web.streams import AnalysisPool


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    await anyio.to_thread.run_sync(app.state.purge)
    app.state.feed.start()
    services: Services = app.state.services
    cached = services.searches_cached
    if services.warm_up is not None and app.state.preload and cached is not None and cached():
        await _preload(app, services.warm_up)
    elif services.warm_up is not None:  # in the background: the server answers at once, and requests
        # that need a compiled search meanwhile wait for the one compilation rather than start their own
        threading.Thread(target=services.warm_up, name="warm-up", daemon=True).start()
    try:
        yield
    finally:
        await anyio.to_thread.run_sync(app.state.feed.close)
        app.state.jobs.close()
        if app.state.streams is not None:
            await anyio.to_thread.run_sync(app.state.streams.close)
        app.state.stores.close()


#: a path no route has: answering it walks every route, which FastAPI prepares when a request first
#: walks it (a tenth of a second on the first request of the analysis board, unprepared)
UNROUTED = "/api/.preload"


async def _preload(app: FastAPI, warm_up: Callable[[], None]) -> None:
    """Load the compiled searches in this process and in the analysis workers, side by side, and
    prepare every route, before the app takes its first request; the seconds it took go to
    ``app.state.preloaded``."""
    started = time.perf_counter()
    async with anyio.create_task_group() as group:
        group.start_soon(anyio.to_thread.run_sync, warm_up)
        if app.state.streams is not None:
            group.start_soon(app.state.streams.preload)
        host = next((h for h in app.state.limits.allowed_hosts if h != "*"), "localhost")
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://app") as client:
            await client.get(UNROUTED, headers={"Host": host})
    app.state.preloaded = time.perf_counter() - started


def create_app(
    db: str | Path,
    services: Services | None = None,
    limits: Limits | None = None,
    *,
    preload: bool = False,
) -> FastAPI:
    """The app over the games in ``db`` (a SQLite path or a ``postgresql://`` URL), with solvers
    and AI from ``services``. ``preload`` (``serve``): when the compiled searches are in the cache
    (``Services.searches_cached``), the app loads them, here and in its analysis workers, as it
    starts, before it takes any request (``app.state.preloaded``: the seconds it took); otherwise
    they load (or compile) in the background while it answers."""
    services = services or Services()
    limits = limits or Limits()
    app = FastAPI(
        title="patchwork-opt",
        summary="Play Patchwork against the AI and ask the solvers for hints.",
        version="0.1.0",
        responses=COMMON_ANSWERS,
        docs_url=None,
        redoc_url=None,
        lifespan=_lifespan,
    )
    stores = open_stores(db, max_analyses=limits.cached_analyses)
    app.state.stores = stores
    app.state.store = stores.games  # the games: what most routes and tests reach for
    app.state.services = services
    app.state.limits = limits
    app.state.preload, app.state.preloaded = preload, None
    app.state.jobs = JobQueue(
        limits.solver_workers, limits.max_queued, limits.per_client_running, limits.client_jobs,
        retry_after=max(limits.max_solver_seconds, limits.max_ai_seconds), max_wait=limits.max_queue_wait_seconds,
        first_job_seconds=limits.game_hint_seconds,
    )
    app.state.board = JobBoard(app.state.jobs, limits.kept_job_seconds, limits.kept_jobs)
    app.state.creations = CreationLimit(limits.client_games, limits.game_window_seconds)
    app.state.purge = IdlePurge(stores.games, limits.game_idle_seconds)
    app.state.analyses = AnalysisCache(stores.analyses, services.analyse)
    app.state.feed = GameFeed(stores.database, capacity=limits.max_game_streams, per_client=limits.client_game_streams)
    app.state.streams = None if services.live is None else AnalysisPool(
        services.live, services.warm_up, processes=limits.analysis_processes, capacity=limits.max_analyses,
        per_client=limits.client_analyses, max_seconds=limits.max_analysis_seconds, nice=limits.analysis_nice)
    app.add_middleware(BodyLimit, max_bytes=limits.max_body_bytes)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(HostAllowList, allowed=limits.allowed_hosts)  # checked first
    app.add_middleware(Language)  # outermost: every answer, refusals too, in the language asked for
    install_error_handlers(app)
    pages.mount_assets(app)
    routers = (pages.router, games.router, people.router, solvers_router(services.solvers), reviews.router,
               puzzles.router, workshop.router, analysis.router)
    for router in routers:
        app.include_router(router)
    _publish_ai_names(app, services.ai_names)
    return app


def _publish_ai_names(app: FastAPI, names: Sequence[str]) -> None:
    """The schema of a new game names the AIs this server offers (``""``: the default one)."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = build()
            ai = schema["components"]["schemas"]["CreateGameRequest"]["properties"]["ai"]
            ai["enum"] = ["", *names]
        return app.openapi_schema or {}

    app.openapi = openapi  # type: ignore[method-assign]
