"""Errors as HTTP answers: the one exception handler, and what each route says it may answer.

Every domain error carries its status (``http_status``, beside the CLI's ``exit_code``: the table
is in ``patchwork_opt/core/errors.py``), so a route raises the domain error and never an
``HTTPException``; the handler answers ``{"detail": "<one line>", "words": "<the same for a
player>"}`` with that status, plus ``Retry-After`` when the error says when to retry. Request
validation (422) answers the same body, both said in the request's language from the one table of
Pydantic's kinds of error (``formats/schema_words.py``): ``detail`` names each field at fault by its
place, as programs need it, then says what is wrong (``body.circle: the circle needs all 33 patches;
it has 12``), ``words`` says it as sentences a player reads (``The circle needs all 33 patches; it
has 12.``): the pages show ``words``. A domain error's
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
from patchwork_opt.core.errors import PatchworkError, words
from patchwork_opt.formats.schema_words import UNITS, own_words, refusal
from patchwork_opt.i18n import N_, _

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
    """One line naming each field at fault by its place, then what is wrong with it in the language
    in effect (the sentence of ``player_words``, from ``formats/schema_words.py``'s table):
    ``body.circle: the circle needs all 33 patches; it has 12; ...``. The place before the first
    ": " is the request's own, for programs.

    An optional field (``X | None``) that gets a wrong value fails both members of its union, and
    Pydantic reports each under the member's tag (``body.quilt.list[tuple[...]]`` and
    ``body.quilt.none: Input should be null``): the null member's complaint is left out when
    another remains, and the members' tags (a type with brackets, a model's class name or a
    constrained type's "constrained-str", never one of our snake_case field names) are dropped
    from the place."""
    parts = []
    for error in _wanted(exc)[:5]:
        where = ".".join(str(x) for x in error.get("loc", ()) if not _union_tag(x))
        parts.append(f"{where}: {_said(error)}")
    return "; ".join(dict.fromkeys(parts)) or _("The request can't be read.")


def _wanted(exc: RequestValidationError) -> list[Any]:
    errors = exc.errors()
    return [e for e in errors if e.get("type") != "none_required"] or list(errors)


def _union_tag(part: object) -> bool:
    return isinstance(part, str) and ("[" in part or part[:1].isupper() or "-" in part)  # "constrained-str"


#: What a player calls the fields of the requests the pages send (the last named part of an error's
#: place): its name (English, said through ``_``) and whether the name is plural (what a list of it
#: counts is ``schema_words.UNITS``); a query's own names first (the workshop's filters).
FIELD_WORDS: dict[str, tuple[str, bool]] = {
    # Translators: a field of a request, as a player calls it: the subject of sentences such as
    # "{thing} is missing" or "{thing} must be a whole number" (the field names below too)
    "position": (N_("this position"), False), "record": (N_("the game record"), False),
    "circle": (N_("the circle"), False), "moves": (N_("the record's moves"), True),
    "move": (N_("the move"), False), "cells": (N_("the cells"), True), "cell": (N_("the cell"), False),
    "leather": (N_("the leather spaces"), True), "players": (N_("the players"), True),
    "player": (N_("the player"), False), "patches": (N_("the patches chosen"), True),
    "patch": (N_("the patch"), False), "next": (N_("the next patches"), True),
    "pool": (N_("the patches still to come"), True), "quilt": (N_("the quilt"), False),
    "quilts": (N_("the quilts"), True), "text": (N_("the quilt's text"), False),
    "budget": (N_("the budget"), False), "marks": (N_("the income marks ahead"), True),
    "objective": (N_("the objective"), False), "require_bonus": (N_("the 7x7 requirement"), False),
    "time_limit": (N_("the time allowed"), False),
    "leather_left": (N_("the leather patches left"), True),
    "ply": (N_("the move number"), False), "ai": (N_("the AI"), False),
    "level": (N_("the AI's level"), False), "seed": (N_("the seed"), False),
    "game_id": (N_("the game's address"), False), "job_id": (N_("the job's address"), False),
    "puzzle_id": (N_("the puzzle's address"), False),
}
QUERY_WORDS: dict[str, tuple[str, bool]] = {
    # Translators: a filter of the workshop's patch list, as a player calls it (the subject of an error)
    "cells": (N_("the size filter"), False), "cost": (N_("the cost filter"), False),
    "time": (N_("the time filter"), False), "income": (N_("the buttons filter"), False),
    "wait": (N_("the wait"), False),
}


def player_words(exc: RequestValidationError) -> str:
    """The refusal as sentences a player reads (a page shows them): what is wrong, in the names the
    pages use, without the API's field places, Pydantic's phrasing or the rules file's name.
    ``validation_message`` keeps the precise places for programs."""
    said = [_sentence(error) for error in _wanted(exc)[:5]]
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
    thing, many = table.get(name, ("", False))
    # Translators: a field of a request that has no player's name: {name} is its name in the API ("lines"), kept
    thing = _(thing) if name in table else _("the field {name}", name=name)
    unit = "" if table is QUERY_WORDS else UNITS.get(name, "")
    item = next((x for x in parts[at + 1:] if isinstance(x, int)), None)
    # Translators: one item of a list a request sent ({thing}: "the cells"), counted from 1
    return (thing, unit, many) if item is None else (_("item {number} of {thing}", number=item + 1, thing=thing),
                                                     "", False)


#: The whole request as the subject of a refusal ("the request can't be read").
_REQUEST = "the request"


def _sentence(error: Any) -> str:
    """One refusal as a sentence."""
    said = _said(error)
    said = said[:1].upper() + said[1:]
    return said if said.endswith((".", "!", "?")) else said + "."


def _said(error: Any) -> str:
    """One refusal in a player's words (``formats/schema_words.py``'s table)."""
    thing, unit, many = _thing(tuple(error.get("loc", ())))
    whole = thing == _REQUEST
    if whole and error.get("type") == "value_error":  # a validator of the whole request: its words alone
        own = own_words(error)
        said = words(own) if isinstance(own, PatchworkError) else own
    elif whole and error.get("type") == "missing":
        said = _("nothing was sent")
    else:
        # Translators: the whole request, as the subject of a refusal ("{thing} must be a JSON object")
        said = words(refusal(error, _("the request") if whole else thing, unit=unit, many=many))
    return said


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
