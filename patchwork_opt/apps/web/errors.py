"""Errors as HTTP answers: the one exception handler, and what each route says it may answer.

Every domain error carries its status (``http_status``, beside the CLI's ``exit_code``: the table
is in ``patchwork_opt/core/errors.py``), so a route raises the domain error and never an
``HTTPException``; the handler answers ``{"detail": "<one line>", "words": "<the same for a
player>"}`` with that status, plus ``Retry-After`` when the error says when to retry. Request
validation (422) answers the same body: ``detail`` names each field at fault as programs need it
(``body.circle: List should have at least 33 items ...``), ``words`` says it as a sentence a player
reads (``The circle needs all 33 patches; it has 12.``): the pages show ``words``. A domain error's
message is already one line in words, so its ``words`` is that line. ``answers(...)`` writes a
route's error answers into the OpenAPI schema.
"""

from __future__ import annotations

from typing import Any, ClassVar

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from patchwork_opt.apps.web.jobs import BusyError
from patchwork_opt.apps.web.schemas import ErrorBody
from patchwork_opt.core.catalogue import PATCH_COUNT
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


class SecretMissingError(PatchworkError):
    """A seat's action in a game between people, sent without ``Authorization: Bearer <secret>``."""

    http_status = 401
    headers: ClassVar[dict[str, str]] = {"WWW-Authenticate": 'Bearer realm="patchwork seats"'}


class SeatRefusedError(PatchworkError):
    """A secret that holds no seat of the game (a wrong one, a spectator's), or not the seat that
    acts; or hints asked for in a game that does not allow them."""

    http_status = 403


class SeatsTakenError(PatchworkError):
    """Both seats of the game are taken (a spectator watches instead), or its rematch's are."""

    exit_code = 1
    http_status = 409


class NotBetweenPeopleError(PatchworkError):
    """A seat's action (join, takeback, resign, rematch) on a game against the AI, or the AI's own
    actions (its move, undo) on a game between people."""

    exit_code = 1
    http_status = 409


