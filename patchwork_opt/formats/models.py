"""Pydantic models of the project's formats (moves, records, positions) and their JSON schema.

They are the one validator of these formats at the edges (record files, the service): what the
published schema refuses, the loaders refuse too. Numbers are strict (``"2"`` is no patch id);
the engine itself works on ints.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from patchwork_opt.core.catalogue import PATCH_COUNT
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import END, State
from patchwork_opt.formats.notation import from_notation, to_notation
from patchwork_opt.formats.schema_words import UNITS, refusal
from patchwork_opt.formats.views import position_summary
from patchwork_opt.i18n import N_

Coord = Annotated[int, Field(ge=0, le=8, strict=True)]
CellModel = Annotated[tuple[Coord, Coord], Field(description="[row, col], row 0 at the top")]
PatchId = Annotated[int, Field(ge=0, le=PATCH_COUNT - 1, strict=True)]
LeatherSpace = Annotated[int, Field(ge=1, le=END - 1, strict=True)]


class AdvanceMove(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["advance"]


class BuyMove(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["buy"]
    patch: PatchId
    cells: list[CellModel] = Field(
        min_length=1, max_length=8, description="cells covered, any order, each once",
        json_schema_extra={"uniqueItems": True},
    )


class LeatherMove(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["leather"]
    cell: CellModel


MoveModel = Annotated[AdvanceMove | BuyMove | LeatherMove, Field(discriminator="type")]
_MOVE_ADAPTER: TypeAdapter[AdvanceMove | BuyMove | LeatherMove] = TypeAdapter(MoveModel)


class TakeBackModel(BaseModel):
    """A move taken back: played at ``ply`` (the record's position before ``moves[ply]``), then undone."""

    model_config = ConfigDict(extra="forbid")
    ply: int = Field(ge=0, le=1000, strict=True, description="the ply the move was played at")
    move: MoveModel


class RecordModel(BaseModel):
    """A game record of RULES.md."""

    model_config = ConfigDict(extra="forbid")
    circle: list[PatchId] = Field(
        min_length=33, max_length=33, description="patch ids clockwise from the neutral token, each once",
        json_schema_extra={"uniqueItems": True},
    )
    moves: list[MoveModel] = Field(default_factory=list)
    leather: list[LeatherSpace] | None = Field(
        default=None, min_length=5, max_length=5, description="leather spaces; revised printing when omitted",
        json_schema_extra={"uniqueItems": True},
    )
    players: list[Annotated[str, Field(min_length=1, max_length=80)]] | None = Field(
        default=None, min_length=2, max_length=2, description="names of the first and the second player (optional)"
    )
    takebacks: list[TakeBackModel] | None = Field(
        default=None, max_length=1000,
        description="moves taken back, in the order they were (optional; the review counts them)",
    )

    @field_validator("circle")
    @classmethod
    def _every_patch_once(cls, circle: list[int]) -> list[int]:
        missing = sorted(set(range(PATCH_COUNT)) - set(circle))
        if missing:
            # Translators: a record's circle that lacks patches (said after the field's name)
            raise PatchworkError(N_("must hold each of the {count} patch ids once; missing {missing}"),
                                 count=PATCH_COUNT, missing=missing)
        return circle

    @field_validator("leather")
    @classmethod
    def _distinct_spaces(cls, spaces: list[int] | None) -> list[int] | None:
        if spaces is not None and len(set(spaces)) != len(spaces):
            raise PatchworkError(N_("leather spaces repeat: {spaces}"), spaces=spaces)
        return spaces


class PlayerModel(BaseModel):
    position: int = Field(ge=0, le=53)
    buttons: int
    income: int
    empty: int = Field(ge=0, le=81)
    bonus: bool
    score: int
    advance_to: int = Field(ge=0, le=53, description="the space an advance takes this player to: just past the "
                            "other token, the end at most")


class PositionModel(BaseModel):
    """A position: its one-line notation plus the summary every client shows."""

    position: str = Field(description="one-line position notation (see patchwork_opt.formats.notation)")
    players: list[PlayerModel] = Field(min_length=2, max_length=2)
    winner: Literal[0, 1] | None
    over: bool
    to_move: Literal[0, 1] | None
    offers: list[PatchId]
    leather_left: list[int]

    @classmethod
    def of(cls, state: State) -> PositionModel:
        return cls(position=to_notation(state), **position_summary(state))

    def to_state(self) -> State:
        return from_notation(self.position)


def move_model(move: Move) -> AdvanceMove | BuyMove | LeatherMove:
    return _MOVE_ADAPTER.validate_python(move.to_json())


def move_from_model(model: AdvanceMove | BuyMove | LeatherMove) -> Move:
    """The engine's move for a validated model (IllegalMoveError when the cells are no placement)."""
    return Move.from_json(model.model_dump())


def first_error(exc: ValidationError) -> tuple[tuple[int | str, ...], dict[str, Any]]:
    """The first problem of a validation error and its place, without the tag of a move's type
    (``moves[2].cells[1]``, not ``moves[2].buy.cells[1]``)."""
    error: dict[str, Any] = dict(exc.errors()[0])
    loc = tuple(error["loc"])
    loc = tuple(p for i, p in enumerate(loc) if not (i > 0 and isinstance(loc[i - 1], int) and p in _MOVE_TAGS))
    return loc, error


def refused_at(error: dict[str, Any], loc: tuple[int | str, ...], name: str) -> PatchworkError:
    """``error`` in words (``schema_words.refusal``) about its place in the format's own names
    (``circle[3]``, ``moves[2].cells``), or about ``name`` (``record``, ``move``) when it is the whole."""
    path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc).lstrip(".")
    named = [p for p in loc if isinstance(p, str)]
    return refusal(error, path or name, unit=UNITS.get(named[-1], "") if named else "", place=True)


def one_line(exc: ValidationError, name: str) -> tuple[tuple[int | str, ...], PatchworkError]:
    """The first problem of a validation error as (place, the line naming it: ``circle needs all 33
    patches; it has 12``), the line a domain error said in the reader's language (``words``)."""
    loc, error = first_error(exc)
    return loc, refused_at(error, loc, name)


_MOVE_TAGS = ("advance", "buy", "leather")


_SCHEMAS: dict[str, Any] = {
    "record": lambda: RecordModel.model_json_schema(),
    "position": lambda: PositionModel.model_json_schema(),
    "move": lambda: _MOVE_ADAPTER.json_schema(),
}


def json_schema(name: str = "all") -> dict[str, Any]:
    """The JSON schema of ``record``, ``position`` or ``move``; ``all`` gives each by name."""
    if name == "all":
        return {key: build() for key, build in _SCHEMAS.items()}
    if name not in _SCHEMAS:
        # Translators: keep the schemas' names (record, position, move, all) as they are
        raise PatchworkError(N_("unknown schema {name!r} (expected record, position, move or all)"), name=name)
    schema: dict[str, Any] = _SCHEMAS[name]()
    return schema
