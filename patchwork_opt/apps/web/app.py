"""The FastAPI app: games against the AI in SQLite, solver endpoints, and the page that plays.

``create_app(db_path, services)`` takes the solver-backed functions from its caller (``cli.py``
builds them from ``solvers/``), so this package never imports the solvers. Blocking work (SQLite,
solvers, the AI) runs in worker threads; solver and AI jobs share a small capacity limiter, so the
event loop keeps answering while the AI thinks.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import anyio
import anyio.to_thread
from fastapi import FastAPI, HTTPException, Request, Response
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from patchwork_opt.apps.web.schemas import (
    AiInfo,
    AiMoveRequest,
    Catalogue,
    CreateGameRequest,
    ErrorBody,
    GameView,
    PlayMoveRequest,
    UndoRequest,
    catalogue,
    game_view,
)
from patchwork_opt.apps.web.services import Limits, Services, SolverEndpoint
from patchwork_opt.apps.web.store import Game, GameNotFoundError, GameStore, StaleGameError
from patchwork_opt.core.errors import IllegalMoveError, PatchworkError
from patchwork_opt.core.state import State
from patchwork_opt.formats.models import RecordModel, move_from_model

STATIC_DIR = Path(__file__).with_name("static")
GameId = Annotated[str, PathParam(pattern=r"^[A-Za-z0-9_-]{16,64}$", description="the game's id")]
T = TypeVar("T")
#: The page loads only its own script and style, and may be framed by nobody.
PAGE_HEADERS = {
    "Cache-Control": "no-cache",
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}

_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody, "description": "bad input"},
    404: {"model": ErrorBody, "description": "no such game"},
    409: {"model": ErrorBody, "description": "out of turn, or the game changed since it was read"},
    413: {"model": ErrorBody, "description": "request body too large"},
    422: {"model": ErrorBody, "description": "invalid request, or a move the rules refuse"},
    503: {"model": ErrorBody, "description": "this server runs without that solver or AI"},
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


def _bot_seed(game: Game, ply: int) -> int:
    """Same game and ply, same seed: the AI's choice is repeatable across restarts."""
    digest = hashlib.sha256(f"{game.id}:{game.seed}:{ply}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def create_app(
    db_path: str | Path,
    services: Services | None = None,
    limits: Limits | None = None,
) -> FastAPI:
    """The app over the games in ``db_path``, with solvers and AI from ``services``."""
    services = services or Services()
    limits = limits or Limits()
    store = GameStore(db_path)
    app = FastAPI(
        title="patchwork-opt",
        summary="Play Patchwork against the AI and ask the solvers for hints.",
        version="0.1.0",
        responses=_ERRORS,
        docs_url=None,
        redoc_url=None,
    )
    _add_docs(app)
    app.state.store = store
    app.state.services = services
    app.state.limits = limits
    app.add_middleware(BodyLimit, max_bytes=limits.max_body_bytes)
    jobs: dict[str, anyio.CapacityLimiter] = {}

    async def in_thread(fn: Callable[[], T]) -> T:
        """Blocking I/O (SQLite) off the event loop."""
        return await anyio.to_thread.run_sync(fn)

    async def solver_job(fn: Callable[[], T]) -> T:
        """Solver or AI work off the event loop, at most ``solver_workers`` at once."""
        if "limiter" not in jobs:
            jobs["limiter"] = anyio.CapacityLimiter(limits.solver_workers)
        return await anyio.to_thread.run_sync(fn, limiter=jobs["limiter"])

    # --- errors ---------------------------------------------------------------------------------
    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": _validation_message(exc)}, status_code=422)

    @app.exception_handler(PatchworkError)
    async def _domain(request: Request, exc: PatchworkError) -> JSONResponse:
        if isinstance(exc, GameNotFoundError):
            status = 404
        elif isinstance(exc, StaleGameError):
            status = 409
        else:  # refused by the rules (exit code 1) or input that cannot be read (exit code 2)
            status = 422 if exc.exit_code == 1 else 400
        return JSONResponse({"detail": str(exc)}, status_code=status)

    # --- page -----------------------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html", headers=PAGE_HEADERS)

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

    @app.post("/api/games", status_code=201, tags=["games"])
    async def create_game(body: CreateGameRequest) -> GameView:
        """Set up a new game (random circle from ``seed``) against the named AI."""
        ai = body.ai or services.default_ai
        if services.make_bot is None:
            raise HTTPException(503, "this server runs without an AI")
        if ai not in services.ai_names:
            raise HTTPException(422, f"unknown AI {ai!r} (expected one of {', '.join(services.ai_names)})")
        state = State.new(seed=body.seed, leather=body.printing)
        game = await in_thread(
            lambda: store.create(state, seed=body.seed, ai=ai, level=body.level, seat=body.seat)
        )
        return view(game)

    @app.get("/api/games/{game_id}", tags=["games"])
    async def read_game(game_id: GameId) -> GameView:
        game = await in_thread(lambda: store.get(game_id))
        return view(game)

    @app.post("/api/games/{game_id}/moves", tags=["games"])
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

    @app.post("/api/games/{game_id}/ai-move", tags=["games"])
    async def ai_move(game_id: GameId, body: AiMoveRequest) -> GameView:
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

        decision = await solver_job(decide)
        try:
            state.check(decision.move)
        except PatchworkError as exc:
            raise HTTPException(500, f"the AI chose an illegal move {decision.move}: {exc}") from None
        game = await in_thread(
            lambda: store.append(game_id, body.ply, decision.move, actor="ai", reason=decision.reason)
        )
        return view(game)

    @app.post("/api/games/{game_id}/undo", tags=["games"])
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

    # --- solvers --------------------------------------------------------------------------------
    async def hint_for_game(game_id: GameId) -> Any:
        """The ranked moves of the player to move, as ``patchwork hint POSITION --json`` prints them."""
        game_hint = services.game_hint
        if game_hint is None:
            raise HTTPException(503, "this server runs without the hint solver")
        game = await in_thread(lambda: store.get(game_id))
        state = game.state()
        if state.is_terminal():
            raise IllegalMoveError("the game is over")
        return await solver_job(lambda: game_hint(state, limits.max_solver_seconds))

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
            return get_swagger_ui_html(openapi_url=openapi_url, title=title)
        return get_swagger_ui_html(
            openapi_url=openapi_url,
            title=title,
            swagger_js_url="/docs-assets/swagger-ui-bundle.js",
            swagger_css_url="/docs-assets/swagger-ui.css",
            swagger_favicon_url="/docs-assets/favicon-32x32.png",
        )


def _solver_route(
    endpoint: SolverEndpoint,
    solver_job: Callable[[Callable[[], BaseModel]], Awaitable[BaseModel]],
    time_cap: float,
) -> Callable[..., Awaitable[BaseModel]]:
    """An endpoint whose body is ``endpoint.request`` (set on its signature, so OpenAPI shows it)."""

    async def route(body: BaseModel) -> BaseModel:
        return await solver_job(lambda: endpoint.run(body, time_cap))

    route.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter("body", inspect.Parameter.KEYWORD_ONLY, annotation=endpoint.request)],
        return_annotation=endpoint.response,
    )
    return route
