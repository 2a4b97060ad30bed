"""What every request shares: the strict base model, the position notation's pattern and reader, optional
fields left out rather than null, patch ids each at most once.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from patchwork_opt.core.errors import NotationError, words
from patchwork_opt.core.state import State
from patchwork_opt.formats.models import CellModel
from patchwork_opt.formats.notation import from_notation
from patchwork_opt.i18n import _

Seat = Literal[0, 1]
Cell = tuple[int, int]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


#: The one-line position notation of RULES.md (``formats/notation.py``), field by field: circle,
#: both players (position/buttons/income/quilt), on top, pending leather, bonus, leather left,
#: first at 53, printing. The reader checks the rest (a patch twice in the circle, ...): 400.
NOTATION_PATTERN = (
    r"(-|[0-9]{1,2}(,[0-9]{1,2}){0,32})( [0-9]{1,2}/[0-9]{1,7}/[0-9]{1,4}/[0-9a-f]{21}){2}"
    r" [01] (-|[01]) (-|[01]) (-|[0-9]{1,2}(,[0-9]{1,2}){0,4}) (-|[01]) [0-9]{1,2}(,[0-9]{1,2}){4}"
)
_NOTATION = re.compile(NOTATION_PATTERN)


def read_position(text: str) -> State:
    """The position a notation names; ``ValueError`` (a validation error where it is raised) naming
    what the notation's reader refuses."""
    if not _NOTATION.fullmatch(text):
        # Translators: RULES.md is the file of the rules and notations: keep its name
        raise ValueError(_("not a position in the notation of RULES.md (9 space-separated fields)"))
    try:
        return from_notation(text)
    except NotationError as exc:
        raise ValueError(words(exc)) from None


PositionText = Annotated[str, Field(max_length=400, json_schema_extra={"pattern": f"^{NOTATION_PATTERN}$"})]
QuiltCells = Annotated[list[CellModel], Field(max_length=81)]
_SOURCES = ("position", "record", "quilt")


def _only(present: tuple[str, ...], absent: tuple[str, ...]) -> dict[str, Any]:
    """A JSON Schema branch: every field of ``present`` given, none of ``absent``."""
    return {"required": list(present), "not": {"anyOf": [{"required": [name]} for name in absent]}}


def _left_out(schema: dict[str, Any]) -> None:
    """An optional field's schema without ``"default": null``: left out is how it is not given."""
    schema.pop("default", None)


def optional_field(description: str) -> Any:
    """An optional field: left out when not given (``null`` is refused, and the schema says so)."""
    return Field(default=None, json_schema_extra=_left_out, description=description)


def refuse_nulls(model: BaseModel, names: tuple[str, ...]) -> None:
    """An optional field sent as ``null``: refused, as the schema (which has no null) says."""
    sent_null = [name for name in names if name in model.model_fields_set and getattr(model, name) is None]
    if sent_null:
        # Translators: {field} is a request field's name as the API spells it (left in English)
        raise ValueError(_("{field}: leave the field out instead of sending null", field=sent_null[0]))


PatchIdField = Annotated[int, Field(ge=0, le=32)]
#: patch ids, each at most once (``uniqueItems``, checked as the schema says)
PatchIds = Annotated[list[PatchIdField], Field(max_length=33, json_schema_extra={"uniqueItems": True})]


def _each_once(ids: list[int] | None) -> list[int] | None:
    if ids is not None:
        twice = sorted({i for i in ids if ids.count(i) > 1})
        if twice:
            raise ValueError(_("patch {patch} is listed twice (each patch exists once)", patch=twice[0]))
    return ids
