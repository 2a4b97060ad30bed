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

import logging
from typing import Any, ClassVar

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from patchwork_opt.apps.web.database import StoreUnavailableError
from patchwork_opt.apps.web.jobs import BusyError
from patchwork_opt.apps.web.schemas import ErrorBody
from patchwork_opt.core.catalogue import PATCH_COUNT
from patchwork_opt.core.errors import PatchworkError, words
from patchwork_opt.i18n import N_, _, npgettext

log = logging.getLogger(__name__)


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


class ReviewClosedError(PatchworkError):
    """The review or exercises of a game between people with hints off, asked while it runs: they
    would be hints (as on lichess, no analysis during a game)."""

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
    403: "a secret that holds no seat of this game, or not the seat that acts; or hints in a game without them "
         "(its review and exercises too, until it is over)",
    404: "no such game, or no such ply of it, or no such job on this server",
    409: "the game is over, has no moves to review yet, is out of turn, or changed since it was read (reload it); "
         "both its seats are taken; the job has no answer to export (yet)",
    413: "request body too large",
    422: "invalid request (fields named in detail), or a move the rules refuse",
    429: "this client has too many jobs or new games now; see Retry-After",
    503: "this server runs without that solver or AI, or the solvers are busy, or the game store is unavailable "
         "(these two with Retry-After)",
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
    """``answers`` for a route whose success is no JSON (a picture, a stream): its errors are JSON all
    the same, which the schema says outright (FastAPI would give them the route's media type), and
    429 and 503 carry ``Retry-After`` as there."""
    out = answers(400, *statuses)
    for answer in out.values():
        del answer["model"]
        answer["content"] = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}
    return out


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
#: place): its name (English, said through ``_``), the unit a list of it counts, and whether the name
#: is plural; a query's own names first (the workshop's filters).
FIELD_WORDS: dict[str, tuple[str, str, bool]] = {
    # Translators: a field of a request, as a player calls it: the subject of sentences such as
    # "{thing} is missing" or "{thing} must be a whole number" (the field names below too)
    "position": (N_("this position"), "", False), "record": (N_("the game record"), "", False),
    "circle": (N_("the circle"), "patch", False), "moves": (N_("the record's moves"), "move", True),
    "move": (N_("the move"), "", False), "cells": (N_("the cells"), "cell", True), "cell": (N_("the cell"), "", False),
    "leather": (N_("the leather spaces"), "space", True), "players": (N_("the players"), "player", True),
    "player": (N_("the player"), "", False), "patches": (N_("the patches chosen"), "patch", True),
    "patch": (N_("the patch"), "", False), "next": (N_("the next patches"), "patch", True),
    "pool": (N_("the patches still to come"), "patch", True), "quilt": (N_("the quilt"), "cell", False),
    "quilts": (N_("the quilts"), "quilt", True), "text": (N_("the quilt's text"), "", False),
    "budget": (N_("the budget"), "", False), "marks": (N_("the income marks ahead"), "", True),
    "objective": (N_("the objective"), "", False), "require_bonus": (N_("the 7x7 requirement"), "", False),
    "time_limit": (N_("the time allowed"), "", False),
    "leather_left": (N_("the leather patches left"), "space", True),
    "ply": (N_("the move number"), "", False), "ai": (N_("the AI"), "", False),
    "level": (N_("the AI's level"), "", False), "seed": (N_("the seed"), "", False),
}
QUERY_WORDS: dict[str, tuple[str, str, bool]] = {
    # Translators: a filter of the workshop's patch list, as a player calls it (the subject of an error)
    "cells": (N_("the size filter"), "", False), "cost": (N_("the cost filter"), "", False),
    "time": (N_("the time filter"), "", False), "income": (N_("the buttons filter"), "", False),
    "wait": (N_("the wait"), "", False),
}


def player_words(exc: RequestValidationError) -> str:
    """The refusal as sentences a player reads (a page shows them): what is wrong, in the names the
    pages use, without the API's field places, Pydantic's phrasing or the rules file's name.
    ``validation_message`` keeps the precise places for programs."""
    errors = exc.errors()
    wanted = [e for e in errors if e.get("type") != "none_required"] or list(errors)
    said = [_sentence(error) for error in wanted[:5]]
    return " ".join(dict.fromkeys(said)) or _("The request can't be read.")


