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
from patchwork_opt.apps.judge import PlyReview, label_rule
from patchwork_opt.apps.placement_reasons import PlacementReasons, placement_reasons, score_rule
from patchwork_opt.apps.review import GameReview, measures_rule, summary_words
from patchwork_opt.apps.solutions import bonus_verdict, fill_summary, fill_verdict
from patchwork_opt.apps.web.store import Game
from patchwork_opt.core.bitboard import cells_of
from patchwork_opt.core.catalogue import LEATHER_PRINTINGS, PATCHES, button_cells, fits_anywhere
from patchwork_opt.core.errors import NotationError, PatchworkError
from patchwork_opt.core.quilt import Quilt
from patchwork_opt.core.state import END, INCOME_MARKS, LEATHER_PATCH, State, marks_ahead
from patchwork_opt.core.words import line_words
from patchwork_opt.formats.inputs import LoadedInput
from patchwork_opt.formats.models import CellModel, MoveModel, PositionModel, RecordModel, move_model
from patchwork_opt.formats.notation import from_notation, to_notation
from patchwork_opt.formats.record import Record
from solvers.bestfit import BestFitResult
from solvers.bonus import BonusResult
from solvers.fill import FillResult
from solvers.model import PlacedPatch

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
        raise ValueError("not a position in the notation of RULES.md (9 space-separated fields)")
    try:
        return from_notation(text)
    except NotationError as exc:
        raise ValueError(str(exc)) from None


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
    leather_printings: dict[str, list[int]] = Field(
        description="each printing of the board (revised, classic) with its five leather spaces")


PatchView.model_rebuild()


class Health(BaseModel):
    ok: bool
    solvers: list[str] = Field(description="the solver endpoints: POST /api/<name>")
    ai: list[str] = Field(description="the AI names a game may be played against")
    analyses: dict[str, int] = Field(
        description="analyses this process made and reused from the cache (shared by every server on the database)"
    )
    streams: dict[str, int] = Field(
        default_factory=dict,
        description="live analyses (GET /api/analysis/stream) this server runs now (running) and at most at once "
                    "(capacity), and its analysis workers that have loaded the compiled searches (ready_workers)",
    )


class AiInfo(BaseModel):
    name: str
    default: bool


class ErrorBody(BaseModel):
    detail: str = Field(description="what is wrong in one line, naming each field at fault (for programs)")
    words: str = Field(description="the same for a player, in sentences (what the pages show)")


class JudgedPly(BaseModel):
    """What a review and a teaching verdict say of one ply (``ReviewedPly``, ``MoveVerdict``)."""

    ply: int
    player: int
    played: MoveModel
    played_words: str = Field(description="the move played, in words (core/words.py)")
    best: MoveModel = Field(description="the AI's best move of the position (the move played when best)")
    best_words: str = Field(description="the best move, in words")
    win_before: float = Field(description="the mover's win chance in the position before the move (the figure after "
                                          "the previous ply: the figures chain), 0-1")
    win_after: float = Field(description="the mover's win chance in the position after the move played, 0-1")
    loss: float = Field(description="win_before - win_after (at least 0)")
    points_lost: float = Field(description="margin_before - margin_after (at least 0)")
    loss_error: float = Field(description="the analysis's own margin of error on loss (0 when proven): a move within "
                                          "it and points_error is about the same as the best, shown with no loss")
    points_error: float = Field(description="the analysis's own margin of error on points_lost, in points")
    within_noise: bool = Field(default=False, description="the move's difference from the best was within the "
                                                          "analysis's margin of error: about the same as the best, "
                                                          "shown with no loss")
    label: Literal["best", "good", "inaccuracy", "mistake", "blunder"] = Field(
        description="follows loss and points_lost alone (label_rule)")
    exact: bool = Field(description="both figures come from an exhaustive search of the rest of the game")
    played_text: str = Field(description="the move played, in words (as played_words, kept for older pages)")
    best_text: str = Field(description="the best move, in words (as best_words, kept for older pages)")


