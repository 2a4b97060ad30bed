"""The Puzzles API's bodies: a request for a puzzle or an answer, a puzzle without its answer, and the
verdict with its proof and both ratings after it.

Every view has the fields all kinds share, the position of a puzzle answered by a move (``position``),
and what its kind tells beyond them in one place, its ``details`` (``PuzzleKind.details`` and
``verdict_details``, told apart by ``kind``): a kind's data is never repeated in fields of its own.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic.json_schema import SkipJsonSchema

from patchwork_opt.apps.web.schemas.common import optional_field, refuse_nulls
from patchwork_opt.apps.web.schemas.games import OfferView, PlayerBoard, piece_view
from patchwork_opt.core.catalogue import PATCHES
from patchwork_opt.core.state import State
from patchwork_opt.core.words import line_words
from patchwork_opt.formats.models import MoveModel, PositionModel, move_model
from patchwork_opt.i18n import _
from patchwork_opt.puzzles.glicko import Rating
from patchwork_opt.puzzles.kinds import (
    BANKED,
    ID_PATTERN,
    KINDS,
    THEME_WORDS,
    THEMES,
    Puzzle,
    PuzzleDetails,
    VerdictDetails,
    kind_of,
)
from patchwork_opt.puzzles.kinds.base import AnswerForm, Verdict, line_players
from patchwork_opt.puzzles.model import PlacementModel
from patchwork_opt.puzzles.stores import RETRY_AFTER, RatedAnswer, VisitorStats

VisitorId = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{16,64}$", description="the visitor's id (from an answer)")]


def _request_forms() -> Any:
    """The published schema's one form per kind a request may name, with that kind's themes (the
    first kind is the default, so a request for it may leave ``kind`` out)."""
    forms: list[Any] = []
    for i, name in enumerate(BANKED):
        form: dict[str, Any] = {"properties": {"kind": {"const": name}, "theme": {"enum": list(KINDS[name].themes)}}}
        if i:
            form["required"] = ["kind"]
        forms.append(form)
    return forms


class NewPuzzleRequest(BaseModel):
    """A puzzle of a kind (difficulty, theme): one of the visitor's missed puzzles that is due again,
    else one they have not answered yet when possible."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"oneOf": _request_forms()})

    kind: str = Field(default=BANKED[0], json_schema_extra={"enum": list(BANKED)},
                      description="; ".join(f"{name}: {KINDS[name].label}" for name in BANKED))
    difficulty: Annotated[int, Field(ge=1, le=5)] | SkipJsonSchema[None] = optional_field(
        "1 (easy) to 5; when left out it follows the visitor's rating (1-2 for a newcomer); "
        "ignored in streak mode")
    theme: Annotated[str, Field(json_schema_extra={"enum": list(THEMES)})] | SkipJsonSchema[None] = optional_field(
        "a theme of the kind's puzzles (" + "; ".join(f"{k}: {', '.join(KINDS[k].themes)}" for k in BANKED) + ")")
    streak: bool = Field(default=False, description="streak mode: the difficulty climbs with the visitor's streak")
    visitor: VisitorId | SkipJsonSchema[None] = optional_field("the visitor asking (their rating comes back)")
    instead_of: Annotated[str, Field(pattern=ID_PATTERN)] | SkipJsonSchema[None] = optional_field(
        "the puzzle on screen: another one is served while one fits")

    @field_validator("kind")
    @classmethod
    def _known_kind(cls, kind: str) -> str:
        if kind not in BANKED:
            # Translators: {kind} and {kinds} are the API's names of puzzle kinds (left in English)
            raise ValueError(_("unknown kind {kind}: a new puzzle is one of {kinds}",
                               kind=repr(kind), kinds=", ".join(BANKED)))
        return kind

    @field_validator("theme")
    @classmethod
    def _known_theme(cls, theme: str | None) -> str | None:
        if theme is not None and theme not in THEMES:
            # Translators: {theme} and {themes} are the API's names of puzzle themes (left in English)
            raise ValueError(_("unknown theme {theme}: the themes are {themes}",
                               theme=repr(theme), themes=", ".join(THEMES)))
        return theme

    @model_validator(mode="after")
    def _no_nulls(self) -> NewPuzzleRequest:
        refuse_nulls(self, ("difficulty", "theme", "visitor", "instead_of"))
        themes = KINDS[self.kind].themes
        if self.theme is not None and self.theme not in themes:
            raise ValueError(_("theme {theme} is no {kind} theme: an {kind} puzzle's themes are {themes}",
                               theme=repr(self.theme), kind=self.kind, themes=", ".join(themes)))
        return self