#: What each status means, as the OpenAPI schema describes it.
MEANINGS: dict[int, str] = {
    400: "input that cannot be read (a position, record or quilt), or a Host this server does not serve",
    401: "a seat's action in a game between people without its secret (Authorization: Bearer <secret>)",
    403: "a secret that holds no seat of this game, or not the seat that acts; or hints in a game without them",
    404: "no such game, or no such ply of it, or no such job on this server",
    409: "the game is over, has no moves to review yet, is out of turn, or changed since it was read (reload it); "
         "both its seats are taken; the job has no answer to export (yet)",
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


#: What a player calls the fields of the requests the pages send (the last named part of an error's
#: place): its name, the unit a list of it counts, and whether the name is plural; a query's own
#: names first (the workshop's filters).
FIELD_WORDS: dict[str, tuple[str, str, bool]] = {
    "position": ("this position", "", False), "record": ("the game record", "", False),
    "circle": ("the circle", "patch", False), "moves": ("the record's moves", "move", True),
    "move": ("the move", "", False), "cells": ("the cells", "cell", True), "cell": ("the cell", "", False),
    "leather": ("the leather spaces", "space", True), "players": ("the players", "player", True),
    "player": ("the player", "", False), "patches": ("the patches chosen", "patch", True),
    "patch": ("the patch", "", False), "next": ("the next patches", "patch", True),
    "pool": ("the patches still to come", "patch", True), "quilt": ("the quilt", "cell", False),
    "quilts": ("the quilts", "quilt", True), "text": ("the quilt's text", "", False),
    "budget": ("the budget", "", False), "marks": ("the income marks ahead", "", True),
    "objective": ("the objective", "", False), "require_bonus": ("the 7x7 requirement", "", False),
    "time_limit": ("the time allowed", "", False), "leather_left": ("the leather patches left", "space", True),
    "ply": ("the move number", "", False), "ai": ("the AI", "", False), "level": ("the AI's level", "", False),
    "seed": ("the seed", "", False),
}
QUERY_WORDS: dict[str, tuple[str, str, bool]] = {
    "cells": ("the size filter", "", False), "cost": ("the cost filter", "", False),
    "time": ("the time filter", "", False), "income": ("the buttons filter", "", False),
    "wait": ("the wait", "", False),
}
#: A unit's plural where it is not the noun and an s.
PLURALS = {"patch": "patches"}


def player_words(exc: RequestValidationError) -> str:
    """The refusal as sentences a player reads (a page shows them): what is wrong, in the names the
    pages use, without the API's field places, Pydantic's phrasing or the rules file's name.
    ``validation_message`` keeps the precise places for programs."""
    errors = exc.errors()
    wanted = [e for e in errors if e.get("type") != "none_required"] or list(errors)
    said = [_sentence(error) for error in wanted[:5]]
    return " ".join(dict.fromkeys(said)) or "The request can't be read."


def _thing(loc: tuple[Any, ...]) -> tuple[str, str, bool]:
    """What the place ``loc`` names in a player's words (the item of it at fault, its first index
    after the name, when there is one), the unit it counts, and whether the words are plural."""
    parts = [x for x in loc if not _union_tag(x)]
    names = [i for i, x in enumerate(parts) if isinstance(x, str) and i > 0]
    if not names:
        return "the request", "", False
    at = names[-1]
    name = str(parts[at])
    table = QUERY_WORDS if parts[0] == "query" and name in QUERY_WORDS else FIELD_WORDS
    thing, unit, many = table.get(name, (f"the {name.replace('_', ' ')}", "", False))
    item = next((x for x in parts[at + 1:] if isinstance(x, int)), None)
    return (thing, unit, many) if item is None else (f"item {item + 1} of {thing}", "", False)


def _count(n: object, unit: str) -> str:
    word = unit or "item"
    return f"{n} {word if n == 1 else PLURALS.get(word, word + 's')}"


def _sentence(error: Any) -> str:
    """One refusal as a sentence."""
    thing, unit, many = _thing(tuple(error.get("loc", ())))
    kind, ctx, given = str(error.get("type", "")), error.get("ctx") or {}, error.get("input")
    said = _said(kind, (thing, unit, many), ctx, given)
    if said is None:  # a validator's own words, or Pydantic's for a case not worded here
        msg = str(error.get("msg", "invalid")).removeprefix("Value error, ").replace(" of RULES.md", "")
        said = msg if thing == "the request" else f"{thing} can't be read: {msg}"
    said = said[:1].upper() + said[1:]
    return said if said.endswith((".", "!", "?")) else said + "."


def _said(kind: str, named: tuple[str, str, bool], ctx: dict[str, Any], given: object) -> str | None:
    """The sentence for a kind of refusal Pydantic makes, or None for the validator's own words."""
    thing, unit, many = named
    shown = f'"{given}"' if isinstance(given, str) else str(given)
    is_, has, it = ("are", "have", "they") if many else ("is", "has", "it")
    if kind == "missing":
        return "nothing was sent" if thing == "the request" else f"{thing} {is_} missing"
    if kind == "too_short":
        least = ctx.get("min_length")
        whole = least == PATCH_COUNT and unit == "patch"
        need = f"all {_count(least, unit)}" if whole else f"at least {_count(least, unit)}"
        return f"{thing} need{'' if many else 's'} {need}; {it} {has} {ctx.get('actual_length')}"
    if kind == "too_long":
        most = _count(ctx.get("max_length"), unit)
        return f"{thing} can have at most {most}; {it} {has} {ctx.get('actual_length')}"
    bounds = {"greater_than_equal": ("ge", "or more"), "greater_than": ("gt", "more than"),
              "less_than_equal": ("le", "or less"), "less_than": ("lt", "less than")}
    if kind in bounds:
        key, how = bounds[kind]
        limit = f"{ctx.get(key)} {how}" if how.startswith("or") else f"{how} {ctx.get(key)}"
        return f"{thing} must be {limit}; {it} {is_} {shown}"
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return f"{thing} must be a whole number; {shown} is not one"
    if kind in ("float_type", "float_parsing"):
        return f"{thing} must be a number; {shown} is not one"
    if kind in ("literal_error", "enum"):
        return f"{thing} must be {ctx.get('expected')}; {it} {is_} {shown}"
    if kind == "string_too_long":
        return f"{thing} {is_} too long: at most {_count(ctx.get('max_length'), 'character')}"
    if kind == "extra_forbidden":
        return f"{thing} {is_} not something this request takes"
    if kind == "json_invalid":
        return "the request can't be read: it is not JSON"
    if kind.endswith("_type") or kind == "string_pattern_mismatch":
        return f"{thing} {is_} not in a form that can be read"
    return None


async def _invalid(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    return JSONResponse({"detail": validation_message(exc), "words": player_words(exc)}, status_code=422)


async def _domain(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, PatchworkError)
    headers = {"Retry-After": str(exc.retry_after)} if isinstance(exc, BusyError) else getattr(exc, "headers", None)
    return JSONResponse({"detail": str(exc), "words": str(exc)}, status_code=exc.http_status, headers=headers)


async def _http(request: Request, exc: Exception) -> JSONResponse:
    """The framework's own answers (no such route, a body over the limit as it is read): the same body."""
    assert isinstance(exc, StarletteHTTPException)
    detail = str(exc.detail)
    return JSONResponse({"detail": detail, "words": detail}, status_code=exc.status_code, headers=exc.headers)


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(PatchworkError, _domain)
    app.add_exception_handler(StarletteHTTPException, _http)