class ReviewedPly(JudgedPly):
    """One ply of the review, as ``patchwork analyze --json`` prints it, plus the moves in words."""

    margin_before: float = Field(description="the mover's expected final margin before the move, in points")
    margin_after: float = Field(description="the mover's expected final margin after the move, in points")


#: The labels that make a teaching game's verdict offer a take-back.
FLAGGED = ("mistake", "blunder")


class MoveVerdict(JudgedPly):
    """A teaching game's verdict on one of your moves, right after it: the review's ply for it (the
    same analysis, labels by ``label_rule``), with whether it is flagged."""

    flagged: bool = Field(description="a mistake or a blunder: say so, draw the best move and offer a take-back "
                                      "(POST /api/games/{id}/undo takes your last move back)")
    # a verdict a server stored before the figures chained has no margins: it still reads back
    margin_before: float | None = Field(default=None, description="the mover's expected final margin before the "
                                        "move, in points (null in a verdict stored by an older server)")
    margin_after: float | None = Field(default=None, description="the mover's expected final margin after the "
                                       "move, in points (null in a verdict stored by an older server)")


def reviewed_ply(p: PlyReview) -> dict[str, Any]:
    """A review's ply as the service shows it: ``analyze --json``'s, with the moves in words."""
    return {**p.to_json(), "played_text": p.played_words, "best_text": p.best_words}


def move_verdict(p: PlyReview) -> MoveVerdict:
    return MoveVerdict.model_validate({**reviewed_ply(p), "flagged": p.label in FLAGGED})


MoveView.model_rebuild()
GameView.model_rebuild()


class ReviewedPlayer(BaseModel):
    name: str
    accuracy: float = Field(description="0-100: 100 when every move was the best")
    inaccuracies: int
    mistakes: int
    blunders: int
    error_rate: float = Field(description="the mean win chance lost (0-1) per decision: a move with a real choice in "
                                          "a game not yet decided")
    decisions: int = Field(description="the decisions the error rate is over")
    takebacks: int = Field(description="moves this player took back")
    points_per_decision: float = Field(description="the mean expected points lost per move with a real choice, a "
                                                   "decided game's moves included")


class DealView(BaseModel):
    """The deal: how much the circle favoured each player, apart from how anyone played."""

    first_win: float = Field(description="Player 1's win chance at the start with this circle, 0-1")
    average_first_win: float = Field(description="Player 1's win chance at the start over random circles, 0-1")
    luck: list[float] = Field(description="each player's deal luck, by seat: first_win - average_first_win for "
                                          "Player 1, its opposite for Player 2 (they add up to 0)")
    circles: int = Field(description="the random circles the average is over")


class GameReviewView(BaseModel):
    """``patchwork analyze --json`` for a stored game, plus the human's seat and the chart."""

    plies: list[ReviewedPly]
    players: list[ReviewedPlayer] = Field(description="by seat: Player 1 first")
    first_wins: list[float] = Field(description="Player 1's win chance before each ply, then after the last")
    final_scores: list[int] | None = Field(description="the scores when the game is over, else null")
    decided_at: int | None = Field(description="the ply from which the result was settled (later moves changed only "
                                               "the margin); null while the game is not over")
    summary: str = Field(description="what the result reflects, in words: who won, when the game was decided, the "
                                     "points each player lost per decision")
    seat: Seat = Field(description="the human's seat")
    seconds_per_move: float = Field(description="analysis time per position (the request's, capped by the server)")
    chart_svg: str = Field(description="the win-chance chart (patchwork analyze --chart), marks carry data-ply")
    label_rule: str = Field(description="the rule the labels follow, in words (the page's legend)")
    deal: DealView | None = Field(description="the deal's luck; null for leather spaces of no printing")
    measures_rule: str = Field(description="accuracy, error rate and the deal's luck in words (the page's legend)")