class AnswerRequest(BaseModel):
    """A ``move`` (a puzzle set in a position) or a fill's ``placements`` (exactly one); ``visitor``
    left out the first time."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"oneOf": [
        {"required": ["move"], "not": {"required": ["placements"]}},
        {"required": ["placements"], "not": {"required": ["move"]}},
    ]})

    move: MoveModel | SkipJsonSchema[None] = optional_field("the answer to a puzzle set in a position")
    placements: Annotated[list[PlacementModel], Field(max_length=33)] | SkipJsonSchema[None] = optional_field(
        "a fill's answer: the patches and the cells each covers")
    visitor: VisitorId | SkipJsonSchema[None] = optional_field("the visitor answering; a new one is made when left out")
    streak: bool = Field(default=False, description=(
        "the answer is part of the visitor's streak: a right first answer lengthens it, a wrong one ends it"))

    @model_validator(mode="after")
    def _exactly_one(self) -> AnswerRequest:
        refuse_nulls(self, ("move", "placements", "visitor"))
        if (self.move is None) == (self.placements is None):
            raise ValueError(_("give exactly one of move (a puzzle set in a position) or placements (a fill)"))
        return self


class RatingView(BaseModel):
    rating: float
    deviation: float


class VisitorView(RatingView):
    id: str
    streak: int = Field(description="correct first answers in a row in streak mode, up to now")
    best_streak: int = Field(description="the longest streak the visitor reached")


class ThemeView(BaseModel):
    theme: str = Field(description="the theme's name, as a request asks for it")
    words: str = Field(description="the theme in words")


class ThemeChoice(ThemeView):
    puzzles: int = Field(description="how many of this server's bank puzzles carry it (0: asking for it is 404)")


class ThemesView(BaseModel):
    """The themes of each kind's puzzles, with their words (for the page's theme select)."""

    kinds: dict[str, list[ThemeChoice]] = Field(description="every kind a new puzzle may be of, in the order the "
                                                            "page offers them, with its themes")


class PositionView(BaseModel):
    """The position of a puzzle answered by a move, as a game view draws it, and whose move it is."""

    player: int = Field(description="the player to move (the visitor plays them)")
    pending_leather: bool = Field(description="the player must place a leather patch: the answer is its cell")
    state: PositionModel
    boards: list[PlayerBoard]
    offers: list[OfferView]
    upcoming: list[int]


class PuzzleView(BaseModel):
    """A puzzle without its answer: the fields all kinds share, and its kind's ``details``."""

    id: str
    kind: str = Field(json_schema_extra={"enum": list(KINDS)}, description="the puzzle's kind (puzzles/kinds)")
    difficulty: int
    task: str = Field(description="the question, in words")
    answer: AnswerForm = Field(description="how it is answered: a move, or a fill's placements")
    rating: RatingView = Field(description="the puzzle's Glicko-2 rating")
    visitor: VisitorView | None = Field(description="the visitor's rating, when the request named one")
    themes: list[ThemeView] = Field(description="what decides the puzzle, as its proof shows")
    retry: bool = Field(description="the visitor missed this puzzle before: it is served again until answered right")
    daily: str | None = Field(description="the UTC date (YYYY-MM-DD) whose daily puzzle this is, or null")
    position: PositionView | None = Field(description="the position, for a puzzle answered by a move")
    details: PuzzleDetails = Field(description="what its kind tells beyond the fields all kinds share (an "
                                               "endgame's counts, a fill's quilt and patches, an exercise's mistake)")


