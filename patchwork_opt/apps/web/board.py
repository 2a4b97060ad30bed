"""The analysis board's requests and answers (pydantic): positions opened from a notation, a game's
ply, a record or a physical set-up, their legal moves, the position after a move, and the live
analysis stream's events, as the OpenAPI schema publishes them.

A position travels as its one-line notation (``formats/notation.py``), read by the one reader: in a
query (``position_query``) or a body (``PositionField``), what it refuses is a 422 naming the field
and the fault, as every other invalid request. Moves are the formats' move objects
(``formats/models.py``), each said in words by ``core.words.words_in`` (one way of saying a move).
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import Query
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ConfigDict, Field, field_validator

from patchwork_opt.apps.web.schemas import NOTATION_PATTERN, PositionText, read_position
from patchwork_opt.core.bitboard import cells_of
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.core.words import words_in
from patchwork_opt.formats.models import MoveModel, PositionModel, move_model

Seat = Literal[0, 1]
Cell = tuple[int, int]
#: lines a snapshot of the stream reports at most (``live.MAX_LINES``)
MAX_LINES = 5


def position_query(
    position: Annotated[str, Query(max_length=400, description="a position in the one-line notation of RULES.md",
                                   json_schema_extra={"pattern": f"^{NOTATION_PATTERN}$"})],
) -> State:
    """A ``position`` query parameter read as a state (a dependency): 422 naming what is wrong."""
    try:
        return read_position(position)
    except ValueError as exc:
        raise RequestValidationError([{"type": "value_error", "loc": ("query", "position"), "msg": str(exc),
                                       "input": position, "ctx": {"error": exc}}]) from None  # said in words


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PlayRequest(_Strict):
    """A move to play in a position (either player's: the one to move)."""

    position: PositionText
    move: MoveModel

    @field_validator("position")
    @classmethod
    def _readable(cls, value: str) -> str:
        read_position(value)
        return value


class BoardPosition(PositionModel):
    """A position as the analysis board draws it: the summary every client shows, plus both quilts
    as cells and what the notation says beyond them."""

    circle: list[int] = Field(description="the patches on the circle, clockwise from the neutral token")
    quilts: list[list[Cell]] = Field(min_length=2, max_length=2, description="each player's covered cells")
    pending_leather: Seat | None = Field(description="who must place a leather patch now (null: nobody)")
    on_top: Seat = Field(description="whose token is on top (moves next) when both share a space")
    first_at_end: Seat | None = Field(description="who reached space 53 first (null: nobody yet)")
    printing: list[int] = Field(description="the five leather spaces of the board")
    buyable: list[int] = Field(description="the offers the player to move can pay for and fit on their quilt, in the "
                               "circle's order (none while a leather patch waits, or once the game is over)")
    game: str | None = Field(default=None, description="the stored game it comes from, if any")
    ply: int | None = Field(default=None, description="the moves of that game played before it, if any")


def board_position(state: State, game: str | None = None, ply: int | None = None) -> BoardPosition:
    base = PositionModel.of(state)
    return BoardPosition(
        **base.model_dump(), circle=list(state.circle), quilts=[cells_of(q) for q in state.quilts],
        pending_leather=seat_or_none(state.pending), on_top=seat(state.last_mover),
        first_at_end=seat_or_none(state.first_end), printing=list(state.printing), buyable=state.buyable(),
        game=game, ply=ply,
    )


def seat(p: int) -> Seat:
    return 0 if p == 0 else 1


def seat_or_none(p: int) -> Seat | None:
    """Player ``p``, or None for -1 (nobody)."""
    return None if p < 0 else seat(p)


class BoardMove(BaseModel):
    """A move with its text (RULES.md) and its words for the player making it."""

    move: MoveModel
    text: str = Field(description="the move's text of RULES.md (\"12@34,35,44\", \"A\", \"L@40\")")
    words: str = Field(description="the move in words, for the player making it (\"buy #27 at rows 6-7, cols 1-3\")")


def board_move(state: State, move: Move) -> BoardMove:
    """``move`` in ``state`` (before it is played: its words need the position)."""
    return BoardMove(move=move_model(move), text=str(move), words=words_in(state, move))


class LegalMoves(BaseModel):
    """Every legal move of the player to move (none once the game is over)."""

    position: str
    player: Seat | None = Field(description="the player to move (null: the game is over)")
    moves: list[BoardMove]


class PlayedMove(BoardMove):
    player: Seat = Field(description="who made it")


class AfterMove(BaseModel):
    """The move played and the position it leads to."""

    played: PlayedMove
    position: BoardPosition


class RecordSteps(BaseModel):
    """A record to step through: the position before each move, then the last one."""

    players: list[str] | None = Field(description="the players' names, when the record gives them")
    positions: list[str] = Field(description="the notation of the position at each ply (0: the start; the last: "
                                 "after every move)")
    moves: list[PlayedMove] = Field(description="the move played at each ply")


class StreamLine(BaseModel):
    """One move of a live analysis snapshot, for the player to move."""

    move: MoveModel
    words: str = Field(description="the move in words")
    win: float = Field(description="the chance the player to move wins after it, 0-1 (1 or 0 when proven)")
    margin: float = Field(description="the final margin expected for them (points; exact when proven)")
    proven: bool = Field(description="win and margin are exact: every way the game can go was checked")
    outcome_proven: bool = Field(description="whether it wins or loses is proven, the margin perhaps only bounded")
    margin_at_least: float | None = Field(description="a proven lower bound of the final margin (null: none)")
    margin_at_most: float | None = Field(description="a proven upper bound of the final margin (null: none)")
    outcome: str = Field(description="what it leads to, in words (as a hint says it)")
    visits: int = Field(description="the sampled games behind the figures (0 when proven)")
    line: list[str] = Field(description="the move and its expected continuation, each in words with its player")
    line_moves: list[LineMove] = Field(description="the same line as moves, for drawing it")


class LineMove(BaseModel):
    player: Seat
    move: MoveModel


class StreamEvent(BaseModel):
    """The ``data`` of each event of ``GET /api/analysis/stream``: one snapshot of the live analysis."""

    seconds: float = Field(description="seconds since the analysis started")
    nodes: int = Field(description="sampled games and exact-search positions so far")
    player: Seat = Field(description="the player to move")
    search: Literal["exact", "partly exact", "sampled"] = Field(
        description="exact: every move proven; partly exact: some outcomes proven; sampled: none")
    done: bool = Field(description="the last event: the stream ends after it")
    end: Literal["solved", "time", "stopped"] | None = Field(
        description="why it is the last: solved, the time limit, stopped (null before the last)")
    lines: list[StreamLine] = Field(description="the best moves, best first")


StreamLine.model_rebuild()
