"""A game's bodies (``routers/games.py``): the requests that create a game, play, ask the AI and undo, and the
game as the page draws it (its quilts, offers and moves).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from patchwork_opt.apps.web.game_store import Game
from patchwork_opt.apps.web.schemas.common import Cell, Seat, _Strict
from patchwork_opt.apps.web.schemas.reviews import MoveVerdict
from patchwork_opt.core.bitboard import cells_of
from patchwork_opt.core.catalogue import PATCHES, button_cells
from patchwork_opt.core.state import LEATHER_PATCH, State
from patchwork_opt.core.words import line_words
from patchwork_opt.formats.models import MoveModel, PositionModel, move_model


class CreateGameRequest(_Strict):
    """A new game against the AI; the seat is the human's (0 moves first)."""

    #: at most 2**53 - 1: a JSON number beyond it is not one integer to every reader (doubles)
    seed: Annotated[int, Field(ge=0, le=2**53 - 1)] | None = Field(
        default=None, description="seed of the patch circle; random when omitted"
    )
    ai: str = Field(default="", max_length=40, description="AI name (see GET /api/ais); the default AI when empty")
    level: int = Field(default=2, ge=1, le=5, description="AI strength, 1 (fast) .. 5 (slow)")
    #: an int, not ``Literal[0, 1]``, which would take ``true`` for 1 (the strict re-reading refuses it)
    seat: int = Field(default=0, ge=0, le=1, description="the human's seat: 0 moves first")
    printing: Literal["revised", "classic"] = Field(default="revised", description="leather spaces")
    teaching: bool = Field(default=False, description=(
        "a teaching game: the answer to each of your moves judges it as the review would (its verdict, with "
        "the better move), and a mistake or a blunder can be taken back (POST /api/games/{id}/undo)"))


class PlayMoveRequest(_Strict):
    """A move by the human, made for the position at ``ply`` (the number of moves so far)."""

    ply: int = Field(ge=0, le=1000, description="the ply the move was chosen at (from GET); 409 if stale")
    move: MoveModel


class AiMoveRequest(_Strict):
    ply: int = Field(ge=0, le=1000, description="the ply the AI should move at; 409 if stale")


class UndoRequest(_Strict):
    ply: int = Field(ge=0, le=1000, description="the ply the undo was asked at; 409 if stale")


class PieceView(BaseModel):
    """A placed patch: its id (-1 for leather), covered cells and button cells."""

    patch: int
    cells: list[Cell]
    buttons: list[Cell]


class PlayerBoard(BaseModel):
    pieces: list[PieceView]
    covered: int


class OfferView(BaseModel):
    patch: int
    cost: int
    time: int
    income: int
    buyable: bool = Field(description="the player to move can pay for it and it fits on their quilt")


class MoveView(BaseModel):
    ply: int
    player: int
    actor: Literal["human", "ai"]
    move: MoveModel
    text: str
    words: str = Field(description="the move in words, for the player who made it (core/words.py: \"buy #18 at rows "
                                   "6-8, cols 0-1, turned right\"; no two moves of a position read the same)")
    reason: str
    verdict: MoveVerdict | None = Field(default=None, description="a teaching game's verdict on your move, else null")


class GameView(BaseModel):
    """Everything the page draws: set-up, position, quilts, offers and the moves so far."""

    id: str
    ai: str
    level: int
    seat: Seat = Field(description="the human's seat")
    seed: int | None
    leather_spaces: list[int]
    ply: int
    state: PositionModel
    boards: list[PlayerBoard]
    offers: list[OfferView]
    upcoming: list[int] = Field(description="the rest of the circle after the offers")
    pending_leather: bool
    human_to_move: bool
    ai_to_move: bool
    moves: list[MoveView]
    teaching: bool = Field(default=False, description="a teaching game: your moves carry the review's verdict")
    takebacks: int = Field(default=0, description="moves you took back (undo) in this game")


MoveView.model_rebuild()
GameView.model_rebuild()


def piece_view(patch_id: int, mask: int) -> PieceView:
    buttons = [] if patch_id == LEATHER_PATCH else button_cells(patch_id, mask)
    return PieceView(patch=patch_id, cells=cells_of(mask), buttons=buttons)


def game_view(game: Game, state: State) -> GameView:
    over = state.is_terminal()
    to_move = None if over else state.to_move()
    buyable = set(state.buyable())
    offers = state.offers()
    words = line_words(game.record.initial_state(), [row.move for row in game.moves])
    return GameView(
        id=game.id,
        ai=game.ai,
        level=game.level,
        seat=0 if game.seat == 0 else 1,
        seed=game.seed,
        leather_spaces=list(game.leather),
        ply=len(game.moves),
        state=PositionModel.of(state),
        boards=[
            PlayerBoard(
                pieces=[piece_view(pid, mask) for pid, mask in state.placed[p]],
                covered=state.quilts[p].bit_count(),
            )
            for p in (0, 1)
        ],
        offers=[
            OfferView(
                patch=pid,
                cost=PATCHES[pid].cost,
                time=PATCHES[pid].time,
                income=PATCHES[pid].income,
                buyable=pid in buyable,
            )
            for pid in offers
        ],
        upcoming=state.circle[len(offers) :],
        pending_leather=state.pending >= 0,
        human_to_move=to_move == game.seat,
        ai_to_move=to_move == game.ai_seat,
        moves=[
            MoveView(
                ply=row.ply,
                player=row.player,
                actor=row.actor,
                move=move_model(row.move),
                text=str(row.move),
                words=said,
                reason=row.reason,
                verdict=None if row.verdict is None else MoveVerdict.model_validate(row.verdict),
            )
            for row, said in zip(game.moves, words, strict=True)
        ],
        teaching=game.teaching,
        takebacks=len(game.takebacks),
    )
