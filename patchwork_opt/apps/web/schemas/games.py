"""A game's bodies (``routers/games.py``, ``routers/people.py``): the requests that create a game, play, ask the
AI, undo, join a seat, offer or answer a takeback, resign and ask for a rematch; the game as the page draws
it (its quilts, offers and moves, and between people its seats and offers), and a seat's secret as given.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field, model_validator
from pydantic.json_schema import SkipJsonSchema

from patchwork_opt.apps.web.game_store import Game
from patchwork_opt.apps.web.people_store import People
from patchwork_opt.apps.web.schemas.common import Cell, Seat, _Strict, optional_field, refuse_nulls
from patchwork_opt.apps.web.schemas.reviews import MoveVerdict
from patchwork_opt.core.bitboard import cells_of
from patchwork_opt.core.catalogue import PATCHES, button_cells
from patchwork_opt.core.state import LEATHER_PATCH, State
from patchwork_opt.core.words import line_words
from patchwork_opt.formats.models import MoveModel, PositionModel, move_model


class CreateGameRequest(_Strict):
    """A new game: against the AI (the default), against a friend by a link (``friend``), or two people
    at one device (``here``); the seat is the creator's (0 moves first)."""

    opponent: Literal["ai", "friend", "here"] = Field(default="ai", description=(
        "ai: a game against the AI; friend: a game against a friend, who joins by the invite link "
        "(POST /api/games/{id}/join); here: two players at one device, one secret for both seats"))

    #: at most 2**53 - 1: a JSON number beyond it is not one integer to every reader (doubles)
    seed: Annotated[int, Field(ge=0, le=2**53 - 1)] | None = Field(
        default=None, description="seed of the patch circle; random when omitted"
    )
    ai: str = Field(default="", max_length=40, description="AI name (see GET /api/ais); the default AI when empty")
    level: int = Field(default=2, ge=1, le=5, description="AI strength, 1 (fast) .. 5 (slow)")
    #: an int, not ``Literal[0, 1]``, which would take ``true`` for 1 (the strict re-reading refuses it)
    seat: Annotated[int, Field(ge=0, le=1)] | Literal["random"] = Field(
        default=0, description="the creator's seat: 0 moves first; random: drawn")
    hints: bool = Field(default=False, description=(
        "a game between people: whether hints (GET /api/games/{id}/hint) are allowed during the game; off by "
        "default, as at a table (games against the AI always allow them)"))
    printing: Literal["revised", "classic"] = Field(default="revised", description="leather spaces")
    teaching: bool = Field(default=False, description=(
        "a teaching game: the answer to each of your moves judges it as the review would (its verdict, with "
        "the better move), and a mistake or a blunder can be taken back (POST /api/games/{id}/undo); ai, level and "
        "teaching apply to a game against the AI only"))


class PlayMoveRequest(_Strict):
    """A move by the human, made for the position at ``ply`` (the number of moves so far)."""

    ply: int = Field(ge=0, le=1000, description="the ply the move was chosen at (from GET); 409 if stale")
    move: MoveModel


class TakebackRequest(_Strict):
    """A takeback offered by a seat: its last move, and the moves after it, go once the other accepts."""

    ply: int = Field(ge=0, le=1000, description="the ply the offer was made at; 409 if stale")
    seat: Annotated[int, Field(ge=0, le=1)] | SkipJsonSchema[None] = optional_field(
        "the seat that offers; needed only when the secret holds both seats (a game at one device), where it "
        "defaults to the seat that moved last")

    @model_validator(mode="after")
    def _no_nulls(self) -> TakebackRequest:
        refuse_nulls(self, ("seat",))
        return self


class TakebackAnswer(_Strict):
    """The other seat's answer to the takeback offered at ``ply``."""

    ply: int = Field(ge=0, le=1000, description="the ply of the offer answered; 409 if stale")
    accept: bool = Field(description="true: the moves are taken back; false: the offer is declined")