class AnswerView(BaseModel):
    """The verdict with its proof, the answer revealed (in ``details``), and both ratings after the answer."""

    puzzle: str
    correct: bool
    text: str
    margin: float = Field(
        description="a move: the final margin for the visitor (expected, for an exercise); a fill: value - optimum")
    line: list[MoveModel] = Field(description="a move: the move and best play after it")
    line_words: list[str] = Field(description="a move: each move of line in words, for the player who makes it")
    line_players: list[int] = Field(description="a move: who makes each move of the line (0 or 1)")
    details: VerdictDetails = Field(description="what the puzzle's kind tells of the verdict (an endgame's winning "
                                                "moves, a fill's value and optimum, an exercise's best move)")
    visitor: VisitorView
    rating: RatingView = Field(description="the puzzle's rating after the answer")
    rated: bool = Field(description="False when the visitor had answered this puzzle before, or its kind is not "
                                    "rated (nothing moved)")
    again: bool = Field(description=f"answered wrong: the puzzle comes back after {RETRY_AFTER} more answers")


def rating_view(rating: Rating) -> RatingView:
    return RatingView(rating=round(rating.rating, 1), deviation=round(rating.deviation, 1))


def theme_views(themes: tuple[str, ...] | list[str]) -> list[ThemeView]:
    return [ThemeView(theme=t, words=_(THEME_WORDS[t])) for t in themes]


def visitor_view(visitor_id: str, rating: Rating, streak: int, best_streak: int) -> VisitorView:
    return VisitorView(id=visitor_id, **rating_view(rating).model_dump(), streak=streak, best_streak=best_streak)


def stats_view(visitor_id: str | None, stats: VisitorStats | None) -> VisitorView | None:
    if visitor_id is None or stats is None:
        return None
    return visitor_view(visitor_id, stats.rating, stats.streak, stats.best_streak)


def position_view(state: State) -> PositionView:
    buyable = set(state.buyable())
    return PositionView(
        player=state.to_move(), pending_leather=state.pending >= 0, state=PositionModel.of(state),
        boards=[PlayerBoard(pieces=[piece_view(pid, mask) for pid, mask in state.placed[p]],
                            covered=state.quilts[p].bit_count()) for p in (0, 1)],
        offers=[OfferView(patch=pid, cost=PATCHES[pid].cost, time=PATCHES[pid].time, income=PATCHES[pid].income,
                          buyable=pid in buyable) for pid in state.offers()],
        upcoming=state.circle[len(state.offers()):],
    )


def puzzle_view(puzzle: Puzzle, rating: Rating, visitor: VisitorView | None, *, retry: bool = False,
                daily: date | None = None) -> PuzzleView:
    kind = kind_of(puzzle)
    state = kind.position(puzzle)
    details: Any = kind.details(puzzle)
    return PuzzleView(id=puzzle.id, kind=kind.name, difficulty=puzzle.difficulty, task=kind.task(puzzle),
                      answer=kind.answer, rating=rating_view(rating), visitor=visitor,
                      themes=theme_views(puzzle.themes), retry=retry,
                      daily=None if daily is None else daily.isoformat(),
                      position=position_view(state) if state is not None else None, details=details)


def themes_view(counts: dict[str, dict[str, int]]) -> ThemesView:
    """Each banked kind's themes with their words, and how many puzzles of the bank carry each
    (``counts[kind][theme]``)."""
    return ThemesView(kinds={name: [ThemeChoice(theme=t, words=_(THEME_WORDS[t]), puzzles=counts[name][t])
                                    for t in KINDS[name].themes] for name in BANKED})


def answer_view(puzzle: Puzzle, verdict: Verdict, visitor_id: str, rated: RatedAnswer) -> AnswerView:
    kind = kind_of(puzzle)
    state = kind.position(puzzle)
    details: Any = kind.verdict_details(puzzle, verdict)
    return AnswerView(
        puzzle=puzzle.id, correct=verdict.correct, text=verdict.text, margin=verdict.margin,
        line=[move_model(m) for m in verdict.moves],
        line_words=line_words(state, verdict.moves) if state is not None else [],
        line_players=line_players(state, verdict.moves) if state is not None else [], details=details,
        visitor=visitor_view(visitor_id, rated.visitor, rated.streak, rated.best_streak),
        rating=rating_view(rated.puzzle), rated=rated.rated, again=rated.again,
    )
