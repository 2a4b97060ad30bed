"""Puzzles: the Puzzles page, a puzzle without its answer, and the verdict on an answer with its proof.

The routes parse, call and render. Which puzzle a visitor gets next (the difficulty that follows
them, missed puzzles that come back, streaks, the daily puzzle, themes) is the selection policy of
``puzzles/selection.py``; what a puzzle of each kind shows and how an answer is judged, its kind's
(``puzzles/kinds``). A puzzle comes from the shipped bank (``puzzles/bank.py``), or is made in the
bounded job queue (``Services.make_puzzle``, the solvers' ``puzzle new``) when the bank has none left
for the visitor, or comes from a reviewed game (``reviews.py``); those are kept in the puzzle store.
An answer is judged (in the job queue when its kind searches: an endgame's proof), then the visitor's
habits and, for a rated kind, both Glicko-2 ratings move in one transaction of the visitor store;
only a visitor's first answer to a puzzle counts. A visitor is an id the server hands out with the
first answer (the page keeps it); an unknown one is 422.

Every view has the fields all kinds share, the position for a puzzle answered by a move
(``position``), and its kind's ``details``; ``endgame`` and ``fill`` are the fields the page read
before the kinds were a registry, kept as they were.
"""

from __future__ import annotations

import json
import random
from datetime import UTC, date, datetime
from typing import Annotated, Any, Literal, cast

from fastapi import APIRouter, Depends, Request
from fastapi import Path as PathParam
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic.json_schema import SkipJsonSchema

from patchwork_opt.apps.practice import grade
from patchwork_opt.apps.web.deps import (
    AnalysesDep,
    ClientDep,
    CreationsDep,
    PuzzleStoreDep,
    ServicesDep,
    VisitorStoreDep,
    WholeNumbersRoute,
    Worker,
    WorkerDep,
    in_thread,
    strict_body,
)
from patchwork_opt.apps.web.errors import answers
from patchwork_opt.apps.web.game_store import new_game_id
from patchwork_opt.apps.web.jobs import BusyError
from patchwork_opt.apps.web.routers.pages import STATIC_DIR
from patchwork_opt.apps.web.schemas import OfferView, PlayerBoard, optional_field, piece_view, refuse_nulls
from patchwork_opt.apps.web.services import Services
from patchwork_opt.core.bitboard import mask_of
from patchwork_opt.core.catalogue import PATCHES
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.move import Move
from patchwork_opt.core.state import State
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.core.words import line_words, patch_words, words_in
from patchwork_opt.formats.models import CellModel, MoveModel, PositionModel, move_from_model, move_model
from patchwork_opt.puzzles.bank import Bank, shipped_bank
from patchwork_opt.puzzles.glicko import Rating, rate_answer
from patchwork_opt.puzzles.kinds import (
    BANKED,
    ID_PATTERN,
    KINDS,
    THEME_WORDS,
    THEMES,
    Judging,
    Puzzle,
    PuzzleDetails,
    VerdictDetails,
    kind_of,
)
from patchwork_opt.puzzles.kinds.base import Answer, AnswerForm, PuzzleKind, Verdict, line_players
from patchwork_opt.puzzles.kinds.fill import read_placements
from patchwork_opt.puzzles.model import PlacementModel
from patchwork_opt.puzzles.selection import PuzzleRequest, daily_puzzle, find_puzzle, pick, repeated, start_rating
from patchwork_opt.puzzles.stores import RETRY_AFTER, PuzzleStore, RatedAnswer, VisitorStats

PuzzleId = Annotated[str, PathParam(pattern=ID_PATTERN, description="the puzzle's id")]
VisitorId = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{16,64}$", description="the visitor's id (from an answer)")]

router = APIRouter(tags=["puzzles"], route_class=WholeNumbersRoute)


class TooManyVisitorsError(BusyError):
    """A client that started its share of new visitors (as of new games) for now (429)."""

    http_status = 429