def _thing(loc: tuple[Any, ...]) -> tuple[str, str, bool]:
    """What the place ``loc`` names in a player's words (the item of it at fault, its first index
    after the name, when there is one), the unit it counts, and whether the words are plural."""
    parts = [x for x in loc if not _union_tag(x)]
    names = [i for i, x in enumerate(parts) if isinstance(x, str) and i > 0]
    if not names:
        return _REQUEST, "", False
    at = names[-1]
    name = str(parts[at])
    table = QUERY_WORDS if parts[0] == "query" and name in QUERY_WORDS else FIELD_WORDS
    thing, unit, many = table.get(name, (f"the {name.replace('_', ' ')}", "", False))
    thing = _(thing) if name in table else thing
    item = next((x for x in parts[at + 1:] if isinstance(x, int)), None)
    # Translators: one item of a list a request sent ({thing}: "the cells"), counted from 1
    return (thing, unit, many) if item is None else (_("item {number} of {thing}", number=item + 1, thing=thing),
                                                     "", False)


#: The whole request as the subject of a refusal ("the request can't be read").
_REQUEST = "the request"


def _count(n: object, unit: str) -> str:
    """``n`` of ``unit`` ("33 patches"), said after "at least", "at most" or "all"."""
    count = n if isinstance(n, int) else 0
    # Translators: a count in an error ("needs at least {count} patches"); the units follow
    units = {
        "patch": lambda: npgettext("count", "{count} patch", "{count} patches", count),
        "move": lambda: npgettext("count", "{count} move", "{count} moves", count),
        "cell": lambda: npgettext("count", "{count} cell", "{count} cells", count),
        "space": lambda: npgettext("count", "{count} space", "{count} spaces", count),
        "player": lambda: npgettext("count", "{count} player", "{count} players", count),
        "quilt": lambda: npgettext("count", "{count} quilt", "{count} quilts", count),
        "character": lambda: npgettext("count", "{count} character", "{count} characters", count),
    }
    said = units.get(unit, lambda: npgettext("count", "{count} item", "{count} items", count))
    return said() if isinstance(n, int) else f"{n} {unit or 'items'}"


def _sentence(error: Any) -> str:
    """One refusal as a sentence."""
    thing, unit, many = _thing(tuple(error.get("loc", ())))
    kind, ctx, given = str(error.get("type", "")), error.get("ctx") or {}, error.get("input")
    said = _said(kind, (thing, unit, many), ctx, given)
    if said is None:  # a validator's own words, or Pydantic's for a case not worded here
        msg = str(error.get("msg", "invalid")).removeprefix("Value error, ").replace(" of RULES.md", "")
        # Translators: {thing} is a field ("the quilt"); {message} the reason, as a validator says it
        said = msg if thing == _REQUEST else _("{thing} can't be read: {message}", thing=thing, message=msg)
    said = said[:1].upper() + said[1:]
    return said if said.endswith((".", "!", "?")) else said + "."


def _said(kind: str, named: tuple[str, str, bool], ctx: dict[str, Any], given: object) -> str | None:
    """The sentence for a kind of refusal Pydantic makes, or None for the validator's own words
    (one whole message per kind and per singular or plural subject)."""
    thing, _unit, many = named
    shown = f'"{given}"' if isinstance(given, str) else str(given)
    if kind == "missing":
        return _said_missing(thing, many)
    if kind in ("too_short", "too_long", "string_too_long"):
        return _said_length(kind, named, ctx)
    if kind in _BOUNDS:
        return _said_bound(kind, named, ctx, shown)
    if kind in ("int_type", "int_parsing", "int_from_float"):
        # Translators: a refusal; {thing} is a field ("the seed"), {shown} what was sent
        return _("{thing} must be a whole number; {shown} is not one", thing=thing, shown=shown)
    if kind in ("float_type", "float_parsing"):
        # Translators: a refusal; {thing} is a field ("the time allowed"), {shown} what was sent
        return _("{thing} must be a number; {shown} is not one", thing=thing, shown=shown)
    if kind in ("literal_error", "enum"):
        expected = ctx.get("expected")
        # Translators: a refusal; {expected} lists the values allowed ("'cells' or 'points'")
        return (_("{thing} must be {expected}; they are {shown}", thing=thing, expected=expected, shown=shown) if many
                else _("{thing} must be {expected}; it is {shown}", thing=thing, expected=expected, shown=shown))
    if kind == "extra_forbidden":
        # Translators: a refusal: the request sent a field it does not take
        return (_("{thing} are not something this request takes", thing=thing) if many
                else _("{thing} is not something this request takes", thing=thing))
    if kind == "json_invalid":
        return _("the request can't be read: it is not JSON")
    if kind.endswith("_type") or kind == "string_pattern_mismatch":
        # Translators: a refusal: a field sent in a form that cannot be read
        return (_("{thing} are not in a form that can be read", thing=thing) if many
                else _("{thing} is not in a form that can be read", thing=thing))
    return None


def _said_missing(thing: str, many: bool) -> str:
    if thing == _REQUEST:
        return _("nothing was sent")
    # Translators: a refusal: a field ({thing}: "the quilt") was not sent
    return _("{thing} are missing", thing=thing) if many else _("{thing} is missing", thing=thing)


