"""The FastAPI app: games against the AI (SQLite or PostgreSQL), solver endpoints, and the page.

``create_app(db, services)`` takes the solver-backed functions from its caller (``cli.py`` builds
them from ``solvers/``), so this package never imports the solvers. Blocking work (the database,
solvers, the AI) runs in worker threads; solver and AI jobs go through a bounded queue
(``jobs.py``) that drops a job whose client went away, so the event loop keeps answering while the
AI thinks and an abandoned request does not delay the next one.
"""

from __future__ import annotations

import base64
import hashlib
import importlib
import inspect
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any, TypeVar

import anyio
import anyio.to_thread
from fastapi import Depends, FastAPI, HTTPException, Query, Request, Response
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ValidationError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from patchwork_opt.apps.review import ReviewError
from patchwork_opt.apps.web.databases import open_store
from patchwork_opt.apps.web.guards import CreationLimit, HostAllowList, SecurityHeaders
from patchwork_opt.apps.web.jobs import BusyError, ClientGoneError, JobQueue, retry_headers
from patchwork_opt.apps.web.schemas import (
    AiInfo,
    AiMoveRequest,
    Catalogue,
    CreateGameRequest,
    ErrorBody,
    GameReviewView,
    GameView,
    PlayMoveRequest,
    UndoRequest,
    catalogue,
    game_view,
    review_view,
)
from patchwork_opt.apps.web.services import Limits, Services, SolverEndpoint
from patchwork_opt.apps.web.store import Game, GameNotFoundError, StaleGameError
from patchwork_opt.core.errors import IllegalMoveError, PatchworkError
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.formats.models import RecordModel, move_from_model

STATIC_DIR = Path(__file__).with_name("static")
GameId = Annotated[str, PathParam(pattern=r"^[A-Za-z0-9_-]{16,64}$", description="the game's id")]
Ply = Annotated[int, PathParam(ge=0, le=1000, description="the number of moves played before the position")]
#: Analysis time per position a review asks for by default (the server may cut it, see ``Limits``).
REVIEW_SECONDS = 0.5
T = TypeVar("T")
#: How often, at most, creating a game also deletes the idle ones.
PURGE_EVERY_SECONDS = 600.0

_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody, "description": "bad input"},
    404: {"model": ErrorBody, "description": "no such game"},
    409: {"model": ErrorBody, "description": "out of turn, or the game changed since it was read"},
    413: {"model": ErrorBody, "description": "request body too large"},
    422: {"model": ErrorBody, "description": "invalid request, or a move the rules refuse"},
    429: {"model": ErrorBody, "description": "this client has too many jobs or new games; see Retry-After"},
    503: {"model": ErrorBody, "description": "no such solver or AI here, or the solvers are busy (Retry-After)"},
}