class AnswerError(PatchworkError):
    """An answer of the other form: a move for a fill, placements for a puzzle answered by a move (422)."""

    http_status = 422


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
                      description="find the winning move (endgame), or fill the quilt (fill)")
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
            raise ValueError(f"unknown kind {kind!r}: a new puzzle is one of {', '.join(BANKED)}")
        return kind

    @field_validator("theme")
    @classmethod
    def _known_theme(cls, theme: str | None) -> str | None:
        if theme is not None and theme not in THEMES:
            raise ValueError(f"unknown theme {theme!r}: the themes are {', '.join(THEMES)}")
        return theme

    @model_validator(mode="after")
    def _no_nulls(self) -> NewPuzzleRequest:
        refuse_nulls(self, ("difficulty", "theme", "visitor", "instead_of"))
        themes = KINDS[self.kind].themes
        if self.theme is not None and self.theme not in themes:
            raise ValueError(f"theme {self.theme!r} is no {self.kind} theme: an {self.kind} puzzle's themes are "
                             f"{', '.join(themes)}")
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
            raise ValueError("give exactly one of move (a puzzle set in a position) or placements (a fill)")
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

    endgame: list[ThemeChoice]
    fill: list[ThemeChoice]
    kinds: dict[str, list[ThemeChoice]] = Field(description="every kind a new puzzle may be of, with its themes")


class PositionView(BaseModel):
    """The position of a puzzle answered by a move, as a game view draws it, and whose move it is."""

    player: int = Field(description="the player to move (the visitor plays them)")
    pending_leather: bool = Field(description="the player must place a leather patch: the answer is its cell")
    state: PositionModel
    boards: list[PlayerBoard]
    offers: list[OfferView]
    upcoming: list[int]


class EndgameView(PositionView):
    """An endgame's position and counts (the page's fields from before the kinds registry)."""

    legal: int = Field(description="distinct legal moves (placements equal up to the board's symmetries count once)")
    winning: int = Field(description="how many of them win")


class FillView(BaseModel):
    """A fill's quilt and patches (the page's fields from before the kinds registry)."""

    quilt: list[CellModel] = Field(description="covered cells")
    patches: list[int] = Field(description="the patches to choose from, each at most once")
    objective: Literal["cells", "points"]
    marks: int = Field(description="income marks ahead (the points objective counts income at each)")
    budget: int | None = Field(description="buttons to spend at most, or null")
    require_bonus: bool = Field(description="a 7x7 square must be completed")


#: The view's fields from before the kinds registry (issue 41), each named after the kind it was for.
LEGACY_KINDS = ("endgame", "fill")


class PuzzleView(BaseModel):
    """A puzzle without its answer."""

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
    details: PuzzleDetails = Field(description="what its kind tells beyond the fields all kinds share")
    endgame: EndgameView | None = Field(description="an endgame's position and counts (also in position, details)")
    fill: FillView | None = Field(description="a fill's quilt and patches (also in details)")


class AnswerView(BaseModel):
    """The verdict with its proof, the answer revealed, and both ratings after the answer."""

    puzzle: str
    correct: bool
    text: str
    margin: float = Field(
        description="a move: the final margin for the visitor (expected, for an exercise); a fill: value - optimum")
    line: list[MoveModel] = Field(description="a move: the move and best play after it")
    line_words: list[str] = Field(description="a move: each move of line in words, for the player who makes it")
    line_players: list[int] = Field(description="a move: who makes each move of the line (0 or 1)")
    details: VerdictDetails = Field(description="what the puzzle's kind tells of the verdict")
    winning: list[MoveModel] = Field(description="endgame: one move of each winning class (also in details)")
    winning_words: list[str] = Field(description="endgame: each winning move in words")
    value: int | None = Field(description="fill: what the answer reaches (also in details)")
    best: int | None = Field(description="fill: the proven optimum (also in details)")
    optimum: list[PlacementModel] = Field(description="fill: the optimum's placements (also in details)")
    optimum_words: list[str] = Field(description="fill: each placement of the optimum in words (\"#12 at rows 0-2, "
                                                 "cols 1-3, turned right\")")
    visitor: VisitorView
    rating: RatingView = Field(description="the puzzle's rating after the answer")
    rated: bool = Field(description="False when the visitor had answered this puzzle before, or its kind is not "
                                    "rated (nothing moved)")
    again: bool = Field(description=f"answered wrong: the puzzle comes back after {RETRY_AFTER} more answers")


#: The verdict's fields from before the kinds registry, and what they are for a kind without them.
LEGACY_VERDICT: dict[str, Any] = {"winning": [], "value": None, "best": None, "optimum": []}


async def _bank(request: Request) -> Bank:
    """The bank on ``app.state.puzzle_bank`` (tests put their own there), else the shipped one (read
    and validated once, off the event loop)."""
    given = getattr(request.app.state, "puzzle_bank", None)
    return cast(Bank, given) if given is not None else await in_thread(shipped_bank)