def _said_length(kind: str, named: tuple[str, str, bool], ctx: dict[str, Any]) -> str:
    """A list (or text) shorter or longer than it may be."""
    thing, unit, many = named
    actual = ctx.get("actual_length")
    if kind == "string_too_long":
        counted = _count(ctx.get("max_length"), "character")
        # Translators: a refusal: a text ({thing}) longer than {counted} ("500 characters")
        return (_("{thing} are too long: at most {counted}", thing=thing, counted=counted) if many
                else _("{thing} is too long: at most {counted}", thing=thing, counted=counted))
    if kind == "too_long":
        counted = _count(ctx.get("max_length"), unit)
        # Translators: a refusal: a list ({thing}) longer than {counted} ("3 patches"); {actual} its length
        return (_("{thing} can have at most {counted}; they have {actual}", thing=thing, counted=counted, actual=actual)
                if many else _("{thing} can have at most {counted}; it has {actual}", thing=thing, counted=counted,
                               actual=actual))
    least = ctx.get("min_length")
    counted = _count(least, unit)
    if least == PATCH_COUNT and unit == "patch":
        # Translators: a refusal: a list ({thing}: "the circle") needs all {counted} ("33 patches"); {actual} its length
        return (_("{thing} need all {counted}; they have {actual}", thing=thing, counted=counted, actual=actual)
                if many else _("{thing} needs all {counted}; it has {actual}", thing=thing, counted=counted,
                               actual=actual))
    # Translators: a refusal: a list ({thing}) shorter than {counted} ("2 cells"); {actual} its length
    return (_("{thing} need at least {counted}; they have {actual}", thing=thing, counted=counted, actual=actual)
            if many else _("{thing} needs at least {counted}; it has {actual}", thing=thing, counted=counted,
                           actual=actual))


_BOUNDS = {"greater_than_equal": "ge", "greater_than": "gt", "less_than_equal": "le", "less_than": "lt"}


def _said_bound(kind: str, named: tuple[str, str, bool], ctx: dict[str, Any], shown: str) -> str:
    """A number outside its bounds: ``{limit} or more``, ``more than {limit}`` ..."""
    thing, _unit, many = named
    limit = ctx.get(_BOUNDS[kind])
    # Translators: a refusal: a number ({thing}: "the budget") out of its bounds ({limit}); {shown} what was sent
    if kind == "greater_than_equal":
        return (_("{thing} must be {limit} or more; they are {shown}", thing=thing, limit=limit, shown=shown) if many
                else _("{thing} must be {limit} or more; it is {shown}", thing=thing, limit=limit, shown=shown))
    if kind == "greater_than":
        return (_("{thing} must be more than {limit}; they are {shown}", thing=thing, limit=limit, shown=shown)
                if many else _("{thing} must be more than {limit}; it is {shown}", thing=thing, limit=limit,
                               shown=shown))
    if kind == "less_than_equal":
        return (_("{thing} must be {limit} or less; they are {shown}", thing=thing, limit=limit, shown=shown) if many
                else _("{thing} must be {limit} or less; it is {shown}", thing=thing, limit=limit, shown=shown))
    return (_("{thing} must be less than {limit}; they are {shown}", thing=thing, limit=limit, shown=shown) if many
            else _("{thing} must be less than {limit}; it is {shown}", thing=thing, limit=limit, shown=shown))


async def _invalid(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    return JSONResponse({"detail": validation_message(exc), "words": player_words(exc)}, status_code=422)


async def _domain(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, PatchworkError)
    headers = {"Retry-After": str(exc.retry_after)} if isinstance(exc, BusyError) else getattr(exc, "headers", None)
    said = words(exc)
    return JSONResponse({"detail": said, "words": said}, status_code=exc.http_status, headers=headers)


async def _store_unavailable(request: Request, exc: Exception) -> JSONResponse:
    """The database stopped answering mid-request: one warning line (where, and the driver's reason;
    no traceback), and the one-line 503 with ``Retry-After``."""
    assert isinstance(exc, StoreUnavailableError)
    log.warning("%s %s: the game store is unavailable: %s: %s", request.method, request.url.path, exc.where,
                exc.reason)
    return await _domain(request, exc)


async def _http(request: Request, exc: Exception) -> JSONResponse:
    """The framework's own answers (no such route, a body over the limit as it is read): the same body."""
    assert isinstance(exc, StarletteHTTPException)
    detail = str(exc.detail)
    return JSONResponse({"detail": detail, "words": detail}, status_code=exc.status_code, headers=exc.headers)


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(PatchworkError, _domain)
    app.add_exception_handler(StoreUnavailableError, _store_unavailable)
    app.add_exception_handler(StarletteHTTPException, _http)