class BodyLimit:
    """Answers 413 for a body over ``max_bytes``, declared or streamed, before anything reads it all."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            response = JSONResponse(
                {"detail": f"request body over {self.max_bytes} bytes"}, status_code=413
            )
            await response(scope, receive, send)
            return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise HTTPException(413, f"request body over {self.max_bytes} bytes")
            return message

        await self.app(scope, limited, send)


def _validation_message(exc: RequestValidationError) -> str:
    """One line naming each field at fault: ``body.move.cells.0: ...; ...``."""
    parts = []
    for error in exc.errors()[:5]:
        where = ".".join(str(x) for x in error.get("loc", ()))
        parts.append(f"{where}: {error.get('msg', 'invalid')}")
    return "; ".join(parts) or "invalid request"


def _strict_body(model: type[BaseModel]) -> Callable[[Request], Awaitable[None]]:
    """A dependency that re-reads the body as strict JSON: ``"level": "2"`` or ``"seat": true`` is
    refused (422) instead of coerced; JSON arrays still stand for tuples."""

    async def check(request: Request) -> None:
        try:
            model.model_validate_json(await request.body(), strict=True)
        except ValidationError as exc:
            errors = [{**e, "loc": ("body", *e["loc"])} for e in exc.errors(include_url=False)]
            raise RequestValidationError(errors) from None

    return check


def _client(request: Request) -> str:
    """Who asks: the peer address (behind a proxy, run uvicorn with --forwarded-allow-ips)."""
    return request.client.host if request.client is not None else "unknown"


def _bot_seed(game: Game, ply: int) -> int:
    """Same game and ply, same seed: the AI's choice is repeatable across restarts."""
    digest = hashlib.sha256(f"{game.id}:{game.seed}:{ply}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def create_app(
    db: str | Path,
    services: Services | None = None,
    limits: Limits | None = None,
) -> FastAPI:
    """The app over the games in ``db`` (a SQLite path or a ``postgresql://`` URL), with solvers
    and AI from ``services``."""
    services = services or Services()
    limits = limits or Limits()
    store = open_store(db)
    queue = JobQueue(
        limits.solver_workers, limits.max_queued, limits.per_client_running, limits.client_jobs,
        retry_after=max(limits.max_solver_seconds, limits.max_ai_seconds),
    )
    creations = CreationLimit(limits.client_games, limits.game_window_seconds)
    purged = {"at": float("-inf")}

    def purge_idle() -> None:
        if limits.game_idle_seconds > 0 and time.monotonic() - purged["at"] >= PURGE_EVERY_SECONDS:
            purged["at"] = time.monotonic()
            store.purge_idle(limits.game_idle_seconds)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await anyio.to_thread.run_sync(purge_idle)
        try:
            yield
        finally:
            queue.close()
            store.close()

    app = FastAPI(
        title="patchwork-opt",
        summary="Play Patchwork against the AI and ask the solvers for hints.",
        version="0.1.0",
        responses=_ERRORS,
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
    )
    _add_docs(app)
    app.state.store = store
    app.state.services = services
    app.state.limits = limits
    app.state.jobs = queue
    app.add_middleware(BodyLimit, max_bytes=limits.max_body_bytes)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(HostAllowList, allowed=limits.allowed_hosts)  # outermost: checked first

    async def in_thread(fn: Callable[[], T]) -> T:
        """Blocking I/O (the database) off the event loop."""
        return await anyio.to_thread.run_sync(fn)

    async def solver_job(request: Request, fn: Callable[[StopSignal], T]) -> T:
        """Solver or AI work through the bounded queue; dropped, or told to stop, if the client goes away."""
        stop = StopSignal()
        return await queue.run(_client(request), lambda: fn(stop), request.receive, stop)

    # --- errors ---------------------------------------------------------------------------------
    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": _validation_message(exc)}, status_code=422)

    @app.exception_handler(PatchworkError)
    async def _domain(request: Request, exc: PatchworkError) -> JSONResponse:
        if isinstance(exc, BusyError):
            return JSONResponse({"detail": str(exc)}, status_code=exc.status, headers=retry_headers(exc))
        if isinstance(exc, ClientGoneError):
            status = 503  # nobody reads it
        elif isinstance(exc, GameNotFoundError):
            status = 404
        elif isinstance(exc, StaleGameError):
            status = 409
        else:  # refused by the rules (exit code 1) or input that cannot be read (exit code 2)
            status = 422 if exc.exit_code == 1 else 400
        return JSONResponse({"detail": str(exc)}, status_code=status)

    # --- page -----------------------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    # --- facts ----------------------------------------------------------------------------------
    @app.get("/api/health", tags=["service"])
    async def health() -> dict[str, Any]:
        return {"ok": True, "solvers": sorted(services.solvers), "ai": list(services.ai_names)}

    @app.get("/api/catalogue", tags=["service"])
    async def get_catalogue() -> Catalogue:
        return catalogue()

    @app.get("/api/ais", tags=["games"])
    async def list_ais() -> list[AiInfo]:
        return [AiInfo(name=name, default=name == services.default_ai) for name in services.ai_names]

    # --- games ----------------------------------------------------------------------------------
    def view(game: Game) -> GameView:
        return game_view(game, game.state())

    @app.post("/api/games", status_code=201, tags=["games"],
              dependencies=[Depends(_strict_body(CreateGameRequest))])
    async def create_game(body: CreateGameRequest, request: Request) -> GameView:
        """Set up a new game (random circle from ``seed``) against the named AI; a client may
        create ``client_games`` games per ``game_window_seconds`` (else 429 with Retry-After)."""
        wait = creations.take(_client(request))
        if wait:
            detail = f"too many new games from you; retry in {wait}s"
            raise HTTPException(429, detail, headers={"Retry-After": str(wait)})
        ai = body.ai or services.default_ai
        if services.make_bot is None:
            raise HTTPException(503, "this server runs without an AI")
        if ai not in services.ai_names:
            raise HTTPException(422, f"unknown AI {ai!r} (expected one of {', '.join(services.ai_names)})")
        state = State.new(seed=body.seed, leather=body.printing)

        def create() -> Game:
            purge_idle()
            return store.create(state, seed=body.seed, ai=ai, level=body.level, seat=body.seat)

        return view(await in_thread(create))

    @app.get("/api/games/{game_id}", tags=["games"])
    async def read_game(game_id: GameId) -> GameView:
        game = await in_thread(lambda: store.get(game_id))
        return view(game)

    @app.post("/api/games/{game_id}/moves", tags=["games"], dependencies=[Depends(_strict_body(PlayMoveRequest))])
    async def play_move(game_id: GameId, body: PlayMoveRequest) -> GameView:
        """The human's move; 422 names why the rules refuse it, 409 when it is not their turn."""
        move = move_from_model(body.move)

        def play() -> Game:
            game = store.get(game_id)
            state = game.state()
            if not state.is_terminal() and state.to_move() != game.seat:
                raise StaleGameError("it is the AI's turn, not yours")
            return store.append(game_id, body.ply, move, actor="human")

        return view(await in_thread(play))

    @app.post("/api/games/{game_id}/ai-move", tags=["games"], dependencies=[Depends(_strict_body(AiMoveRequest))])
    async def ai_move(game_id: GameId, body: AiMoveRequest, request: Request) -> GameView:
        """Let the AI choose and play its move (in a worker thread, time capped by the server)."""
        make_bot = services.make_bot
        if make_bot is None:
            raise HTTPException(503, "this server runs without an AI")
        game = await in_thread(lambda: store.get(game_id))
        state = game.state()
        if len(game.moves) != body.ply:
            raise StaleGameError(f"game {game_id} is at ply {len(game.moves)}, not {body.ply}; reload it")
        if state.is_terminal():
            raise IllegalMoveError("the game is over")
        if state.to_move() != game.ai_seat:
            raise StaleGameError("it is your turn, not the AI's")
        seed = _bot_seed(game, body.ply)

        def decide() -> Any:
            bot = make_bot(game.ai, game.level, seed, limits.max_ai_seconds)
            return bot.decide(state.clone())

        decision = await solver_job(request, lambda _stop: decide())
        try:
            state.check(decision.move)
        except PatchworkError as exc:
            raise HTTPException(500, f"the AI chose an illegal move {decision.move}: {exc}") from None
        game = await in_thread(
            lambda: store.append(game_id, body.ply, decision.move, actor="ai", reason=decision.reason)
        )
        return view(game)

    @app.post("/api/games/{game_id}/undo", tags=["games"], dependencies=[Depends(_strict_body(UndoRequest))])
    async def undo(game_id: GameId, body: UndoRequest) -> GameView:
        """Take back the human's last move and the AI moves after it."""

        def take_back() -> Game:
            game = store.get(game_id)
            human = [row.ply for row in game.moves if row.actor == "human"]
            if not human:
                raise StaleGameError("nothing to undo: you have not moved yet")
            return store.truncate(game_id, human[-1], expected_ply=body.ply)

        return view(await in_thread(take_back))

    @app.get("/api/games/{game_id}/record", tags=["games"], response_model=RecordModel,
             response_model_exclude_none=True)
    async def export_record(game_id: GameId, response: Response, download: bool = False) -> dict[str, Any]:
        """The game record of RULES.md (``patchwork replay`` reads it); ``download`` names a file."""
        game = await in_thread(lambda: store.get(game_id))
        if download:
            response.headers["Content-Disposition"] = f'attachment; filename="patchwork-{game_id[:8]}.json"'
        return game.record.to_json()

    @app.get("/api/games/{game_id}/plies/{ply}", tags=["games"])
    async def read_game_at(game_id: GameId, ply: Ply) -> GameView:
        """The game as it was before move ``ply`` (0: the start; the game's ply: now), for a review
        to show a position of the past: its ``moves`` are the moves before it."""
        game = await in_thread(lambda: store.get(game_id))
        if ply > len(game.moves):
            raise HTTPException(404, f"game {game_id} has {len(game.moves)} moves: no ply {ply}")
        past = replace(game, moves=game.moves[:ply])
        return view(past)

    # --- solvers --------------------------------------------------------------------------------
    @app.get("/api/games/{game_id}/review", tags=["games", "solvers"],
             summary="Review of a stored game (as patchwork analyze --json)")
    async def review_stored_game(
        game_id: GameId,
        request: Request,
        time_per_move: Annotated[float, Query(gt=0, le=60, description=(
            "seconds of analysis per position; the server cuts it so that the whole review takes at "
            "most its max_review_seconds (time_per_move <= max_review_seconds / positions)"))] = REVIEW_SECONDS,
    ) -> GameReviewView:
        """Every move of the game against the AI's best: win chances before and after, labels
        (best, good, inaccuracy, mistake, blunder), each player's accuracy and the win-chance chart.
        A game still running is reviewed up to its last move (``final_scores`` is then null); a game
        without moves is refused (400). The work runs in the bounded solver queue."""
        review_game = services.review_game
        if review_game is None:
            raise HTTPException(503, "this server runs without the game review")
        game = await in_thread(lambda: store.get(game_id))
        if not game.moves:
            raise ReviewError(f"game {game_id} has no moves to review yet")
        record = game.record
        names = {game.seat: "you", game.ai_seat: f"AI {game.ai}"}
        record.players = [f"Player {seat + 1} ({names[seat]})" for seat in (0, 1)]
        positions = len(record.moves) + (0 if game.state().is_terminal() else 1)
        seconds = min(time_per_move, limits.max_review_seconds / positions)
        review = await solver_job(request, lambda stop: review_game(record, seconds, stop))
        return review_view(review, game.seat, seconds)

    async def hint_for_game(game_id: GameId, request: Request) -> Any:
        """The ranked moves of the player to move, as ``patchwork hint POSITION --json`` prints them."""
        game_hint = services.game_hint
        if game_hint is None:
            raise HTTPException(503, "this server runs without the hint solver")
        game = await in_thread(lambda: store.get(game_id))
        state = game.state()
        if state.is_terminal():
            raise IllegalMoveError("the game is over")
        return await solver_job(request, lambda stop: game_hint(state, limits.max_solver_seconds, stop))

    hint_endpoint = services.solvers.get("hint")
    app.add_api_route(
        "/api/games/{game_id}/hint",
        hint_for_game,
        methods=["GET"],
        response_model=hint_endpoint.response if hint_endpoint is not None else None,
        tags=["games", "solvers"],
        summary="Hint for the player to move (as patchwork hint --json)",
    )

    for name, endpoint in services.solvers.items():
        app.add_api_route(
            f"/api/{name}",
            _solver_route(endpoint, solver_job, limits.max_solver_seconds),
            methods=["POST"],
            response_model=endpoint.response,
            tags=["solvers"],
            summary=endpoint.summary,
            name=name,
            dependencies=[Depends(_strict_body(endpoint.request))],
        )
    return app


