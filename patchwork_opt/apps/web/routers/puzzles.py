"""Puzzles: the Puzzles page, a puzzle without its answer, and the verdict on an answer with its proof.

A puzzle comes from the shipped bank (``puzzles/bank.py``), one the visitor has not answered yet;
when the bank has none left for them, a new one is made in the bounded job queue (``Services.make_puzzle``,
the solvers' ``puzzle new``) and kept in the games store. An answer is judged (an endgame's by the
exact search, in the job queue), then the visitor's and the puzzle's Glicko-2 ratings move in one
transaction of the store; only a visitor's first answer to a puzzle counts. A visitor is an id the
server hands out with the first answer (the page keeps it); an unknown one is 422.

Playing habits: when a request names no difficulty, the difficulty follows the visitor's rating
(a newcomer's first answers are at difficulty 1-2); a puzzle answered wrong is served again once
the visitor gave ``RETRY_AFTER`` more answers, until it is answered right (``retry`` in the view;
only the first answer moves ratings); in streak mode the difficulty climbs with the streak's length
until the first miss; the daily puzzle is one bank puzzle a UTC date, the same for everyone; a
request may ask for a ``theme`` (``model.THEMES``, said in words by ``THEME_WORDS``).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Annotated, Any, Literal, cast

from fastapi import APIRouter, Depends, Request
from fastapi import Path as PathParam
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic.json_schema import SkipJsonSchema

from patchwork_opt.apps.web.deps import (
    ClientDep,
    CreationsDep,
    ServicesDep,
    StoreDep,
    WholeNumbersRoute,
    WorkerDep,
    in_thread,
    strict_body,
)
from patchwork_opt.apps.web.errors import ServiceMissingError, answers
from patchwork_opt.apps.web.jobs import BusyError
from patchwork_opt.apps.web.routers.service import STATIC_DIR
from patchwork_opt.apps.web.schemas import OfferView, PlayerBoard, optional_field, piece_view, refuse_nulls
from patchwork_opt.apps.web.store import RETRY_AFTER, GameStore, RatedAnswer, VisitorStats, new_game_id
from patchwork_opt.core.bitboard import cells_of
from patchwork_opt.core.catalogue import PATCHES
from patchwork_opt.core.errors import PatchworkError
from patchwork_opt.core.stop import StopSignal
from patchwork_opt.core.words import line_words, patch_words, words_in
from patchwork_opt.formats.models import CellModel, MoveModel, PositionModel, move_from_model, move_model
from patchwork_opt.puzzles.bank import Bank, PuzzleNotFoundError, shipped_bank
from patchwork_opt.puzzles.glicko import START_RATING, Rating, rate_answer
from patchwork_opt.puzzles.judge import (
    JUDGE_SECONDS,
    EndgameVerdict,
    FillVerdict,
    judge_endgame,
    judge_fill,
    read_placements,
)
from patchwork_opt.puzzles.model import (
    ENDGAME_THEMES,
    FILL_THEMES,
    ID_PATTERN,
    KINDS,
    THEMES,
    EndgamePuzzle,
    FillPuzzle,
    PlacementModel,
    Puzzle,
    puzzle_from_json,
)
from patchwork_opt.puzzles.proof import Prover

PuzzleId = Annotated[str, PathParam(pattern=ID_PATTERN, description="the puzzle's id")]
VisitorId = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{16,64}$", description="the visitor's id (from an answer)")]
#: A puzzle's rating before anyone answers it, by difficulty; a newcomer's is Glicko-2's own.
START_RATINGS: dict[int, float] = {1: 1100.0, 2: 1300.0, 3: 1500.0, 4: 1700.0, 5: 1900.0}
START_DEVIATION = 250.0
JUDGE_TABLE_MB = 16.0  # the exact search's table for judging one answer
#: Rated answers after which the difficulty follows the visitor's rating alone; before, it stays at 1
#: (no answer yet) or 2 at most: a newcomer's rating is a guess, and a first puzzle should be won.
NEWCOMER_ANSWERS = 5
#: In streak mode the difficulty climbs one step every this many correct answers in a row (1 at the
#: start, 5 from a streak of 8).
STREAK_STEP = 2
#: The themes in the words the page shows.
THEME_WORDS: dict[str, str] = {
    "7x7-race": "the race for the 7x7 bonus", "leather": "leather patches", "income-timing": "income in time",
    "tie-break": "who reaches the end first", "placement": "where the patch goes", "buttons": "buttons saved",
    "long-line": "a long line of best play", "budget": "a button budget", "7x7": "completing a 7x7 square",
    "points": "points, not cells",
}
KIND_THEMES: dict[str, tuple[str, ...]] = {"endgame": ENDGAME_THEMES, "fill": FILL_THEMES}

router = APIRouter(tags=["puzzles"], route_class=WholeNumbersRoute)


class TooManyVisitorsError(BusyError):
    """A client that started its share of new visitors (as of new games) for now (429)."""

    http_status = 429


class AnswerError(PatchworkError):
    """An answer of the other kind: a move for a fill, placements for an endgame (422)."""

    http_status = 422


class NewPuzzleRequest(BaseModel):
    """A puzzle of a kind (difficulty, theme): one of the visitor's missed puzzles that is due again,
    else one they have not answered yet when possible."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"oneOf": [
        {"required": ["kind"], "properties": {"kind": {"const": "fill"}, "theme": {"enum": list(FILL_THEMES)}}},
        {"properties": {"kind": {"const": "endgame"}, "theme": {"enum": list(ENDGAME_THEMES)}}},
    ]})

    kind: Literal["endgame", "fill"] = Field(default="endgame", description="find the winning move, or fill the quilt")
    difficulty: Annotated[int, Field(ge=1, le=5)] | SkipJsonSchema[None] = optional_field(
        "1 (easy) to 5; when left out it follows the visitor's rating (1-2 for a newcomer); "
        "ignored in streak mode")
    theme: Annotated[str, Field(json_schema_extra={"enum": list(THEMES)})] | SkipJsonSchema[None] = optional_field(
        "a theme of the kind's puzzles (an endgame's: " + ", ".join(ENDGAME_THEMES) + "; a fill's: "
        + ", ".join(FILL_THEMES) + ")")
    streak: bool = Field(default=False, description="streak mode: the difficulty climbs with the visitor's streak")
    visitor: VisitorId | SkipJsonSchema[None] = optional_field("the visitor asking (their rating comes back)")

    @field_validator("theme")
    @classmethod
    def _known_theme(cls, theme: str | None) -> str | None:
        if theme is not None and theme not in THEMES:
            raise ValueError(f"unknown theme {theme!r}: the themes are {', '.join(THEMES)}")
        return theme

    @model_validator(mode="after")
    def _no_nulls(self) -> NewPuzzleRequest:
        refuse_nulls(self, ("difficulty", "theme", "visitor"))
        if self.theme is not None and self.theme not in KIND_THEMES[self.kind]:
            raise ValueError(f"theme {self.theme!r} is no {self.kind} theme: an {self.kind} puzzle's themes are "
                             f"{', '.join(KIND_THEMES[self.kind])}")
        return self