BankDep = Annotated[Bank, Depends(_bank)]


def rating_view(rating: Rating) -> RatingView:
    return RatingView(rating=round(rating.rating, 1), deviation=round(rating.deviation, 1))


def theme_views(themes: tuple[str, ...] | list[str]) -> list[ThemeView]:
    return [ThemeView(theme=t, words=THEME_WORDS[t]) for t in themes]


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
    position = position_view(state) if state is not None else None
    details: Any = kind.details(puzzle)
    # the fields from before the registry: the one named like the kind holds its position and details
    legacy: dict[str, Any] = dict.fromkeys(LEGACY_KINDS)
    if kind.name in legacy:
        legacy[kind.name] = {**(position.model_dump() if position else {}), **details.model_dump(exclude={"kind"})}
    return PuzzleView(id=puzzle.id, kind=kind.name, difficulty=puzzle.difficulty, task=kind.task(puzzle),
                      answer=kind.answer, rating=rating_view(rating), visitor=visitor,
                      themes=theme_views(puzzle.themes), retry=retry,
                      daily=None if daily is None else daily.isoformat(), position=position, details=details,
                      **legacy)


@router.get("/puzzles", include_in_schema=False)
async def puzzles_page() -> FileResponse:
    return FileResponse(STATIC_DIR / "puzzles.html")


@router.post("/api/puzzles", responses=answers(404, 413, 422, 429, 503),
             dependencies=[Depends(strict_body(NewPuzzleRequest))])
async def new_puzzle(body: NewPuzzleRequest, puzzles: PuzzleStoreDep, visitors: VisitorStoreDep, bank: BankDep,
                     services: ServicesDep, worker: WorkerDep) -> PuzzleView:
    """A puzzle without its answer: one the visitor missed that is due again (``retry``), else one from
    the shipped bank they have not answered, else one made now in the job queue (422: an unknown
    visitor; 404: no puzzle of the theme at all). Without a difficulty (and in streak mode) the
    difficulty follows the visitor's rating (their streak)."""
    request = PuzzleRequest(kind=body.kind, difficulty=body.difficulty, theme=body.theme, streak=body.streak,
                            visitor=body.visitor, instead_of=body.instead_of)
    picked = await in_thread(lambda: pick(request, bank, puzzles, visitors))
    puzzle = picked.puzzle
    if puzzle is None:
        puzzle = await _made_or_repeated(body.kind, picked.difficulty, puzzles, bank, services, worker)
    found = puzzle
    rating = await in_thread(lambda: visitors.puzzle_rating(found.id, start_rating(found)))
    return puzzle_view(puzzle, rating, stats_view(body.visitor, picked.stats), retry=picked.retry)


async def _made_or_repeated(kind: str, difficulty: int, puzzles: PuzzleStore, bank: Bank, services: Services,
                            worker: Worker) -> Puzzle:
    """A new puzzle made in the job queue and kept in the store; without a maker, a bank puzzle again."""
    make = services.make_puzzle
    if make is None:
        return repeated(bank, kind, difficulty)
    seed = random.randrange(1 << 31)
    made = cast(Puzzle, await worker.run(lambda stop: make(kind, difficulty, seed, stop)))
    await in_thread(lambda: puzzles.keep_puzzle(made.id, made.kind, json.dumps(made.to_json())))
    return made


@router.get("/api/puzzles/themes")
async def puzzle_themes(bank: BankDep) -> ThemesView:
    """The themes a new puzzle may ask for, by kind, each with its words and how many puzzles of this
    server's bank carry it."""
    kinds = {name: [ThemeChoice(theme=t, words=THEME_WORDS[t], puzzles=len(bank.of(name, theme=t)))
                    for t in KINDS[name].themes] for name in BANKED}
    return ThemesView(endgame=kinds.get("endgame", []), fill=kinds.get("fill", []), kinds=kinds)


@router.get("/api/puzzles/daily", responses=answers(503))
async def daily(visitors: VisitorStoreDep, bank: BankDep) -> PuzzleView:
    """Today's puzzle (the UTC date): the same for everyone on this server all day (503: no bank)."""
    today = datetime.now(UTC).date()
    puzzle = daily_puzzle(bank, today)
    rating = await in_thread(lambda: visitors.puzzle_rating(puzzle.id, start_rating(puzzle)))
    return puzzle_view(puzzle, rating, None, daily=today)


