"""A Pydantic validation error in words: the one table of what each kind of refusal says.

Every file or body that Pydantic checks reaches a person through this table, in the language in
effect: a record's or a puzzle's file (``models.one_line``: the field's place in the format's own
names is the subject, ``circle needs all 33 patches; it has 12``), and the service's 422s
(``apps/web/errors.py``: ``detail`` with the request's place, ``body.circle needs all 33 patches``,
and ``words`` with a player's names of the fields, ``The circle needs all 33 patches``).

``refusal`` gives the line as a domain error (a template marked for the catalogue and its values,
said by ``core.errors.words`` where it is reported, as docs/languages.md "Errors" says), one whole
message per kind of error Pydantic makes (``type``) and per singular or plural subject, with its
``ctx`` (the limits, the values allowed). A validator's own message (``value_error``) is said as
it was raised: a ``PatchworkError`` in words, else the text it carries (said already). A kind not in
the table still names the field (``{thing} is not in a form that can be read``). Counts in words
("33 patches") are said as the refusal is made.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from patchwork_opt.core.catalogue import PATCH_COUNT
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.i18n import N_, npgettext, one_of

#: What a list of each field counts ("the circle needs all 33 patches"), by the formats' and the
#: requests' field names; a field not here counts items.
UNITS: dict[str, str] = {
    "circle": "patch", "moves": "move", "cells": "cell", "leather": "space", "players": "player",
    "patches": "patch", "next": "patch", "pool": "patch", "quilt": "cell", "quilts": "quilt",
    "leather_left": "space", "placements": "placement", "winning": "move", "line": "move",
}
_BOUNDS = {"greater_than_equal": "ge", "greater_than": "gt", "less_than_equal": "le", "less_than": "lt"}
#: Pydantic's error types that say "this is not the type wanted", by what was wanted.
_TYPES = {
    "int_type": "int", "int_parsing": "int", "int_from_float": "int",
    "float_type": "float", "float_parsing": "float",
    "bool_type": "bool", "bool_parsing": "bool",
    "string_type": "str", "list_type": "list", "tuple_type": "list", "set_type": "list",
    "dict_type": "object", "model_type": "object", "model_attributes_type": "object",
}


def count_words(n: object, unit: str) -> str:
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
        "placement": lambda: npgettext("count", "{count} placement", "{count} placements", count),
        "character": lambda: npgettext("count", "{count} character", "{count} characters", count),
    }
    said = units.get(unit, lambda: npgettext("count", "{count} item", "{count} items", count))
    return said() if isinstance(n, int) else f"{n}"


def shown(given: object) -> str:
    """What was sent, as a refusal quotes it: text in quotes, a list or object elided."""
    if isinstance(given, str):
        return f'"{given}"' if len(given) <= 40 else f'"{given[:37]}..."'
    if isinstance(given, dict):
        return "{...}"
    if isinstance(given, list | tuple):
        return "[...]"
    return str(given).lower() if isinstance(given, bool) else str(given)


def allowed(expected: object) -> Any:
    """Pydantic's list of the values allowed (``"'cells', 'points' or 'bonus'"``) as the names said
    in the reader's language's list pattern."""
    names = [n for n in re.split(r",\s*|\s+or\s+", str(expected)) if n]
    return one_of(names)


def own_words(error: Mapping[str, Any]) -> PatchworkError | str:
    """A validator's own message: the domain error it raised (said in words), else its text."""
    cause = (error.get("ctx") or {}).get("error")
    if isinstance(cause, PatchworkError):
        return cause
    return str(error.get("msg", "")).removeprefix("Value error, ").removeprefix("Assertion failed, ")


def refusal(error: Mapping[str, Any], thing: str, *, unit: str = "", many: bool = False,
            place: bool = False) -> PatchworkError:
    """One Pydantic ``error`` (an item of ``ValidationError.errors()``) as a domain error whose
    subject is ``thing``: a field's place (``place``: ``circle[3]``, ``body.moves``) or a player's
    name for it ("the circle", already said; ``many`` when it is plural); ``unit`` what a list of it
    counts (``UNITS``)."""
    kind, ctx, given = str(error.get("type", "")), error.get("ctx") or {}, error.get("input")
    values: dict[str, Any] = {"thing": thing, "shown": shown(given)}
    if kind == "missing":
        # Translators: a refusal: a field ({thing}: "the quilt", or its place "moves[2].cells") was not sent
        return PatchworkError(N_("{thing} are missing") if many else N_("{thing} is missing"), thing=thing)
    if kind in ("too_short", "too_long", "string_too_short", "string_too_long"):
        return _length(kind, thing, unit, many, ctx)
    if kind in _BOUNDS:
        return _bound(kind, values, many, ctx)
    if kind in _TYPES:
        return _type(_TYPES[kind], values)
    if kind in ("literal_error", "enum"):
        # Translators: a refusal; {expected} lists the values allowed ("'cells' or 'points'"), {shown} what was sent
        return PatchworkError(N_("{thing} must be {expected}; they are {shown}") if many
                              else N_("{thing} must be {expected}; it is {shown}"),
                              expected=allowed(ctx.get("expected")), **values)
    if kind == "union_tag_invalid":
        # Translators: a refusal: an object whose "type" ({tag}) is none of {expected} ('advance', 'buy' ...)
        return PatchworkError(N_("{thing} has the unknown type {tag}; the types are {expected}"), thing=thing,
                              tag=repr(ctx.get("tag")), expected=allowed(ctx.get("expected_tags")))
    if kind == "union_tag_not_found":
        # Translators: a refusal: an object without the field ({field}: 'type') that says which kind it is
        return PatchworkError(N_("{thing} needs a {field}"), thing=thing, field=ctx.get("discriminator", "'type'"))
    if kind == "extra_forbidden" and place:
        # Translators: a refusal: a file's field ({thing}: "winner", "moves[2].cells") its format does not have
        return PatchworkError(N_("{thing} is not a field of this format"), thing=thing)
    if kind == "extra_forbidden":
        # Translators: a refusal: a field sent that is not one of the format's or the request's
        return PatchworkError(N_("{thing} are not something this request takes") if many
                              else N_("{thing} is not something this request takes"), thing=thing)
    if kind == "json_invalid":
        return PatchworkError(N_("the request can't be read: it is not JSON"))
    if kind == "string_pattern_mismatch" and place:
        # Translators: a refusal: a text ({thing}) that is not of the form {pattern} (a regular expression)
        return PatchworkError(N_("{thing} must match {pattern}; it is {shown}"), pattern=ctx.get("pattern", ""),
                              **values)
    if kind in ("value_error", "assertion_error"):
        if place:
            # Translators: a field's place ({thing}: "circle") and what its validator says is wrong with it
            return PatchworkError(N_("{thing}: {message}"), thing=thing, message=own_words(error))
        message = own_words(error)
        message = message.replace(" of RULES.md", "") if isinstance(message, str) else message  # a player's words
        # Translators: {thing} is a field ("the quilt"); {message} the reason, as a validator says it
        return PatchworkError(N_("{thing} can't be read: {message}"), thing=thing, message=message)
    # Translators: a refusal of a kind not worded otherwise: a field sent in a form that cannot be read
    return PatchworkError(N_("{thing} are not in a form that can be read") if many
                          else N_("{thing} is not in a form that can be read"), thing=thing)


