"""The workshop's bodies (``routers/workshop.py``): quilts as text or from a position, the best placements of a
patch, fill and 7x7 jobs and their answers.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic.json_schema import SkipJsonSchema

from patchwork_opt.apps.placement_reasons import PlacementReasons, placement_reasons, score_rule
from patchwork_opt.apps.solutions import bonus_verdict, fill_summary, fill_verdict
from patchwork_opt.apps.web.schemas.common import (
    Cell,
    PatchIdField,
    PatchIds,
    PositionText,
    QuiltCells,
    _each_once,
    _Strict,
    optional_field,
    read_position,
    refuse_nulls,
)
from patchwork_opt.apps.web.schemas.games import PieceView, piece_view
from patchwork_opt.core.bitboard import cells_of
from patchwork_opt.core.catalogue import PATCHES, button_cells, fits_anywhere
from patchwork_opt.core.errors import PatchworkError, words
from patchwork_opt.core.quilt import Quilt
from patchwork_opt.core.state import State, marks_ahead
from patchwork_opt.formats.notation import to_notation
from patchwork_opt.i18n import _
from solvers.bestfit import BestFitResult
from solvers.bonus import BonusResult
from solvers.fill import FillResult
from solvers.model import PlacedPatch

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
                raise ValueError(_("not a 9x9 quilt: {reason}", reason=words(exc))) from None
            raise ValueError(_("not a 9x9 quilt: write 9 lines of 9 characters, . for an empty cell and # (or any "
                               "printable ASCII character) for a covered one"))
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
            raise ValueError(_("next: patch {patch} is the patch being placed (each patch exists once)",
                               patch=self.patch))
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