class AnswerRequest(BaseModel):
    """An endgame's ``move``, or a fill's ``placements`` (exactly one); ``visitor`` left out the first time."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"oneOf": [
        {"required": ["move"], "not": {"required": ["placements"]}},
        {"required": ["placements"], "not": {"required": ["move"]}},
    ]})

    move: MoveModel | SkipJsonSchema[None] = optional_field("an endgame's answer")
    placements: Annotated[list[PlacementModel], Field(max_length=33)] | SkipJsonSchema[None] = optional_field(
        "a fill's answer: the patches and the cells each covers")
    visitor: VisitorId | SkipJsonSchema[None] = optional_field("the visitor answering; a new one is made when left out")
    streak: bool = Field(default=False, description=(
        "the answer is part of the visitor's streak: a right first answer lengthens it, a wrong one ends it"))

    @model_validator(mode="after")
    def _exactly_one(self) -> AnswerRequest:
        refuse_nulls(self, ("move", "placements", "visitor"))
        if (self.move is None) == (self.placements is None):
            raise ValueError("give exactly one of move (an endgame) or placements (a fill)")
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


class EndgameView(BaseModel):
    """What the page draws: the position as a game view draws it, and whose move it is."""

    player: int = Field(description="the player to move (the visitor plays them)")
    pending_leather: bool = Field(description="the player must place a leather patch: the answer is its cell")
    legal: int = Field(description="distinct legal moves (placements equal up to the board's symmetries count once)")
    winning: int = Field(description="how many of them win")
    state: PositionModel
    boards: list[PlayerBoard]
    offers: list[OfferView]
    upcoming: list[int]


class FillView(BaseModel):
    quilt: list[CellModel] = Field(description="covered cells")
    patches: list[int] = Field(description="the patches to choose from, each at most once")
    objective: Literal["cells", "points"]
    marks: int = Field(description="income marks ahead (the points objective counts income at each)")
    budget: int | None = Field(description="buttons to spend at most, or null")
    require_bonus: bool = Field(description="a 7x7 square must be completed")


class PuzzleView(BaseModel):
    """A puzzle without its answer."""

    id: str
    kind: Literal["endgame", "fill"]
    difficulty: int
    rating: RatingView = Field(description="the puzzle's Glicko-2 rating")
    visitor: VisitorView | None = Field(description="the visitor's rating, when the request named one")
    themes: list[ThemeView] = Field(description="what decides the puzzle, as its proof shows")
    retry: bool = Field(description="the visitor missed this puzzle before: it is served again until answered right")
    daily: str | None = Field(description="the UTC date (YYYY-MM-DD) whose daily puzzle this is, or null")
    endgame: EndgameView | None
    fill: FillView | None


class AnswerView(BaseModel):
    """The verdict with its proof, the answer revealed, and both ratings after the answer."""

    puzzle: str
    correct: bool
    text: str
    margin: float = Field(
        description="endgame: the final margin for the visitor under best play; fill: value - optimum")
    line: list[MoveModel] = Field(description="endgame: the move and best play after it, to the end")
    line_words: list[str] = Field(description="endgame: each move of line in words, for the player who makes it")
    line_players: list[int] = Field(description="endgame: who makes each move of the line (0 or 1)")
    winning: list[MoveModel] = Field(description="endgame: one move of each winning class")
    winning_words: list[str] = Field(description="endgame: each winning move in words")
    value: int | None = Field(description="fill: what the answer reaches")
    best: int | None = Field(description="fill: the proven optimum")
    optimum: list[PlacementModel] = Field(description="fill: the optimum's placements")
    optimum_words: list[str] = Field(description="fill: each placement of the optimum in words (\"#12 at rows 0-2, "
                                                 "cols 1-3, turned right\")")
    visitor: VisitorView
    rating: RatingView = Field(description="the puzzle's rating after the answer")
    rated: bool = Field(description="False when the visitor had answered this puzzle before (nothing moved)")
    again: bool = Field(description=f"answered wrong: the puzzle comes back after {RETRY_AFTER} more answers")


async def _bank(request: Request) -> Bank:
    """The bank on ``app.state.puzzle_bank`` (tests put their own there), else the shipped one (read
    and validated once, off the event loop)."""
    given = getattr(request.app.state, "puzzle_bank", None)
    return cast(Bank, given) if given is not None else await in_thread(shipped_bank)


BankDep = Annotated[Bank, Depends(_bank)]


def start_rating(puzzle: Puzzle) -> Rating:
    """A puzzle's rating before anyone answers it: an endgame's own, measured by the bots' answers
    when it has one, else its difficulty's."""
    measured = puzzle.rating if isinstance(puzzle, EndgamePuzzle) else None
    return Rating(measured if measured is not None else START_RATINGS[puzzle.difficulty], START_DEVIATION)