def _type(wanted: str, values: dict[str, Any]) -> PatchworkError:
    """A value of the wrong type: a whole number, a number, true or false, a text, a list, an object."""
    # Translators: a refusal; {thing} is a field ("the seed", or its place "circle[3]"), {shown} what was sent
    singular = {"int": N_("{thing} must be a whole number; {shown} is not one"),
                "float": N_("{thing} must be a number; {shown} is not one"),
                "bool": N_("{thing} must be true or false; {shown} is neither"),
                "str": N_("{thing} must be a text in quotes; {shown} is not one"),
                "list": N_("{thing} must be a list; {shown} is not one"),
                "object": N_("{thing} must be a JSON object; {shown} is not one")}
    return PatchworkError(singular[wanted], **values)


def _length(kind: str, thing: str, unit: str, many: bool, ctx: Mapping[str, Any]) -> PatchworkError:
    """A list (or text) shorter or longer than it may be."""
    actual = ctx.get("actual_length")
    if kind == "string_too_long":
        counted = count_words(ctx.get("max_length"), "character")
        # Translators: a refusal: a text ({thing}) longer than {counted} ("500 characters")
        return PatchworkError(N_("{thing} are too long: at most {counted}") if many
                              else N_("{thing} is too long: at most {counted}"), thing=thing, counted=counted)
    if kind == "string_too_short":
        # Translators: a refusal: a text ({thing}: "players[1]") that is empty
        return PatchworkError(N_("{thing} must not be empty"), thing=thing)
    if kind == "too_long":
        counted = count_words(ctx.get("max_length"), unit)
        # Translators: a refusal: a list ({thing}) longer than {counted} ("3 patches"); {actual} its length
        return PatchworkError(N_("{thing} can have at most {counted}; they have {actual}") if many
                              else N_("{thing} can have at most {counted}; it has {actual}"),
                              thing=thing, counted=counted, actual=actual)
    least = ctx.get("min_length")
    counted = count_words(least, unit)
    if least == PATCH_COUNT and unit == "patch":
        # Translators: a refusal: a list ({thing}: "the circle") needs all {counted} ("33 patches"); {actual} its length
        return PatchworkError(N_("{thing} need all {counted}; they have {actual}") if many
                              else N_("{thing} needs all {counted}; it has {actual}"),
                              thing=thing, counted=counted, actual=actual)
    # Translators: a refusal: a list ({thing}) shorter than {counted} ("2 cells"); {actual} its length
    return PatchworkError(N_("{thing} need at least {counted}; they have {actual}") if many
                          else N_("{thing} needs at least {counted}; it has {actual}"),
                          thing=thing, counted=counted, actual=actual)


def _bound(kind: str, values: dict[str, Any], many: bool, ctx: Mapping[str, Any]) -> PatchworkError:
    """A number outside its bounds: ``{limit} or more``, ``more than {limit}`` ..."""
    limit = ctx.get(_BOUNDS[kind])
    # Translators: a refusal: a number ({thing}: "the budget") out of its bounds ({limit}); {shown} what was sent
    said = {
        "greater_than_equal": (N_("{thing} must be {limit} or more; it is {shown}"),
                               N_("{thing} must be {limit} or more; they are {shown}")),
        "greater_than": (N_("{thing} must be more than {limit}; it is {shown}"),
                         N_("{thing} must be more than {limit}; they are {shown}")),
        "less_than_equal": (N_("{thing} must be {limit} or less; it is {shown}"),
                            N_("{thing} must be {limit} or less; they are {shown}")),
        "less_than": (N_("{thing} must be less than {limit}; it is {shown}"),
                      N_("{thing} must be less than {limit}; they are {shown}")),
    }[kind]
    return PatchworkError(said[1] if many else said[0], limit=limit, **values)