def review_view(review: GameReview, seat: int, seconds_per_move: float) -> GameReviewView:
    plies = [ReviewedPly.model_validate(reviewed_ply(p)) for p in review.plies]
    data = review.to_json()
    chart = win_chart_svg(review.first_wins, review.marks(), [p.name for p in review.players])
    return GameReviewView(
        plies=plies, players=[ReviewedPlayer.model_validate(p) for p in data["players"]],
        first_wins=data["first_wins"], final_scores=data["final_scores"], decided_at=data["decided_at"],
        summary=summary_words(review), seat=0 if seat == 0 else 1,
        seconds_per_move=round(seconds_per_move, 4), chart_svg=chart,
        label_rule=label_rule(), deal=None if review.deal is None else DealView.model_validate(data["deal"]),
        measures_rule=measures_rule(),
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
                verdict=None if row.verdict is None else MoveVerdict.model_validate(row.verdict),
            )
            for row, said in zip(game.moves, words, strict=True)
        ],
        teaching=game.teaching,
        takebacks=len(game.takebacks),
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
        leather_printings={name: list(spaces) for name, spaces in LEATHER_PRINTINGS.items()},
    )



# --- the workshop (routers/workshop.py) ------------------------------------------------------------

#: A quilt as text: 9 lines of 9 printable ASCII characters, ``.`` empty and any other covered (blank
#: lines and spaces around the lines allowed). The server reads it with this pattern and Python's
#: ``re``, as Schemathesis does, so the schema and the server refuse the same texts.
QUILT_TEXT_PATTERN = r"^\s*([!-~]{9}[ \t]*\r?\n\s*){8}[!-~]{9}\s*$"
_QUILT_TEXT = re.compile(QUILT_TEXT_PATTERN)


class PatchEntry(BaseModel):
    """A patch as a player finds it (``patchwork patches --json``)."""

    id: int
    cost: int
    time: int
    income: int
    buttons: int = Field(description="buttons on the patch (its income)")
    cells: int = Field(description="how many cells it covers")
    shape: list[str] = Field(description="its rows as printed on the piece: # cloth, o a button, . nothing")
    name: str = Field(description="the fewest facts that name it, cost/time[/income[/cells]], e.g. 3/6")


class PatchListView(BaseModel):
    """The patches matching the filters (``patchwork patches --json``), or the closest when none does."""

    filters: dict[str, str]
    patches: list[PatchEntry]
    closest: list[PatchEntry] = Field(description="when no patch matches: the nearest ones")
    words: str = Field(description="when no patch matches, that in words with the closest ones; else empty")


class QuiltTextRequest(_Strict):
    """A quilt pasted as text."""

    text: Annotated[str, Field(max_length=2000, json_schema_extra={"pattern": QUILT_TEXT_PATTERN})] = Field(
        description="9 lines of 9 characters: . empty, # (any other printable ASCII character) covered")

    @field_validator("text")
    @classmethod
    def _nine_by_nine(cls, text: str) -> str:
        if not _QUILT_TEXT.search(text):
            try:
                Quilt.from_text(text)
            except PatchworkError as exc:
                raise ValueError(f"not a 9x9 quilt: {exc}") from None
            raise ValueError("not a 9x9 quilt: write 9 lines of 9 characters, . for an empty cell and # (or any "
                             "printable ASCII character) for a covered one")
        return text


class PositionQuiltRequest(_Strict):
    """A position in the notation, and whose quilt to take from it."""

    position: PositionText
    player: Annotated[int, Field(ge=0, le=1)] | SkipJsonSchema[None] = optional_field(
        "0 (Player 1) or 1 (Player 2); the player to move when left out")

    @field_validator("position")
    @classmethod
    def _notation(cls, value: str) -> str:
        read_position(value)  # a position that cannot occur is refused too: 422 naming why
        return value

    @model_validator(mode="after")
    def _no_nulls(self) -> PositionQuiltRequest:
        refuse_nulls(self, ("player",))
        return self


class WorkshopOffer(BaseModel):
    """A patch on offer in the position, for the quilt's player."""

    patch: int
    cost: int
    time: int
    income: int
    affordable: bool = Field(description="the player has the buttons for it")
    fits: bool = Field(description="it fits somewhere on the player's quilt")