def rating_view(rating: Rating) -> RatingView:
    return RatingView(rating=round(rating.rating, 1), deviation=round(rating.deviation, 1))


def find_puzzle(bank: Bank, store: GameStore, puzzle_id: str) -> Puzzle:
    """A bank puzzle, or one made on demand and kept in the store; ``PuzzleNotFoundError`` (404)."""
    found = bank.find(puzzle_id)
    if found is not None:
        return found
    data = store.stored_puzzle(puzzle_id)
    if data is None:
        raise PuzzleNotFoundError(f"no puzzle with id {puzzle_id!r}")
    return puzzle_from_json(json.loads(data))


def theme_views(themes: tuple[str, ...] | list[str]) -> list[ThemeView]:
    return [ThemeView(theme=t, words=THEME_WORDS[t]) for t in themes]


def visitor_view(visitor_id: str, rating: Rating, streak: int, best_streak: int) -> VisitorView:
    return VisitorView(id=visitor_id, **rating_view(rating).model_dump(), streak=streak, best_streak=best_streak)


def puzzle_view(puzzle: Puzzle, rating: Rating, visitor: VisitorView | None, *, retry: bool = False,
                daily: date | None = None) -> PuzzleView:
    endgame = fill = None
    if isinstance(puzzle, EndgamePuzzle):
        state = puzzle.state()
        buyable = set(state.buyable())
        endgame = EndgameView(
            player=puzzle.player, pending_leather=state.pending >= 0, legal=puzzle.legal,
            winning=len(puzzle.winning), state=PositionModel.of(state),
            boards=[PlayerBoard(pieces=[piece_view(pid, mask) for pid, mask in state.placed[p]],
                                covered=state.quilts[p].bit_count()) for p in (0, 1)],
            offers=[OfferView(patch=pid, cost=PATCHES[pid].cost, time=PATCHES[pid].time, income=PATCHES[pid].income,
                              buyable=pid in buyable) for pid in state.offers()],
            upcoming=state.circle[len(state.offers()):],
        )
    else:
        fill = FillView(quilt=cells_of(puzzle.quilt), patches=list(puzzle.patches), objective=puzzle.objective,
                        marks=puzzle.marks, budget=puzzle.budget, require_bonus=puzzle.require_bonus)
    return PuzzleView(id=puzzle.id, kind="endgame" if endgame else "fill", difficulty=puzzle.difficulty,
                      rating=rating_view(rating), visitor=visitor, themes=theme_views(puzzle.themes), retry=retry,
                      daily=None if daily is None else daily.isoformat(), endgame=endgame, fill=fill)


