"""Errors as HTTP answers: the one exception handler, and what each route says it may answer.

Every domain error carries its status (``http_status``, beside the CLI's ``exit_code``: the table
is in ``patchwork_opt/core/errors.py``), so a route raises the domain error and never an
``HTTPException``; the handler answers ``{"detail": "<one line>"}`` with that status, plus
``Retry-After`` when the error says when to retry. Request validation (422) answers the same body,
naming each field at fault. ``answers(...)`` writes a route's error answers into the OpenAPI schema.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from patchwork_opt.apps.web.jobs import BusyError
from patchwork_opt.apps.web.schemas import ErrorBody
from patchwork_opt.core.errors import PatchworkError


class ServiceMissingError(PatchworkError):
    """This server runs without the solver or AI asked for."""

    http_status = 503


class PlyNotFoundError(PatchworkError):
    """A ply a game has not reached."""

    http_status = 404


class NothingToReviewError(PatchworkError):
    """A game without moves: nothing to review yet (the game's state, not the request, is at fault)."""

    exit_code = 1
    http_status = 409


class UnknownAiError(PatchworkError):
    """An AI name this server does not offer (outside the enum the schema publishes)."""

    http_status = 422


class AiFaultError(PatchworkError):
    """The AI chose a move the rules refuse: a bug of the server, not of the request."""

    http_status = 500


#: What each status means, as the OpenAPI schema describes it.
MEANINGS: dict[int, str] = {
    400: "input that cannot be read (a position, record or quilt), or a Host this server does not serve",
    404: "no such game, or no such ply of it, or no such job on this server",
    409: "the game is over, has no moves to review yet, is out of turn, or changed since it was read (reload it); "
         "the job has no answer to export (yet)",
    413: "request body too large",
    422: "invalid request (fields named in detail), or a move the rules refuse",
    429: "this client has too many jobs or new games now; see Retry-After",
    503: "this server runs without that solver or AI, or the solvers are busy (then with Retry-After)",
}
_RETRY_AFTER = {
    "Retry-After": {"description": "seconds to wait before asking again", "schema": {"type": "integer"}}
}


def answers(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The error answers of a route for its ``responses=``: an ``ErrorBody`` each, with its meaning."""
    out: dict[int | str, dict[str, Any]] = {}
    for status in statuses:
        out[status] = {"model": ErrorBody, "description": MEANINGS[status]}
        if status in (429, 503):
            out[status]["headers"] = _RETRY_AFTER
    return out


def json_answers(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """``answers`` for a route whose success is no JSON (a picture): its errors are JSON all the same,
    which the schema says outright (FastAPI would give them the route's media type)."""
    error = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}
    return {status: {"description": MEANINGS[status], "content": error} for status in (400, *statuses)}


#: What any route may answer: a foreign Host header (the guards' 400).
COMMON_ANSWERS = answers(400)


def validation_message(exc: RequestValidationError) -> str:
    """One line naming each field at fault: ``body.move.cells.0: ...; ...``.

    An optional field (``X | None``) that gets a wrong value fails both members of its union, and
    Pydantic reports each under the member's tag (``body.quilt.list[tuple[...]]`` and
    ``body.quilt.none: Input should be null``): the null member's complaint is left out when
    another remains, and the members' tags (a type with brackets, a model's class name or a
    constrained type's "constrained-str", never one of our snake_case field names) are dropped
    from the place. A validator's own message is given as it says it, without Pydantic's
    "Value error, " before it."""
    errors = exc.errors()
    wanted = [e for e in errors if e.get("type") != "none_required"] or list(errors)
    parts = []
    for error in wanted[:5]:
        where = ".".join(str(x) for x in error.get("loc", ()) if not _union_tag(x))
        parts.append(f"{where}: {str(error.get('msg', 'invalid')).removeprefix('Value error, ')}")  # our own words
    return "; ".join(dict.fromkeys(parts)) or "invalid request"


def _union_tag(part: object) -> bool:
    return isinstance(part, str) and ("[" in part or part[:1].isupper() or "-" in part)  # "constrained-str"


async def _invalid(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    return JSONResponse({"detail": validation_message(exc)}, status_code=422)


async def _domain(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, PatchworkError)
    headers = {"Retry-After": str(exc.retry_after)} if isinstance(exc, BusyError) else None
    return JSONResponse({"detail": str(exc)}, status_code=exc.http_status, headers=headers)


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(PatchworkError, _domain)