class QuiltSource(BaseModel):
    """A quilt to start the workshop from: a pasted text, or a player's quilt in a position."""

    quilt: list[Cell] = Field(description="the covered cells")
    pieces: list[PieceView] = Field(description="the patches known to lie on it (-1: leather); none for a text "
                                    "or a position in the notation, whose quilts are cells only")
    player: int | None = Field(description="whose quilt it is (null for a text)")
    position: str | None = Field(description="the position it comes from, in the notation (null for a text)")
    to_move: int | None = Field(description="the player to move in that position (null: over, or a text)")
    offers: list[WorkshopOffer] = Field(description="the patches on offer in the position, in circle order")
    upcoming: list[int] = Field(description="the rest of the circle after the offers, in order")
    buttons: int | None = Field(description="the player's buttons (a budget for a fill)")
    marks_ahead: int | None = Field(description="income marks still ahead of the player (marks for a fill)")
    bonus_open: bool | None = Field(description="the 7x7 bonus tile has not been won yet")


def quilt_source(state: State | None, player: int | None, quilt: Quilt) -> QuiltSource:
    """The workshop's start from a text's ``quilt`` (``state`` None) or from ``player``'s quilt in ``state``."""
    if state is None or player is None:
        return QuiltSource(quilt=quilt.cells(), pieces=[], player=None, position=None, to_move=None, offers=[],
                           upcoming=[], buttons=None, marks_ahead=None, bonus_open=None)
    mask, buttons = state.quilts[player], state.buttons[player]
    offers = state.offers()
    return QuiltSource(
        quilt=cells_of(mask), pieces=[piece_view(pid, m) for pid, m in state.placed[player]], player=player,
        position=to_notation(state), to_move=None if state.is_terminal() else state.to_move(),
        offers=[WorkshopOffer(patch=pid, cost=PATCHES[pid].cost, time=PATCHES[pid].time,
                              income=PATCHES[pid].income, affordable=PATCHES[pid].cost <= buttons,
                              fits=fits_anywhere(pid, mask)) for pid in offers],
        upcoming=state.circle[len(offers):], buttons=buttons, marks_ahead=marks_ahead(state.pos[player]),
        bonus_open=state.bonus < 0,
    )


class PlacementsRequest(_Strict):
    """The best placements of ``patch`` on a quilt, with the next patches as look-ahead."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"description": (
        "The best placements of a patch on a quilt. The next patches (look-ahead) must not repeat the patch "
        "(422); a patch that fits nowhere is refused (422).")})

    quilt: QuiltCells = Field(default_factory=list, description="the covered cells; an empty quilt when left out")
    patch: PatchIdField = Field(description="the patch to place")
    next: PatchIds = Field(default_factory=list, description="the next patches: a placement that leaves them less "
                           "room scores lower")
    pool: PatchIds | SkipJsonSchema[None] = optional_field(
        "the patches still to come, for the cells nothing can fill (default: every patch but this one)")
    top: int = Field(default=5, ge=1, le=20, description="placements to answer, best first")

    @field_validator("next", "pool")
    @classmethod
    def _patches_once(cls, ids: list[int] | None) -> list[int] | None:
        return _each_once(ids)

    @model_validator(mode="after")
    def _patch_not_next(self) -> PlacementsRequest:
        refuse_nulls(self, ("pool",))
        if self.patch in self.next:
            raise ValueError(f"next: patch {self.patch} is the patch being placed (each patch exists once)")
        return self

    def quilt_mask(self) -> int:
        return Quilt.from_cells(self.quilt).mask


class PlacementView(BaseModel):
    """One placement, best first: where, its score and the parts it is made of, in words."""

    rank: int
    cells: list[Cell]
    buttons: list[Cell] = Field(description="the cells showing a button")
    score: float
    exact: bool = Field(description="false when the next patches' part is a bound (the time ran out), not proven")
    parts: dict[str, float] = Field(description="the score's parts (as patchwork hint --json)")
    reasons: PlacementReasons


class PlacementsView(BaseModel):
    """The best placements of a patch on a quilt, with their reasons in words."""

    patch: int
    legal: int = Field(description="legal placements of the patch on the quilt")
    lookahead: list[int] = Field(description="the next patches")
    lookahead_cover_before: int = Field(description="cells of the next patches that fit before placing")
    exact: bool = Field(description="every placement's figures proven")
    placements: list[PlacementView]
    score_rule: str = Field(description="how a score is made, in words")
    wall_time: float


def placements_view(quilt: int, result: BestFitResult) -> PlacementsView:
    return PlacementsView(
        patch=result.patch, legal=result.legal, lookahead=result.lookahead,
        lookahead_cover_before=result.lookahead_cover_before, exact=result.exact,
        placements=[
            PlacementView(rank=rank, cells=hint.cells, buttons=button_cells(result.patch, hint.mask), score=hint.score,
                          exact=hint.exact, parts=hint.parts, reasons=placement_reasons(quilt, hint, result))
            for rank, hint in enumerate(result.hints, start=1)
        ],
        score_rule=score_rule(result.weights), wall_time=round(result.wall_time, 4),
    )


class FillAnswer(BaseModel):
    """An optimal fill's answer: its status and what it places in words, the pieces to draw, and the
    CLI's JSON (``patchwork fill --json``)."""

    verdict: str = Field(description="\"optimal (proven)\", \"the best found; at most N cells can be covered\", "
                         "\"impossible: <reason>\" or \"not settled in time: <reason>\"")
    summary: str = Field(description="what it places, covers and costs, with its income")
    pieces: list[PieceView]
    result: FillResult