def _add_docs(app: FastAPI) -> None:
    """Swagger UI at ``/docs``, from the assets of ``swagger-ui-bundle-v2`` when installed (so the
    docs work without the internet), else from the CDN FastAPI uses by default."""
    try:
        assets: str | None = importlib.import_module("swagger_ui_bundle").swagger_ui_path
    except ImportError:
        assets = None
    local = assets is not None and Path(assets, "swagger-ui-bundle.js").is_file()
    if local:
        app.mount("/docs-assets", StaticFiles(directory=str(assets)), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        openapi_url, title = app.openapi_url or "/openapi.json", "patchwork-opt API"
        if not local:
            page = get_swagger_ui_html(openapi_url=openapi_url, title=title)
        else:
            page = get_swagger_ui_html(
                openapi_url=openapi_url,
                title=title,
                swagger_js_url="/docs-assets/swagger-ui-bundle.js",
                swagger_css_url="/docs-assets/swagger-ui.css",
                swagger_favicon_url="/docs-assets/favicon-32x32.png",
            )
        page.headers["Content-Security-Policy"] = _docs_policy(bytes(page.body), local)
        return page


def _docs_policy(html: bytes, local: bool) -> str:
    """The docs page's policy: its own assets (or the CDN's) and exactly its inline scripts, by hash."""
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(script).digest()).decode() + "'"
        for script in re.findall(rb"<script>(.*?)</script>", html, flags=re.DOTALL)
    )
    source = "'self'" if local else "'self' https://cdn.jsdelivr.net"
    return (
        f"default-src 'self'; script-src {source} {hashes}; style-src {source} 'unsafe-inline'; "
        f"img-src 'self' data: https:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'"
    )


def _solver_route(
    endpoint: SolverEndpoint,
    solver_job: Callable[[Request, Callable[[StopSignal], BaseModel]], Awaitable[BaseModel]],
    time_cap: float,
) -> Callable[..., Awaitable[BaseModel]]:
    """An endpoint whose body is ``endpoint.request`` (set on its signature, so OpenAPI shows it)."""

    async def route(body: BaseModel, request: Request) -> BaseModel:
        return await solver_job(request, lambda stop: endpoint.run(body, time_cap, stop))

    route.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [
            inspect.Parameter("body", inspect.Parameter.KEYWORD_ONLY, annotation=endpoint.request),
            inspect.Parameter("request", inspect.Parameter.KEYWORD_ONLY, annotation=Request),
        ],
        return_annotation=endpoint.response,
    )
    return route