def difficulty_for(stats: VisitorStats | None, streak: bool) -> int:
    """The difficulty to serve when the request names none: in streak mode one step up every
    ``STREAK_STEP`` correct answers in a row; else the one whose puzzles start nearest the visitor's
    rating. A newcomer (fewer than ``NEWCOMER_ANSWERS`` rated answers) gets 1 before any answer and
    while under a newcomer's rating (more missed than solved), else 2."""
    if streak:
        return min(5, 1 + (stats.streak if stats else 0) // STREAK_STEP)
    if stats is None or stats.answers == 0:
        return 1
    if stats.answers < NEWCOMER_ANSWERS:
        return 1 if stats.rating.rating < START_RATING else 2
    return min(START_RATINGS, key=lambda d: abs(START_RATINGS[d] - stats.rating.rating))


def nearest_first(difficulty: int) -> list[int]:
    """The difficulties, ``difficulty`` first and the others by their distance from it (easier first)."""
    return sorted(START_RATINGS, key=lambda d: (abs(d - difficulty), d))


def due_retry(bank: Bank, store: GameStore, visitor: str, body: NewPuzzleRequest) -> Puzzle | None:
    """The visitor's missed puzzle of the asked kind (and theme) due longest, or None."""
    for puzzle_id in store.due_retries(visitor):
        try:
            puzzle = find_puzzle(bank, store, puzzle_id)
        except PuzzleNotFoundError:  # a bank puzzle this server no longer ships
            continue
        if puzzle.kind == body.kind and (body.theme is None or body.theme in puzzle.themes):
            return puzzle
    return None


def daily_puzzle(bank: Bank, day: date) -> Puzzle:
    """The puzzle of the UTC date ``day``: one of the bank's (ordered by id, so that the bank file's
    order does not matter), drawn by a generator seeded with the date, so every server with the same
    bank serves the same one all day."""
    pool = sorted((p for kind in KINDS for p in bank.puzzles.get(kind, ())), key=lambda p: p.id)
    if not pool:
        raise ServiceMissingError("this server has no puzzle bank, so no daily puzzle")
    return random.Random(f"daily puzzle {day.isoformat()}").choice(pool)


@router.get("/puzzles", include_in_schema=False)
async def puzzles_page() -> FileResponse:
    return FileResponse(STATIC_DIR / "puzzles.html")


@dataclass(frozen=True, slots=True)
class _Pick:
    """What ``new_puzzle`` found: a puzzle (None: none left), the visitor, whether it is a retry, the
    difficulty it aimed at."""

    puzzle: Puzzle | None
    visitor: VisitorView | None
    retry: bool
    difficulty: int


def _pick(body: NewPuzzleRequest, store: GameStore, bank: Bank) -> _Pick:
    stats, shown, seen = None, None, set[str]()
    if body.visitor is not None:
        stats = store.visitor_stats(body.visitor)
        shown = visitor_view(body.visitor, stats.rating, stats.streak, stats.best_streak)
        seen = store.answered(body.visitor)
        retry = None if body.streak else due_retry(bank, store, body.visitor, body)
        if retry is not None:
            return _Pick(retry, shown, True, retry.difficulty)
    named = body.difficulty is not None and not body.streak
    difficulty = body.difficulty if named and body.difficulty is not None else difficulty_for(stats, body.streak)
    rng = random.Random()
    for d in [difficulty] if named else nearest_first(difficulty):
        puzzle = bank.pick(body.kind, d, rng, seen, theme=body.theme)
        if puzzle is not None:
            return _Pick(puzzle, shown, False, difficulty)
    return _Pick(None, shown, False, difficulty)


@router.post("/api/puzzles", responses=answers(404, 413, 422, 429, 503),
             dependencies=[Depends(strict_body(NewPuzzleRequest))])
async def new_puzzle(body: NewPuzzleRequest, store: StoreDep, bank: BankDep, services: ServicesDep,
                     worker: WorkerDep) -> PuzzleView:
    """A puzzle without its answer: one the visitor missed that is due again (``retry``), else one from
    the shipped bank they have not answered, else one made now in the job queue (422: an unknown
    visitor; 404: no puzzle of the theme at all). Without a difficulty (and in streak mode) the
    difficulty follows the visitor's rating (their streak)."""
    picked = await in_thread(lambda: _pick(body, store, bank))
    puzzle = picked.puzzle
    if puzzle is None and body.theme is not None:
        puzzle = bank.pick(body.kind, None, random.Random(), theme=body.theme)  # met before: not rated again
        if puzzle is None:
            raise PuzzleNotFoundError(f"this server has no {body.kind} puzzle of theme {body.theme!r}")
    if puzzle is None:
        puzzle = await _made_or_repeated(body.kind, picked.difficulty, store, bank, services, worker)
    found = puzzle
    rating = await in_thread(lambda: store.puzzle_rating(found.id, start_rating(found)))
    return puzzle_view(puzzle, rating, picked.visitor, retry=picked.retry)


async def _made_or_repeated(kind: str, difficulty: int, store: GameStore, bank: Bank, services: Any,
                            worker: Any) -> Puzzle:
    """A new puzzle made in the job queue and kept in the store; without a maker, a bank puzzle again."""
    make = services.make_puzzle
    if make is None:
        again = bank.pick(kind, difficulty, random.Random()) or bank.pick(kind, None, random.Random())
        if again is None:
            raise ServiceMissingError(f"this server has no {kind} puzzles")
        return again
    seed = random.randrange(1 << 31)
    made = cast(Puzzle, await worker.run(lambda stop: make(kind, difficulty, seed, stop)))
    await in_thread(lambda: store.keep_puzzle(made.id, made.kind, json.dumps(made.to_json())))
    return made


@router.get("/api/puzzles/themes")
async def puzzle_themes(bank: BankDep) -> ThemesView:
    """The themes a new puzzle may ask for, by kind, each with its words and how many puzzles of this
    server's bank carry it."""
    def choices(kind: str) -> list[ThemeChoice]:
        return [ThemeChoice(theme=t, words=THEME_WORDS[t], puzzles=len(bank.of(kind, theme=t)))
                for t in KIND_THEMES[kind]]

    return ThemesView(endgame=choices("endgame"), fill=choices("fill"))


@router.get("/api/puzzles/daily", responses=answers(503))
async def daily(store: StoreDep, bank: BankDep) -> PuzzleView:
    """Today's puzzle (the UTC date): the same for everyone on this server all day (503: no bank)."""
    today = datetime.now(UTC).date()
    puzzle = daily_puzzle(bank, today)
    rating = await in_thread(lambda: store.puzzle_rating(puzzle.id, start_rating(puzzle)))
    return puzzle_view(puzzle, rating, None, daily=today)


@router.get("/api/puzzles/{puzzle_id}", responses=answers(404, 422))
async def read_puzzle(puzzle_id: PuzzleId, store: StoreDep, bank: BankDep) -> PuzzleView:
    """A puzzle without its answer, by id (404: no such puzzle)."""
    puzzle = await in_thread(lambda: find_puzzle(bank, store, puzzle_id))
    rating = await in_thread(lambda: store.puzzle_rating(puzzle.id, start_rating(puzzle)))
    return puzzle_view(puzzle, rating, None)


def _judged(puzzle: Puzzle, body: AnswerRequest) -> tuple[bool, Any]:
    """What an answer of the puzzle's kind is: ``AnswerError`` (422) for the other kind."""
    if isinstance(puzzle, EndgamePuzzle):
        if body.move is None:
            raise AnswerError("an endgame puzzle is answered with a move, not placements")
        return True, move_from_model(body.move)
    if body.placements is None:
        raise AnswerError("a fill puzzle is answered with placements, not a move")
    return False, read_placements([p.model_dump() for p in body.placements])


@router.post("/api/puzzles/{puzzle_id}/answer", responses=answers(404, 413, 422, 429, 503),
             dependencies=[Depends(strict_body(AnswerRequest))])
async def answer_puzzle(puzzle_id: PuzzleId, body: AnswerRequest, store: StoreDep, bank: BankDep,
                        worker: WorkerDep, creations: CreationsDep, client: ClientDep) -> AnswerView:
    """The verdict with its proof (an endgame: the exact search, in the job queue) and both ratings
    after it. 422 names why a move or placement is illegal, or an unknown visitor; 404: no such puzzle."""
    puzzle = await in_thread(lambda: find_puzzle(bank, store, puzzle_id))
    is_endgame, answer = _judged(puzzle, body)
    verdict: EndgameVerdict | FillVerdict
    if is_endgame:
        assert isinstance(puzzle, EndgamePuzzle)
        game = puzzle

        def prove(stop: StopSignal) -> EndgameVerdict:
            return judge_endgame(game, answer, Prover(JUDGE_SECONDS, JUDGE_TABLE_MB, stop=stop.attach))

        game.state().check(answer)  # an illegal move is refused before it takes a slot in the queue
        verdict = await worker.run(prove)
    else:
        assert isinstance(puzzle, FillPuzzle)
        verdict = judge_fill(puzzle, answer)
    visitor = body.visitor
    if visitor is None:
        wait = creations.take(client)
        if wait:
            raise TooManyVisitorsError(f"too many new visitors from you; retry in {wait}s", wait)
        visitor = new_game_id()
        await in_thread(lambda: store.new_visitor(visitor, Rating()))
    known = visitor
    rated = await in_thread(lambda: store.rate_answer(known, puzzle.id, verdict.correct, start_rating(puzzle),
                                                      rate_answer, streak=body.streak))
    return _answer_view(puzzle, verdict, visitor, rated)


def _answer_view(puzzle: Puzzle, verdict: EndgameVerdict | FillVerdict, visitor_id: str,
                 rated: RatedAnswer) -> AnswerView:
    visitor = visitor_view(visitor_id, rated.visitor, rated.streak, rated.best_streak)
    common: dict[str, Any] = {"puzzle": puzzle.id, "correct": verdict.correct, "text": verdict.text,
                              "margin": verdict.margin, "visitor": visitor, "rating": rating_view(rated.puzzle),
                              "rated": rated.rated, "again": rated.again}
    if isinstance(verdict, EndgameVerdict):
        assert isinstance(puzzle, EndgamePuzzle)
        state, players = puzzle.state(), []
        for move in verdict.line:
            players.append(state.to_move())
            state.apply(move)
        start = puzzle.state()
        return AnswerView(**common, line=[move_model(m) for m in verdict.line],
                          line_words=line_words(start, verdict.line), line_players=players,
                          winning=[move_model(m) for m in puzzle.winning],
                          winning_words=[words_in(start, m) for m in puzzle.winning], value=None, best=None,
                          optimum=[], optimum_words=[])
    optimum = [PlacementModel(patch=pid, cells=cells_of(mask)) for pid, mask in verdict.line]
    return AnswerView(**common, line=[], line_words=[], line_players=[], winning=[], winning_words=[],
                      value=verdict.value, best=verdict.best, optimum=optimum,
                      optimum_words=[patch_words(pid, mask) for pid, mask in verdict.line])