@router.get("/api/puzzles/{puzzle_id}", responses=answers(404, 422))
async def read_puzzle(puzzle_id: PuzzleId, puzzles: PuzzleStoreDep, visitors: VisitorStoreDep,
                      bank: BankDep) -> PuzzleView:
    """A puzzle without its answer, by id (404: no such puzzle)."""
    puzzle = await in_thread(lambda: find_puzzle(bank, puzzles, puzzle_id))
    rating = await in_thread(lambda: visitors.puzzle_rating(puzzle.id, start_rating(puzzle)))
    return puzzle_view(puzzle, rating, None)


def _answer_of(kind: PuzzleKind[Any, Any], body: AnswerRequest) -> Answer:
    """The answer in the form the puzzle's kind takes: ``AnswerError`` (422) for the other form."""
    if kind.answer == "move":
        if body.move is None:
            raise AnswerError(f"a{'n' if kind.name[0] in 'aeiou' else ''} {kind.name} puzzle is answered with a move, "
                              "not placements")
        return move_from_model(body.move)
    if body.placements is None:
        raise AnswerError(f"a {kind.name} puzzle is answered with placements, not a move")
    return read_placements([p.model_dump() for p in body.placements])


@router.post("/api/puzzles/{puzzle_id}/answer", responses=answers(404, 413, 422, 429, 503),
             dependencies=[Depends(strict_body(AnswerRequest))])
async def answer_puzzle(puzzle_id: PuzzleId, body: AnswerRequest, puzzles: PuzzleStoreDep,
                        visitors: VisitorStoreDep, bank: BankDep, worker: WorkerDep, analyses: AnalysesDep,
                        creations: CreationsDep, client: ClientDep) -> AnswerView:
    """The verdict with its proof (a search, when the kind needs one, in the job queue) and the
    ratings after it. 422 names why a move or placement is illegal, or an unknown visitor; 404: no
    such puzzle."""
    puzzle = await in_thread(lambda: find_puzzle(bank, puzzles, puzzle_id))
    kind = kind_of(puzzle)
    answer = _answer_of(kind, body)
    kind.check(puzzle, answer)  # an illegal move is refused before it takes a slot in the queue
    if kind.queued:
        def judged(stop: StopSignal) -> Verdict:
            judging = Judging(stop=stop.attach, analysis_of=analyses.bound_to(stop), grade=grade)
            verdict: Verdict = kind.judge(puzzle, answer, judging)
            return verdict

        verdict = await worker.run(judged)
    else:
        verdict = kind.judge(puzzle, answer, Judging())
    visitor = body.visitor
    if visitor is None:
        wait = creations.take(client)
        if wait:
            raise TooManyVisitorsError(f"too many new visitors from you; retry in {wait}s", wait)
        visitor = new_game_id()
        await in_thread(lambda: visitors.new_visitor(visitor, Rating()))
    known = visitor
    rated = await in_thread(lambda: visitors.rate_answer(known, puzzle.id, verdict.correct, start_rating(puzzle),
                                                         rate_answer, streak=body.streak, rated=kind.rated))
    return _answer_view(puzzle, verdict, visitor, rated)


def _answer_view(puzzle: Puzzle, verdict: Verdict, visitor_id: str, rated: RatedAnswer) -> AnswerView:
    kind = kind_of(puzzle)
    state = kind.position(puzzle)
    details: Any = kind.verdict_details(puzzle, verdict)
    # the fields from before the registry: each filled by the kind's detail of the same name, if any
    told = details.model_dump()
    legacy = {name: told.get(name, empty) for name, empty in LEGACY_VERDICT.items()}
    return AnswerView(
        puzzle=puzzle.id, correct=verdict.correct, text=verdict.text, margin=verdict.margin,
        line=[move_model(m) for m in verdict.moves],
        line_players=line_players(state, verdict.moves) if state is not None else [], details=details, **legacy,
        line_words=line_words(state, verdict.moves) if state is not None else [],
        winning_words=[words_in(state, Move.from_json(m)) for m in legacy["winning"]] if state is not None else [],
        optimum_words=[patch_words(p["patch"], mask_of(tuple(c) for c in p["cells"])) for p in legacy["optimum"]],
        visitor=visitor_view(visitor_id, rated.visitor, rated.streak, rated.best_streak),
        rating=rating_view(rated.puzzle), rated=rated.rated, again=rated.again,
    )

