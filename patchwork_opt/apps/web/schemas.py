"""The service's request and response bodies (pydantic): what the OpenAPI docs publish.

Moves, records and positions reuse the project-wide models of ``patchwork_opt.formats.models``, so
the service speaks exactly the formats of RULES.md and of the CLI's ``--json``.

The schema says what the server accepts, and the models refuse (422) exactly what the schema
refuses: cross-field rules (exactly one of position, record or quilt; a bare quilt needs a patch)
are in the schema as ``oneOf``/``anyOf``, patch lists say ``uniqueItems``, an optional field is
left out rather than sent as ``null``, and a position matches the notation's pattern. What no
schema can say (a position that cannot occur, a record whose moves the rules refuse, a patch that
fits nowhere) is answered 400 or 422 with the reason.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic.json_schema import SkipJsonSchema

from patchwork_opt.apps.chart import win_chart_svg
from patchwork_opt.apps.review import GameReview, label_rule
from patchwork_opt.apps.web.store import Game
from patchwork_opt.core.bitboard import cells_of
from patchwork_opt.core.catalogue import PATCHES, button_cells
from patchwork_opt.core.quilt import Quilt
from patchwork_opt.core.state import END, INCOME_MARKS, LEATHER_PATCH, State
from patchwork_opt.core.words import line_words
from patchwork_opt.formats.inputs import LoadedInput
from patchwork_opt.formats.models import CellModel, MoveModel, PositionModel, RecordModel, move_model
from patchwork_opt.formats.notation import from_notation
from patchwork_opt.formats.record import Record

Seat = Literal[0, 1]
Cell = tuple[int, int]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


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


class PlayMoveRequest(_Strict):
    """A move by the human, made for the position at ``ply`` (the number of moves so far)."""

    ply: int = Field(ge=0, le=1000, description="the ply the move was chosen at (from GET); 409 if stale")
    move: MoveModel


class AiMoveRequest(_Strict):
    ply: int = Field(ge=0, le=1000, description="the ply the AI should move at; 409 if stale")


class UndoRequest(_Strict):
    ply: int = Field(ge=0, le=1000, description="the ply the undo was asked at; 409 if stale")


#: The one-line position notation of RULES.md (``formats/notation.py``), field by field: circle,
#: both players (position/buttons/income/quilt), on top, pending leather, bonus, leather left,
#: first at 53, printing. The reader checks the rest (a patch twice in the circle, ...): 400.
NOTATION_PATTERN = (
    r"(-|[0-9]{1,2}(,[0-9]{1,2}){0,32})( [0-9]{1,2}/[0-9]{1,7}/[0-9]{1,4}/[0-9a-f]{21}){2}"
    r" [01] (-|[01]) (-|[01]) (-|[0-9]{1,2}(,[0-9]{1,2}){0,4}) (-|[01]) [0-9]{1,2}(,[0-9]{1,2}){4}"
)
_NOTATION = re.compile(NOTATION_PATTERN)
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
        raise ValueError(f"{sent_null[0]}: leave the field out instead of sending null")


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
            raise ValueError("not a position in the notation of RULES.md (9 space-separated fields)")
        return value

    @model_validator(mode="after")
    def _exactly_one(self) -> PositionInput:
        refuse_nulls(self, _SOURCES)
        given = [name for name in _SOURCES if getattr(self, name) is not None]
        if len(given) != 1:
            raise ValueError(f"give exactly one of position, record or quilt (got {', '.join(given) or 'none'})")
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


PatchIdField = Annotated[int, Field(ge=0, le=32)]
#: patch ids, each at most once (``uniqueItems``, checked as the schema says)
PatchIds = Annotated[list[PatchIdField], Field(max_length=33, json_schema_extra={"uniqueItems": True})]


def _each_once(ids: list[int] | None) -> list[int] | None:
    if ids is not None:
        twice = sorted({i for i in ids if ids.count(i) > 1})
        if twice:
            raise ValueError(f"patch {twice[0]} is listed twice (each patch exists once)")
    return ids


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
            raise ValueError("a bare quilt needs a patch to place")
        if self.next is not None and self.patch is None:
            raise ValueError("next patches need a patch (a position's next patches are its circle)")
        if self.pool is not None and self.quilt is None:
            raise ValueError("a pool is for a bare quilt (a position's patches to come are its circle)")
        return self


PatchList = Annotated[
    list[PatchIdField],
    Field(min_length=1, max_length=33, description="patch ids, each once", json_schema_extra={"uniqueItems": True}),
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

    @field_validator("patches")
    @classmethod
    def _patches_once(cls, ids: list[int]) -> list[int]:
        return _each_once(ids) or []

    def quilt_mask(self) -> int:
        return Quilt.from_cells(self.quilt).mask


class BonusRequest(_Strict):
    """``patchwork bonus QUILT --patches IDS [--time-limit S]``: can a 7x7 square still be completed?"""

    quilt: list[CellModel] = Field(max_length=81, description="covered cells of the quilt")
    patches: PatchList
    time_limit: float = Field(default=10.0, gt=0, le=3600, description="seconds (capped by the server)")
    workers: Workers = 2

    @field_validator("patches")
    @classmethod
    def _patches_once(cls, ids: list[int]) -> list[int]:
        return _each_once(ids) or []

    def quilt_mask(self) -> int:
        return Quilt.from_cells(self.quilt).mask


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


class PatchView(BaseModel):
    id: int
    cost: int
    time: int
    income: int
    area: int
    orientations: list[OrientationView]


class OrientationView(BaseModel):
    cells: list[Cell]
    buttons: list[Cell]
    height: int
    width: int


class Catalogue(BaseModel):
    """The fixed facts the page needs: patches with their orientations, and the time track."""

    patches: list[PatchView]
    end: int
    income_marks: list[int]


PatchView.model_rebuild()


class Health(BaseModel):
    ok: bool
    solvers: list[str] = Field(description="the solver endpoints: POST /api/<name>")
    ai: list[str] = Field(description="the AI names a game may be played against")
    analyses: dict[str, int] = Field(
        description="analyses this process made and reused from the cache (shared by every server on the database)"
    )


class AiInfo(BaseModel):
    name: str
    default: bool


class ErrorBody(BaseModel):
    detail: str


class ReviewedPly(BaseModel):
    """One ply of the review, as ``patchwork analyze --json`` prints it, plus the moves in words."""

    ply: int
    player: int
    played: MoveModel
    played_words: str = Field(description="the move played, in words (core/words.py)")
    best: MoveModel = Field(description="the AI's best move of the position (the move played when best)")
    best_words: str = Field(description="the best move, in words")
    win_before: float = Field(description="the mover's win chance with the best move, 0-1")
    win_after: float = Field(description="the mover's win chance after the move played, 0-1")
    loss: float = Field(description="win_before - win_after (at least 0)")
    points_lost: float = Field(description="the expected final margin after the best move minus after the move "
                                           "played, for the mover (at least 0)")
    loss_error: float = Field(description="the error bar of loss (the search's own uncertainty about the "
                                          "difference; 0 when exact): only the loss above it counts for the label")
    points_error: float = Field(description="the error bar of points_lost, in points")
    label: Literal["best", "good", "inaccuracy", "mistake", "blunder"]
    exact: bool = Field(description="both figures come from an exhaustive search of the rest of the game")
    played_text: str = Field(description="the move played, in words (as played_words, kept for older pages)")
    best_text: str = Field(description="the best move, in words (as best_words, kept for older pages)")


class ReviewedPlayer(BaseModel):
    name: str
    accuracy: float = Field(description="0-100: 100 when every move was the best")
    inaccuracies: int
    mistakes: int
    blunders: int


class GameReviewView(BaseModel):
    """``patchwork analyze --json`` for a stored game, plus the human's seat and the chart."""

    plies: list[ReviewedPly]
    players: list[ReviewedPlayer] = Field(description="by seat: Player 1 first")
    first_wins: list[float] = Field(description="Player 1's win chance before each ply, then after the last")
    final_scores: list[int] | None = Field(description="the scores when the game is over, else null")
    seat: Seat = Field(description="the human's seat")
    seconds_per_move: float = Field(description="analysis time per position (the request's, capped by the server)")
    chart_svg: str = Field(description="the win-chance chart (patchwork analyze --chart), marks carry data-ply")
    label_rule: str = Field(description="the rule the labels follow, in words (the page's legend)")


def review_view(review: GameReview, seat: int, seconds_per_move: float) -> GameReviewView:
    plies = [
        ReviewedPly.model_validate({**p.to_json(), "played_text": p.played_words, "best_text": p.best_words})
        for p in review.plies
    ]
    data = review.to_json()
    chart = win_chart_svg(review.first_wins, review.marks(), [p.name for p in review.players])
    return GameReviewView(
        plies=plies, players=[ReviewedPlayer.model_validate(p) for p in data["players"]],
        first_wins=data["first_wins"], final_scores=data["final_scores"], seat=0 if seat == 0 else 1,
        seconds_per_move=round(seconds_per_move, 4), chart_svg=chart,
        label_rule=label_rule(),
    )


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
            )
            for row, said in zip(game.moves, words, strict=True)
        ],
    )


def catalogue() -> Catalogue:
    return Catalogue(
        patches=[
            PatchView(
                id=p.id,
                cost=p.cost,
                time=p.time,
                income=p.income,
                area=p.area,
                orientations=[
                    OrientationView(cells=list(o.cells), buttons=list(o.buttons), height=o.height, width=o.width)
                    for o in p.orientations
                ],
            )
            for p in PATCHES
        ],
        end=END,
        income_marks=list(INCOME_MARKS),
    )