class BonusAnswer(BaseModel):
    """The 7x7 question's answer: in words, the pieces to draw, and ``patchwork bonus --json``."""

    verdict: str = Field(description="\"feasible: the square at ... can be completed with ...\", "
                         "\"impossible: <reason>\" or \"not settled in time: <reason>\"")
    pieces: list[PieceView]
    result: BonusResult


JobKind = Literal["fill", "bonus"]


class JobProgressView(BaseModel):
    elapsed: float = Field(description="seconds running (0 while waiting in line)")
    time_limit: float = Field(description="seconds it may run at most (the request's, capped by the server)")
    phase: str = Field(description="what the solver is doing, in words (\"\" before it says)")
    best: float | None = Field(description="the best value found so far (cells or points)")
    bound: float | None = Field(description="the most that can be reached, as proven so far")


class JobView(BaseModel):
    """A workshop job: its state, progress and, once it has one, its answer."""

    id: str
    kind: JobKind
    state: Literal["queued", "running", "done", "cancelled", "failed"] = Field(
        description="queued (waiting for a solver), running, done, cancelled (the answer, if any, is the best found "
        "before), failed (see error)")
    words: str = Field(description="the state in words, for the page")
    progress: JobProgressView
    fill: FillAnswer | None = Field(description="the answer of a fill, once there is one")
    bonus: BonusAnswer | None = Field(description="the answer of a 7x7 question, once there is one")
    error: str | None = Field(description="why a failed job has no answer")
    freed_after: float | None = Field(description="seconds from Cancel until the job's worker was free for the next "
                                      "job (null: not cancelled)")
    stopped_after: float | None = Field(description="seconds from Cancel until the solver returned (null: not "
                                        "cancelled while running, or not returned yet); past freed_after when the "
                                        "solver was left to finish as an orphan")
    links: dict[str, str] = Field(
        description="the job (self, cancel) and, once it has an answer, its exports (svg, png, json)")
    more_seconds: float | None = Field(
        description="the seconds this server would give the same question asked again (its cap), when the job's "
        "time ran out with its answer still open (not proven optimal, not settled) and it had less; else null")


def placed_pieces(placements: list[PlacedPatch]) -> list[PieceView]:
    return [piece_view(p.patch, p.mask) for p in placements]


def fill_answer(result: FillResult) -> FillAnswer:
    return FillAnswer(verdict=fill_verdict(result), summary=fill_summary(result),
                      pieces=placed_pieces(result.placements), result=result)


def bonus_answer(result: BonusResult) -> BonusAnswer:
    return BonusAnswer(verdict=bonus_verdict(result), pieces=placed_pieces(result.placements), result=result)
