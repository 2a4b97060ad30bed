"""The solver endpoints' requests (``routers/solvers.py``: ``POST /api/hint``, ``/api/fill``, ``/api/bonus``),
the CLI's options for the same questions.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, ConfigDict, Field, field_validator, model_validator
from pydantic.json_schema import SkipJsonSchema

from patchwork_opt.apps.web.schemas.common import (
    _NOTATION,
    _SOURCES,
    PatchIdField,
    PatchIds,
    PositionText,
    QuiltCells,
    _each_once,
    _only,
    _Strict,
    optional_field,
    refuse_nulls,
)
from patchwork_opt.core.quilt import Quilt
from patchwork_opt.formats.inputs import LoadedInput
from patchwork_opt.formats.models import CellModel, RecordModel
from patchwork_opt.formats.notation import from_notation
from patchwork_opt.formats.record import Record
from patchwork_opt.i18n import _, all_of


class PositionInput(_Strict):
    """What the CLI's solver commands read from a file or a string, as a JSON object: exactly one of
    a position (one-line notation), a game record (its final position) or a bare quilt (cells)."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"oneOf": [_only((name,), tuple(n for n in _SOURCES if n != name)) for name in _SOURCES]},
    )

    position: PositionText | SkipJsonSchema[None] = optional_field("one-line position notation")
    record: RecordModel | SkipJsonSchema[None] = optional_field("a game record; its last position is used")
    quilt: QuiltCells | SkipJsonSchema[None] = optional_field("covered cells of a bare quilt")

    @field_validator("position")
    @classmethod
    def _notation(cls, value: str | None) -> str | None:
        if value is not None and not _NOTATION.fullmatch(value):
            raise ValueError(_("not a position in the notation of RULES.md (9 space-separated fields)"))
        return value

    @model_validator(mode="after")
    def _exactly_one(self) -> PositionInput:
        refuse_nulls(self, _SOURCES)
        given = [name for name in _SOURCES if getattr(self, name) is not None]
        if len(given) != 1:
            if not given:
                raise ValueError(_("give exactly one of position, record or quilt (got none)"))
            raise ValueError(_("give exactly one of position, record or quilt (got {given})", given=all_of(given)))
        return self

    def load(self) -> LoadedInput:
        """The quilt and, for a position or record, the state (the quilt of the player to move)."""
        if self.quilt is not None:
            return LoadedInput(quilt=Quilt.from_cells(self.quilt))
        if self.position is not None:
            state = from_notation(self.position)
            return LoadedInput(quilt=Quilt(state.quilts[state.to_move()]), state=state)
        assert self.record is not None
        record = Record.from_json(self.record.model_dump(exclude_none=True))
        state = record.replay()
        return LoadedInput(quilt=Quilt(state.quilts[state.to_move()]), state=state, record=record)


class HintRequest(PositionInput):
    """``patchwork hint WHAT [--patch ID] [--next IDS] [--pool IDS] [--top N] [--lookahead N] [--time-limit S]``.

    A position or a record: its ranked moves, or with ``patch`` (and ``next``) the best fit of that
    patch on the quilt of the player to move. A bare quilt: the best fit of ``patch`` (required),
    with ``next`` and ``pool``; a pool is for a bare quilt only (a position's patches to come are its
    circle), and ``next`` needs ``patch``."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "oneOf": [
                _only(("position",), ("record", "quilt", "pool")),
                _only(("record",), ("position", "quilt", "pool")),
                _only(("quilt", "patch"), ("position", "record")),
            ],
            "anyOf": [{"not": {"required": ["next"]}}, {"required": ["patch"]}],
        },
    )

    patch: PatchIdField | SkipJsonSchema[None] = optional_field("patch to place (required for a bare quilt)")
    next: PatchIds | SkipJsonSchema[None] = optional_field("next patches (needs patch)")
    pool: PatchIds | SkipJsonSchema[None] = optional_field(
        "patches still to come, for a bare quilt (default: all but patch)"
    )
    top: int = Field(default=3, ge=1, le=20, description="suggestions per patch")
    lookahead: int = Field(default=6, ge=0, le=33, description="upcoming patches of the circle to look ahead over")
    time_limit: float = Field(
        default=1.0, gt=0, le=3600, description="seconds for the solver part (capped by the server)"
    )

    @field_validator("next", "pool")
    @classmethod
    def _patches_once(cls, ids: list[int] | None) -> list[int] | None:
        return _each_once(ids)

    @model_validator(mode="after")
    def _what_goes_together(self) -> HintRequest:
        refuse_nulls(self, ("patch", "next", "pool"))
        if self.quilt is not None and self.patch is None:
            raise ValueError(_("a bare quilt needs a patch to place"))
        if self.next is not None and self.patch is None:
            raise ValueError(_("next patches need a patch (a position's next patches are its circle)"))
        if self.pool is not None and self.quilt is None:
            raise ValueError(_("a pool is for a bare quilt (a position's patches to come are its circle)"))
        return self


#: Patch ids, each once: a patch listed twice is refused (one validator, for every request that
#: lists the patches to place).
PatchList = Annotated[
    list[PatchIdField],
    Field(min_length=1, max_length=33, description="patch ids, each once", json_schema_extra={"uniqueItems": True}),
    AfterValidator(_each_once),
]
Workers = Annotated[int, Field(ge=1, le=64, description="CP-SAT workers (the server uses at most 2)")]
SERVER_WORKERS = 2


class FillRequest(_Strict):
    """``patchwork fill --patches IDS [--quilt Q] [--objective] [--marks] [--budget] [--require-bonus] ...``."""

    patches: PatchList
    quilt: list[CellModel] = Field(default_factory=list, max_length=81, description="covered cells; empty quilt")
    objective: Literal["cells", "points"] = Field(default="cells", description="cells covered, or score change")
    marks: int = Field(default=9, ge=0, le=9, description="income marks still ahead, for objective points")
    budget: int | None = Field(default=None, ge=0, le=1000, description="total button cost at most this")
    require_bonus: bool = Field(default=False, description="a 7x7 square must be complete")
    time_limit: float = Field(default=10.0, gt=0, le=3600, description="seconds (capped by the server)")
    workers: Workers = 2
    seed: int = Field(default=0, ge=0, le=2**31 - 1, description="CP-SAT random seed")

    def quilt_mask(self) -> int:
        return Quilt.from_cells(self.quilt).mask


class BonusRequest(_Strict):
    """``patchwork bonus QUILT --patches IDS [--time-limit S]``: can a 7x7 square still be completed?"""

    quilt: list[CellModel] = Field(max_length=81, description="covered cells of the quilt")
    patches: PatchList
    time_limit: float = Field(default=10.0, gt=0, le=3600, description="seconds (capped by the server)")
    workers: Workers = 2

    def quilt_mask(self) -> int:
        return Quilt.from_cells(self.quilt).mask
