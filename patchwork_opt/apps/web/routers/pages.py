"""The pages (the game and its invite links, the workshop, the analysis board, how to play), each in the
request's language, their static files and words, the API docs, health and the catalogue of patches."""

from __future__ import annotations

import base64
import hashlib
import importlib
import re
from pathlib import Path

from fastapi import APIRouter, FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from patchwork_opt.apps.web.deps import AnalysesDep, ServicesDep, StreamsDep
from patchwork_opt.apps.web.page_words import UnknownLanguageError, page_catalogue, page_in
from patchwork_opt.apps.web.schemas import Catalogue, Health, catalogue
from patchwork_opt.i18n import current, known

STATIC_DIR = Path(__file__).parents[1] / "static"

router = APIRouter(tags=["service"])


def mount_assets(app: FastAPI) -> None:
    """The page's files at ``/static``, and Swagger UI's at ``/docs-assets`` when the
    ``swagger-ui-bundle-v2`` package is installed (so the docs work without the internet; else
    ``/docs`` loads them from the CDN FastAPI uses by default)."""
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    try:
        assets: str | None = importlib.import_module("swagger_ui_bundle").swagger_ui_path
    except ImportError:
        assets = None
    app.state.docs_local = assets is not None and Path(assets, "swagger-ui-bundle.js").is_file()
    if app.state.docs_local:
        app.mount("/docs-assets", StaticFiles(directory=str(assets)), name="docs-assets")


def page(name: str) -> HTMLResponse:
    """The page ``name`` (a file of ``static/``) in the request's language (``page_words``)."""
    return HTMLResponse(page_in(name, current()))


@router.get("/", include_in_schema=False)
async def index() -> HTMLResponse:
    return page("index.html")


@router.get("/play/{game_id}", include_in_schema=False)
async def invite_page(game_id: str) -> HTMLResponse:
    """An invite link to a game between people (``seating.invite_path``): the game page, which takes
    the free seat or, both taken, shows the game to a spectator."""
    return page("index.html")


@router.get("/workshop", include_in_schema=False)
async def workshop_page() -> HTMLResponse:
    """The workshop: a quilt and patches of your own, their best placements, optimal fill and 7x7."""
    return page("workshop.html")


@router.get("/analysis", include_in_schema=False)
async def analysis_page() -> HTMLResponse:
    """The analysis board: any position (a notation, a record, a game's ply, a set-up from the table)
    explored move by move, the engine thinking about it live."""
    return page("analysis.html")


@router.get("/rules", include_in_schema=False)
async def rules_page() -> HTMLResponse:
    """How to play, in the project's own words, in the request's language."""
    return page("rules.html")


@router.get("/i18n/{lang}.json", include_in_schema=False)
async def page_words(lang: str) -> JSONResponse:
    """The pages' words in ``lang`` for their scripts (``js/components/i18n.js``), with the languages a
    page offers; kept by the browser for a day (a new release changes the pages' addresses' words)."""
    code = known(lang)
    if code is None:
        raise UnknownLanguageError(lang)
    return JSONResponse(page_catalogue(code), headers={"Cache-Control": "public, max-age=86400"})


@router.get("/docs", include_in_schema=False)
async def docs(request: Request) -> HTMLResponse:
    local = bool(request.app.state.docs_local)
    openapi_url, title = request.app.openapi_url or "/openapi.json", "patchwork-opt API"
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
    page.headers["Content-Security-Policy"] = docs_policy(bytes(page.body), local)
    return page


def docs_policy(html: bytes, local: bool) -> str:
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


@router.get("/api/health")
async def health(services: ServicesDep, analyses: AnalysesDep, streams: StreamsDep) -> Health:
    """What this server offers, how often this process made or reused an analysis, how many live
    analyses it runs and how many of its analysis workers have loaded the compiled searches."""
    live = {} if streams is None else {"running": streams.running, "capacity": streams.capacity,
                                       "ready_workers": streams.ready_workers}
    return Health(ok=True, solvers=sorted(services.solvers), ai=list(services.ai_names), analyses=analyses.stats(),
                  streams=live)


@router.get("/api/catalogue")
async def get_catalogue() -> Catalogue:
    """The patches with their orientations, and the time track: what the page draws."""
    return catalogue()