class ResignRequest(_Strict):
    """A seat resigns (the other wins)."""

    seat: Annotated[int, Field(ge=0, le=1)] | SkipJsonSchema[None] = optional_field(
        "the seat that resigns; needed only when the secret holds both seats (a game at one device), where it "
        "defaults to the seat to move")

    @model_validator(mode="after")
    def _no_nulls(self) -> ResignRequest:
        refuse_nulls(self, ("seat",))
        return self


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


class SeatView(BaseModel):
    """A seat of a game between people, as anyone sees it (never its secret)."""

    taken: bool = Field(description="someone holds the seat (by its secret)")
    last_moved: float | None = Field(description="when the seat last moved, Unix seconds; null before its first move")


class TakebackView(BaseModel):
    seat: Seat = Field(description="the seat that offers to take back its last move")
    ply: int = Field(description="the ply the offer was made at")


class PeopleView(BaseModel):
    """A game between people: its seats, what is offered, how it ended and its rematch."""

    opponent: Literal["friend", "here"]
    hints: bool = Field(description="hints are allowed during the game")
    seats: list[SeatView] = Field(description="by seat: 0 first")
    to_move: Seat | None = Field(description="the seat to move; null once the game is over")
    takeback: TakebackView | None = Field(description="a takeback offered and not yet answered, else null")
    resigned: Seat | None = Field(description="the seat that resigned, else null")
    winner: Seat | None = Field(description="the winner once the game is over (by resignation or score), else null")
    rematch: str | None = Field(description="the id of this game's rematch (seats swapped), once asked for")
    rematch_of: str | None = Field(description="the id of the game this one is the rematch of")


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
    people: PeopleView | None = Field(default=None, description="a game between people: its seats and offers; "
                                                                "null for a game against the AI")


class SeatSecret(BaseModel):
    """A seat taken, and its secret: given once, kept by the player (``Authorization: Bearer <secret>``
    on every action of the seat); the server keeps only its hash."""

    seat: Seat
    secret: str = Field(description="the seat's secret (256 random bits); a game at one device: both seats'")


class CreatedGame(GameView):
    """A game between people as created: its view, plus the creator's seat (``seat``), its secret
    and the invite for the other seat."""

    secret: str = Field(description="the creator's seat's secret (at one device: both seats'); given only here")
    invite: str = Field(description="the path of the invite link on this server (/play/{id}): whoever opens it "
                                    "first takes the free seat (POST /api/games/{id}/join)")


MoveView.model_rebuild()
GameView.model_rebuild()
CreatedGame.model_rebuild()


def piece_view(patch_id: int, mask: int) -> PieceView:
    buttons = [] if patch_id == LEATHER_PATCH else button_cells(patch_id, mask)
    return PieceView(patch=patch_id, cells=cells_of(mask), buttons=buttons)


def people_view(game: Game, state: State, people: People) -> PeopleView:
    over = state.is_terminal() or people.resigned is not None
    winner = state.winner() if people.resigned is None else 1 - people.resigned
    offer = people.takeback
    open_offer = offer is not None and offer.ply == len(game.moves) and offer.seq == len(game.takebacks)
    return PeopleView(
        opponent=people.opponent, hints=people.hints,
        seats=[SeatView(taken=people.taken(s), last_moved=game.last_moved(s)) for s in (0, 1)],
        to_move=None if over else (0 if state.to_move() == 0 else 1),
        takeback=TakebackView(seat=0 if offer.seat == 0 else 1, ply=offer.ply) if open_offer and offer else None,
        resigned=None if people.resigned is None else (0 if people.resigned == 0 else 1),
        winner=None if winner is None else (0 if winner == 0 else 1),
        rematch=people.rematch, rematch_of=people.rematch_of,
    )


def game_view(game: Game, state: State, people: People | None = None) -> GameView:
    over = state.is_terminal() or (people is not None and people.resigned is not None)
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
        human_to_move=to_move == game.seat if people is None else to_move is not None,
        ai_to_move=to_move == game.ai_seat and people is None,
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
        people=None if people is None else people_view(game, state, people),
    )
