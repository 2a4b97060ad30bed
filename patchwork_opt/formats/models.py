"""Pydantic models of the project's formats (moves, records, positions) and their JSON schema.

These validate data at the edges (files, the service); the engine itself works on ints.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.formats.notation import from_notation, to_notation
from patchwork_opt.formats.record import Record
from patchwork_opt.formats.views import position_summary

Coord = Annotated[int, Field(ge=0, le=8)]
CellModel = Annotated[tuple[Coord, Coord], Field(description="[row, col], row 0 at the top")]
PatchId = Annotated[int, Field(ge=0, le=32)]


class AdvanceMove(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["advance"]


class BuyMove(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["buy"]
    patch: PatchId
    cells: list[CellModel] = Field(min_length=1, max_length=8, description="cells covered, any order")


class LeatherMove(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["leather"]
    cell: CellModel


MoveModel = Annotated[AdvanceMove | BuyMove | LeatherMove, Field(discriminator="type")]
_MOVE_ADAPTER: TypeAdapter[AdvanceMove | BuyMove | LeatherMove] = TypeAdapter(MoveModel)


class RecordModel(BaseModel):
    """A game record of RULES.md."""

    model_config = ConfigDict(extra="forbid")
    circle: list[PatchId] = Field(
        min_length=33, max_length=33, description="patch ids clockwise from the neutral token"
    )
    moves: list[MoveModel] = Field(default_factory=list)
    leather: list[Annotated[int, Field(ge=1, le=52)]] | None = Field(
        default=None, min_length=5, max_length=5, description="leather spaces; revised printing when omitted"
    )

    def to_record(self) -> Record:
        return Record.from_json(self.model_dump(exclude_none=True))


class PlayerModel(BaseModel):
    position: int = Field(ge=0, le=53)
    buttons: int
    income: int
    empty: int = Field(ge=0, le=81)
    bonus: bool
    score: int


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
    return Move.from_json(model.model_dump())


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
        raise PatchworkError(f"unknown schema {name!r} (expected record, position, move or all)")
    schema: dict[str, Any] = _SCHEMAS[name]()
    return schema
